import CinematicData
import CinematicDomain
import Foundation

/// Search latency inside the catalog over 200 varied queries, and the database build time.
enum SearchLatency {
    /// 200 queries: whole words, prefixes, multi-word titles, misspellings and no-match text,
    /// drawn deterministically from the catalog's own popular titles.
    static func queries(from catalog: SQLiteMovieCatalog) async throws -> [String] {
        var titles: [String] = []
        for page in 1...5 { titles += try await catalog.movies(in: .popular, page: page).map(\.title) }
        let words = titles.flatMap { $0.lowercased().split(separator: " ").map(String.init) }.filter { $0.count >= 4 }
        var queries: [String] = []
        for index in 0..<40 {
            let word = words[(index * 7) % words.count]
            let title = titles[(index * 3) % titles.count].lowercased()
            queries.append(word)                                            // whole word
            queries.append(String(word.prefix(2 + index % 3)))              // prefix while typing
            queries.append(title)                                           // multi-word title
            var misspelt = Array(word)                                      // swapped letters
            misspelt.swapAt(1, 2)
            queries.append(String(misspelt))
            queries.append("zq\(index)xv qqq")                              // no match
        }
        return queries
    }

    static func run(catalogPath path: String) async throws {
        let buildStart = ContinuousClock.now
        try CatalogDatabase.prepare(at: path)
        let buildTime = ContinuousClock.now - buildStart

        let catalog = try SQLiteMovieCatalog.open(path: path)
        let queries = try await queries(from: catalog)
        for query in queries { _ = try catalog.search(query) }          // warm the page cache
        var samples: [Duration] = []
        for _ in 0..<5 {
            for query in queries {
                let start = ContinuousClock.now
                _ = try catalog.search(query)
                samples.append(ContinuousClock.now - start)
            }
        }
        print("catalog search, \(queries.count) queries x 5 rounds over \(58_788) films")
        print("  p50 \(Report.format(Report.percentile(samples, 0.50)))  p99 \(Report.format(Report.percentile(samples, 0.99)))  max \(Report.format(samples.max()!))  (target p99 < 2 ms)")
        print("  database build: \(Report.format(buildTime))")
    }
}
