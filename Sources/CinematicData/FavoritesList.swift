import CinematicDomain

/// The favorites as one ``FavoritesDatabase`` last saw them: the movies most recently added
/// first, each with its row's `position` (the table's rowid, which orders them), so one
/// change can be applied where a full read of the table would put it.
///
/// ```swift
/// var list = FavoritesList(rows: [(position: 1, movie: dune)])
/// list.insert(alien, position: 2)     // true: alien is first now
/// list.remove(id: dune.id)            // true
/// ```
struct FavoritesList: Equatable, Sendable {
    /// The movies, ordered as `SELECT ... ORDER BY position DESC` returns them.
    private(set) var movies: [Movie] = []
    /// Each movie's position, strictly decreasing.
    private(set) var positions: [Int] = []

    /// An empty list.
    init() {}

    /// The list of `rows`, which must come ordered by position, highest first.
    init(rows: [(position: Int, movie: Movie)]) {
        movies = rows.map(\.movie)
        positions = rows.map(\.position)
    }

    /// Whether the movie with `id` is listed.
    func contains(id: Int) -> Bool { movies.contains { $0.id == id } }

    /// Puts `movie`, stored at `position`, where the table's order puts it (first, for a row
    /// just inserted). False, changing nothing, when `movie` is already listed or `position`
    /// is taken: the list is not what is stored, and the caller must read the table.
    mutating func insert(_ movie: Movie, position: Int) -> Bool {
        guard !contains(id: movie.id) else { return false }
        // Binary search in the decreasing positions: the first index whose position is lower.
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] > position { low = middle + 1 } else { high = middle }
        }
        guard low == positions.count || positions[low] != position else { return false }
        movies.insert(movie, at: low)
        positions.insert(position, at: low)
        return true
    }

    /// Removes the movie with `id`. False, changing nothing, when it is not listed: the list
    /// is not what is stored, and the caller must read the table.
    mutating func remove(id: Int) -> Bool {
        guard let index = movies.firstIndex(where: { $0.id == id }) else { return false }
        movies.remove(at: index)
        positions.remove(at: index)
        return true
    }
}
