import CinematicDomain
import Synchronization

/// The favorites' current snapshot and the streams observing it.
///
/// Lock discipline: the feed's lock guards the snapshot and the list of streams and is never
/// held while yielding; a stream's termination handler takes only that lock. Each stream has
/// its own small lock that only ``FeedSlot/offer(_:)`` takes, so a yield can never wait for a
/// lock that a consumer's cancellation holds (the 0.1.0 deadlock between a favorites write
/// and a store closing). Snapshots are published from one thread (the favorites worker), and
/// a slot never yields a version older than the last it yielded, so every stream sees
/// strictly increasing versions.
final class FavoritesFeed: Sendable {
    private struct Streams {
        var current: FavoritesSnapshot
        var slots: [UInt64: FeedSlot] = [:]
        var nextKey: UInt64 = 0
    }

    private let streams: Mutex<Streams>

    init(initial: FavoritesSnapshot) { streams = Mutex(Streams(current: initial)) }

    /// The snapshot last published.
    var current: FavoritesSnapshot { streams.withLock { $0.current } }

    /// How many streams are live.
    var observerCount: Int { streams.withLock { $0.slots.count } }

    /// Makes `snapshot` current and offers it to every stream (no lock held while yielding).
    func publish(_ snapshot: FavoritesSnapshot) {
        let slots = streams.withLock { streams -> [FeedSlot] in
            streams.current = snapshot
            return Array(streams.slots.values)
        }
        for slot in slots { slot.offer(snapshot) }
    }

    /// A stream of the current snapshot, then each newer one (newest buffered).
    func observe() -> AsyncStream<FavoritesSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: FavoritesSnapshot.self, bufferingPolicy: .bufferingNewest(1))
        let slot = FeedSlot(continuation)
        let (key, current) = streams.withLock { streams -> (UInt64, FavoritesSnapshot) in
            streams.nextKey &+= 1
            streams.slots[streams.nextKey] = slot
            return (streams.nextKey, streams.current)
        }
        continuation.onTermination = { [weak self] _ in
            // The removed slot is released after the lock is left.
            _ = self?.streams.withLock { $0.slots.removeValue(forKey: key) }
        }
        slot.offer(current)
        return stream
    }

    /// Ends every stream (their `for await` loops finish).
    func finishAll() {
        let slots = streams.withLock { streams -> [FeedSlot] in
            defer { streams.slots = [:] }
            return Array(streams.slots.values)
        }
        for slot in slots { slot.finish() }
    }
}

/// One observing stream and the newest version it was given.
final class FeedSlot: Sendable {
    private let continuation: AsyncStream<FavoritesSnapshot>.Continuation
    private let lastVersion = Mutex<UInt64>(0)

    init(_ continuation: AsyncStream<FavoritesSnapshot>.Continuation) { self.continuation = continuation }

    /// Yields `snapshot` unless this stream already had it or a newer one.
    func offer(_ snapshot: FavoritesSnapshot) {
        lastVersion.withLock { last in
            guard snapshot.version > last else { return }
            last = snapshot.version
            continuation.yield(snapshot)
        }
    }

    func finish() { continuation.finish() }
}
