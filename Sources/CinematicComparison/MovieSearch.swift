import CinematicDomain

/// MV: the model performs one search and holds the result.
///
/// It knows nothing about typing or about which request is current: the view (here
/// ``SearchTaskDriver``, playing SwiftUI's `.task(id: query)`) owns the query, the debounce
/// and the task, and cancels the task when the query changes. The model's one duty in the
/// race is its stale guard: a cancelled call belongs to a query the user already replaced.
///
/// ```swift
/// let search = MovieSearch(searchMovies: SearchMoviesUseCase(repository: catalog))
/// await search.search(for: "dune")
/// ```
@ScreenActor
public final class MovieSearch {
    /// The results on screen.
    public private(set) var results: SearchResults = .idle
    private let searchMovies: SearchMoviesUseCase

    /// Creates the model over the shared use case.
    public init(searchMovies: SearchMoviesUseCase) { self.searchMovies = searchMovies }

    /// True when `query` is long enough to search (two characters, trimmed).
    public nonisolated static func isSearchable(_ query: String) -> Bool { SearchMoviesUseCase.isSearchable(query) }

    /// Searches for `query` and shows the outcome, unless the calling task was cancelled
    /// meanwhile; a short query shows idle at once.
    public func search(for query: String) async {
        guard Self.isSearchable(query) else {
            results = .idle
            return
        }
        results = .loading
        do throws(MovieError) {
            let movies = try await searchMovies.movies(matching: query)
            // A cancelled call belongs to a query the user already replaced.
            guard !Task.isCancelled else { return }
            results = .loaded(movies)
        } catch {
            guard !Task.isCancelled else { return }
            results = .failed(error)
        }
    }
}
