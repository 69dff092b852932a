import CinematicData
import CinematicDomain
import CinematicTestSupport
import Foundation
import Testing

/// The development set and the frozen test set (docs/relevance.md). The development set's
/// misses are printed, to tune on; the test set prints its figures only: nobody changes the
/// engine while looking at its failures.
@Suite("Relevance sets: development and frozen test", .offThePool)
struct RelevanceSetTests {
    let catalog = TestCatalog.shared

    static func read(_ name: String) throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("relevance/\(name)")
        return try String(contentsOf: file, encoding: .utf8)
    }

    static func cases(_ split: String) throws -> [RelevanceSets.Case] {
        let generated = RelevanceSets.parse(try read("generated-\(split).tsv"), split: split)
        // The hand-written suite's kinds, apart from the generated families of the same name.
        let suite = RelevanceSets.parse(try read("queries.tsv")).filter { $0.split == split }.map {
            RelevanceSets.Case(family: "suite:" + $0.family, query: $0.query, title: $0.title, year: $0.year, k: $0.k, split: $0.split)
        }
        return generated + suite
    }

    /// Both sets are what tools/relevance-sets.py generates: a few hundred queries of every family.
    @Test func theSetsHoldEveryFamily() throws {
        for split in ["dev", "test"] {
            let families = Dictionary(grouping: try Self.cases(split), by: \.family).mapValues(\.count)
            for family in ["exact", "nothe", "subtitle", "subtitle-only", "sequel", "numeral", "ordinal", "abbrev",
                           "typo1", "typo2", "swap", "extra"] {
                #expect((families[family] ?? 0) >= 10, "\(split) \(family): \(families[family] ?? 0)")
            }
        }
    }

    @Test func theDevelopmentSetReachesItsFloor() throws {
        let scores = try RelevanceSets.evaluate(try Self.cases("dev")) { try catalog.search($0) }
        let total = RelevanceSets.total(scores)
        print(RelevanceSets.table(scores, title: "development set"))
        print(scores.flatMap(\.misses).joined(separator: "\n"))
        #expect(total.hit1 >= Self.developmentFloor, "development hit@1 \(total.hit1)")
    }

    /// Figures only: the test set's misses are never printed.
    @Test func theTestSetGeneralizes() throws {
        let dev = RelevanceSets.total(try RelevanceSets.evaluate(try Self.cases("dev")) { try catalog.search($0) })
        let scores = try RelevanceSets.evaluate(try Self.cases("test")) { try catalog.search($0) }
        let test = RelevanceSets.total(scores)
        print(RelevanceSets.table(scores, title: "test set (frozen)"))
        #expect(test.hit1 >= 0.92, "test hit@1 \(test.hit1)")
        #expect(dev.hit1 - test.hit1 <= 0.03, "gap \(dev.hit1 - test.hit1)")
    }

    /// The development set's hit@1 floor, raised as the engine improves.
    static let developmentFloor = 0.97
}
