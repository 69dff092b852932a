import CinematicDomain

/// A movie file a user builds an index from (docs/catalog-index.md): the shipped TSV's
/// columns, tab-separated, a header line first, UTF-8, optionally gzip-compressed (a file
/// starting with gzip's magic bytes is inflated first). Hostile until proven ours: read only
/// when it is a regular file (``ReadableFile``: a FIFO, a device or a directory is a status,
/// never a hang), of at most ``maximumBytes``, inflating to at most ``maximumBytes``
/// (``GzipData``), each line within ``CatalogRow/Bounds``.
public enum MovieFile {
    /// The most a movie file may hold, and the most text it may inflate to: 256 MiB, about
    /// 2.8 million films (the shipped 58,788 are 5.5 MB of text). A build holds the text and
    /// about twice as much again (peak RSS 39 MB for the shipped file, 300 MB for 1,000,000
    /// films in 100 MB: 1.6x their index), so this bounds a build at about 1 GB.
    public static let maximumBytes = 1 << 28

    /// Builds the index of the movie file at `source` into `destination` (``CatalogIndex``:
    /// `destination` is checked first, and never half-written or replaced unless it still
    /// holds the index it held), stamped with `libraryVersion`. Throws `.storage` with the
    /// reason (a malformed line's number among them).
    public static func buildIndex(from source: String, to destination: String, libraryVersion: String,
                                  progress: (Double) -> Void = { _ in }) throws(MovieError) {
        try CatalogIndex.write(to: destination, progress: progress) { () throws(MovieError) in
            guard let file = try ReadableFile.open(source, what: "movie file", maximumBytes: maximumBytes) else {
                throw .storage("no movie file at \(source)")
            }
            let bytes = try file.readAll()
            let stamp = CatalogIndex.Stamp(data: bytes.withUnsafeBytes { CatalogIndex.dataHash($0) }, library: libraryVersion)
            let text = bytes.starts(with: [0x1F, 0x8B])
                ? try GzipData.inflate(bytes, maximumBytes: maximumBytes, what: "the movie file \(source)") : bytes
            do throws(MovieError) { return (try CatalogFilms(movieText: text), stamp) } catch { throw .storage("\(source): \(error.message)") }
        }
    }

    /// Builds the index of the movie file compiled into the library (what `make lib` embeds),
    /// stamped with the hash of the bytes it read: the library it is compiled into compares
    /// that with the hash `make lib` computed from the file it compiled in
    /// (``CatalogIndex/expectedEmbeddedStamp(libraryVersion:)``), so a stale index is refused.
    public static func buildEmbeddedIndex(to destination: String, libraryVersion: String) throws(MovieError) {
        try CatalogIndex.write(to: destination) { () throws(MovieError) in
            (CatalogFilms(rows: try EmbeddedCatalog.rows()),
             CatalogIndex.Stamp(data: EmbeddedCatalog.dataHash(movies: CatalogIndex.dataHash(EmbeddedCatalog.movieFile)), library: libraryVersion))
        }
    }
}
