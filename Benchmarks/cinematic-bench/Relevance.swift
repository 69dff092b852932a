import CinematicData
import CinematicDomain
import CinematicTestSupport
import Foundation

/// The relevance sets (docs/relevance.md): hit@1, hit@3 and MRR per family for the development
/// set and the frozen test set, and the generalization gap (development minus test). Prints
/// figures only, never a test-set query.
enum Relevance {
    /// The hand-written suite and the generated sets, as read from Tests/relevance.
    static func sets() throws -> (suite: [RelevanceSets.Case], dev: [RelevanceSets.Case], test: [RelevanceSets.Case]) {
        func read(_ name: String) throws -> String { try String(contentsOfFile: "Tests/relevance/\(name)", encoding: .utf8) }
        return (RelevanceSets.parse(try read("queries.tsv")), RelevanceSets.parse(try read("generated-dev.tsv"), split: "dev"),
                RelevanceSets.parse(try read("generated-test.tsv"), split: "test"))
    }

    static func run(_ catalog: SQLiteMovieCatalog) throws {
        let (suite, generatedDev, generatedTest) = try sets()
        let search: (String) throws -> [Movie] = { try catalog.search($0) }
        print("relevance (docs/relevance.md): hit@1, hit@3, MRR per family; tuned on the development set only")
        var totals: [String: (all: RelevanceSets.Score, generated: RelevanceSets.Score)] = [:]
        for split in ["dev", "test"] {
            let name = split == "dev" ? "development set" : "test set (frozen)"
            let generated = try RelevanceSets.evaluate(split == "dev" ? generatedDev : generatedTest, search: search)
            let written = try RelevanceSets.evaluate(suite.filter { $0.split == split }, search: search)
            print(RelevanceSets.table(generated, title: "\(name): generated from the catalog's titles"))
            print(RelevanceSets.table(written, title: "\(name): hand-written suite (hit@1 strict; the suite's own k passes in its test)"))
            totals[split] = (RelevanceSets.total(generated + written), RelevanceSets.total(generated))
        }
        func points(_ a: Double, _ b: Double) -> String { String(format: "%+.1f", 100 * (a - b)) }
        func line(_ label: String, _ dev: RelevanceSets.Score, _ test: RelevanceSets.Score) {
            let cells = [(dev.hit1, test.hit1), (dev.hit3, test.hit3)].map {
                String(format: "%5.1f%% %5.1f%% %5@", 100 * $0.0, 100 * $0.1, points($0.0, $0.1) as NSString)
            }
            print("  \(label.padding(toLength: 22, withPad: " ", startingAt: 0))hit@1 \(cells[0])   hit@3 \(cells[1])   MRR \(RelevanceSets.decimal(dev.mrr)) \(RelevanceSets.decimal(test.mrr))")
        }
        print("generalization: development, test, gap (development minus test; goal: test hit@1 >= 92%, gap <= 3 points)")
        line("all (n=\(totals["dev"]!.all.count)/\(totals["test"]!.all.count))", totals["dev"]!.all, totals["test"]!.all)
        line("generated (\(totals["dev"]!.generated.count)/\(totals["test"]!.generated.count))", totals["dev"]!.generated, totals["test"]!.generated)
    }
}
