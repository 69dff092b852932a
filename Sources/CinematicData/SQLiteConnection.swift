import CSQLite
import CinematicDomain

/// A thin owner of one SQLite connection. Not thread-safe: callers serialize access (the
/// catalog and favorites repositories keep it inside a `Mutex`).
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?

    /// Opens (and with `create`, creates) the database at `path`; ":memory:" is allowed.
    init(path: String, readOnly: Bool = false, create: Bool = true) throws(MovieError) {
        var flags = SQLITE_OPEN_NOMUTEX | (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            handle = nil
            throw .storage("cannot open \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(MovieError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw .storage(message)
        }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(MovieError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else { throw .storage(lastError) }
        return SQLiteStatement(statement, connection: self)
    }

    /// Runs `body` in a transaction, committing on success and rolling back on error.
    func transaction<T>(_ body: () throws(MovieError) -> T) throws(MovieError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The connection's most recent error message.
    var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection" }
}

/// A compiled statement with typed binds and column reads. Reset before each use.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    /// A value that can be bound to a `?` parameter.
    enum Value {
        case int(Int)
        case double(Double)
        case text(String)
        case null
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    @discardableResult
    func bind(_ values: [Value]) throws(MovieError) -> SQLiteStatement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case let .int(number): status = sqlite3_bind_int64(statement, index, Int64(number))
            case let .double(number): status = sqlite3_bind_double(statement, index, number)
            case let .text(text): status = sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw .storage(connection.lastError) }
        }
        return self
    }

    /// Advances to the next row; false when done.
    func step() throws(MovieError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw .storage(connection.lastError)
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
    /// True when column `index` of the current row is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }
}

/// SQLite's SQLITE_TRANSIENT: copy bound text before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
