// Types a query into the Search store letter by letter, over the real catalog, and prints
// every state the store produces and how many catalog requests were made.
//
//   swift run cinematic-demo [query]      (default "star wars")
import CinematicData
import CinematicDomain
import CinematicFeatures
import MVIKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Counts the searches that reach the catalog.
final class CountingCatalog: MovieCatalogRepository {
    let base: any MovieCatalogRepository
    let searches = Atomic(0)
    init(_ base: any MovieCatalogRepository) { self.base = base }
    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        searches.add(1, ordering: .relaxed)
        return try await base.search(matching: query, page: page)
    }
    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await base.discover(section: section, page: page)
    }
    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> { try await base.detail(id: id) }
}

func describe(_ state: SearchState) -> String {
    switch state.results {
    case .idle: return "query \"\(state.query)\": idle"
    case .loading: return "query \"\(state.query)\": loading"
    case let .failed(error): return "query \"\(state.query)\": failed (\(error))"
    case let .loaded(movies):
        let top = movies.prefix(5).map { "\($0.title) (\($0.year))" }.joined(separator: "; ")
        return "query \"\(state.query)\": \(movies.count) results: \(top)"
    }
}

let query = CommandLine.arguments.dropFirst().first ?? "star wars"
let catalog: CountingCatalog
do {
    catalog = CountingCatalog(try SQLiteMovieCatalog.open(.embedded(libraryVersion: "demo")))
} catch {
    print("cannot open the catalog: \(error.message)")
    exit(1)
}
let store = Store(initialState: SearchState(), reducer: SearchReducer(searchMovies: SearchMoviesUseCase(repository: catalog)))
let printing = store.observe { state in print("  state: \(describe(state))") }
var typed = ""
for character in query {
    typed.append(character)
    print("typed \"\(typed)\"")
    store.send(.queryChanged(typed))
    try? await Task.sleep(for: .milliseconds(100))
}
await store.settle()
printing.cancel()
print("catalog requests: \(catalog.searches.load(ordering: .relaxed)) for \(query.count) keystrokes")
