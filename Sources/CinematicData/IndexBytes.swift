import CinematicDomain

/// The bytes of a catalog index, read where they lie: the library's own read-only data (the
/// embedded index: static, never freed, never copied), or one private heap copy of a file,
/// read in one read and freed with the last reader. Immutable once made, so shared by every
/// runtime and thread that reads it (``SharedCatalog``).
final class IndexBytes: @unchecked Sendable {
    /// The bytes (16-byte aligned).
    let bytes: UnsafeRawBufferPointer
    private let owned: Bool

    /// Bytes in static storage (the library's own data), read in place.
    init(static bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        owned = false
    }

    /// A private copy of `source`.
    init(copying source: UnsafeRawBufferPointer) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 16)
        if source.count > 0 { memory.copyMemory(from: source) }
        bytes = UnsafeRawBufferPointer(rebasing: memory[..<source.count])
        owned = true
    }

    /// The whole of `file`, read into one private buffer by one read (the descriptor's `pread`
    /// loop only finishes short reads), never mapped: a file truncated or rewritten later
    /// changes nothing here. `.storage` when it is empty, changed size while read, or memory
    /// runs out. A header that says WAL is read as a rollback-journal database's (bytes 18
    /// and 19 set to 1 in the copy), so SQLite never looks for a `-wal` beside the file.
    init(reading file: borrowing ReadableFile) throws(MovieError) {
        guard file.size > 0 else { throw .storage("the \(file.what) \(file.path) is empty") }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: file.size + 1, alignment: 16)
        let read: Int
        do throws(MovieError) { read = try file.read(into: memory, at: 0) } catch {
            memory.deallocate()
            throw error
        }
        guard read == file.size else {
            memory.deallocate()
            throw .storage("the \(file.what) \(file.path) changed while it was read (\(file.size) bytes, then \(read))")
        }
        if file.size >= 20, memory[18] == 2 || memory[19] == 2 { memory[18] = 1; memory[19] = 1 }
        bytes = UnsafeRawBufferPointer(rebasing: memory[..<file.size])
        owned = true
    }

    deinit {
        if owned { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
    }

    /// `raw` as elements of `T` (aligned: checked by ``CorpusLayout/parts(of:)``).
    static func view<T>(_ raw: UnsafeRawBufferPointer, as type: T.Type) -> UnsafeBufferPointer<T> {
        guard let base = raw.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: T.self), count: raw.count / MemoryLayout<T>.stride)
    }
}
