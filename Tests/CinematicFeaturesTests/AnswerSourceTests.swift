import CinematicDomain
import CinematicFeatures
import MVIKit
import Testing
import CinematicTestSupport

/// Where answers came from (a host catalog's live answers or its offline cache) reaches the
/// states through the repository's return value, and combines over pages.
@Suite("Answer sources in the states")
struct AnswerSourceTests {
    let search = SearchReducer(searchMovies: SearchMoviesUseCase(repository: RecordingCatalogRepository()), clock: ManualClock())
    let discover = DiscoverReducer(catalog: RecordingCatalogRepository())
    let page = (1...MovieCatalog.pageSize).map { MovieFixtures.movie($0, "film \($0)") }

    @Test func combiningKeepsACachedPageCachedAndTheOlderTime() {
        #expect(AnswerSource.live.combined(with: .live) == .live)
        #expect(AnswerSource.live.combined(with: .cache(cachedAt: 5)) == .cache(cachedAt: 5))
        #expect(AnswerSource.cache(cachedAt: 5).combined(with: .live) == .cache(cachedAt: 5))
        #expect(AnswerSource.cache(cachedAt: 9).combined(with: .cache(cachedAt: 5)) == .cache(cachedAt: 5))
        #expect(AnswerSource.local.combined(with: .local) == .local)
    }

    @Test func searchResultsCarryTheirSourceAndANewSearchForgetsIt() {
        var state = SearchState(query: "dune", results: .loading, resultsQuery: "dune")
        _ = search.reduce(&state, .resultsLoaded(query: "dune", page: 1, movies: page, source: .cache(cachedAt: 100)))
        #expect(state.resultsSource == .cache(cachedAt: 100))
        _ = search.reduce(&state, .loadMore)
        _ = search.reduce(&state, .resultsLoaded(query: "dune", page: 2, movies: [], source: .live))
        #expect(state.resultsSource == .cache(cachedAt: 100), "one cached page makes the list cached")
        _ = search.reduce(&state, .submitted)
        #expect(state.resultsSource == .local, "loading again: no source until an answer")
        _ = search.reduce(&state, .resultsLoaded(query: "dune", page: 1, movies: page, source: .live))
        #expect(state.resultsSource == .live, "a later live answer replaces the cached view")
    }

    @Test func aStaleAnswerLeavesTheSourceAlone() {
        var state = SearchState(query: "alien", results: .loading, resultsQuery: "alien")
        _ = search.reduce(&state, .resultsLoaded(query: "dune", page: 1, movies: page, source: .cache(cachedAt: 1)))
        #expect(state == SearchState(query: "alien", results: .loading, resultsQuery: "alien"))
    }

    @Test func discoverSectionsCarryTheirSource() {
        var state = DiscoverState(sections: [.popular])
        _ = discover.reduce(&state, .task)
        _ = discover.reduce(&state, .sectionLoaded(.popular, page: 1, movies: page, source: .live))
        #expect(state[.popular]?.source == .live)
        _ = discover.reduce(&state, .loadMore(.popular))
        _ = discover.reduce(&state, .sectionLoaded(.popular, page: 2, movies: page, source: .cache(cachedAt: 7)))
        #expect(state[.popular]?.source == .cache(cachedAt: 7))
        _ = discover.reduce(&state, .refresh)
        #expect(state[.popular]?.source == .local)
    }

    @Test func theDetailCarriesItsSource() {
        let reducer = DetailReducer(catalog: RecordingCatalogRepository(), favorites: InMemoryFavorites())
        var state = DetailState(movieID: 1, detail: .loading)
        let detail = MovieDetail(movie: MovieFixtures.movie(1, "Dune"), budget: nil, ratingDistribution: [])
        _ = reducer.reduce(&state, .detailLoaded(detail, source: .cache(cachedAt: 3)))
        #expect(state.detail == .loaded(detail))
        #expect(state.detailSource == .cache(cachedAt: 3))
    }

    @Test func theStoreLearnsTheSourceFromTheRepository() async {
        let store = Store(initialState: SearchState(), reducer: SearchReducer(
            searchMovies: SearchMoviesUseCase(repository: CachedAnswers(source: .cache(cachedAt: 42))), clock: ManualClock()))
        store.send(.queryChanged("dune"))
        store.send(.submitted)
        await store.settle()
        #expect(store.state.resultsSource == .cache(cachedAt: 42))
        #expect(store.state.results.value?.first?.title == "dune")
    }
}

/// A repository whose search answers say `source` (like an offline cache serving a copy).
private struct CachedAnswers: MovieCatalogRepository {
    let source: AnswerSource
    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> { Sourced([MovieFixtures.movie(1, query)], source: source) }
    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> { Sourced([], source: source) }
    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> { throw .notFound }
}
