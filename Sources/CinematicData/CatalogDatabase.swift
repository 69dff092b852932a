import CinematicCatalogData
import CinematicDomain
import Synchronization

/// Builds and locates the SQLite catalog database made from the embedded TSV.
///
/// The database is built once, on first use, into a temporary file that is renamed into place,
/// so a crash mid-build never leaves a half-built catalog. Its `meta` table records the
/// embedded data's fingerprint; a database whose fingerprint differs is rebuilt.
public enum CatalogDatabase {
    /// The schema's version; bump it when the schema or the search words (SearchText) change,
    /// so old caches are rebuilt.
    static let schemaVersion = 9

    /// Identifies the embedded data and schema: "v1-<crc32>-<length>".
    public static let fingerprint: String = {
        let bytes = embeddedBytes
        return "v\(schemaVersion)-\(GzipData.checksum(bytes))-\(bytes.count)"
    }()

    /// Where the catalog is cached when no path is configured:
    /// `$XDG_CACHE_HOME/cinematic/`, else `~/.cache/cinematic/`, in a file named after the
    /// fingerprint (so new data gets a new file). See ``fallbackPath`` for a read-only home.
    public static var defaultPath: String {
        let base = FileSystem.environment("XDG_CACHE_HOME")
            ?? FileSystem.environment("HOME").map { $0 + "/.cache" }
            ?? fallbackDirectory
        return base + "/cinematic/catalog-\(fingerprint).sqlite"
    }

    /// Where the catalog goes when the default location cannot be written (a read-only or
    /// missing home): a per-user directory under /tmp.
    public static var fallbackPath: String { fallbackDirectory + "/cinematic/catalog-\(fingerprint).sqlite" }

    private static var fallbackDirectory: String { "/tmp/cinematic-cache-\(FileSystem.userID)" }

    /// Serializes builds within the process: two runtimes opening at once build once.
    private static let buildLock = Mutex(())

    /// Makes sure an up-to-date catalog database exists at `path` (building it if missing or
    /// stale) and returns the path.
    @discardableResult
    public static func prepare(at path: String = defaultPath) throws(MovieError) -> String {
        try buildLock.withLock { _ throws(MovieError) in
            if isCurrent(at: path) { return }
            try build(at: path)
        }
        return path
    }

    /// True when the database at `path` exists and carries the current fingerprint.
    static func isCurrent(at path: String) -> Bool {
        guard FileSystem.exists(path),
              let connection = try? SQLiteConnection(path: path, readOnly: true),
              let statement = try? connection.prepare("SELECT value FROM meta WHERE key = 'fingerprint'"),
              (try? statement.bind([]).step()) == true else { return false }
        return statement.text(0) == fingerprint
    }

    /// Builds the database from the embedded data, replacing whatever is at `path`.
    public static func build(at path: String) throws(MovieError) {
        try build(at: path, rows: embeddedRows())
    }

    /// A synthetic catalog of `count` films for the scale benchmark: real titles recombined
    /// (the first words of one film's title, the last of another's), with real films' years,
    /// runtimes, genres, ratings and votes (so the vote distribution is the real one),
    /// deterministically. A `package` seam: benchmarks only.
    package static func buildSynthetic(at path: String, count: Int) throws(MovieError) {
        let real = try embeddedRows()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var rows: [CatalogRow] = []
        rows.reserveCapacity(count)
        for id in 1...count {
            let a = real[next() % real.count], b = real[next() % real.count], shape = real[next() % real.count]
            let first = a.catalogTitle.split(separator: " ").prefix(max(1, next() % 3 + 1))
            let last = b.catalogTitle.split(separator: " ").suffix(max(1, next() % 3))
            rows.append(CatalogRow(id: id, catalogTitle: (first + last).joined(separator: " "), like: shape))
        }
        try build(at: path, rows: rows)
    }

    private static func build(at path: String, rows: [CatalogRow]) throws(MovieError) {
        let directory = FileSystem.directory(of: path)
        guard FileSystem.makeDirectories(directory) else {
            throw .storage("cannot create \(directory): \(FileSystem.lastErrorMessage)")
        }
        let temporary = "\(path).building-\(FileSystem.processID)"
        FileSystem.remove(temporary)
        do {
            let connection = try SQLiteConnection(path: temporary)
            try CatalogSchema.create(in: connection)
            try CatalogSchema.insert(rows, into: connection, fingerprint: fingerprint)
        } catch {
            FileSystem.remove(temporary)
            throw error
        }
        guard FileSystem.move(temporary, to: path) else {
            FileSystem.remove(temporary)
            throw .storage("cannot move catalog into \(path): \(FileSystem.lastErrorMessage)")
        }
    }

    /// Every film of the embedded catalog, parsed.
    static func embeddedRows() throws(MovieError) -> [CatalogRow] {
        try CatalogRow.parseAll(GzipData.inflate(embeddedBytes))
    }

    /// The gzip bytes compiled into the library (static storage).
    private static var embeddedBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: catalog_data_gz_bytes(), count: catalog_data_gz_length())
    }
}
