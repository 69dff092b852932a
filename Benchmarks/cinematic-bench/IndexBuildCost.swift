import CinematicData
import Foundation

/// `cinematic-bench build`: building an index of 1,000,000 synthetic films (``SyntheticCatalog``,
/// written once as a movie file) with our builder (`MovieFile.buildIndex`, what
/// `cinematic_catalog_build_index` runs) against SQLite FTS5 building a full-text table over the
/// same file's titles (build/bin/fts5-host, the catalog cost's baseline too), each in a child
/// process of its own (ours: this program again, in a child mode), so the wall time, CPU time
/// and peak RSS (``measure(command:)``) are the builder's own, at 58,788 films and at 1,000,000
/// (how each grows with the films). Targets: build time <= 1.5x FTS5's (issue 49; issue 37
/// asked 2x), peak RSS <= 2x the index file. CINEMATIC_BENCH_BUILD_FILMS sets another
/// number of films.
enum IndexBuildCost {
    /// What one child process cost.
    struct Cost {
        let wall: Duration
        let cpuSeconds: Double
        let peakBytes: Int
    }

    /// Runs a child mode when `arguments` name one (`build-index SOURCE INDEX`,
    /// `build-synthetic COUNT INDEX`, `build-embedded INDEX`, `write-movies COUNT FILE`); false
    /// otherwise.
    static func child(_ arguments: [String]) throws -> Bool {
        switch (arguments.first, arguments.count) {
        case ("build-index", 3): try MovieFile.buildIndex(from: arguments[1], to: arguments[2], libraryVersion: "bench")
        case ("build-synthetic", 3): try SyntheticCatalog.writeIndex(count: Int(arguments[1])!, to: arguments[2])
        case ("build-embedded", 2): try MovieFile.buildEmbeddedIndex(to: arguments[1], libraryVersion: "bench")
        case ("write-movies", 3): try SyntheticCatalog.movieFileText(count: Int(arguments[1])!).write(toFile: arguments[2], atomically: true, encoding: .utf8)
        default: return false
        }
        return true
    }

    /// Runs this program with `arguments` (a child mode) in a child process; its wall time
    /// and resources (``measure(command:)``).
    static func measure(_ arguments: [String]) throws -> Cost {
        try measure(command: [try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")] + arguments)
    }

    /// Runs `command` in a child process; its wall time and resources. Through /usr/bin/time
    /// when there is one: a child spawned from this process starts as a copy of it, and Linux
    /// keeps the larger of its peak RSS before and after `exec`, so `wait4` would count this
    /// process's peak too; /usr/bin/time's child starts small.
    static func measure(command program: [String]) throws -> Cost {
        struct Failure: Error { let message: String }
        let arguments = Array(program.dropFirst())
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-bench-time-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let timed = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        let command = (timed ? ["/usr/bin/time", "-f", "%M", "-o", report] : []) + program
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        // The child's own report (fts5-host prints its figures) is not this table's.
        var quiet = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&quiet)
        defer { posix_spawn_file_actions_destroy(&quiet) }
        posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0)
        guard posix_spawn(&pid, command[0], &quiet, nil, argv, environ) == 0 else { throw Failure(message: "cannot run \(command[0])") }
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

    /// Both builds of `films` synthetic films: ours, FTS5's, and the bytes each wrote.
    static func builds(_ films: Int, in directory: URL) throws -> (ours: Cost, theirs: Cost, index: Int, fts: Int, movies: Int) {
        let movies = directory.appendingPathComponent("movies-\(films).tsv").path
        let index = directory.appendingPathComponent("build-\(films).idx").path
        let fts = directory.appendingPathComponent("fts5-\(films).db").path
        _ = try measure(["write-movies", "\(films)", movies])
        defer { for path in [movies, index, fts] { try? FileManager.default.removeItem(atPath: path) } }
        let ours = try measure(["build-index", movies, index])
        // The same films in SQLite FTS5 (Benchmarks/c/fts5_host.c, built by `make bench`).
        let theirs = try measure(command: [CatalogCost.fts5Host, "build", movies, fts])
        func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        return (ours, theirs, size(index), size(fts), size(movies))
    }

    static func run(directory: URL) throws {
        let films = Int(ProcessInfo.processInfo.environment["CINEMATIC_BENCH_BUILD_FILMS"] ?? "") ?? 1_000_000
        // The scaling: the embedded catalog's size, then `films`.
        let small = 58_788
        // Nothing is built without the baseline to compare with.
        guard FileManager.default.isExecutableFile(atPath: CatalogCost.fts5Host) else {
            print("index build: skipped (\(CatalogCost.fts5Host) is missing: run `make bench`)")
            return
        }
        let base = try builds(small, in: directory), built = try builds(films, in: directory)
        let (ours, theirs) = (built.ours, built.theirs)
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
        func line(_ name: String, _ cost: Cost, _ output: Int) -> String {
            "  \(SearchLatency.pad(name, 26))\(SearchLatency.pad(Report.format(cost.wall), 11))\(SearchLatency.pad(String(format: "%.1f s", cost.cpuSeconds), 10))\(SearchLatency.pad(megabytes(cost.peakBytes), 13))\(megabytes(output))"
        }
        let timeRatio = Report.microseconds(ours.wall) / Report.microseconds(theirs.wall)
        let memoryRatio = Double(ours.peakBytes) / Double(max(1, built.index))
        // How the time grows with the films: t ~ n^k between the two sizes.
        func growth(_ a: Cost, _ b: Cost) -> Double {
            log(Report.microseconds(b.wall) / Report.microseconds(a.wall)) / log(Double(films) / Double(small))
        }
        print("index build, side by side (\(films) synthetic films from one movie file (\(megabytes(built.movies))), each build in a child process)")
        print("  builder                   wall       cpu       peak RSS     output")
        print(line("ours (cinematic index)", ours, built.index))
        print(line("SQLite FTS5 (fts5-host)", theirs, built.fts))
        print(String(format: "  scaling from %d films (ours %@, FTS5 %@): time grows as n^%.2f (ours), n^%.2f (FTS5); ratio %.2fx at %d",
                     small, Report.format(base.ours.wall), Report.format(base.theirs.wall), growth(base.ours, ours), growth(base.theirs, theirs),
                     Report.microseconds(base.ours.wall) / Report.microseconds(base.theirs.wall), small))
        print("  verdicts: build time \(String(format: "%.2fx", timeRatio)) FTS5's \(timeRatio <= 1.5 ? "PASS" : "FAIL") (target <= 1.5x); peak RSS \(String(format: "%.2fx", memoryRatio)) the index \(memoryRatio <= 2 ? "PASS" : "FAIL") (target <= 2x)")
    }
}
