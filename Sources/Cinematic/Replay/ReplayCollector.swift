import CJansson
import Synchronization

/// Compares, as they come, the distinct states a replay's stores produce with the ones the
/// recording holds, store by store, in order; it keeps only what is not yet paired (a few
/// states: the replay runs in step with the file), so memory does not grow with the
/// recording. The outcome is the first divergence in file order, or a match.
final class ReplayCollector: DebugSink {
    /// One distinct state a store produced.
    struct Produced {
        let intent: JSONFragment?
        /// True for a host intent or time travel (an input), false for an effect's result.
        let isInput: Bool
        let state: JSONFragment
    }

    /// One recorded state, where it is and the intent that produced it.
    struct Expected {
        let line: Int
        let intent: JSONFragment?
        let state: JSONFragment
    }

    /// The first divergence found: the recorded line (nil when the recording lacks the state)
    /// and the report's `divergence` member.
    struct Divergence {
        let line: Int?
        let report: JSONFragment
    }

    /// More states than this waiting on one side of one store means the other side stopped
    /// producing them: a divergence (the bound keeps memory flat on a hostile recording).
    static let maximumUnpaired = 4_096

    private struct Track {
        var recordedID: UInt64
        var feature: String
        var expected: [Expected] = []
        var actual: [Produced] = []
        var lastExpected: JSONFragment?
        var lastActual: JSONFragment?
        var compared = 0
        var diverged = false
    }

    private struct Book {
        var tracks: [UInt64: Track] = [:]
        var compared = 0
        var afterClose = 0
        var first: Divergence?
    }

    private let book = Mutex(Book())

    /// Starts comparing the replayed store `serial`, recorded as `recordedID`.
    func track(_ serial: UInt64, recordedID: UInt64, feature: String) {
        book.withLock { $0.tracks[serial] = Track(recordedID: recordedID, feature: feature) }
    }

    func receive(_ event: TracedEvent) {
        let entry: Produced
        switch event.kind {
        case let .reduced(_, values):
            guard values.changed else { return }
            let intent = values.intent()
            entry = Produced(intent: intent.json, isInput: intent.isHost, state: values.after())
        case let .reverted(_, values):
            entry = Produced(intent: nil, isInput: true, state: values.after())
        case .effect:
            return
        }
        book.withLock { book in
            guard var track = book.tracks[event.store], !track.diverged else { return }
            if let last = track.lastActual, Self.equal(last, entry.state) { return }
            track.lastActual = entry.state
            track.actual.append(entry)
            Self.pair(&track, in: &book)
            book.tracks[event.store] = track
        }
    }

    /// A state the recording holds for the replayed store `serial`.
    func expect(_ expected: Expected, of serial: UInt64) {
        book.withLock { book in
            guard var track = book.tracks[serial], !track.diverged else { return }
            if let last = track.lastExpected, Self.equal(last, expected.state) { return }
            track.lastExpected = expected.state
            track.expected.append(expected)
            Self.pair(&track, in: &book)
            book.tracks[serial] = track
        }
    }

    /// Settles what is left unpaired at the end. `closedInRecording` tells whether the
    /// recording closed a store (explicitly, or all of them with `end`): then states the
    /// replay made from effect results past the last recorded one lost the race with the
    /// close in the recorded session, and are counted as `afterClose`, not compared.
    /// When the recording `stopped` early (no `end`: its writer failed or its process died),
    /// states the replay made past its last line are not a divergence: the recording
    /// simply ends there (the report says it is incomplete).
    func finish(stopped: Bool, closedInRecording: (UInt64) -> Bool) -> (compared: Int, afterClose: Int, first: Divergence?) {
        book.withLock { book in
            for serial in book.tracks.keys.sorted() {
                guard var track = book.tracks[serial], !track.diverged else { continue }
                if track.expected.isEmpty, !track.actual.isEmpty, closedInRecording(track.recordedID),
                   track.actual.allSatisfy({ !$0.isInput }) {
                    book.afterClose += track.actual.count
                    track.actual = []
                }
                if stopped && track.expected.isEmpty { track.actual = [] }
                if !track.expected.isEmpty || !track.actual.isEmpty { Self.diverge(&track, in: &book) }
                book.tracks[serial] = track
            }
            return (book.compared, book.afterClose, book.first)
        }
    }

    /// Pairs the oldest waiting states of both sides while both have some.
    private static func pair(_ track: inout Track, in book: inout Book) {
        while !track.expected.isEmpty && !track.actual.isEmpty {
            guard equal(track.expected[0].state, track.actual[0].state) else { return diverge(&track, in: &book) }
            track.expected.removeFirst()
            track.actual.removeFirst()
            track.compared += 1
            book.compared += 1
        }
        if track.expected.count > maximumUnpaired || track.actual.count > maximumUnpaired { diverge(&track, in: &book) }
    }

    /// Records the divergence at the front of the track (kept if earliest in file order) and
    /// stops tracking the store.
    private static func diverge(_ track: inout Track, in book: inout Book) {
        let want = track.expected.first
        let got = track.actual.first
        let index = track.compared
        let line = want?.line
        if book.first == nil || (line ?? .max) < (book.first?.line ?? .max) {
            book.first = Divergence(line: line, report: .object([
                "line": line.map { .int($0) } ?? .null, "store": .int(Int(clamping: track.recordedID)), "feature": .string(track.feature),
                "index": .int(index), "intent": want?.intent ?? .null, "replayedIntent": got?.intent ?? .null,
                "expected": want?.state ?? .null, "actual": got?.state ?? .null,
            ]))
        }
        track.diverged = true
        track.expected = []
        track.actual = []
    }

    /// JSON equality of two encoded values.
    static func equal(_ a: JSONFragment, _ b: JSONFragment) -> Bool {
        if a == b { return true }
        guard let left = JSONDiff.parse(a) else { return false }
        defer { json_decref(left) }
        guard let right = JSONDiff.parse(b) else { return false }
        defer { json_decref(right) }
        return json_equal(left, right) != 0
    }
}
