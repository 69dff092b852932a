import CinematicDomain

/// A catalog whose every call fails with `error`.
struct FailingCatalogRepository: MovieCatalogRepository {
    let error: MovieError

    func searchMovies(matching query: String, page: Int) async throws(MovieError) -> [Movie] { throw error }
    func movies(in section: DiscoverSection, page: Int) async throws(MovieError) -> [Movie] { throw error }
    func movieDetail(id: Int) async throws(MovieError) -> MovieDetail { throw error }
}
