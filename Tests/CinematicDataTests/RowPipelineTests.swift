@testable import CinematicData
import CinematicDomain
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An index build reads its rows on a thread of its own (RowPipeline.swift): both sides see
/// every row in rank order, a failure on either side stops both, and the reader never runs far
/// ahead of the caller.
@Suite("Index rows read on a thread of their own")
struct RowPipelineTests {
    /// `count` films read from a movie file's text (the reader parses them), the most voted first.
    static func films(_ count: Int) throws -> CatalogFilms {
        var text = CatalogIndexTests.header
        for id in 1...count { text += CatalogIndexTests.film(id, "Film number \(id)", votes: 100_000 - id) }
        return try CatalogFilms(movieText: Array(text.utf8))
    }

    @Test("both sides see every row once, in rank order, across batches")
    func everyRowInOrder() throws {
        let count = RowPipeline.batchSize * 3 + 17
        let films = try Self.films(count)
        var inserted: [Int] = [], taken: [Int] = []
        try RowPipeline.run(films, each: { offset, row in inserted.append(offset * 1_000_000 + row.id) }) { offset, row in
            taken.append(offset * 1_000_000 + row.id)
        }
        let expected = (0..<count).map { $0 * 1_000_000 + $0 + 1 }
        #expect(inserted == expected)
        #expect(taken == expected)
    }

    @Test("the reader's failure reaches the caller after the rows before it")
    func readerFailure() throws {
        let films = try Self.films(3_000)
        var taken = 0
        #expect(throws: MovieError.self) {
            try RowPipeline.run(films, each: { offset, _ throws(MovieError) in
                if offset == 2_500 { throw .storage("the disk is full") }
            }) { _, _ in taken += 1 }
        }
        #expect(taken == 2_500)
    }

    @Test("the caller's failure stops the reader within the batches in flight")
    func callerFailure() throws {
        let films = try Self.films(RowPipeline.batchSize * 20)
        let inserted = Atomic<Int>(0)
        #expect(throws: MovieError.self) {
            try RowPipeline.run(films, each: { _, _ in inserted.add(1, ordering: .relaxed) }) { offset, _ throws(MovieError) in
                // A slow caller: the reader has a second to run ahead (it stops at the bound;
                // without one it reads all 20 batches in a few milliseconds).
                if offset == 0 {
                    let until = ContinuousClock.now + .seconds(1)
                    while ContinuousClock.now < until && inserted.load(ordering: .relaxed) < films.count { usleep(1_000) }
                }
                if offset == 10 { throw .storage("too many words") }
            }
        }
        // Returned: the reader has finished, having read at most the batches that could wait.
        #expect(inserted.load(ordering: .relaxed) <= RowPipeline.batchSize * (RowPipeline.batchesInFlight + 2))
    }
}
