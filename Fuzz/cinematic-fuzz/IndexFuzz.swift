// The index target (CINEMATIC_FUZZ_TARGET=index): every input becomes a catalog index that a
// runtime opens, searches, pages and reads details from. The input is, by its first byte:
//   0  the index file itself (the rest of the input);
//   1  a small real index with one part of its search section replaced by the rest of the
//      input (the section laid out again around it: docs/catalog-index.md);
//   2  the same index with bytes of one part flipped (triples of a 16-bit offset and a mask);
//   3  the same index with one value of one film's row (budget, rating, votes, distribution,
//      genre mask, rank) set to the rest of the input as text;
//   4  the same index with 64-bit words of its section's frame (header, table, trailer)
//      replaced: pairs of a position byte and 8 bytes of value.
// Every call must return a status the header names, the catalog must stop loading (loaded or
// failed), and nothing may crash, trap or hang (libFuzzer's -timeout catches a hang).
#if FUZZING
import CSQLite
import Cinematic
import Glibc

enum IndexFuzz {
    /// The parts of an index's search section, in table order (``CorpusLayout``).
    static let parts = 24
    /// The columns of the `movies` table.
    static let columns = ["budget", "rating", "votes", "distribution", "genre_mask", "rank"]

    /// A small index of real films (built once, by the library).
    static let base: [UInt8] = {
        let header = "id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n"
        let films = [
            "1\tMatrix, The\t1999\t136\t63000000\t8.5\t143853\t0.5\t0.5\t0.5\t0.5\t1.5\t4.5\t14.5\t24.5\t24.5\t24.5\tR\tAction",
            "2\tAlien\t1979\t117\t11000000\t8.2\t62218\t0.5\t0.5\t0.5\t1.5\t2.5\t4.5\t14.5\t24.5\t24.5\t24.5\tR\tAction,Drama",
            "3\tAliens\t1986\t137\t18500000\t8.2\t55986\t0.5\t0.5\t0.5\t1.5\t2.5\t4.5\t14.5\t24.5\t24.5\t24.5\tR\tAction",
            "4\tAlien³\t1992\t114\t\t6.1\t22386\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tR\t",
            "5\tDune\t1984\t137\t45000000\t6.3\t20114\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tPG-13\tAction",
            "6\tGodfather: Part II, The\t1974\t200\t13000000\t8.9\t63662\t4.55\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tR\tDrama",
            "7\tAmélie\t2001\t122\t\t8.5\t31034\t0.5\t0.5\t0.5\t0.5\t1.5\t4.5\t14.5\t24.5\t24.5\t24.5\tR\tComedy,Romance",
            "8\tZardoz\t1974\t105\t1570000\t5.2\t1893\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tR\t",
        ]
        let movies = fuzzDirectory + "/base.tsv", index = fuzzDirectory + "/base.idx"
        Array((header + films.joined(separator: "\n") + "\n").utf8).withUnsafeBytes { writeFile(movies, $0) }
        precondition(cinematic_catalog_build_index(movies, index) == 0, "cannot build the base index")
        return readFile(index)
    }()

    /// One input (see the file's header).
    static func run(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        guard size >= 2 else { return 0 }
        let input = UnsafeRawBufferPointer(start: data, count: size)
        let path = fuzzDirectory + "/input.idx"
        switch data[0] % 5 {
        case 0: writeFile(path, UnsafeRawBufferPointer(rebasing: input[1...]))
        case 1: write(path, IndexSection.replacing(part: Int(data[1]) % parts, with: Array(input[2...]), in: base))
        case 2: write(path, IndexSection.flipping(part: Int(data[1]) % parts, Array(input[2...]), in: base))
        case 4: write(path, IndexSection.reframing(Array(input[1...]), in: base))
        default:
            guard size >= 3 else { return 0 }
            edit(path, "UPDATE movies SET \(columns[Int(data[1]) % columns.count]) = CAST(?1 AS TEXT) WHERE rank = \(Int(data[2]) % 9)",
                 input[3...])
        }
        exercise(path, query: String(decoding: input.suffix(24), as: UTF8.self))
        return 0
    }

    /// A copy of the base index at `path` with `sql` run, `value` bound to ?1.
    private static func edit(_ path: String, _ sql: String, _ value: Slice<UnsafeRawBufferPointer>) {
        base.withUnsafeBytes { writeFile(path, $0) }
        var db: OpaquePointer?
        precondition(sqlite3_open(path, &db) == SQLITE_OK)
        var statement: OpaquePointer?
        precondition(sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK)
        let bytes = Array(value)
        _ = bytes.withUnsafeBytes { raw in
            sqlite3_bind_blob(statement, 1, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count),
                              unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        _ = sqlite3_step(statement)
        sqlite3_finalize(statement)
        sqlite3_close(db)
    }

    private static func write(_ path: String, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeFile(path, $0) }
    }

    /// Opens a runtime on the index at `path` and uses every feature over it.
    private static func exercise(_ path: String, query: String) {
        var runtime: OpaquePointer?
        let status = cinematic_runtime_open(#"{"catalog":{"path":"\#(path)"},"favorites":":memory:","clock":"manual"}"#, &runtime)
        checkStatus(status)
        guard status == 0 else { return }
        defer { checkStatus(cinematic_runtime_close(runtime)) }
        waitUntilLoaded(runtime)
        let queries = ["alien", "a", "godfather 2", "amelie", "matirx", "dune 1984", "alien 3", "zardoz", query]
        let search = open(runtime, "search", nil)
        for text in queries {
            var intent = #"{"type":"queryChanged","query":""}"#
            if let escaped = jsonString(text) { intent = #"{"type":"queryChanged","query":\#(escaped)}"# }
            checkStatus(cinematic_store_send(search, intent))
            checkStatus(cinematic_store_send(search, #"{"type":"submitted"}"#))
            checkStatus(cinematic_store_settle(search, 10_000))
            checkStatus(cinematic_store_send(search, #"{"type":"loadMore"}"#))
            checkStatus(cinematic_store_settle(search, 10_000))
            _ = readState(search)
        }
        let discover = open(runtime, "discover", nil)
        checkStatus(cinematic_store_send(discover, #"{"type":"task"}"#))
        checkStatus(cinematic_store_settle(discover, 10_000))
        for section in ["popular", "topRated", "action", "comedy"] {
            checkStatus(cinematic_store_send(discover, #"{"type":"loadMore","section":"\#(section)"}"#))
            checkStatus(cinematic_store_settle(discover, 10_000))
        }
        _ = readState(discover)
        for id in 0...9 {
            let detail = open(runtime, "detail", #"{"movieId":\#(id)}"#)
            checkStatus(cinematic_store_send(detail, #"{"type":"task"}"#))
            waitForDetail(detail)
            checkStatus(cinematic_store_close(detail))
        }
    }

    private static func open(_ runtime: OpaquePointer?, _ feature: String, _ args: String?) -> OpaquePointer? {
        var store: OpaquePointer?
        precondition(cinematic_store_open(runtime, feature, args, &store) == 0, "cannot open \(feature)")
        return store
    }

    private static func readState(_ store: OpaquePointer?) -> String {
        var state: UnsafeMutablePointer<CChar>?
        precondition(cinematic_store_state(store, &state) == 0)
        defer { cinematic_free(state) }
        return String(cString: state!)
    }

    /// The catalog loads or fails within 10 s (a hang otherwise).
    private static func waitUntilLoaded(_ runtime: OpaquePointer?) {
        for _ in 0..<10_000 {
            var state: UnsafeMutablePointer<CChar>?
            precondition(cinematic_runtime_catalog_state(runtime, &state) == 0)
            let loading = String(cString: state!).contains("\"loading\"")
            cinematic_free(state)
            if !loading { return }
            usleep(1_000)
        }
        preconditionFailure("the catalog is still loading after 10 s")
    }

    /// A Detail's phase becomes loaded or failed within 10 s.
    private static func waitForDetail(_ detail: OpaquePointer?) {
        for _ in 0..<10_000 {
            let state = readState(detail)
            if state.contains(#""detail":{"phase":"loaded""#) || state.contains(#""detail":{"phase":"failed""#) { return }
            usleep(1_000)
        }
        preconditionFailure("a detail neither loaded nor failed in 10 s")
    }

    /// `text` as a JSON string (nil when it is not valid for one: the query is then empty).
    private static func jsonString(_ text: String) -> String? {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The bytes of the file at `path`.
func readFile(_ path: String) -> [UInt8] {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    precondition(fd >= 0, "cannot read \(path)")
    defer { close(fd) }
    var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        precondition(count >= 0)
        if count == 0 { return bytes }
        bytes += chunk[..<count]
    }
}
#endif
