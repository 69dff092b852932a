import CinematicDomain
import Synchronization

/// Favorites that record every request the stores make (`{"op":"favorites.toggle",…}`) with
/// its answer, and every snapshot each observation yields (`"snapshot"` lines, numbered by
/// `stream`), so a replay reproduces storage, failed writes included, without the file.
struct RecordingFavorites: FavoritesRepository {
    let inner: any FavoritesRepository
    let recorder: Recorder

    func add(_ movie: Movie) async throws(MovieError) -> UInt64 {
        try await record(FavoritesRequest.add(movie)) { () async throws(MovieError) in .version(try await inner.add(movie)) }.version
    }

    func remove(id: Int) async throws(MovieError) -> UInt64 {
        try await record(FavoritesRequest.remove(movieID: id)) { () async throws(MovieError) in .version(try await inner.remove(id: id)) }.version
    }

    func toggle(_ movie: Movie) async throws(MovieError) -> FavoriteToggle {
        try await record(FavoritesRequest.toggle(movie)) { () async throws(MovieError) in .toggled(try await inner.toggle(movie)) }.toggle
    }

    func list() async throws(MovieError) -> [Movie] {
        try await record(FavoritesRequest.list) { () async throws(MovieError) in .movies(try await inner.list()) }.movies
    }

    func observe() -> AsyncStream<FavoritesSnapshot> {
        let stream = recorder.nextStreamID()
        recorder.write("observe") { [("stream", .int(Int(clamping: stream)))] }
        let source = StreamPuller(inner.observe())
        let recorder = recorder
        // Pulled by the observing effect's own task: no task of its own, no other thread.
        return AsyncStream(unfolding: {
            guard let snapshot = await source.next() else { return nil }
            recorder.write("snapshot") { [("stream", .int(Int(clamping: stream)))] + FavoritesRequest.members(of: snapshot) }
            return snapshot
        })
    }

    private func record(_ request: FavoritesRequest,
                        _ body: () async throws(MovieError) -> FavoritesAnswer) async throws(MovieError) -> FavoritesAnswer {
        try await recorder.recordRequest({ request.json }, answer: { [("answer", FavoritesAnswer.encode($0))] }, body)
    }
}

/// An async sequence's iterator shared with an `AsyncStream(unfolding:)` closure. Only the
/// stream's single consumer calls ``next()``, one call at a time.
final class StreamPuller<Element: Sendable>: @unchecked Sendable {
    private var iterator: AsyncStream<Element>.Iterator

    init(_ stream: AsyncStream<Element>) { iterator = stream.makeAsyncIterator() }

    func next() async -> Element? { await iterator.next() }
}
