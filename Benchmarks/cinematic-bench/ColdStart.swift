import Foundation

/// A cold start against SQLite FTS5's (issue "A user's catalog opens in milliseconds", part 3):
/// a new C host process, from its spawn to its first search result (the host prints
/// `since_spawn_us`: Benchmarks/c/spawn_clock.h), with every
/// file it maps besides the C library dropped from the page cache first (posix_fadvise
/// DONTNEED: no root needed, and the next read comes from the disk): ours is build/bin/catalog-host
/// on the embedded catalog, FTS5's build/bin/fts5-host on its prebuilt table of the same films.
/// Warm: the same runs with nothing dropped. After each cold run of ours, how much of the
/// library file the run brought into the page cache (mincore): what a first result reads.
/// Target: cold start <= 2x FTS5's, medians of ``rounds``, alternated.
enum ColdStart {
    static let rounds = 9

    /// What a side maps that the page cache may hold: its program, its libraries but libc, and its data.
    static func files(program: String, data: [String]) -> [String] {
        let libraries = ["libcinematic.so.0", "libjansson.so.4", "libsqlite3.so.0", "libz.so.1", "libgcc_s.so.1"]
        let system = libraries.dropFirst().map { "/lib/x86_64-linux-gnu/\($0)" }
        return [program, "build/lib/" + libraries[0]] + system + data
    }

    /// Milliseconds from spawning `program` to its first result, after dropping `evict` from the page cache.
    static func run(_ program: String, _ arguments: [String], evict: [String]) throws -> Double {
        evict.forEach(CatalogCost.evictFromPageCache)
        return try CatalogCost.once(arguments, library: "build/lib", program: program).number("since_spawn_us") / 1000
    }

    /// The bytes of the file at `path` in the page cache now.
    static func cachedBytes(_ path: String) -> Int {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0,
              let map = mmap(nil, Int(info.st_size), PROT_READ, MAP_SHARED, descriptor, 0), map != MAP_FAILED else { return 0 }
        defer { munmap(map, Int(info.st_size)) }
        let pages = (Int(info.st_size) + 4095) / 4096
        var vector = [UInt8](repeating: 0, count: pages)
        guard mincore(map, Int(info.st_size), &vector) == 0 else { return 0 }
        return vector.reduce(0) { $0 + Int($1 & 1) } * 4096
    }

    static func run(fts5Database: String) throws {
        guard FileManager.default.isExecutableFile(atPath: CatalogCost.host), FileManager.default.isExecutableFile(atPath: CatalogCost.fts5Host) else {
            print("cold start: skipped (build/bin/catalog-host or fts5-host is missing: run `make bench`)")
            return
        }
        let ours = files(program: CatalogCost.host, data: []), theirs = files(program: CatalogCost.fts5Host, data: [fts5Database])
        var cold: (ours: [Double], fts5: [Double]) = ([], []), warm: (ours: [Double], fts5: [Double]) = ([], [])
        var read: [Double] = []
        // Each side's warm run right after its cold one (the other side's cold run drops the
        // libraries both map).
        for _ in 0..<rounds {
            cold.ours.append(try run(CatalogCost.host, ["embedded", "dune"], evict: ours))
            read.append(Double(cachedBytes("build/lib/libcinematic.so.0")) / 1_048_576)
            warm.ours.append(try run(CatalogCost.host, ["embedded", "dune"], evict: []))
            cold.fts5.append(try run(CatalogCost.fts5Host, [fts5Database, "dune"], evict: theirs))
            warm.fts5.append(try run(CatalogCost.fts5Host, [fts5Database, "dune"], evict: []))
        }
        let median = CatalogCost.median
        let ratio = median(cold.ours) / median(cold.fts5)
        let library = Double((try? FileManager.default.attributesOfItem(atPath: "build/lib/libcinematic.so.0")[.size] as? Int) ?? 0) / 1_048_576
        print("cold start, spawn -> first result (medians of \(rounds), alternated; cold: the side's files dropped from the page cache)")
        print(String(format: "  ours (embedded catalog)  cold %.1f ms  warm %.1f ms  reads %.1f MiB of the %.1f MiB library", median(cold.ours), median(warm.ours), median(read), library))
        print(String(format: "  SQLite FTS5 (prebuilt)   cold %.1f ms  warm %.1f ms", median(cold.fts5), median(warm.fts5)))
        print(String(format: "  verdict: cold start %.1fx FTS5's %@ (target <= 2x)", ratio, ratio <= 2 ? "PASS" : "FAIL"))
    }
}
