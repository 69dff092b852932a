import CinematicDomain

/// The relevance sets search is measured on (docs/relevance.md): the hand-written suite
/// (`Tests/relevance/queries.tsv`, split by its 6th column) and the queries generated from
/// the catalog's titles (`generated-dev.tsv`, `generated-test.tsv`), with hit@1, hit@3 and
/// MRR per family. The caller reads the files; this parses and scores them.
public enum RelevanceSets {
    /// One query and the film it must find.
    public struct Case: Sendable {
        /// The family (generated) or kind (hand-written).
        public let family: String
        /// The text searched, as typed.
        public let query: String
        /// The expected title, or "-" when no film may match.
        public let title: String
        /// The expected film's year (0 when no film may match).
        public let year: Int
        /// Within how many results the hand-written suite wants it (generated: 1).
        public let k: Int
        /// "dev" or "test".
        public let split: String

        /// Creates a case.
        public init(family: String, query: String, title: String, year: Int, k: Int, split: String) {
            (self.family, self.query, self.title, self.year, self.k, self.split) = (family, query, title, year, k, split)
        }
    }

    /// The scores of one family.
    public struct Score: Sendable {
        /// The family scored ("all" for a total).
        public var family: String
        /// Queries.
        public var count = 0
        /// Queries whose film came first.
        public var top1 = 0
        /// Queries whose film came in the first three.
        public var top3 = 0
        /// Sum of 1/position (first page), for the mean reciprocal rank.
        public var reciprocal = 0.0
        /// The misses at the top: query, expected, what came first (never printed for the test set).
        public var misses: [String] = []

        /// Share of queries whose film came first.
        public var hit1: Double { count == 0 ? 0 : Double(top1) / Double(count) }
        /// Share of queries whose film came in the first three.
        public var hit3: Double { count == 0 ? 0 : Double(top3) / Double(count) }
        /// Mean reciprocal rank over the first page.
        public var mrr: Double { count == 0 ? 0 : reciprocal / Double(count) }
    }

    /// True when `movie` is the film titled `title`: its title, or its title with the English
    /// name it is shown with ("Shichinin no samurai (Seven Samurai)" is "Shichinin no samurai").
    public static func isTitled(_ movie: Movie, _ title: String) -> Bool {
        movie.title == title || movie.title.hasPrefix(title + " (") && movie.title.hasSuffix(")")
    }

    /// The rows of a suite file: `kind query title year k [split]` (hand-written) or
    /// `family query title year` (generated, whose split is `split`).
    public static func parse(_ text: String, split fixed: String? = nil) -> [Case] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 4, let year = Int(f[3]) else { return nil }
            let k = f.count > 4 ? Int(f[4]) ?? 1 : 1
            return Case(family: f[0], query: f[1], title: f[2], year: year, k: k, split: fixed ?? (f.count > 5 ? f[5] : "dev"))
        }
    }

    /// Scores `cases` with `search` (a query's first page), per family, in family order.
    public static func evaluate(_ cases: [Case], search: (String) throws -> [Movie]) rethrows -> [Score] {
        var scores: [String: Score] = [:]
        var order: [String] = []
        for c in cases {
            let results = try search(c.query)
            var score = scores[c.family] ?? { order.append(c.family); return Score(family: c.family) }()
            score.count += 1
            let position: Int?
            if c.title == "-" {
                position = results.isEmpty ? 0 : nil
            } else {
                position = results.firstIndex { Self.isTitled($0, c.title) && $0.year == c.year }
            }
            if let position {
                if position == 0 { score.top1 += 1 }
                if position < 3 { score.top3 += 1 }
                score.reciprocal += 1 / Double(position + 1)
            }
            if position != 0 {
                let got = results.prefix(3).map { "\($0.title) (\($0.year))" }.joined(separator: "; ")
                score.misses.append("\(c.family)\t\(c.query)\twanted \(c.title) (\(c.year)) at \(position.map { String($0 + 1) } ?? "-")\tgot \(got)")
            }
            scores[c.family] = score
        }
        return order.map { scores[$0]! }
    }

    /// All families together.
    public static func total(_ scores: [Score]) -> Score {
        var all = Score(family: "all")
        for s in scores {
            all.count += s.count
            all.top1 += s.top1
            all.top3 += s.top3
            all.reciprocal += s.reciprocal
        }
        return all
    }

    /// `value` (0...1) with three decimals: "0.875".
    public static func decimal(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A table: one line per family, then the total.
    public static func table(_ scores: [Score], title: String) -> String {
        func percent(_ value: Double) -> String {
            let tenths = Int((value * 1000).rounded())
            return "\(tenths / 10).\(tenths % 10)%"
        }
        func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count) }
        var lines = ["\(title)", "  \(pad("family", 15))\(pad("n", 6))\(pad("hit@1", 9))\(pad("hit@3", 9))MRR"]
        for s in scores + [total(scores)] {
            lines.append("  \(pad(s.family, 15))\(pad(String(s.count), 6))\(pad(percent(s.hit1), 9))\(pad(percent(s.hit3), 9))\(decimal(s.mrr))")
        }
        return lines.joined(separator: "\n")
    }
}
