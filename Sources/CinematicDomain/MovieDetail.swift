/// Everything the catalog knows about one film.
public struct MovieDetail: Equatable, Sendable {
    /// The film's list fields.
    public let movie: Movie
    /// Budget in US dollars, nil when unknown.
    public let budget: Int?
    /// Share of votes (percent, binned to the nearest 10 %) for 1 through 10 stars; 10 values.
    public let ratingDistribution: [Double]

    /// Creates a detail.
    public init(movie: Movie, budget: Int?, ratingDistribution: [Double]) {
        self.movie = movie
        self.budget = budget
        self.ratingDistribution = ratingDistribution
    }
}
