import CinematicData
import CinematicDomain
import Synchronization

/// The catalog of a replay: every answer, and where it came from, comes from the recording.
struct ReplayCatalog: MovieCatalogRepository {
    let answers = ScriptedAnswers<HostCatalogRequest, Sourced<HostCatalogAnswer>>()

    func search(matching query: String, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await answers.perform(.search(query: query, page: page)).get().map(\.movies)
    }

    func discover(section: DiscoverSection, page: Int) async throws(MovieError) -> Sourced<[Movie]> {
        try await answers.perform(.discover(section: section, page: page)).get().map(\.movies)
    }

    func detail(id: Int) async throws(MovieError) -> Sourced<MovieDetail> {
        let answer = try await answers.perform(.movie(id: id)).get()
        guard case let .movie(detail) = answer.value else {
            throw .invalidResponse("the recording answers a movie request with a list")
        }
        return Sourced(detail, source: answer.source)
    }
}

/// The favorites of a replay: writes get their recorded outcomes (failures included) and each
/// observation yields the snapshots recorded for it, when the replay reaches them.
final class ReplayFavorites: FavoritesRepository {
    let answers = ScriptedAnswers<FavoritesRequest, FavoritesAnswer>()

    private struct Streams {
        var opened: UInt64 = 0
        var continuations: [UInt64: AsyncStream<FavoritesSnapshot>.Continuation] = [:]
        var early: [UInt64: [FavoritesSnapshot]] = [:]
    }

    private let streams = Mutex(Streams())

    func add(_ movie: Movie) async throws(MovieError) -> UInt64 { try await answers.perform(.add(movie)).get().version }

    func remove(id: Int) async throws(MovieError) -> UInt64 { try await answers.perform(.remove(movieID: id)).get().version }

    func toggle(_ movie: Movie) async throws(MovieError) -> FavoriteToggle { try await answers.perform(.toggle(movie)).get().toggle }

    func list() async throws(MovieError) -> [Movie] { try await answers.perform(.list).get().movies }

    /// The n-th observation gets the snapshots recorded for stream n.
    func observe() -> AsyncStream<FavoritesSnapshot> {
        let (stream, continuation) = AsyncStream<FavoritesSnapshot>.makeStream()
        let early = streams.withLock { streams -> [FavoritesSnapshot] in
            streams.opened += 1
            streams.continuations[streams.opened] = continuation
            return streams.early.removeValue(forKey: streams.opened) ?? []
        }
        for snapshot in early { continuation.yield(snapshot) }
        return stream
    }

    /// The replay reached a snapshot recorded for observation `stream`.
    func push(_ snapshot: FavoritesSnapshot, to stream: UInt64) {
        let continuation = streams.withLock { streams -> AsyncStream<FavoritesSnapshot>.Continuation? in
            guard let continuation = streams.continuations[stream] else {
                streams.early[stream, default: []].append(snapshot)
                return nil
            }
            return continuation
        }
        continuation?.yield(snapshot)
    }
}
