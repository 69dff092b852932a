// `make bench`: benchmarks as programs, reported as medians and ratios from one run.
import CinematicData
import Foundation

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-bench-\(getpid())")
let catalogPath = directory.appendingPathComponent("catalog.idx").path
defer { try? FileManager.default.removeItem(at: directory) }
/// `cinematic-bench [start] [search] [catalog] [relevance] [abi] [recording] [heart] [favorites] [encoding] [cache] [delivery] [app] [build]`: the named benchmarks, all by default.
// `cinematic-bench type INDEX QUERY...`: every prefix of each query, typed into a fresh catalog
// 5 times, with its median time (to see where a keystroke's time goes).
// INDEX "embedded": the shipped catalog's index, built first.
if CommandLine.arguments.dropFirst().first == "type", CommandLine.arguments.count >= 4 {
    var path = CommandLine.arguments[2]
    if path == "embedded" {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("cinematic-bench-type-\(getpid()).idx").path
        try MovieFile.buildEmbeddedIndex(to: path, libraryVersion: "bench")
    }
    // Removed before exit(0), which runs no defer: the index built here is never left behind.
    let typed = Result { try SearchLatency.type(indexPath: path, queries: Array(CommandLine.arguments.dropFirst(3))) }
    if CommandLine.arguments[2] == "embedded" { try? FileManager.default.removeItem(atPath: path) }
    try typed.get()
    exit(0)
}
// Child modes of `build` (IndexBuildCost) and of `search` (FirstPass): in a process of their own.
if try IndexBuildCost.child(Array(CommandLine.arguments.dropFirst())) { exit(0) }
if try FirstPass.child(Array(CommandLine.arguments.dropFirst())) { exit(0) }
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }
do {
    // The embedded catalog's index, as `make lib` builds it, for every benchmark below.
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // CINEMATIC_BENCH_INDEX=FILE: a copy of FILE instead (profiling under valgrind skips the build).
    let start = ContinuousClock.now
    if let prebuilt = ProcessInfo.processInfo.environment["CINEMATIC_BENCH_INDEX"] {
        try FileManager.default.copyItem(atPath: prebuilt, toPath: catalogPath)
    } else {
        try MovieFile.buildEmbeddedIndex(to: catalogPath, libraryVersion: "bench")
    }
    let buildTime = ContinuousClock.now - start
    if wanted("start") { try StartLatency.run(directory: directory); print() }
    // `relevance` alone: the relevance tables without the latency runs (`search` prints both).
    if selected.contains("relevance") && !wanted("search") {
        let catalog = try SQLiteMovieCatalog.open(.index(path: catalogPath))
        catalog.waitUntilLoaded()
        try Relevance.run(catalog)
        print()
    }
    if wanted("search") { try await SearchLatency.run(catalogPath: catalogPath, directory: directory, buildTime: buildTime); print() }
    if wanted("catalog") {
        // The 1,000,000-film index `search` built (or CINEMATIC_BENCH_1M), built here when missing.
        let big = ProcessInfo.processInfo.environment["CINEMATIC_BENCH_1M"] ?? directory.appendingPathComponent("catalog-1m.idx").path
        if !FileManager.default.fileExists(atPath: big) { _ = try SyntheticCatalog.writeIndex(count: 1_000_000, to: big) }
        try CatalogCost.run(directory: directory, bigIndex: big)
        print()
    }
    if wanted("abi") { try await ABIRoundTrip.run(catalogPath: catalogPath); print() }
    if wanted("recording") { try RecordingOverhead.run(catalogPath: catalogPath, directory: directory); print() }
    if wanted("heart") { try HeartTapLatency.run(catalogPath: catalogPath, directory: directory); print() }
    if wanted("favorites") { try FavoritesTapCost.run(catalogPath: catalogPath, directory: directory); print() }
    if wanted("encoding") { try EncodingComparison.run(catalogPath: catalogPath); print() }
    if wanted("cache") { try await CachedAnswerLatency.run(catalogPath: catalogPath, directory: directory); print() }
    if wanted("delivery") { try DeliveryCost.run(catalogPath: catalogPath, directory: directory); print() }
    if wanted("app") { try AppCost.run(catalogPath: catalogPath); print() }
    if wanted("build") { try IndexBuildCost.run(directory: directory) }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
