import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// A movie file a user builds an index from (docs/catalog-index.md): the shipped TSV's
/// columns, tab-separated, a header line first, UTF-8, optionally gzip-compressed (a file
/// starting with gzip's magic bytes is inflated first).
public enum MovieFile {
    /// The largest movie file read (compressed size): 4 GiB.
    static let maximumBytes = 1 << 32

    /// Builds the index of the movie file at `source` into `destination` (temporary file,
    /// fsync, rename: `destination` is never half-written), stamped with `libraryVersion`.
    /// Throws `.storage` with the reason (a malformed line's number among them).
    public static func buildIndex(from source: String, to destination: String, libraryVersion: String,
                                  progress: (Double) -> Void = { _ in }) throws(MovieError) {
        let bytes = try read(source)
        let stamp = CatalogIndex.Stamp(data: bytes.withUnsafeBytes { CatalogIndex.dataHash($0) }, library: libraryVersion)
        var text = bytes
        if bytes.starts(with: [0x1F, 0x8B]) {
            let compressed = bytes
            text = try GzipData.inflate(compressed)
        }
        let rows: [CatalogRow]
        do throws(MovieError) { rows = try CatalogRow.parseAll(text) } catch { throw .storage("\(source): \(error.message)") }
        try CatalogIndex.write(rows, stamp: stamp, to: destination, progress: progress)
    }

    /// Builds the index of the movie file compiled into the library (what `make lib` embeds).
    public static func buildEmbeddedIndex(to destination: String, libraryVersion: String) throws(MovieError) {
        try CatalogIndex.write(EmbeddedCatalog.rows(), stamp: CatalogIndex.expectedEmbeddedStamp(libraryVersion: libraryVersion), to: destination)
    }

    /// The bytes of the file at `path`.
    static func read(_ path: String) throws(MovieError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .storage("cannot open \(path): \(FileSystem.lastErrorMessage)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .storage("cannot read \(path): \(FileSystem.lastErrorMessage)")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumBytes else { throw .storage("\(path) is larger than 4 GiB") }
        }
        return bytes
    }
}
