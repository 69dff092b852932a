import CinematicDomain
import MVIKit

/// Removing favorites and putting them back.
extension AppReducer {
    /// The undo write of `movie`.
    static func undoEffect(_ movieID: Int) -> EffectID { EffectID("app.undo.\(movieID)") }

    /// Removes a favorite (through the Favorites feature) and pushes it on the undo stack.
    func remove(_ movieID: Int, _ state: inout AppState) -> Effect<AppIntent> {
        var effects: [Effect<AppIntent>] = []
        let movie = (state.favorites.favorites.value ?? []).first { $0.id == movieID } ?? state.restoring.first { $0.id == movieID }
        if let movie {
            state.uncheckedRows.remove(movieID)  // the row now comes from the favorites
            state.removed.removeAll { $0.id == movieID }
            state.removed.insert(movie, at: 0)
            if state.removed.count > limits.undo { state.removed.removeLast(state.removed.count - limits.undo) }
            if state.restoring.contains(where: { $0.id == movieID }) {
                state.restoring.removeAll { $0.id == movieID }
                effects.append(.cancel(Self.undoEffect(movieID)))
            }
            let more = state.removed.count > 1 ? " (\(state.removed.count) to undo)" : ""
            effects.append(post(.removed, "Removed \(movie.title)\(more)", offersUndo: !state.removed.isEmpty, &state))
        }
        effects.append(reduce(&state, .favorites(.host(.removed(movieID)))))
        return .merge(effects)
    }

    /// Puts the newest removed favorite back: at once in the list, then stored; a failed
    /// write takes it out again and keeps it undoable (the heart's rules).
    func undo(_ state: inout AppState) -> Effect<AppIntent> {
        guard !state.removed.isEmpty else { return post(.nothingToUndo, "Nothing to undo", &state) }
        let movie = state.removed.removeFirst()
        let unchecked = state.uncheckedRows.contains(movie.id)
        state.restoring.removeAll { $0.id == movie.id }
        state.restoring.append(movie)
        showRestoring(&state)
        if state.notice?.offersUndo == true { state.notice = nil }
        return .run(id: Self.undoEffect(movie.id)) { [favorites, catalog] send in
            do throws(MovieError) {
                // A row a snapshot brought is stored as the catalog has it (or not at all).
                let row = unchecked ? try await catalog.detail(id: movie.id).value.movie : movie
                try await favorites.add(row)
                await send(.undoSaved(row))
            } catch {
                await send(.undoFailed(movie, error))
            }
        }
    }

    /// A failed undo: the film leaves the list again (unless storage has it) and goes back
    /// on the undo stack.
    func undoFailed(_ movie: Movie, _ error: MovieError, _ state: inout AppState) -> Effect<AppIntent> {
        guard state.restoring.contains(where: { $0.id == movie.id }) else { return .none }
        state.restoring.removeAll { $0.id == movie.id }
        if case var .loaded(list) = state.favorites.favorites {
            list.removeAll { $0.id == movie.id }
            state.favorites.favorites = .loaded(list)
        }
        // A snapshot's row for a film the catalog does not hold is dropped, not kept to retry.
        if state.uncheckedRows.contains(movie.id) && error == .notFound {
            state.uncheckedRows.remove(movie.id)
            return post(.undoFailed, "Could not restore \(movie.title): the catalog has no such film", expires: false, &state)
        }
        state.removed.insert(movie, at: 0)
        return post(.undoFailed, "Could not restore \(movie.title): \(error.message)", offersUndo: true, expires: false, &state)
    }

    /// Favorites being put back show at the top of the list until stored (a snapshot from
    /// before the write does not hide them).
    func showRestoring(_ state: inout AppState) {
        guard case var .loaded(list) = state.favorites.favorites, !state.restoring.isEmpty else { return }
        var changed = false
        for movie in state.restoring where !list.contains(where: { $0.id == movie.id }) {
            list.insert(movie, at: 0)
            changed = true
        }
        if changed { state.favorites.favorites = .loaded(list) }
    }
}
