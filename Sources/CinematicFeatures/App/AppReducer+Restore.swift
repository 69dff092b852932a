import CinematicDomain
import MVIKit

/// Coming back: from a snapshot or a state file (``AppIntent/restored(_:)``), and from time
/// travel (``reverted(_:)``).
extension AppReducer {
    /// Applies a restore: tab, section, positions and the undo stack at once; Search and
    /// Discover reload what they showed, the Details reopen, the favorites are observed.
    ///
    /// A snapshot is outside input, so the rows it carries are not trusted: a Detail's row for
    /// another film is dropped, a Detail's row waits for its detail's load before its heart
    /// stores anything (``DetailState/listingChecked``), the undo stack's rows are stored as
    /// the catalog has them (``AppState/uncheckedRows``), and a notice offers undo only with
    /// something to undo.
    func restored(_ restore: AppRestore, _ state: inout AppState) -> Effect<AppIntent> {
        state.tab = restore.tab
        if state.discover[restore.section] != nil { state.section = restore.section }
        state.positions = restore.positions
        var seen = Set<Int>()
        state.removed = Array(restore.removed.filter { seen.insert($0.id).inserted }.prefix(limits.undo))
        state.uncheckedRows = Set(state.removed.map(\.id))
        var effects = [favoritesScope.reduce(&state, .favorites(.task))]
        if !restore.query.isEmpty {
            effects.append(searchScope.reduce(&state, .search(.restored(query: SearchMoviesUseCase.bounded(restore.query),
                                                                        pages: min(restore.searchPages, limits.pagesPerList)))))
        }
        if !restore.sections.isEmpty {
            let sections = restore.sections.map { DiscoverRestoredSection(section: $0.section, pages: min($0.pages, limits.pagesPerList)) }
            effects.append(discoverScope.reduce(&state, .discover(.restored(sections))))
        }
        if state.tab == .discover { effects.append(discoverScope.reduce(&state, .discover(.task))) }
        for (movieID, listing) in restore.details.suffix(limits.details) {
            var detail = DetailState(movieID: movieID, listing: listing?.id == movieID ? listing : nil)
            detail.listingChecked = detail.listing == nil
            effects.append(push(detail, &state))
        }
        if let notice = restore.notice {
            effects.append(post(notice.kind, notice.text, offersUndo: notice.offersUndo && !state.removed.isEmpty, expires: false, &state))
        }
        return .merge(effects)
    }

    /// Time travel set an earlier state: what lives outside it is brought in line. The notice
    /// shown then expires again if it expires at all (a full lifetime from now), the
    /// favorites (storage, like the catalog, not state) are read again, so the list and every
    /// Detail's heart agree with what is stored, and a search on its way is cancelled, so the
    /// screen never says one runs (``SearchReducer/reverted(_:)``).
    public func reverted(_ state: inout AppState) -> Effect<AppIntent> {
        var effects = [expire(state.notice), favoritesScope.reverted(&state), searchScope.reverted(&state)]
        for index in state.details.indices {
            let key = state.details[index].key
            effects.append(detail.reverted(&state.details[index].detail).map { AppIntent.detail(key: key, $0) }.scoped(Self.scope(of: key)))
        }
        return .merge(effects)
    }
}
