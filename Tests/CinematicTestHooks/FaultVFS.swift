import CSQLite
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite VFS shim for ``FaultInjection``, in the spirit of SQLite's own fault-injecting
/// test VFS: it wraps the default VFS, and each file it opens answers `xRead`, `xWrite` and
/// `xSync` by delegating, unless an armed rule says this call on this path fails. Opening
/// fails the same way. A failure is what the real VFS returns for that `errno`:
///
/// | rule      | `errno`          | SQLite sees          |
/// |-----------|------------------|----------------------|
/// | `.open`   | any              | SQLITE_CANTOPEN      |
/// | `.read`   | any              | SQLITE_IOERR_READ    |
/// | `.write`  | ENOSPC, EFBIG    | SQLITE_FULL          |
/// | `.write`  | any other        | SQLITE_IOERR_WRITE   |
/// | `.fsync`  | any              | SQLITE_IOERR_FSYNC   |
///
/// EINTR is retried once, as the real VFS retries an interrupted call: a rule that fails
/// once with EINTR is invisible to SQLite; a second EINTR in a row fails the call with the
/// code of its row. Paths are the file's full name (the database, or its `-wal`, `-shm`,
/// `-journal`), so a rule's `pathContaining` picks one database or one of its side files.
/// (`.rename` never matches: SQLite renames nothing.) Memory-mapped `-shm` pages are not
/// written through `xWrite` and cannot fail.
///
/// Disarmed, every call only delegates (one relaxed atomic load more). Installed by tests
/// only (``FaultInjection/installSQLiteShim()``), as the default VFS: every connection
/// opened after it goes through it. Test-only target: the shipped library does not contain it.
enum FaultVFS {
    /// The shim's registered name.
    static let name = "cinematic-fault"
    /// Bytes before the wrapped file in each file object: its `sqlite3_file` (our methods)
    /// and the file's name (valid until `xClose`, as SQLite guarantees).
    static let headerSize = 16

    /// The VFS the shim wraps; set once, before the shim is registered.
    nonisolated(unsafe) static var real: UnsafeMutablePointer<sqlite3_vfs>?
    /// Our methods, one table per `iVersion` (1...3) of the wrapped file's methods.
    nonisolated(unsafe) static var methods: [UnsafeMutablePointer<sqlite3_io_methods>] = []
    private static let installed = Mutex(false)

    /// Registers the shim as the default VFS (once; later calls do nothing).
    static func install() {
        installed.withLock { installed in
            guard !installed, let real = sqlite3_vfs_find(nil) else { return }
            installed = true
            FaultVFS.real = real
            methods = (1...3).map { makeMethods(version: $0) }
            let shim = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
            shim.initialize(to: real.pointee)
            shim.pointee.pNext = nil
            shim.pointee.szOsFile = Int32(headerSize) + real.pointee.szOsFile
            shim.pointee.zName = UnsafePointer(strdup(name))
            shim.pointee.xOpen = { _, fileName, file, flags, outFlags in
                guard let file, let real = FaultVFS.real else { return SQLITE_CANTOPEN }
                file.pointee.pMethods = nil
                let raw = UnsafeMutableRawPointer(file)
                raw.storeBytes(of: fileName.map { UnsafeRawPointer($0) }, toByteOffset: 8, as: UnsafeRawPointer?.self)
                if FaultVFS.fault(.open, file) != nil { return SQLITE_CANTOPEN }
                let inner = FaultVFS.inner(file)
                let status = real.pointee.xOpen(real, fileName, inner, flags, outFlags)
                if let innerMethods = inner.pointee.pMethods {
                    let version = Int(min(max(innerMethods.pointee.iVersion, 1), 3))
                    file.pointee.pMethods = UnsafePointer(FaultVFS.methods[version - 1])
                }
                return status
            }
            sqlite3_vfs_register(shim, 1)
        }
    }

    /// The wrapped file inside our file object.
    static func inner(_ file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file!) + headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    /// The wrapped file's methods.
    static func innerMethods(_ file: UnsafeMutablePointer<sqlite3_file>?) -> sqlite3_io_methods {
        inner(file).pointee.pMethods.pointee
    }

    /// The `errno` this call must fail with, if an armed rule says so (EINTR retried once).
    static func fault(_ operation: FaultInjection.Operation, _ file: UnsafeMutablePointer<sqlite3_file>?) -> Int32? {
        guard FaultInjection.isArmed, let file,
              let name = UnsafeRawPointer(file).load(fromByteOffset: 8, as: UnsafeRawPointer?.self) else { return nil }
        let path = String(cString: name.assumingMemoryBound(to: CChar.self))
        guard let code = FaultInjection.fault(operation, path: path) else { return nil }
        return code == EINTR ? FaultInjection.fault(operation, path: path) : code
    }

    /// A methods table of `version` whose every entry delegates to the wrapped file; read,
    /// write and sync consult the armed rules first.
    private static func makeMethods(version: Int) -> UnsafeMutablePointer<sqlite3_io_methods> {
        var table = sqlite3_io_methods()
        table.iVersion = Int32(version)
        table.xClose = { file in FaultVFS.innerMethods(file).xClose(FaultVFS.inner(file)) }
        table.xRead = { file, buffer, amount, offset in
            if FaultVFS.fault(.read, file) != nil { return sqliteIOErrRead }
            return FaultVFS.innerMethods(file).xRead(FaultVFS.inner(file), buffer, amount, offset)
        }
        table.xWrite = { file, buffer, amount, offset in
            if let code = FaultVFS.fault(.write, file) { return code == ENOSPC || code == EFBIG ? SQLITE_FULL : sqliteIOErrWrite }
            return FaultVFS.innerMethods(file).xWrite(FaultVFS.inner(file), buffer, amount, offset)
        }
        table.xTruncate = { file, size in FaultVFS.innerMethods(file).xTruncate(FaultVFS.inner(file), size) }
        table.xSync = { file, flags in
            if FaultVFS.fault(.fsync, file) != nil { return sqliteIOErrFsync }
            return FaultVFS.innerMethods(file).xSync(FaultVFS.inner(file), flags)
        }
        table.xFileSize = { file, size in FaultVFS.innerMethods(file).xFileSize(FaultVFS.inner(file), size) }
        table.xLock = { file, lock in FaultVFS.innerMethods(file).xLock(FaultVFS.inner(file), lock) }
        table.xUnlock = { file, lock in FaultVFS.innerMethods(file).xUnlock(FaultVFS.inner(file), lock) }
        table.xCheckReservedLock = { file, out in FaultVFS.innerMethods(file).xCheckReservedLock(FaultVFS.inner(file), out) }
        table.xFileControl = { file, op, argument in FaultVFS.innerMethods(file).xFileControl(FaultVFS.inner(file), op, argument) }
        table.xSectorSize = { file in FaultVFS.innerMethods(file).xSectorSize(FaultVFS.inner(file)) }
        table.xDeviceCharacteristics = { file in FaultVFS.innerMethods(file).xDeviceCharacteristics(FaultVFS.inner(file)) }
        if version >= 2 {
            table.xShmMap = { file, page, size, extend, pointer in
                FaultVFS.innerMethods(file).xShmMap(FaultVFS.inner(file), page, size, extend, pointer)
            }
            table.xShmLock = { file, offset, count, flags in FaultVFS.innerMethods(file).xShmLock(FaultVFS.inner(file), offset, count, flags) }
            table.xShmBarrier = { file in FaultVFS.innerMethods(file).xShmBarrier(FaultVFS.inner(file)) }
            table.xShmUnmap = { file, delete in FaultVFS.innerMethods(file).xShmUnmap(FaultVFS.inner(file), delete) }
        }
        if version >= 3 {
            table.xFetch = { file, offset, amount, pointer in FaultVFS.innerMethods(file).xFetch(FaultVFS.inner(file), offset, amount, pointer) }
            table.xUnfetch = { file, offset, pointer in FaultVFS.innerMethods(file).xUnfetch(FaultVFS.inner(file), offset, pointer) }
        }
        let pointer = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        pointer.initialize(to: table)
        return pointer
    }
}

/// SQLite's extended result codes (macros Swift does not import).
private let sqliteIOErrRead = SQLITE_IOERR | (1 << 8)
private let sqliteIOErrWrite = SQLITE_IOERR | (3 << 8)
private let sqliteIOErrFsync = SQLITE_IOERR | (4 << 8)

extension FaultInjection {
    /// Test-only: makes every SQLite connection opened from now on go through ``FaultVFS``
    /// (registered as the default VFS), so armed `.open`, `.read`, `.write` and `.fsync`
    /// rules reach SQLite's files too. Idempotent; disarmed, the shim only delegates.
    ///
    /// ```swift
    /// FaultInjection.installSQLiteShim()
    /// let armed = FaultInjection.arm(.init(.write, pathContaining: "favorites.sqlite", errno: ENOSPC))
    /// defer { FaultInjection.disarm(armed) }
    /// ```
    package static func installSQLiteShim() { FaultVFS.install() }
}
