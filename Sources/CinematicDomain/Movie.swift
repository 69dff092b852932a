/// A film as lists show it.
public struct Movie: Equatable, Hashable, Sendable, Identifiable {
    /// Stable catalog id (1...58,788 for the embedded catalog).
    public let id: Int
    /// Display title, article in front ("The Godfather").
    public let title: String
    /// Release year.
    public let year: Int
    /// Running time in minutes.
    public let runtime: Int
    /// Average user rating, 1–10.
    public let rating: Double
    /// Number of users who rated it.
    public let votes: Int
    /// Genres, in catalog order (a subset of ``Genre/all``).
    public let genres: [String]
    /// MPAA rating (G, PG, PG-13, R, NC-17), nil when unknown.
    public let mpaa: String?

    /// Creates a movie.
    public init(id: Int, title: String, year: Int, runtime: Int, rating: Double, votes: Int, genres: [String], mpaa: String?) {
        self.id = id
        self.title = title
        self.year = year
        self.runtime = runtime
        self.rating = rating
        self.votes = votes
        self.genres = genres
        self.mpaa = mpaa
    }
}

/// The genres of the catalog.
public enum Genre {
    /// Every genre, in the catalog's order.
    public static let all = ["Action", "Animation", "Comedy", "Drama", "Documentary", "Romance", "Short"]
}
