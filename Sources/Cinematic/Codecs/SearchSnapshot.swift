import CinematicDomain
import CinematicFeatures
import MVIKit

/// Search's snapshot (schema `searchSnapshot`): the query as typed and how many pages of its
/// results were shown.
extension SearchCodec {
    /// A pending debounce is saved as its query (searched at once on restore) with 1 page: the
    /// pages shown answered an older query. A page in flight is not counted.
    static func snapshot(of state: SearchState, origin: StoreOrigin) -> Snapshot {
        let current = state.resultsQuery == SearchMoviesUseCase.trimmed(state.query) && state.results != .idle
        return Snapshot(query: state.query, pagesLoaded: current ? state.pagesLoaded : (SearchMoviesUseCase.isSearchable(state.query) ? 1 : 0))
    }

    /// Opens on "loading" and searches the query again, loading as many pages as were shown
    /// (or as the view's first visible item needs), one after another, at most
    /// ``SearchReducer/maxRestoredPages``, stopping at the last page that exists.
    static func makeStore(restoring snapshot: Snapshot, view: SnapshotView, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        let store = try makeStore(arguments: nil, serial: serial, environment: environment, delivery: delivery)
        var pages = snapshot.pagesLoaded
        if let index = view.firstVisibleIndex { pages = max(pages, index / MovieCatalog.pageSize + 1) }
        (store as? CodecStore<SearchCodec>)?.start(.restored(query: snapshot.query, pages: min(pages, SearchReducer.maxRestoredPages)))
        return store
    }
}
