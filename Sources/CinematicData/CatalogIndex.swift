import CSQLite
import CinematicCatalogData
import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// A catalog index: one read-only file (or image) holding a SQLite database, with the films
/// (`movies`, for Discover and Detail) and its stamp (`meta`), followed by the search section
/// (``CorpusLayout``), searched where it lies (``SearchCorpus``).
///
/// What makes a file a cinematic index, checked before SQLite opens it (so a file that is
/// not one is refused byte for byte untouched): SQLite's header with application id
/// ``applicationID`` ("CIDX") and user version ``formatVersion``. The stamp in `meta` says
/// which format, which data (`data`: CRC-32 and length of the movie file it was built from)
/// and which library version built it; the index compiled into the library is used only
/// when all three are the library's own (``expectedEmbeddedStamp(libraryVersion:)``).
public enum CatalogIndex {
    /// SQLite `application_id` of an index: "CIDX".
    public static let applicationID: Int32 = 0x4349_4458
    /// The index format's version: bump it whenever the tables, the search section or the
    /// search words (``SearchText``) change, so an index built by another format is refused.
    public static let formatVersion: Int32 = 2

    /// What an index was built from and by.
    public struct Stamp: Equatable, Sendable {
        /// The format version.
        public var format: Int32 = CatalogIndex.formatVersion
        /// "crc32-<hex>-<length>" of the movie file's bytes (as read: the gzip bytes of a
        /// .gz file).
        public var data: String
        /// The library version that built it.
        public var library: String

        /// A stamp for data hashed as `data`, built by `library`.
        public init(data: String, library: String) {
            self.data = data
            self.library = library
        }

        var entries: [(String, String)] { [("format", "\(format)"), ("data", data), ("library", library)] }
    }

    /// The data hash of `bytes`: "crc32-<hex>-<length>".
    public static func dataHash(_ bytes: UnsafeRawBufferPointer) -> String {
        "crc32-\(String(GzipData.checksum(bytes), radix: 16))-\(bytes.count)"
    }

    /// The stamp the index compiled into the library must carry.
    public static func expectedEmbeddedStamp(libraryVersion: String) -> Stamp {
        Stamp(data: embeddedDataHash, library: libraryVersion)
    }

    /// The data hash of the movie file compiled into the library: the one `make lib` computed
    /// from the file as it compiled it in (so opening reads none of the file), or else read
    /// once per process, then its pages given back (``EmbeddedCatalog/release(_:)``), so a
    /// host holds none of it.
    static let embeddedDataHash: String = {
        if let built = catalog_data_gz_hash() { return String(cString: built) }
        let hash = EmbeddedCatalog.dataHash(movies: dataHash(EmbeddedCatalog.movieFile))
        EmbeddedCatalog.release(EmbeddedCatalog.movieFile)
        return hash
    }()

    /// The stamp `make lib` read from the index it compiled into the library
    /// (`catalog_index_stamp`), nil in a build that did not record one: then the stamp is read
    /// from the image itself (``stamp(of:)``).
    static let compiledInStamp: Stamp? = {
        guard let text = catalog_index_stamp() else { return nil }
        let fields = String(cString: text).split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 3, let format = Int32(fields[0]) else { return nil }
        var stamp = Stamp(data: String(fields[1]), library: String(fields[2]))
        stamp.format = format
        return stamp
    }()

    /// Builds at `path` an index of the films `load` reads, stamped with its stamp
    /// (``StagedFile``): `path` is checked first (nothing, an empty file or an index of ours;
    /// before `load` runs, so a destination that is not ours costs no reading), the index is
    /// written to a locked temporary file beside it, flushed, and put in place only if `path`
    /// still holds what was checked (so `path` holds a whole index or what it held before),
    /// then the directory flushed. `progress` gets the share done (0...1): 0.99 once the index
    /// is written, before it is put in place.
    package static func write(to path: String, progress: (Double) -> Void = { _ in },
                              load: () throws(MovieError) -> (films: CatalogFilms, stamp: Stamp)) throws(MovieError) {
        var staged = try StagedFile(path, what: "catalog index") { prefix in
            guard let header = SQLiteHeader(prefix) else { return false }
            return header.applicationID == applicationID
        }
        let (films, stamp) = try load()
        let connection = try SQLiteConnection(path: staged.temporary)
        defer { connection.close() }
        let corpus = try fill(connection, films: films, stamp: stamp, progress: progress)
        connection.close()
        try appendSection(corpus, to: staged.temporary)
        try staged.publish()
        progress(1)
    }

    /// Builds the database of an index of `films` into `connection` (an empty database: a
    /// temporary file or memory), each film inserted as the search section's builder reads it
    /// (and freed); returns the search section's parts, which follow the database.
    static func fill(_ connection: SQLiteConnection, films: CatalogFilms, stamp: Stamp,
                     progress: (Double) -> Void = { _ in }) throws(MovieError) -> CorpusParts {
        guard films.count > 0 else { throw .storage("the movie file has no films") }
        try CatalogSchema.create(in: connection)
        var corpus: CorpusParts?
        try CatalogSchema.insert(films: films.count, stamp: stamp, into: connection) { insert throws(MovieError) in
            corpus = try SearchCorpusBuilder.build(films, progress: progress, each: insert)
        }
        progress(0.99)
        guard let corpus else { throw .storage("the catalog index was not built") }
        return corpus
    }

    /// The whole index of `rows` in memory (an embedded catalog built at first use).
    static func image(rows: [CatalogRow], stamp: Stamp, progress: (Double) -> Void) throws(MovieError) -> IndexImage {
        let connection = try SQLiteConnection(path: ":memory:")
        defer { connection.close() }
        let corpus = try fill(connection, films: CatalogFilms(rows: rows), stamp: stamp, progress: progress)
        let database = try connection.serialize()
        defer { sqlite3_free(UnsafeMutableRawPointer(mutating: database.baseAddress)) }
        let bytes = Array(database) + corpus.section(offset: database.count)
        return try IndexImage(bytes.withUnsafeBytes { IndexBytes(copying: $0) }, checking: false)
    }

    /// Appends the search section after the SQLite database just written at `path` (ours: the
    /// build's temporary file).
    private static func appendSection(_ corpus: CorpusParts, to path: String) throws(MovieError) {
        let descriptor = FileIO.open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw .storage("cannot write the catalog index \(path): \(FileIO.message(errno))") }
        defer { Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .storage("cannot write the catalog index \(path): \(FileIO.message(errno))") }
        try corpus.write(to: descriptor, path: path, offset: Int(info.st_size))
    }

    /// The largest index file opened: 4 GiB (an index of 1,000,000 films is about 210 MB).
    /// A user's index is read whole into memory, in one read (``IndexBytes``).
    public static let maximumFileBytes = 1 << 32

    /// Opens the index file at `path` for reading (``ReadableFile``: a FIFO, a device or a
    /// directory is refused at once, never waited on; a file over ``maximumFileBytes`` is
    /// refused before it is read).
    static func openFile(at path: String) throws(MovieError) -> ReadableFile {
        guard let file = try ReadableFile.open(path, what: "catalog index", maximumBytes: maximumFileBytes) else {
            throw .storage("no catalog index at \(path)")
        }
        return file
    }

    /// Checks that `path` holds a cinematic index of this format, reading only its header
    /// (nothing is written); throws `.storage` with the reason otherwise.
    static func checkHeader(at path: String) throws(MovieError) {
        let file = try openFile(at: path)
        try checkHeader(file.read(count: 100), path: path)
    }

    /// Checks that `header` (a file's first bytes) is a cinematic index's of this format.
    static func checkHeader(_ header: [UInt8], path: String) throws(MovieError) {
        switch SQLiteHeader.contents(header) {
        case .missing: throw .storage("no catalog index at \(path)")
        case .empty, .notSQLite: throw .storage("\(path) is not a cinematic catalog index")
        case let .sqlite(header):
            guard header.applicationID == applicationID else { throw .storage("\(path) is not a cinematic catalog index") }
            guard header.userVersion == formatVersion else {
                throw .storage("\(path) is a catalog index of format \(header.userVersion); this library reads format \(formatVersion) (rebuild it with cinematic-index)")
            }
        }
    }

    /// The stamp recorded in an open index.
    static func stamp(of connection: SQLiteConnection) throws(MovieError) -> Stamp {
        let select = try connection.prepare("SELECT key, value FROM meta", persistent: false)
        defer { select.finalize() }
        try select.bind([])
        var values: [String: String] = [:]
        while try select.step() { values[select.text(0) ?? ""] = select.text(1) ?? "" }
        guard let format = values["format"].flatMap({ Int32($0) }), let data = values["data"], let library = values["library"] else {
            throw .storage("the catalog index has no stamp")
        }
        var stamp = Stamp(data: data, library: library)
        stamp.format = format
        return stamp
    }
}

/// The movie file and index compiled into the library (static storage).
package enum EmbeddedCatalog {
    /// data/ggplot2movies.tsv.gz.
    static var movieFile: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: catalog_data_gz_bytes(), count: catalog_data_gz_length())
    }

    /// The index `make lib` built from it, or nil in a build without one (a debug build, the
    /// tests): then the catalog is built in memory when opened (``SQLiteMovieCatalog``).
    static var index: UnsafeRawBufferPointer? {
        let count = catalog_index_length()
        return count == 0 ? nil : UnsafeRawBufferPointer(start: catalog_index_bytes(), count: count)
    }

    /// Gives back the resident pages of `bytes`, static data of the library never written (a
    /// later read faults them in again from the library's file): only whole pages inside it,
    /// never a neighbour's.
    static func release(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + page - 1) / page * page, end = (Int(bitPattern: base) + bytes.count) / page * page
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_DONTNEED)
    }

    /// data/alternate-titles.tsv.
    static var alternates: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: catalog_alternates_bytes(), count: catalog_alternates_length())
    }

    /// Every film of the embedded movie file, with its alternate titles.
    package static func rows() throws(MovieError) -> [CatalogRow] {
        try AlternateTitles.attach(alternates, to: CatalogRow.parseAll(
            GzipData.inflate(movieFile, maximumBytes: MovieFile.maximumBytes, what: "the embedded movie file")))
    }

    /// The data hash of what the embedded index is built from: the movie file's and the
    /// alternate titles' (``CatalogIndex/dataHash(_:)`` each, joined by "+").
    static func dataHash(movies: String) -> String { movies + "+" + CatalogIndex.dataHash(alternates) }
}
