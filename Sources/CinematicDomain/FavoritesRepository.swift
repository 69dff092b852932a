/// Where favorites live. Every store of one runtime shares one repository, so a change made
/// through one is observed by all.
public protocol FavoritesRepository: Sendable {
    /// Adds `movie` (no-op when already a favorite).
    func add(_ movie: Movie) async throws(MovieError)
    /// Removes the movie with `id` (no-op when absent).
    func remove(id: Int) async throws(MovieError)
    /// The favorites, most recently added first.
    func list() async throws(MovieError) -> [Movie]
    /// Yields the current list at once and again after every change; ends when the
    /// consuming task is cancelled.
    func observe() -> AsyncStream<[Movie]>
}
