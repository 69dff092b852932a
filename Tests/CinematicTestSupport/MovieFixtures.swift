import CinematicDomain

/// Small, recognisable movie lists for search tests ("du" answers differ from "dune" answers).
public enum MovieFixtures {
    /// A plain movie with the given id, title and year.
    public static func movie(_ id: Int, _ title: String, year: Int = 2000) -> Movie {
        Movie(id: id, title: title, year: year, runtime: 120, rating: 7.0, votes: 1_000, genres: ["Drama"], mpaa: nil)
    }

    /// What a search for "dune" finds.
    public static let dune = [movie(1, "Dune", year: 1984), movie(2, "Dune Warriors", year: 1991)]
    /// What a search for "du" finds.
    public static let du = [movie(3, "Du Barry Was a Lady", year: 1943), movie(4, "Duck Soup", year: 1933)]
    /// What a search for "voyage" finds.
    public static let voyage = [movie(5, "Voyage to the Bottom of the Sea", year: 1961)]
}
