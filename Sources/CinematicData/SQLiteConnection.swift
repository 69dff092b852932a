import CSQLite
import CinematicDomain
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thin owner of one SQLite connection. Not thread-safe: callers serialize access (each
/// repository uses its connection on its own worker thread only).
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    /// Every statement prepared here, finalized by ``close()`` so the file is really closed.
    private var statements: [SQLiteStatement] = []
    /// Ends busy waits early (see ``stopWaiting()``); the busy handler's context.
    private let busy: BusyWait
    /// The result code of the most recent call here that failed (SQLITE_OK until one does):
    /// tells busy (SQLITE_BUSY, SQLITE_LOCKED) from damaged (SQLITE_CORRUPT, SQLITE_NOTADB)
    /// after a `.storage` error. ``clearFailure()`` resets it.
    private(set) var failureCode: Int32 = SQLITE_OK

    /// How long a statement waits for another connection's lock before failing with
    /// "database is locked".
    static let busyTimeoutMilliseconds = 5_000

    /// Opens (and with `create`, creates) the database at `path`; ":memory:" is allowed, and
    /// with `uri` a `file:` URI (for `mode=ro`, `immutable=1`). A statement waits up to
    /// `busyTimeoutMilliseconds` for another connection's lock.
    init(path: String, readOnly: Bool = false, create: Bool = true, uri: Bool = false,
         busyTimeoutMilliseconds: Int = SQLiteConnection.busyTimeoutMilliseconds) throws(MovieError) {
        busy = BusyWait(timeoutMilliseconds: busyTimeoutMilliseconds)
        var flags = SQLITE_OPEN_NOMUTEX | (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        if uri { flags |= SQLITE_OPEN_URI }
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            failureCode = status
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            handle = nil
            throw .storage("cannot open \(path): \(message)")
        }
        sqlite3_busy_handler(handle, { context, attempts in
            let busy = Unmanaged<BusyWait>.fromOpaque(context!).takeUnretainedValue()
            return busy.shouldRetry(attempts: Int(attempts)) ? 1 : 0
        }, Unmanaged.passUnretained(busy).toOpaque())
    }

    deinit { close() }

    /// Closes the connection (idempotent); later statements fail.
    func close() {
        guard let handle else { return }
        for statement in statements { statement.finalize() }
        statements = []
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// Resets every persistent statement, ending any read they hold (before a backup into
    /// this database, which needs none running).
    func resetAll() { for statement in statements { statement.reset() } }

    /// From any thread: a statement waiting for another connection's lock gives up now, and
    /// later ones do not wait (used when the runtime closes, so close never waits 5 s for a
    /// lock another process holds).
    func stopWaiting() { busy.stop() }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(MovieError) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        guard status == SQLITE_OK else {
            noteFailure(status)
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw .storage(message)
        }
    }

    /// Compiles one statement. A `persistent` one is kept until ``close()`` finalizes it;
    /// a transient one must be finalized by the caller (or released) before the connection
    /// closes.
    func prepare(_ sql: String, persistent: Bool = true) throws(MovieError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            noteFailure(status)
            throw .storage(lastError)
        }
        let prepared = SQLiteStatement(statement, connection: self)
        if persistent { statements.append(prepared) }
        return prepared
    }

    /// Replaces this (in-memory) connection's database with the SQLite image `bytes`, read in
    /// place and read-only: `bytes` must outlive the connection (static storage).
    func deserializeReadOnly(_ bytes: UnsafeRawBufferPointer) throws(MovieError) {
        let flags = UInt32(SQLITE_DESERIALIZE_READONLY)
        let data = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        guard sqlite3_deserialize(handle, "main", data, Int64(bytes.count), Int64(bytes.count), flags) == SQLITE_OK else {
            throw .storage(lastError)
        }
    }

    /// A copy of this connection's database as one SQLite image (`sqlite3_serialize`), in
    /// memory SQLite allocated: the caller owns it (never freed here).
    func serialize() throws(MovieError) -> UnsafeRawBufferPointer {
        var size: Int64 = 0
        guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else { throw .storage("cannot serialize the catalog: \(lastError)") }
        return UnsafeRawBufferPointer(start: bytes, count: Int(size))
    }

    /// Runs `body` in a transaction, committing on success and rolling back on error.
    func transaction<T>(_ body: () throws(MovieError) -> T) throws(MovieError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            let code = failureCode
            try? execute("ROLLBACK")
            failureCode = code
            throw error
        }
    }

    /// Records the result code of a failed call (for ``failureCode``).
    func noteFailure(_ status: Int32) { failureCode = status }

    /// Forgets the last failure: ``failureCode`` is SQLITE_OK again.
    func clearFailure() { failureCode = SQLITE_OK }

    /// The connection's most recent error message.
    var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection" }
}

/// A compiled statement with typed binds and column reads. Reset before each use.
final class SQLiteStatement {
    private var statement: OpaquePointer?
    private unowned let connection: SQLiteConnection

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { finalize() }

    /// Releases the compiled statement (idempotent); using it afterwards fails.
    func finalize() {
        sqlite3_finalize(statement)
        statement = nil
    }

    /// A value that can be bound to a `?` parameter.
    enum Value {
        case int(Int)
        case double(Double)
        case text(String)
        /// Bytes, copied by SQLite before the call returns.
        case blob([UInt8])
        case null
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    @discardableResult
    func bind(_ values: [Value]) throws(MovieError) -> SQLiteStatement {
        guard statement != nil else { throw .storage("the database is closed") }
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case let .int(number): status = sqlite3_bind_int64(statement, index, Int64(number))
            case let .double(number): status = sqlite3_bind_double(statement, index, number)
            case let .text(text): status = sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
            case let .blob(bytes):
                status = bytes.withUnsafeBytes { sqlite3_bind_blob64(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64($0.count), sqliteTransient) }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else {
                connection.noteFailure(status)
                throw .storage(connection.lastError)
            }
        }
        return self
    }

    /// Ends the current run (releasing its read snapshot); bindings stay.
    func reset() { sqlite3_reset(statement) }

    /// Advances to the next row; false when done.
    func step() throws(MovieError) -> Bool {
        guard statement != nil else { throw .storage("the database is closed") }
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            connection.noteFailure(status)
            throw .storage(connection.lastError)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [Value]) throws(MovieError) {
        try bind(values)
        while try step() {}
    }

    /// Column `index` of the current row as an integer.
    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(statement, index)) }
    /// Column `index` of the current row as a double.
    func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }
    /// Column `index` of the current row as text, nil when NULL.
    func text(_ index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, index) else { return nil }
        return String(cString: pointer)
    }
    /// Column `index` of the current row as bytes (empty when NULL), read in place: `body`
    /// must not keep the buffer.
    func withBlob<T>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws(MovieError) -> T) throws(MovieError) -> T {
        let count = Int(sqlite3_column_bytes(statement, index))
        return try body(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, index), count: count))
    }
    /// True when column `index` of the current row is a blob.
    func isBlob(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_BLOB }
    /// True when column `index` of the current row is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }
}

/// SQLite's SQLITE_TRANSIENT: copy bound text before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The busy handler's state: waits in 5 ms steps up to the timeout, unless stopped.
final class BusyWait: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let timeoutMilliseconds: Int
    private static let stepMilliseconds = 5

    init(timeoutMilliseconds: Int) { self.timeoutMilliseconds = timeoutMilliseconds }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Sleeps one step and returns true to retry; false once stopped or out of time.
    func shouldRetry(attempts: Int) -> Bool {
        guard !stopped.load(ordering: .relaxed),
              attempts * Self.stepMilliseconds < timeoutMilliseconds else { return false }
        usleep(useconds_t(Self.stepMilliseconds * 1_000))
        return true
    }
}
