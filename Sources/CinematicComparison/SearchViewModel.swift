import CinematicDomain

/// MVVM: the view model owns the query and the task in flight.
///
/// Every change of the query cancels the previous task before starting the next; the search
/// guards after each `await`; ``settle()`` is the test seam. That bookkeeping is what MVVM
/// writes by hand in every view model with async work, and forgetting any one line of it is
/// a silent bug (`make mutants` deletes each one in turn).
///
/// ```swift
/// let model = SearchViewModel(searchMovies: SearchMoviesUseCase(repository: catalog))
/// model.query = "dune"
/// await model.settle()
/// ```
@ScreenActor
public final class SearchViewModel {
    /// The text in the search field; each change starts a new (debounced) search.
    public var query = "" { didSet { queryChanged() } }
    /// The results on screen.
    public private(set) var results: SearchResults = .idle

    private let searchMovies: SearchMoviesUseCase
    private let clock: any Clock<Duration>
    private let debounce: Duration
    private var searchTask: Task<Void, Never>?
    /// Every task started and not yet finished, replaced ones included (for ``settle()``).
    private var running: [UInt64: Task<Void, Never>] = [:]
    private var nextTaskID: UInt64 = 0

    /// Creates the view model over the shared use case, sleeping `debounce` on `clock`.
    public init(searchMovies: SearchMoviesUseCase, clock: any Clock<Duration> = ContinuousClock(),
                debounce: Duration = .milliseconds(250)) {
        self.searchMovies = searchMovies
        self.clock = clock
        self.debounce = debounce
    }

    private func queryChanged() {
        searchTask?.cancel()
        let trimmed = SearchMoviesUseCase.trimmed(query)
        guard trimmed.count >= SearchMoviesUseCase.minimumQueryLength else {
            results = .idle
            searchTask = nil
            return
        }
        nextTaskID += 1
        let id = nextTaskID
        let task = Task { [weak self, clock, debounce] in
            defer { self?.running[id] = nil }
            try? await clock.sleep(for: debounce)
            guard !Task.isCancelled else { return }
            await self?.search(for: trimmed)
        }
        searchTask = task
        running[id] = task
    }

    private func search(for query: String) async {
        results = .loading
        do throws(MovieError) {
            let movies = try await searchMovies.movies(matching: query)
            guard !Task.isCancelled else { return }
            results = .loaded(movies)
        } catch {
            guard !Task.isCancelled else { return }
            results = .failed(error)
        }
    }

    /// Waits until every search task this view model started has finished, replaced ones
    /// included (a replaced task may still be waiting on a repository that ignores
    /// cancellation).
    public func settle() async {
        while let task = running.values.first { await task.value }
    }
}
