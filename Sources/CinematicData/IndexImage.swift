import CinematicDomain

/// A catalog index read where it lies: its bytes (``IndexBytes``) split into SQLite's database
/// (handed to each connection in place, read-only: `sqlite3_deserialize` without a copy) and
/// the search section (``SearchCorpus``, views of the same bytes). Immutable, so one image
/// serves every runtime of the process that opens the same index (``SharedCatalog``); the
/// bytes live as long as the image.
final class IndexImage: @unchecked Sendable {
    /// The bytes, kept alive for the database and the corpus.
    let storage: IndexBytes
    /// SQLite's part of the bytes.
    let database: UnsafeRawBufferPointer
    /// The search section, read in place.
    let corpus: SearchCorpus

    /// The image of `storage`'s bytes: the trailer and the section's frame are checked; with
    /// `checking`, every value of the section too (``SearchCorpusCheck``), in one pass.
    init(_ storage: IndexBytes, checking: Bool) throws(MovieError) {
        let (database, section) = try CorpusLayout.split(storage.bytes)
        self.storage = storage
        self.database = database
        corpus = try SearchCorpus(storage: storage, section: section, checking: checking)
    }

    /// A new read-only connection to the database, in place (the image must outlive it: the
    /// caller keeps the image, as ``CatalogQueries`` does).
    func connect() throws(MovieError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:")
        do throws(MovieError) { try connection.deserializeReadOnly(database) } catch {
            connection.close()
            throw error
        }
        return connection
    }
}
