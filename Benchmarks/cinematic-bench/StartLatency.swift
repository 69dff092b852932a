import Foundation

/// Process start → first search result: `build/bin/cinematic-search dune` (a C host on
/// build/lib/libcinematic.so.0, built by `make lib example`) run as a new process with an
/// empty HOME and XDG_CACHE_HOME. Cold: the first run after the library was built (no cache
/// anywhere: the index is inside the library); warm: the median of the next 9. Also checks
/// that Dune (1984) comes first and that nothing was written under the empty home.
enum StartLatency {
    static func run(directory: URL) throws {
        let tool = "build/bin/cinematic-search"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            print("process start -> first result: skipped (\(tool) is missing: run `make lib example`)")
            return
        }
        let home = directory.appendingPathComponent("empty-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        func once() throws -> (Duration, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = ["dune"]
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            let start = ContinuousClock.now
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (ContinuousClock.now - start, String(decoding: data, as: UTF8.self))
        }
        let (cold, coldOutput) = try once()
        var warm: [Duration] = []
        for _ in 0..<9 { warm.append(try once().0) }
        let first = coldOutput.split(separator: "\n").first { $0.hasPrefix("Dune") || $0.contains("1984") } ?? "?"
        let written = (try? FileManager.default.subpathsOfDirectory(atPath: home.path))?.count ?? -1
        print("process start -> first search result (\(tool) dune, empty HOME and XDG_CACHE_HOME)")
        print("  cold \(Report.format(cold))  warm \(Report.format(Report.median(warm)))  cold/warm \(Report.ratio(cold, Report.median(warm)))  (target < 1 s)")
        print("  first result: \(first.trimmingCharacters(in: .whitespaces)); files written under the empty home: \(written)")
    }
}
