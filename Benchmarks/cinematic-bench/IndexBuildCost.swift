import CinematicData
import CSQLite
import Foundation

/// `cinematic-bench build`: building an index of 1,000,000 synthetic films (``SyntheticCatalog``,
/// written once as a movie file) with our builder (`MovieFile.buildIndex`, what
/// `cinematic_catalog_build_index` runs) against SQLite FTS5 building a full-text table over the
/// same file's titles, each in a child process of its own (this program again, in a child mode),
/// so the wall time, CPU time and peak RSS (``measure(_:)``) are the builder's own. Targets (issue
/// 37): build time <= 2x FTS5's, peak RSS <= 2x the index file. CINEMATIC_BENCH_BUILD_FILMS sets
/// another number of films.
enum IndexBuildCost {
    /// What one child process cost.
    struct Cost {
        let wall: Duration
        let cpuSeconds: Double
        let peakBytes: Int
    }

    /// Runs a child mode when `arguments` name one (`build-index SOURCE INDEX`, `fts5 SOURCE
    /// DATABASE`, `build-synthetic COUNT INDEX`, `build-embedded INDEX`); false otherwise.
    static func child(_ arguments: [String]) throws -> Bool {
        switch (arguments.first, arguments.count) {
        case ("build-index", 3): try MovieFile.buildIndex(from: arguments[1], to: arguments[2], libraryVersion: "bench")
        case ("build-synthetic", 3): try SyntheticCatalog.writeIndex(count: Int(arguments[1])!, to: arguments[2])
        case ("build-embedded", 2): try MovieFile.buildEmbeddedIndex(to: arguments[1], libraryVersion: "bench")
        case ("write-movies", 3): try SyntheticCatalog.movieFileText(count: Int(arguments[1])!).write(toFile: arguments[2], atomically: true, encoding: .utf8)
        case ("fts5", 3): try fts5(source: arguments[1], database: arguments[2])
        default: return false
        }
        return true
    }

    /// Builds an FTS5 table of the titles (column 2) of the movie file at `source`, one
    /// transaction, rowid = the film's id, reading the file line by line.
    static func fts5(source: String, database: String) throws {
        struct Failure: Error { let message: String }
        var db: OpaquePointer?
        guard sqlite3_open(database, &db) == SQLITE_OK, let db else { throw Failure(message: "cannot open \(database)") }
        defer { sqlite3_close(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure(message: String(cString: sqlite3_errmsg(db))) }
        }
        try exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; CREATE VIRTUAL TABLE films USING fts5(title); BEGIN")
        var insert: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO films (rowid, title) VALUES (?, ?)", -1, &insert, nil) == SQLITE_OK else {
            throw Failure(message: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(insert) }
        guard let file = fopen(source, "r") else { throw Failure(message: "cannot read \(source)") }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?, capacity = 0
        defer { free(line) }
        var header = true
        while getline(&line, &capacity, file) > 0, let text = line {
            if header { header = false; continue }
            guard let tab = strchr(text, 9), let end = strchr(tab + 1, 9) else { continue }
            sqlite3_bind_int64(insert, 1, Int64(atoll(text)))
            sqlite3_bind_text(insert, 2, tab + 1, Int32(end - tab - 1), nil)
            guard sqlite3_step(insert) == SQLITE_DONE else { throw Failure(message: String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(insert)
        }
        try exec("COMMIT")
    }

    /// Runs this program with `arguments` in a child process; its wall time and resources.
    /// Through /usr/bin/time when there is one: a child spawned from this process starts as
    /// a copy of it, and Linux keeps the larger of its peak RSS before and after `exec`, so
    /// `wait4` would count this process's peak too; /usr/bin/time's child starts small.
    static func measure(_ arguments: [String]) throws -> Cost {
        struct Failure: Error { let message: String }
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-bench-time-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let timed = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        let command = (timed ? ["/usr/bin/time", "-f", "%M", "-o", report] : []) + [program] + arguments
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        guard posix_spawn(&pid, command[0], nil, nil, argv, environ) == 0 else { throw Failure(message: "cannot run \(command[0])") }
        var status: Int32 = 0, usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { throw Failure(message: "wait4 failed") }
        let wall = ContinuousClock.now - start
        guard status == 0 else { throw Failure(message: "\(arguments.joined(separator: " ")) exited with status \(status)") }
        // wait4 counts /usr/bin/time's child in its CPU time (it waited for it).
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        var peakKiB = usage.ru_maxrss
        if timed, let text = try? String(contentsOfFile: report, encoding: .utf8),
           let value = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            peakKiB = value
        }
        return Cost(wall: wall, cpuSeconds: cpu, peakBytes: peakKiB * 1024)
    }

    static func run(directory: URL) throws {
        let films = Int(ProcessInfo.processInfo.environment["CINEMATIC_BENCH_BUILD_FILMS"] ?? "") ?? 1_000_000
        let movies = directory.appendingPathComponent("movies-\(films).tsv").path
        let index = directory.appendingPathComponent("build-\(films).idx").path
        let fts = directory.appendingPathComponent("fts5-\(films).db").path
        _ = try measure(["write-movies", "\(films)", movies])
        defer { for path in [movies, index, fts] { try? FileManager.default.removeItem(atPath: path) } }
        let ours = try measure(["build-index", movies, index])
        let theirs = try measure(["fts5", movies, fts])
        func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
        func line(_ name: String, _ cost: Cost, _ output: Int) -> String {
            "  \(SearchLatency.pad(name, 26))\(SearchLatency.pad(Report.format(cost.wall), 11))\(SearchLatency.pad(String(format: "%.1f s", cost.cpuSeconds), 10))\(SearchLatency.pad(megabytes(cost.peakBytes), 13))\(megabytes(output))"
        }
        let indexBytes = size(index)
        let timeRatio = Report.microseconds(ours.wall) / Report.microseconds(theirs.wall)
        let memoryRatio = Double(ours.peakBytes) / Double(max(1, indexBytes))
        print("index build, side by side (\(films) synthetic films from one movie file (\(megabytes(size(movies)))), each build in a child process)")
        print("  builder                   wall       cpu       peak RSS     output")
        print(line("ours (cinematic index)", ours, indexBytes))
        print(line("SQLite FTS5 (titles)", theirs, size(fts)))
        print("  verdicts: build time \(String(format: "%.2fx", timeRatio)) FTS5's \(timeRatio <= 2 ? "PASS" : "FAIL") (target <= 2x); peak RSS \(String(format: "%.2fx", memoryRatio)) the index \(memoryRatio <= 2 ? "PASS" : "FAIL") (target <= 2x)")
    }
}
