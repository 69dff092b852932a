import CinematicDomain
import CinematicFeatures
import MVIKit

/// The app's snapshot (schema `appSnapshot`): everything a person expects back, in one
/// document (the state file holds one too).
extension AppCodec {
    /// The tab, Discover's section, the query with its pages, Discover's non-idle sections,
    /// the open Details with their rows, the positions and the undo stack.
    static func snapshot(of state: AppState, origin: StoreOrigin) -> Snapshot {
        let search = SearchCodec.snapshot(of: state.search, origin: origin)
        // A save while a restore still reloads keeps what is being restored, not the pages
        // that arrived so far.
        let sections = DiscoverCodec.snapshot(of: state.discover, origin: origin).sections.map { saved in
            let restoring = state.discover[saved.section]?.restoringPages ?? 0
            return DiscoverRestoredSection(section: saved.section, pages: max(saved.pages, restoring))
        }
        return Snapshot(
            tab: state.tab, section: state.section, query: search.query,
            searchPages: max(search.pagesLoaded, state.search.restoringPages), sections: sections,
            details: state.details.map { AppDetailSnapshot(movieID: $0.detail.movieID, listing: $0.detail.listing) },
            positions: AppPositions(positions: state.positions), removed: state.removed,
            notice: state.notice.flatMap { $0.expires ? nil : AppSnapshotNotice(kind: $0.kind, text: $0.text, offersUndo: $0.offersUndo) })
    }

    /// Opens on what the snapshot says, every part at once: Search and Discover reload what
    /// they showed, the Details reopen (their heart working from their rows), the favorites
    /// are observed. Bounded work whatever the snapshot (pages and Details are capped).
    static func makeStore(restoring snapshot: Snapshot, view: SnapshotView, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        let store = CodecStore(serial: serial, initialState: AppState(), reducer: reducer(environment), codec: AppCodec(limits: environment.appLimits),
                               delivery: delivery)
        store.start(.restored(restore(from: snapshot)))
        return store
    }

    /// What the reducer restores from `snapshot`.
    static func restore(from snapshot: Snapshot) -> AppRestore {
        AppRestore(tab: snapshot.tab, section: snapshot.section, query: snapshot.query,
                   searchPages: min(snapshot.searchPages, SearchReducer.maxRestoredPages), sections: snapshot.sections,
                   details: snapshot.details.map { ($0.movieID, $0.listing) }, positions: snapshot.positions.positions,
                   removed: snapshot.removed, notice: snapshot.notice.map { ($0.kind, $0.text, $0.offersUndo) })
    }
}
