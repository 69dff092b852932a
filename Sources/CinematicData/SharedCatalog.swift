import CinematicDomain
import Synchronization

/// The embedded catalog's image and search corpus, made once per process and shared by every
/// runtime that opens it: the corpus is immutable (``SearchCorpus`` is `Sendable`), and each
/// catalog gets its own read-only connection to the same image. Without this, each runtime
/// would load its own copy (and, in a library built without an index, build its own).
///
/// Memory: one image and one corpus for the process's lifetime (9 MB and about 20 MB for the
/// shipped catalog), whatever the number of runtimes.
enum SharedCatalog {
    /// A SQLite image in static or never-freed memory, shareable across threads (read only).
    final class Image: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    private static let made = Mutex<[String: (image: Image, corpus: SearchCorpus)]>([:])

    /// The embedded catalog of library `version`: the image compiled into the library, or one
    /// built from the embedded movie file in memory (reporting `progress`) when the library has
    /// none. The first caller makes it; later callers (of any runtime) wait for it and share it.
    /// Run on a catalog's thread, never a host's.
    static func embedded(version: String, progress: (Double) -> Void) throws(MovieError) -> (image: Image, corpus: SearchCorpus) {
        try made.withLock { made throws(MovieError) in
            if let done = made[version] { return done }
            let result: (image: Image, corpus: SearchCorpus)
            if let compiled = EmbeddedCatalog.index {
                let connection = try SQLiteConnection(path: ":memory:")
                defer { connection.close() }
                try connection.deserializeReadOnly(compiled)
                result = (Image(compiled), try SearchCorpusBlobs.read(from: connection))
            } else {
                let connection = try SQLiteConnection(path: ":memory:")
                defer { connection.close() }
                let rows = try EmbeddedCatalog.rows()
                let corpus = try CatalogIndex.fill(connection, rows: rows, stamp: CatalogIndex.expectedEmbeddedStamp(libraryVersion: version),
                                                   progress: progress)
                result = (Image(try connection.serialize()), corpus)
            }
            made[version] = result
            return result
        }
    }
}
