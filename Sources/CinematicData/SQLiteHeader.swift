import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// The 100-byte header of a SQLite file, read with plain `read(2)` before SQLite touches the
/// file, so a file that is not ours can be refused unchanged, byte for byte.
struct SQLiteHeader {
    /// What is at a path.
    enum Contents {
        /// No file at all.
        case missing
        /// A file of zero bytes.
        case empty
        /// A file that does not start with SQLite's magic (or is shorter than a header).
        case notSQLite
        /// A SQLite database and its header.
        case sqlite(SQLiteHeader)
    }

    private let bytes: [UInt8]

    /// Reads the header at `path`; throws `.storage` when the file exists but cannot be read.
    static func read(_ path: String) throws(MovieError) -> Contents {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .missing }
            throw .storage("cannot read \(path): \(FileSystem.lastErrorMessage)")
        }
        defer { Glibc.close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 100) }
        if count == 0 { return .empty }
        let magic = Array("SQLite format 3".utf8) + [0]
        guard count == 100, Array(header[0..<16]) == magic else { return .notSQLite }
        return .sqlite(SQLiteHeader(bytes: header))
    }

    /// True when the file is in WAL mode.
    var isWAL: Bool { bytes[18] == 2 || bytes[19] == 2 }
    /// The page size in bytes (`PRAGMA page_size`).
    var pageSize: Int {
        let size = Int(bytes[16]) << 8 | Int(bytes[17])
        return size == 1 ? 65_536 : size
    }
    /// `PRAGMA user_version`.
    var userVersion: Int32 { bigEndian(at: 60) }
    /// `PRAGMA application_id`.
    var applicationID: Int32 { bigEndian(at: 68) }

    private func bigEndian(at offset: Int) -> Int32 {
        Int32(bitPattern: UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]))
    }
}

extension SQLiteHeader {
    /// The header in the first bytes of a file, nil when they are not a SQLite header.
    init?(_ prefix: [UInt8]) {
        let magic = Array("SQLite format 3".utf8) + [0]
        guard prefix.count >= 100, Array(prefix[0..<16]) == magic else { return nil }
        self.init(bytes: Array(prefix[0..<100]))
    }
}
