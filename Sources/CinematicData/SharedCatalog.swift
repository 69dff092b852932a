import CinematicDomain
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The catalog images of the process, one per index, shared by every runtime that opens it:
/// an image is immutable (``IndexImage``), and each catalog gets its own read-only connection
/// to it. Memory is the index: the embedded one is the library's own read-only data (nothing
/// copied; pages are read in as search touches them), a file is one private copy, read once
/// however many runtimes open it and freed with the last of them.
enum SharedCatalog {
    private static let embeddedImages = Mutex<[String: IndexImage]>([:])

    /// The embedded catalog of library `version`: the image compiled into the library, read in
    /// place and not checked value by value (it is the library's own data, its stamp checked
    /// at open), or one built from the embedded movie file in memory (reporting `progress`)
    /// when the library has none. The first caller makes it; later callers (of any runtime)
    /// wait for it and share it. Run on a catalog's thread, never a host's.
    static func embedded(version: String, progress: (Double) -> Void) throws(MovieError) -> IndexImage {
        try embeddedImages.withLock { made throws(MovieError) in
            if let done = made[version] { return done }
            let image: IndexImage
            if let compiled = EmbeddedCatalog.index {
                image = try IndexImage(IndexBytes(static: compiled), checking: false)
            } else {
                image = try CatalogIndex.image(rows: EmbeddedCatalog.rows(), stamp: CatalogIndex.expectedEmbeddedStamp(libraryVersion: version),
                                               progress: progress)
            }
            made[version] = image
            return image
        }
    }

    /// What tells one file's contents from another's: device, inode, size and change time.
    private struct FileKey: Hashable {
        let device, inode, size, seconds, nanoseconds: UInt64
    }

    private final class Weak: @unchecked Sendable {
        weak var image: IndexImage?
        init(_ image: IndexImage) { self.image = image }
    }

    private static let files = Mutex<[FileKey: Weak]>([:])

    /// The image of the index `file` (opened by ``CatalogIndex/openFile(at:)``): the one a
    /// runtime of this process already holds for the same file (same device, inode, size and
    /// modification time), or a new one, read in one read and checked in one pass. A file
    /// rewritten since is another file (its time or size changed) and is read anew.
    static func image(of file: borrowing ReadableFile) throws(MovieError) -> IndexImage {
        var info = stat()
        guard fstat(file.descriptor, &info) == 0 else { throw .storage("cannot read the \(file.what) \(file.path): \(FileIO.message(errno))") }
        let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: UInt64(info.st_size),
                          seconds: UInt64(bitPattern: Int64(info.st_mtim.tv_sec)), nanoseconds: UInt64(info.st_mtim.tv_nsec))
        if let held = files.withLock({ $0[key]?.image }) { return held }
        // Read and checked outside the lock: another runtime opening another file never waits.
        let bytes = try IndexBytes(reading: file)
        try CatalogIndex.checkHeader(Array(bytes.bytes.prefix(100)), path: file.path)
        let image = try IndexImage(bytes, checking: true)
        return files.withLock { files in
            files = files.filter { $0.value.image != nil }
            if let held = files[key]?.image { return held }
            files[key] = Weak(image)
            return image
        }
    }
}
