import CinematicDomain
import MVIKit

/// What the Favorites screen renders.
public struct FavoritesState: Equatable, Sendable {
    /// The favorites, most recently added first. `Never`: reading them cannot fail, so the
    /// screen has no error state for the list.
    public var favorites: LoadingPhase<[Movie], Never>
    /// Why the last removal failed (the movie stays in the list); cleared by the next removal.
    public var removalError: MovieError?

    /// Creates a state; the default is idle (not yet observing).
    public init(favorites: LoadingPhase<[Movie], Never> = .idle, removalError: MovieError? = nil) {
        self.favorites = favorites
        self.removalError = removalError
    }
}

/// Everything that can happen on the Favorites screen.
public enum FavoritesIntent: Equatable, Sendable, HostIntents {
    /// What the user did: the only intents a host may send (the C API decodes exactly these).
    case host(Host)
    /// Internal: the stored favorites changed (or were read for the first time).
    case favoritesChanged(FavoritesSnapshot)
    /// Internal: a removal could not be stored.
    case removalFailed(MovieError)


    /// The screen appeared: `.host(.task)`.
    public static let task = FavoritesIntent.host(.task)
    /// The user removed a movie: `.host(.removed(movieID:))`.
    public static func removed(movieID: Int) -> FavoritesIntent { .host(.removed(movieID)) }
}

/// The Favorites feature's reducer: the list mirrors the repository through a long-lived
/// observation, so a change made by any store of the runtime (a Detail screen's heart, this
/// screen's removal) shows here.
///
/// Removal is not optimistic: the list only ever shows what is stored, and the observation
/// delivers the new list as soon as the removal commits (a local write). A failed removal
/// leaves the movie listed and sets ``FavoritesState/removalError``.
///
/// The store never settles while observing; closing it cancels the observation.
///
/// ```swift
/// let store = Store(initialState: FavoritesState(), reducer: FavoritesReducer(favorites: repository))
/// store.send(.task)
/// store.send(.removed(movieID: 42))
/// ```
public struct FavoritesReducer: Reducer {
    /// The long-lived observation of the repository.
    public static let observeEffect: EffectID = "favorites.observe"

    private let favorites: any FavoritesRepository

    /// Creates the reducer over the runtime's shared favorites repository.
    public init(favorites: any FavoritesRepository) { self.favorites = favorites }

    public func reduce(_ state: inout FavoritesState, _ intent: FavoritesIntent) -> Effect<FavoritesIntent> {
        switch intent {
        case .host(.task):
            // Only the first task starts observing: the phase leaves `.idle` for good.
            guard case .idle = state.favorites else { return .none }
            state.favorites = .loading
            return observe()
        case let .host(.removed(movieID)):
            state.removalError = nil
            return .run { [favorites] send in
                do throws(MovieError) {
                    try await favorites.remove(id: movieID)
                } catch {
                    await send(.removalFailed(error))
                }
            }
        case let .favoritesChanged(snapshot):
            // One observation delivers snapshots in commit order: the newest is the last one.
            state.favorites = .loaded(snapshot.movies)
            return .none
        case let .removalFailed(error):
            state.removalError = error
            return .none
        }
    }

    /// Time travel showed a past list, but the favorites live in storage: observed again, the
    /// list is what is stored now (at once: an observation yields the current snapshot first).
    /// Back before the first task, nothing is observed until the next one.
    public func reverted(_ state: inout FavoritesState) -> Effect<FavoritesIntent> {
        if case .idle = state.favorites { return .cancel(Self.observeEffect) }
        return observe()
    }

    private func observe() -> Effect<FavoritesIntent> {
        .run(id: Self.observeEffect) { [favorites] send in
            for await snapshot in favorites.observe() { await send(.favoritesChanged(snapshot)) }
        }
    }
}
