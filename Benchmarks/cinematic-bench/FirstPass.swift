import CinematicData
import Foundation

/// The first time each keystroke is typed, in a process of its own (issue "Search that knows a
/// film by every name", part 5: the first-time typo walk at 1,000,000 films has a bound):
/// a child process opens the index, types every keystroke of the suite once (no query and no
/// typo lookup cached, no table built by an earlier run) and prints its p50, p99 and max.
enum FirstPass {
    /// The goal for the first-pass p99 at 1,000,000 films.
    static let goal = Duration.milliseconds(2)

    /// The child: `cinematic-bench first-pass INDEX` prints `p50 <µs>`, `p99 <µs>`, `max <µs>`.
    static func child(_ arguments: [String]) throws -> Bool {
        guard arguments.first == "first-pass", arguments.count == 2 else { return false }
        let catalog = try SQLiteMovieCatalog.open(.index(path: arguments[1]))
        catalog.waitUntilLoaded()
        let samples = try SearchLatency.keystrokeLatency(catalog, SearchLatency.keystrokes(try SearchLatency.suite()))
        for (name, value) in [("p50", Report.percentile(samples, 0.50)), ("p99", Report.percentile(samples, 0.99)), ("max", samples.max()!)] {
            print("\(name) \(Report.microseconds(value))")
        }
        return true
    }

    /// Runs the child over `index` and prints its line, with the goal's verdict.
    static func run(index: String, films: String) throws {
        let run = try CatalogCost.once(["first-pass", index], library: nil, program: CommandLine.arguments[0])
        let p50 = run.number("p50"), p99 = run.number("p99"), max = run.number("max")
        guard !p50.isNaN, !p99.isNaN, !max.isNaN else { throw BenchError("first-pass child printed no figures") }
        let met = p99 <= Report.microseconds(goal)
        print("  \(films) a fresh process, first pass: p50 \(Report.format(.microseconds(p50))), p99 \(Report.format(.microseconds(p99))), "
              + "max \(Report.format(.microseconds(max)))  (goal p99 <= 2 ms: \(met ? "met" : "not met"))")
    }
}
