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

    /// Reads the header at `path` (``ReadableFile``: never blocks on a FIFO or a device);
    /// throws `.storage` when something is there that is not a regular file or cannot be read.
    static func read(_ path: String, what: String = "database") throws(MovieError) -> Contents {
        guard let file = try ReadableFile.open(path, what: what, maximumBytes: .max) else { return .missing }
        return contents(try file.read(count: 100))
    }

    /// What the first bytes of a file say it is.
    static func contents(_ header: [UInt8]) -> Contents {
        if header.isEmpty { return .empty }
        guard let header = SQLiteHeader(header) else { return .notSQLite }
        return .sqlite(header)
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
