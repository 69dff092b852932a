// swift-tools-version:6.0
// Cinematic Core: an MVI runtime and a movie app's features, shipped as a C library.
import PackageDescription

/// Each feature's wire file (`Sources/CinematicFeatures/<Name>/<name>.wire.md` and its parts):
/// read by tools/wiregen.py, not compiled. The list is written by `make generate`.
let wireFiles = [
    // BEGIN GENERATED: wire files (tools/wiregen.py)
    "App/app.snapshot.wire.md",
    "App/app.values.wire.md",
    "App/app.wire.md",
    "Detail/detail.wire.md",
    "Discover/discover.wire.md",
    "Favorites/favorites.wire.md",
    "Search/search.wire.md",
    // END GENERATED
]

/// Every Swift target builds in Swift 6 language mode with complete strict concurrency.
let strict: [SwiftSetting] = [.enableUpcomingFeature("StrictConcurrency")]

let package = Package(
    name: "CinematicCore",
    products: [
        .library(name: "cinematic", type: .dynamic, targets: ["Cinematic"]),
        .library(name: "MVIKit", targets: ["MVIKit"]),
        .executable(name: "cinematic-demo", targets: ["cinematic-demo"]),
        .executable(name: "cinematic-bench", targets: ["cinematic-bench"]),
    ],
    targets: [
        // System libraries, found through pkg-config; the Makefile installs them.
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Linux headers the Glibc module leaves out (eventfd, renameat2).
        .systemLibrary(name: "CSystem"),
        // The movie catalog, embedded into the library at build time (data/ggplot2movies.tsv.gz).
        .target(name: "CinematicCatalogData"),

        // Each target declares exactly the modules it imports (checked by `make test-layering`).
        .target(name: "MVIKit", swiftSettings: strict),
        // The library's own threads (workers, a task executor, a condition variable): used by
        // the data layer and the C ABI; depends on nothing but Glibc.
        .target(name: "CinematicThreads", swiftSettings: strict),
        .target(name: "CinematicDomain", swiftSettings: strict),
        .target(
            name: "CinematicData",
            dependencies: ["CinematicDomain", "CinematicThreads", "CSQLite", "CZlib", "CSystem", "CinematicCatalogData"],
            swiftSettings: strict),
        .target(name: "CinematicFeatures", dependencies: ["CinematicDomain", "MVIKit"], exclude: wireFiles, swiftSettings: strict),
        .target(name: "Cinematic", dependencies: ["CinematicFeatures", "CinematicData", "CinematicDomain", "CinematicThreads", "MVIKit", "CJansson", "CSystem"], exclude: ["cinematic.map"], swiftSettings: strict),

        // Evidence, not product: Search built MV, MVVM and MVI (docs/comparison.md). Nothing
        // shipped links it (checked by `make test-layering`).
        .target(name: "CinematicComparison", dependencies: ["CinematicDomain", "MVIKit"], swiftSettings: strict),

        .executableTarget(name: "cinematic-demo", dependencies: ["CinematicFeatures", "CinematicData", "CinematicDomain", "MVIKit"], swiftSettings: strict),
        // `make fuzz` only: built with -sanitize=fuzzer,address -parse-as-library.
        .executableTarget(name: "cinematic-fuzz", dependencies: ["Cinematic", "CSQLite"], path: "Fuzz/cinematic-fuzz", swiftSettings: strict),
        .executableTarget(name: "cinematic-bench", dependencies: ["Cinematic", "CinematicData", "CinematicDomain", "CinematicFeatures", "MVIKit", "CSQLite", "CinematicTestSupport"], path: "Benchmarks/cinematic-bench", swiftSettings: strict),
        // The ABI benchmark's keystrokes without Foundation, for callgrind (Benchmarks/profile-abi.sh).
        .executableTarget(name: "cinematic-abi-profile", dependencies: ["Cinematic", "CinematicData", "CinematicDomain", "CinematicFeatures", "MVIKit"], path: "Benchmarks/abi-profile", swiftSettings: strict),

        // Helpers shared by the test targets: bounded waits, recorders, catalog doubles.
        .target(name: "CinematicTestSupport", dependencies: ["MVIKit", "CinematicDomain", "CinematicThreads"], path: "Tests/CinematicTestSupport", swiftSettings: strict),
        .testTarget(name: "MVIKitTests", dependencies: ["MVIKit", "CinematicThreads", "CinematicTestSupport"], swiftSettings: strict),
        .testTarget(name: "CinematicThreadsTests", dependencies: ["CinematicThreads", "MVIKit", "CinematicTestSupport"], swiftSettings: strict),
        .testTarget(name: "CinematicDomainTests", dependencies: ["CinematicDomain", "CinematicTestSupport"], swiftSettings: strict),
        // Test hooks (fault injection into FileIO's system calls and SQLite's VFS): linked by
        // the fault tests only, never by the shipped library (checked by `make test-no-hooks`).
        .target(name: "CinematicTestHooks", dependencies: ["CinematicData", "CSQLite"], path: "Tests/CinematicTestHooks", swiftSettings: strict),
        .testTarget(name: "CinematicDataTests", dependencies: ["CinematicData", "CinematicDomain", "MVIKit", "CinematicTestSupport", "CinematicTestHooks"], swiftSettings: strict),
        .testTarget(name: "CinematicFeaturesTests", dependencies: ["CinematicFeatures", "CinematicData", "CinematicDomain", "MVIKit", "CinematicTestSupport"], swiftSettings: strict),
        .testTarget(name: "CinematicComparisonTests", dependencies: ["CinematicComparison", "CinematicFeatures", "CinematicDomain", "MVIKit", "CinematicTestSupport"], swiftSettings: strict),
        .testTarget(name: "CinematicTests", dependencies: ["Cinematic", "CinematicData", "CinematicDomain", "CinematicFeatures", "CinematicThreads", "MVIKit", "CinematicTestHooks", "CinematicTestSupport"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
