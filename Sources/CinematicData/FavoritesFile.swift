import CinematicDomain
#if canImport(Glibc)
import Glibc
#endif

/// What is at a favorites path, read from the SQLite file header with plain `read(2)` before
/// SQLite touches the file, so a file that is not ours is refused unchanged, byte for byte
/// (no journal switch, no table, no `user_version`, no side files).
///
/// Ours means: SQLite's magic, and our `application_id` ("CINE") in the header, which is
/// written in rollback-journal mode when the file is created (before it switches to WAL), so
/// the main file always carries it. Files written by 0.1.0 carry no application id; they are
/// adopted only when their header says `user_version` 1 and their schema is exactly ours
/// (checked before any write, see ``FavoritesDatabase``).
enum FavoritesFile {
    /// Our `PRAGMA application_id`: "CINE".
    static let applicationID: Int32 = 0x4349_4E45

    /// What the header says.
    enum Kind: Equatable {
        /// No file, an empty file, or ":memory:": ours to create.
        case new
        /// A SQLite database carrying our application id.
        case ours(isWAL: Bool)
        /// A 0.1.0 favorites file candidate: no application id, user_version 1.
        case legacy(isWAL: Bool)
    }

    /// Classifies the file at `path`; throws `.storage` naming why a file is not ours.
    static func inspect(_ path: String) throws(MovieError) -> Kind {
        guard path != ":memory:" else { return .new }
        switch try SQLiteHeader.read(path, what: "favorites database") {
        case .missing, .empty: return .new
        case .notSQLite: throw .storage("\(path) is not a favorites database (not a SQLite file); it was left unchanged")
        case let .sqlite(header):
            if header.applicationID == applicationID { return .ours(isWAL: header.isWAL) }
            if header.applicationID == 0 && header.userVersion == FavoritesDatabase.schemaVersion { return .legacy(isWAL: header.isWAL) }
            throw .storage("\(path) belongs to another program (application_id \(header.applicationID), user_version \(header.userVersion)); it was left unchanged")
        }
    }

    /// A `file:` URI for `path` with `query` (characters that mean something in a URI are
    /// percent-encoded).
    static func uri(_ path: String, query: String) -> String {
        var encoded = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x20, 0x7F...:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return encoded + "?" + query
    }

    /// A cheap fingerprint of the file and its WAL (sizes and modification times) and of the
    /// WAL index's header, for read-only favorites that cannot use `data_version` without
    /// creating side files.
    ///
    /// The header matters: a writer appends a commit's frames to the WAL first and publishes
    /// them in the WAL index (`-shm`, changed through a shared mapping: no size or time
    /// moves) after. A reader between the two reads the old content under the WAL's new
    /// size and time; without the header, nothing would change again and the commit would
    /// stay unseen. SQLite's header: two copies of 48 bytes (change counter, last frame,
    /// salts, checksums) at the start of the file.
    static func signature(_ path: String) -> [Int] {
        let files = [path, path + "-wal"].flatMap { file -> [Int] in
            var info = stat()
            guard stat(file, &info) == 0 else { return [-1] }
            return [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
        }
        return files + walIndexHeader(path + "-shm")
    }

    /// The first 96 bytes of the WAL index at `path` as 12 words; [-1] when there is none to read.
    private static func walIndexHeader(_ path: String) -> [Int] {
        guard let file = try? ReadableFile.open(path, what: "favorites WAL index", maximumBytes: 1 << 30),
              let bytes = try? file.read(count: 96, at: 0) else { return [-1] }
        return stride(from: 0, to: bytes.count, by: 8).map { start in
            bytes[start..<min(start + 8, bytes.count)].reduce(0) { $0 << 8 | Int($1) }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
