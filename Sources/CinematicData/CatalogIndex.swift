import CinematicCatalogData
import CinematicDomain

/// A catalog index: one read-only SQLite file (or image) holding the films (`movies`, for
/// Discover and Detail), the search corpus (`blobs`, loaded into memory: ``SearchCorpus``)
/// and its stamp (`meta`).
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
    /// The index format's version: bump it whenever the tables, the blobs or the search
    /// words (``SearchText``) change, so an index built by another format is refused.
    public static let formatVersion: Int32 = 1

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
        Stamp(data: dataHash(EmbeddedCatalog.movieFile), library: libraryVersion)
    }

    /// Builds at `path` an index of the rows `load` reads, stamped with its stamp
    /// (``StagedFile``): `path` is checked first (nothing, an empty file or an index of ours;
    /// before `load` runs, so a destination that is not ours costs no reading), the index is
    /// written to a locked temporary file beside it, flushed, and put in place only if `path`
    /// still holds what was checked (so `path` holds a whole index or what it held before),
    /// then the directory flushed. `progress` gets the share done (0...1): 0.99 once the index
    /// is written, before it is put in place.
    static func write(to path: String, progress: (Double) -> Void = { _ in },
                      load: () throws(MovieError) -> (rows: [CatalogRow], stamp: Stamp)) throws(MovieError) {
        var staged = try StagedFile(path, what: "catalog index") { prefix in
            guard let header = SQLiteHeader(prefix) else { return false }
            return header.applicationID == applicationID
        }
        let (rows, stamp) = try load()
        let connection = try SQLiteConnection(path: staged.temporary)
        defer { connection.close() }
        try fill(connection, rows: rows, stamp: stamp, progress: progress)
        connection.close()
        try staged.publish()
        progress(1)
    }

    /// Builds an index of `rows` into `connection` (an empty database: a temporary file or
    /// memory).
    @discardableResult
    static func fill(_ connection: SQLiteConnection, rows: [CatalogRow], stamp: Stamp,
                     progress: (Double) -> Void = { _ in }) throws(MovieError) -> SearchCorpus {
        guard !rows.isEmpty else { throw .storage("the movie file has no films") }
        let (ranked, corpus) = try SearchCorpusBuilder.build(rows, progress: progress)
        try CatalogSchema.create(in: connection)
        try CatalogSchema.insert(ranked, corpus: corpus, stamp: stamp, into: connection)
        progress(0.99)
        return corpus
    }

    /// The largest index file opened: 4 GiB (an index of 1,000,000 films is about 210 MB).
    /// A user's index is read whole into memory (``SQLiteConnection/deserializeCopy(of:)``).
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
enum EmbeddedCatalog {
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

    /// Every film of the embedded movie file.
    static func rows() throws(MovieError) -> [CatalogRow] {
        try CatalogRow.parseAll(GzipData.inflate(movieFile, maximumBytes: MovieFile.maximumBytes, what: "the embedded movie file"))
    }
}
