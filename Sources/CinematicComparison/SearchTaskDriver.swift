import CinematicDomain

/// MV's view, without SwiftUI: plays `.task(id: query)` around a ``MovieSearch``.
///
/// SwiftUI cancels the running task whenever `query` changes and starts the modifier's body
/// again; the body sleeps the debounce when the query is searchable (a short query skips it,
/// so the screen resets on the keystroke), then calls the model. That cancellation is both
/// the debounce and the switch-latest. In an app this is one modifier:
///
/// ```swift
/// .task(id: query) {
///     if MovieSearch.isSearchable(query) {
///         try? await Task.sleep(for: debounce)
///         guard !Task.isCancelled else { return }
///     }
///     await search.search(for: query)
/// }
/// ```
@ScreenActor
public final class SearchTaskDriver {
    /// The text in the search field.
    public private(set) var query = ""
    private let search: MovieSearch
    private let clock: any Clock<Duration>
    private let debounce: Duration
    private var task: Task<Void, Never>?

    /// Drives `search`, sleeping `debounce` on `clock` (a `ManualClock` in tests).
    public init(search: MovieSearch, clock: any Clock<Duration> = ContinuousClock(), debounce: Duration = .milliseconds(250)) {
        self.search = search
        self.clock = clock
        self.debounce = debounce
    }

    /// The field changed: what SwiftUI does when the `.task`'s id changes.
    public func queryChanged(to newQuery: String) {
        query = newQuery
        task?.cancel()
        task = Task { [search, clock, debounce] in
            if MovieSearch.isSearchable(newQuery) {
                try? await clock.sleep(for: debounce)
                guard !Task.isCancelled else { return }
            }
            await search.search(for: newQuery)
        }
    }
}
