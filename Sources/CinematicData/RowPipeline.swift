import CinematicDomain
import CinematicThreads

/// Reads a catalog's films on a thread of its own while the caller takes them in, in order:
/// the reader parses each row and hands it to `each` (the index's SQLite insert), the caller
/// reads its title words (``SearchCorpusBuilder``). An index build so uses two cores where it
/// used one; its bytes are the same, since each side sees the rows in rank order.
///
/// At most ``batchesInFlight`` batches of ``batchSize`` rows wait between the two, so memory
/// stays bounded. A failure on either side stops both: the reader's (a malformed row, SQLite)
/// reaches the caller after the rows read before it, the caller's stops the reader; the reader
/// has finished when ``run(_:each:take:)`` returns or throws.
///
/// ```swift
/// try RowPipeline.run(films, each: insert) { offset, row throws(MovieError) in try titles.append(row) }
/// ```
enum RowPipeline {
    static let batchSize = 1_024
    static let batchesInFlight = 4

    /// Runs the pipeline over `films`: `each` on the reader thread, `take` on the caller's,
    /// both with every film's offset (rank - 1) and row, in order.
    static func run(_ films: CatalogFilms, each: (Int, CatalogRow) throws(MovieError) -> Void,
                    take: (Int, CatalogRow) throws(MovieError) -> Void) throws(MovieError) {
        let channel = Channel()
        // The reader uses `films` and `each` alone until it has finished, and the caller waits
        // for that before it returns: neither is touched by two threads at once.
        try withoutActuallyEscaping(each) { (each) throws(MovieError) in
            let reader = Reader(films: films, each: each, channel: channel)
            let thread = WorkerThread(name: "index-rows")
            thread.submit { reader.read() }
            defer {
                channel.stop()
                thread.shutDown()
            }
            var offset = 0
            while let batch = try channel.next() {
                for row in batch {
                    try take(offset, row)
                    offset += 1
                }
            }
        }
    }

    /// The reader's side: parses rows, runs `each`, and sends them on in batches.
    private final class Reader: @unchecked Sendable {
        // @unchecked: used by the reader thread only, while the caller waits in run (above).
        let films: CatalogFilms
        /// Let go of once the reader is done (``run`` lends it for the pipeline's time only).
        var each: ((Int, CatalogRow) throws(MovieError) -> Void)?
        let channel: Channel

        init(films: CatalogFilms, each: @escaping (Int, CatalogRow) throws(MovieError) -> Void, channel: Channel) {
            self.films = films
            self.each = each
            self.channel = channel
        }

        func read() {
            defer { each = nil }
            guard let each else { return }
            var batch: [CatalogRow] = []
            batch.reserveCapacity(RowPipeline.batchSize)
            var failure: MovieError?
            do throws(MovieError) {
                for offset in 0..<films.count {
                    let row = try films.row(offset)
                    try each(offset, row)
                    batch.append(row)
                    if batch.count == RowPipeline.batchSize {
                        guard channel.send(batch) else { return }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                failure = error
            }
            // The rows read (and stored) before a failure reach the caller before it.
            if !batch.isEmpty { _ = channel.send(batch) }
            channel.finish(failure)
        }
    }

    /// The batches between the two sides, and how the reader ended.
    private final class Channel: @unchecked Sendable {
        // @unchecked: every member is guarded by `condition`.
        private let condition = Condition()
        private var batches: [[CatalogRow]] = []
        private var ended: (failure: MovieError?, done: Bool) = (nil, false)
        private var stopped = false

        /// Hands `batch` to the caller, waiting while enough are in flight; false once the caller stopped.
        func send(_ batch: [CatalogRow]) -> Bool {
            condition.locked {
                while batches.count >= RowPipeline.batchesInFlight && !stopped { condition.wait(until: nil) }
                guard !stopped else { return false }
                batches.append(batch)
                condition.broadcast()
                return true
            }
        }

        /// The reader has read every row (`failure` nil) or failed.
        func finish(_ failure: MovieError?) {
            condition.locked {
                ended = (failure, true)
                condition.broadcast()
            }
        }

        /// The next batch; nil when the reader read every row; the reader's failure after the
        /// batches it sent before it.
        func next() throws(MovieError) -> [CatalogRow]? {
            let (batch, failure): ([CatalogRow]?, MovieError?) = condition.locked {
                while batches.isEmpty && !ended.done { condition.wait(until: nil) }
                guard batches.isEmpty else {
                    condition.broadcast()
                    return (batches.removeFirst(), nil)
                }
                return (nil, ended.failure)
            }
            if let failure { throw failure }
            return batch
        }

        /// The caller stopped taking rows: the reader stops at its next batch.
        func stop() {
            condition.locked {
                stopped = true
                condition.broadcast()
            }
        }
    }
}
