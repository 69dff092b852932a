import CinematicData
import CinematicDomain
import Foundation

/// Search inside the catalog: relevance (hit@1, hit@3 and MRR per family over the development
/// and the frozen test set, and their gap: ``Relevance``), keystroke latency (every prefix of every suite query, as typed), paging depth (page 100
/// against page 1, for Search and for Discover), the index build, size and load, and the
/// same keystroke latency over a synthetic 1,000,000-film catalog whose vocabulary grows
/// with it (``SyntheticCatalog``).
enum SearchLatency {
    struct Case {
        let kind, query, title: String
        let year, k: Int
    }

    /// Tests/relevance/queries.tsv (the hand-written suite, whose prefixes are the keystrokes).
    static func suite() throws -> [Case] {
        try String(contentsOfFile: "Tests/relevance/queries.tsv", encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Case(kind: f[0], query: f[1], title: f[2], year: Int(f[3])!, k: Int(f[4])!)
            }
    }

    /// Every prefix of 2 or more characters of every query, in typing order.
    static func keystrokes(_ cases: [Case]) -> [String] {
        cases.flatMap { c in (2...max(2, c.query.count)).map { String(c.query.prefix($0)) } }
    }

    static func time(_ body: () throws -> Void) rethrows -> Duration {
        let start = ContinuousClock.now
        try body()
        return ContinuousClock.now - start
    }

    static func keystrokeLatency(_ catalog: SQLiteMovieCatalog, _ typed: [String]) throws -> [Duration] {
        try typed.map { query in try time { _ = try catalog.search(query) } }
    }

    static func run(catalogPath path: String, directory: URL, buildTime: Duration) async throws {
        let cases = try suite()
        let catalog = try SQLiteMovieCatalog.open(.index(path: path))
        catalog.waitUntilLoaded()

        try Relevance.run(catalog)

        let typed = keystrokes(cases)
        let fresh = try SQLiteMovieCatalog.open(.index(path: path))
        let loadTime = time { fresh.waitUntilLoaded() }
        let samples = try keystrokeLatency(fresh, typed)
        if ProcessInfo.processInfo.environment["CINEMATIC_BENCH_SLOWEST"] != nil {
            for (query, took) in zip(typed, samples).sorted(by: { $0.1 > $1.1 }).prefix(20) { print("    \(Report.format(took))  \"\(query)\"") }
        }

        // CINEMATIC_BENCH_1M names a synthetic index to reuse (built there when missing).
        let environment = ProcessInfo.processInfo.environment
        let bigPath = environment["CINEMATIC_BENCH_1M"] ?? directory.appendingPathComponent("catalog-1m.idx").path
        var vocabulary = 0
        let bigBuild = FileManager.default.fileExists(atPath: bigPath) && environment["CINEMATIC_BENCH_1M"] != nil
            ? Duration.zero : try time { vocabulary = try SyntheticCatalog.writeIndex(count: 1_000_000, to: bigPath) }
        let big = try SQLiteMovieCatalog.open(.index(path: bigPath))
        let bigLoad = time { big.waitUntilLoaded() }
        let bigSamples = try keystrokeLatency(big, typed)
        if environment["CINEMATIC_BENCH_SLOWEST"] != nil {
            for (query, took) in zip(typed, bigSamples).sorted(by: { $0.1 > $1.1 }).prefix(20) { print("    \(Report.format(took))  \"\(query)\"") }
        }
        // CINEMATIC_BENCH_TIMINGS names a file for every keystroke's time (query, µs at 58,788
        // films, µs at 1,000,000), to compare two builds keystroke by keystroke.
        if let path = environment["CINEMATIC_BENCH_TIMINGS"] {
            func micros(_ d: Duration) -> String { String(Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6) }
            let lines = zip(typed, zip(samples, bigSamples)).map { "\($0.0)\t\(micros($0.1.0))\t\(micros($0.1.1))" }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        big.close()
        print("\nsearch index, side by side (\(typed.count) keystrokes: every prefix of every suite query, searched from memory,")
        print("each typed once into a catalog just opened: the first pass, no query or typo lookup cached)")
        print("  films       build      size       load into memory  keystroke p50  p99        max        (targets: p99 < 1 ms / < 10 ms, size <= 12 MB)")
        print("  58,788      \(pad(Report.format(buildTime)))\(pad(megabytes(path)))\(pad(Report.format(loadTime), 18))\(pad(Report.format(Report.percentile(samples, 0.50)), 15))\(pad(Report.format(Report.percentile(samples, 0.99))))\(Report.format(samples.max()!))")
        print("  1,000,000   \(pad(Report.format(bigBuild)))\(pad(megabytes(bigPath)))\(pad(Report.format(bigLoad), 18))\(pad(Report.format(Report.percentile(bigSamples, 0.50)), 15))\(pad(Report.format(Report.percentile(bigSamples, 0.99))))\(Report.format(bigSamples.max()!))")
        if vocabulary > 0 { print("  (synthetic: \(vocabulary) distinct title words; invented words, typos and continuations grow it with the catalog)") }
        try FirstPass.run(index: bigPath, films: "1,000,000")

        try await paging(catalogPath: path)
    }

    /// Every prefix of each query, typed 5 times into fresh catalogs, with its median time.
    static func type(indexPath: String, queries: [String]) throws {
        var runs: [[Duration]] = []
        for _ in 0..<5 {
            let catalog = try SQLiteMovieCatalog.open(.index(path: indexPath))
            catalog.waitUntilLoaded()
            runs.append(try keystrokeLatency(catalog, keystrokes(queries.map { Case(kind: "", query: $0, title: "", year: 0, k: 0) })))
            catalog.close()
        }
        let typed = keystrokes(queries.map { Case(kind: "", query: $0, title: "", year: 0, k: 0) })
        for (index, query) in typed.enumerated() { print("\(pad(Report.format(Report.median(runs.map { $0[index] })), 12))\(query)") }
    }

    static func pad(_ text: String, _ width: Int = 11) -> String { text.padding(toLength: max(width, text.count + 1), withPad: " ", startingAt: 0) }

    static func megabytes(_ path: String) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return String(format: "%.1f MB", Double(size) / 1e6)
    }

    /// Page 100 against page 1, paging on as a user scrolls (each page after the one before).
    static func paging(catalogPath path: String) async throws {
        var searchFirst: [Duration] = [], searchHundredth: [Duration] = []
        var discoverFirst: [Duration] = [], discoverHundredth: [Duration] = [], discoverOffset: [Duration] = []
        for round in 0..<5 {
            let catalog = try SQLiteMovieCatalog.open(.index(path: path))
            catalog.waitUntilLoaded()
            let query = ["the", "love", "man", "night", "day"][round]
            for page in 1...100 {
                let took = try time { _ = try catalog.search(query, page: page) }
                if page == 1 { searchFirst.append(took) }
                if page == 100 { searchHundredth.append(took) }
            }
            for page in 1...100 {
                let start = ContinuousClock.now
                _ = try await catalog.movies(in: .genre("Comedy"), page: page)
                let took = ContinuousClock.now - start
                if page == 1 { discoverFirst.append(took) }
                if page == 100 { discoverHundredth.append(took) }
            }
            // Page 100 with no page before it: the OFFSET fallback, for comparison.
            let fresh = try SQLiteMovieCatalog.open(.index(path: path))
            fresh.waitUntilLoaded()
            let start = ContinuousClock.now
            _ = try await fresh.movies(in: .genre("Comedy"), page: 100)
            discoverOffset.append(ContinuousClock.now - start)
        }
        let (s1, s100) = (Report.median(searchFirst), Report.median(searchHundredth))
        let (d1, d100) = (Report.median(discoverFirst), Report.median(discoverHundredth))
        print("\npaging, page 100 against page 1 (medians of 5 runs, paging on page by page)")
        print("  search (\"the\", \"love\", ...)  page 1 \(Report.format(s1))  page 100 \(Report.format(s100))  ratio \(Report.ratio(s100, s1))  (goal <= 2x)")
        print("  discover (Comedy, keyset)    page 1 \(Report.format(d1))  page 100 \(Report.format(d100))  ratio \(Report.ratio(d100, d1))  (goal <= 2x)")
        print("  discover page 100 by OFFSET (no page before it)  \(Report.format(Report.median(discoverOffset)))")
    }

    static func percent(_ part: Int, _ whole: Int) -> String { String(format: "%.1f%%", 100.0 * Double(part) / Double(max(1, whole))) }
}
