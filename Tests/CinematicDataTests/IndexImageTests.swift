@testable import CinematicData
import CinematicDomain
import Foundation
import Testing

/// An index is read where it lies (docs/catalog-index.md, "The search section"): one copy per
/// process, its frame and values checked before search reads them.
@Suite("Index image")
struct IndexImageTests {
    /// An index of `movies` (a movie file's text, header included).
    static func buildIndex(_ name: String, movies: String = CatalogIndexTests.movies) throws -> String {
        let directory = TestCatalog.directory(name)
        let source = directory.appendingPathComponent("movies.tsv").path, index = directory.appendingPathComponent("movies.idx").path
        try movies.write(toFile: source, atomically: true, encoding: .utf8)
        try MovieFile.buildIndex(from: source, to: index, libraryVersion: "9.9.9")
        return index
    }

    static func image(at path: String) throws(MovieError) -> IndexImage {
        let file = try CatalogIndex.openFile(at: path)
        return try SharedCatalog.image(of: file)
    }

    @Test func runtimesOpeningOneIndexFileShareOneCopyUntilTheLastLetsGo() throws {
        let path = try Self.buildIndex("shared", movies: CatalogIndexTests.header + CatalogIndexTests.film(1, "Matrix, The", votes: 1000))
        var first: IndexImage? = try Self.image(at: path)
        let second = try Self.image(at: path)
        #expect(first === second)
        #expect(first?.corpus.display.movie(rank: 1).title == "The Matrix")
        // Rewritten (a new file at the path): read anew; the runtimes holding the old one keep it.
        try MovieFile.buildIndex(from: path.replacingOccurrences(of: "movies.idx", with: "movies.tsv"), to: path, libraryVersion: "9.9.9")
        let rewritten = try Self.image(at: path)
        #expect(rewritten !== second)
        // The last holder lets go: the copy is freed, not kept by the process.
        weak let released = first
        first = nil
        #expect(released != nil)   // `second` still holds it
        _ = consume second
        #expect(released == nil)
    }

    @Test func theCorpusIsReadInPlaceFromTheIndexBytes() throws {
        let image = try Self.image(at: try Self.buildIndex("in-place"))
        let bytes = image.storage.bytes
        let inside = { (pointer: UnsafeRawPointer?) in pointer.map { $0 >= bytes.baseAddress! && $0 < bytes.baseAddress! + bytes.count } == true }
        #expect(inside(UnsafeRawPointer(image.corpus.postings.baseAddress)))
        #expect(inside(UnsafeRawPointer(image.corpus.display.titleBytes.baseAddress)))
        #expect(inside(image.database.baseAddress))
        #expect(image.corpus.id(of: "zardoz").map { image.corpus.word(Int($0)) } == "zardoz")
        #expect(image.corpus.id(of: "zardo") == nil)
        #expect(image.corpus.rank(ofMovie: 2).map { image.corpus.display.movie(rank: $0).title } == "Zardoz")
        #expect(image.corpus.rank(ofMovie: 4) == nil)
    }

    /// Every part of the table, one at a time, made one element longer than its count says
    /// (so it also overlaps the next): refused naming that part.
    @Test(arguments: CorpusLayout.Part.allCases.filter { $0.expectedCount(films: 1, words: 1) != nil })
    func aPartOfTheWrongLengthIsRefusedNamingIt(part: CorpusLayout.Part) throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.buildIndex("frame"))))
        let section = Int(bytes.withUnsafeBytes { CorpusLayout.load(UInt64.self, $0, at: bytes.count - 16) })
        let entry = section + CorpusLayout.headerBytes + 16 * part.rawValue + 8
        let length = bytes.withUnsafeBytes { CorpusLayout.load(UInt64.self, $0, at: entry) } + UInt64(part.stride)
        withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(entry..<(entry + 8), with: $0) }
        let storage = bytes.withUnsafeBytes { IndexBytes(copying: $0) }
        #expect(throws: MovieError.storage("the index is damaged: its \(part.name) has \(Int(length) / part.stride) entries for \(Int(length) / part.stride - 1)")) {
            _ = try IndexImage(storage, checking: true)
        }
    }

    /// The values behind offsets, one kind at a time: a word id past the vocabulary, a posting
    /// past the films, a frequency tree naming another word.
    @Test func valuesThatWouldSendASearchOutOfItsArraysAreRefused() throws {
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.buildIndex("values"))))
        let section = Int(good.withUnsafeBytes { CorpusLayout.load(UInt64.self, $0, at: good.count - 16) })
        func damaged(_ part: CorpusLayout.Part, _ value: UInt32, at element: Int = 0) throws(MovieError) -> IndexImage {
            var bytes = good
            let offset = section + 4 * element
                + Int(bytes.withUnsafeBytes { CorpusLayout.load(UInt64.self, $0, at: section + CorpusLayout.headerBytes + 16 * part.rawValue) })
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
            return try IndexImage(bytes.withUnsafeBytes { IndexBytes(copying: $0) }, checking: true)
        }
        #expect(throws: MovieError.storage("the index is damaged: its title_words names a word past the vocabulary")) { try damaged(.titleWords, 9_999) }
        #expect(throws: MovieError.storage("the index is damaged: its postings of word 0 are not ascending ranks in 1...3")) { try damaged(.postings, 4) }
        #expect(throws: MovieError.storage("the index is damaged: its top_words do not rank the words by their postings")) { try damaged(.topWords, 9_999, at: 1) }
        #expect(throws: MovieError.storage("the index is damaged: its id_ranks names a rank past the films")) { try damaged(.idRanks, 0) }
        _ = try IndexImage(good.withUnsafeBytes { IndexBytes(copying: $0) }, checking: true)
    }

    /// A vocabulary of ASCII words takes a byte a scalar; one with a scalar past 255 takes four,
    /// and there a value that is no unicode scalar (a surrogate) is refused.
    @Test func scalarsTakeOneByteUnlessAWordNeedsFour() throws {
        let narrow = try Self.image(at: try Self.buildIndex("narrow"))
        #expect(narrow.corpus.narrowScalars && narrow.corpus.scalarBytes.count == narrow.corpus.scalarCount)
        let path = try Self.buildIndex("wide", movies: CatalogIndexTests.header + CatalogIndexTests.film(1, "東京物語", votes: 90)
            + CatalogIndexTests.film(2, "Zardoz", votes: 50))
        let wide = try Self.image(at: path)
        #expect(!wide.corpus.narrowScalars && wide.corpus.scalarBytes.count == 4 * wide.corpus.scalarCount)
        #expect(wide.corpus.id(of: "東京物語").map { wide.corpus.word(Int($0)) } == "東京物語")
        #expect(wide.corpus.id(of: "zardoz") != nil)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let section = Int(bytes.withUnsafeBytes { CorpusLayout.load(UInt64.self, $0, at: bytes.count - 16) })
        let offset = section + Int(bytes.withUnsafeBytes { CorpusLayout.load(UInt64.self, $0, at: section + CorpusLayout.headerBytes) })
        withUnsafeBytes(of: UInt32(0xD800).littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        #expect(throws: MovieError.storage("the index is damaged: its words hold a value that is no unicode scalar")) {
            _ = try IndexImage(bytes.withUnsafeBytes { IndexBytes(copying: $0) }, checking: true)
        }
    }
    /// The bytes compiled into the library (the movie file, the embedded index) are mapped
    /// read-only: in `.rodata` they were linked writable with the Swift objects' constants
    /// (private copy-on-write pages, and a stray write would not fault).
    @Test func theEmbeddedBytesAreMappedReadOnly() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let embedded = [EmbeddedCatalog.movieFile.baseAddress, EmbeddedCatalog.index?.baseAddress].compactMap { $0 }
        #expect(!embedded.isEmpty)
        for address in embedded.map({ UInt(bitPattern: $0) }) {
            let mapping = maps.split(separator: "\n").first { line in
                let bounds = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt($0, radix: 16) }
                return bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            }
            let permissions = try #require(mapping?.split(separator: " ").dropFirst().first)
            #expect(permissions.hasPrefix("r") && !permissions.contains("w"), "\(mapping ?? "")")
        }
    }
}
