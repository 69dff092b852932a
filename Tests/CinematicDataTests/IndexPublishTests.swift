@testable import CinematicData
import CinematicDomain
import Foundation
import Testing

/// The index builder's output path is checked at the moment of writing, not only before the
/// build: a file that appears there, or replaces the index that was there, while the index is
/// built is left as it is (the build fails, its temporary file removed). The race is made
/// deterministic through the build's progress, reported after the last row is written and
/// before the index is put in place.
@Suite("Publishing a built index")
struct IndexPublishTests {
    /// Builds the three-film movie file into `index`, running `meanwhile` once the index is
    /// written to its temporary file (at 99 %), before it is put in place.
    static func build(into index: String, in directory: URL, meanwhile: () throws -> Void) throws(MovieError) {
        let source = directory.appendingPathComponent("movies.tsv").path
        try? CatalogIndexTests.movies.write(toFile: source, atomically: true, encoding: .utf8)
        var done = false
        try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9") { share in
            guard share >= 0.99, share < 1, !done else { return }
            done = true
            do { try meanwhile() } catch { Issue.record("meanwhile: \(error)") }
        }
        #expect(done)
    }

    static func entries(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func aFileThatAppearsWhereNothingWasIsNeverReplaced() throws {
        let directory = TestCatalog.directory("appears")
        let index = directory.appendingPathComponent("movies.idx").path
        #expect {
            try Self.build(into: index, in: directory) { try "somebody's notes".write(toFile: index, atomically: false, encoding: .utf8) }
        } throws: { error in
            (error as? MovieError)?.message.contains("something appeared at \(index) while the catalog index was built; it was left unchanged") == true
        }
        #expect(try String(contentsOfFile: index, encoding: .utf8) == "somebody's notes")
        #expect(try Self.entries(directory) == ["movies.idx", "movies.tsv"])
    }

    @Test func anIndexReplacedByAnotherFileMeanwhileIsNotReplaced() throws {
        let directory = TestCatalog.directory("swapped")
        let index = directory.appendingPathComponent("movies.idx").path, foreign = directory.appendingPathComponent("foreign").path
        try Self.build(into: index, in: directory) {}
        #expect {
            try Self.build(into: index, in: directory) {
                try "somebody's notes".write(toFile: foreign, atomically: false, encoding: .utf8)
                #expect(rename(foreign, index) == 0)
            }
        } throws: { error in
            (error as? MovieError)?.message.contains("\(index) changed while the catalog index was built; it was left unchanged") == true
        }
        #expect(try String(contentsOfFile: index, encoding: .utf8) == "somebody's notes")
        #expect(try Self.entries(directory) == ["movies.idx", "movies.tsv"])
    }

    /// The same file, rewritten in place by someone else: no longer ours, so not replaced.
    @Test func anEmptyFileWrittenInPlaceMeanwhileIsNotReplaced() throws {
        let directory = TestCatalog.directory("rewritten")
        let index = directory.appendingPathComponent("movies.idx").path
        #expect(FileManager.default.createFile(atPath: index, contents: Data()))
        #expect {
            try Self.build(into: index, in: directory) {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: index))
                try handle.write(contentsOf: Data("somebody's notes".utf8))
                try handle.close()
            }
        } throws: { error in
            (error as? MovieError)?.message.contains("\(index) changed while the catalog index was built; it was left unchanged") == true
        }
        #expect(try String(contentsOfFile: index, encoding: .utf8) == "somebody's notes")
        #expect(try Self.entries(directory) == ["movies.idx", "movies.tsv"])
    }

    /// Untouched meanwhile, the index is replaced: the new one opens, the old one's file is gone.
    @Test func anIndexLeftAloneIsReplaced() async throws {
        let directory = TestCatalog.directory("replaced")
        let index = directory.appendingPathComponent("movies.idx").path
        try Self.build(into: index, in: directory) {}
        let before = try FileManager.default.attributesOfItem(atPath: index)[.systemFileNumber] as? Int
        try Self.build(into: index, in: directory) {}
        #expect(try FileManager.default.attributesOfItem(atPath: index)[.systemFileNumber] as? Int != before)
        let catalog = try SQLiteMovieCatalog.open(.index(path: index))
        defer { catalog.close() }
        #expect(try await catalog.searchMovies(matching: "zardoz", page: 1).map(\.title) == ["Zardoz"])
        #expect(try Self.entries(directory) == ["movies.idx", "movies.tsv"])
    }
}
