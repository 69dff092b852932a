import CinematicData
import CinematicDomain
import Cinematic
import Foundation

/// A heart tap as a Favorites screen sees it, through the C API: from
/// `cinematic_store_send({"type":"favoriteToggled"})` on a loaded Detail store to the patch
/// observer of a Favorites store in the same runtime receiving the change (the write
/// committed to the favorites file, `synchronous=FULL`, included), with 0 and with 1,000
/// favorites already stored. Two runtimes over two files, taps alternating between them (each
/// tap adds the film, the next removes it), medians of `taps` each; the waits for the Detail
/// store to settle between taps are not timed. Target: 1,000 ÷ 0 ≤ 1.3x (issue 37: the store
/// updates the list by the change instead of reading the table back).
enum FavoritesTapCost {
    static let taps = 200
    static let sizes = [0, 1_000]

    /// One runtime: a favorites file holding `size` films, a Detail store on a film that is
    /// not among them, a Favorites store with a patch observer.
    final class Side: @unchecked Sendable {
        var runtime: OpaquePointer?
        var detail: OpaquePointer?
        var favorites: OpaquePointer?
        let delivered = DispatchSemaphore(value: 0)
        var bytes = 0

        static let observer: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void = { userdata, _, json in
            let side = Unmanaged<Side>.fromOpaque(userdata!).takeUnretainedValue()
            side.bytes = strlen(json!)
            side.delivered.signal()
        }

        init(size: Int, catalogPath: String, directory: URL) throws {
            let path = directory.appendingPathComponent("favorites-tap-\(size).sqlite").path
            let filler = try SQLiteFavorites.open(path: path)
            try awaitAll { for id in 0..<size { try await filler.add(Self.movie(id)) } }
            filler.close()
            let config = #"{"catalog":{"path":"\#(catalogPath)"},"favorites":"\#(path)"}"#
            try ABIRoundTrip.check(cinematic_runtime_open(config, &runtime), "runtime_open")
            try ABIRoundTrip.check(cinematic_store_open(runtime, "detail", #"{"movieId":15249}"#, &detail), "store_open")
            try ABIRoundTrip.check(cinematic_store_send(detail, #"{"type":"task"}"#), "send")
            try HeartTapLatency.waitFor(detail, #""phase":"loaded""#)
            try ABIRoundTrip.check(cinematic_store_open(runtime, "favorites", nil, &favorites), "store_open")
            try ABIRoundTrip.check(cinematic_store_observe_patches(favorites, Self.observer, Unmanaged.passUnretained(self).toOpaque()), "observe")
            try ABIRoundTrip.check(cinematic_store_send(favorites, #"{"type":"task"}"#), "send")
            // The observer's first deliveries: the current state, then the list once read.
            for _ in 0..<2 { guard delivered.wait(timeout: .now() + 10) == .success else { throw BenchError("no favorites state") } }
            usleep(100_000)
            while delivered.wait(timeout: .now()) == .success {}
        }

        /// One heart tap: send to the Favorites observer having the change.
        func tap() throws -> Duration {
            let clock = ContinuousClock(), start = clock.now
            _ = cinematic_store_send(detail, #"{"type":"favoriteToggled"}"#)
            guard delivered.wait(timeout: .now() + 10) == .success else { throw BenchError("the tap never reached Favorites") }
            let elapsed = clock.now - start
            try HeartTapLatency.waitFor(detail, #""isSaving":false"#)
            return elapsed
        }

        func close() { _ = cinematic_runtime_close(runtime) }

        /// A stored film that is not the Detail store's (ids from 1,000,000: not in the catalog).
        static func movie(_ index: Int) -> Movie {
            Movie(id: 1_000_000 + index, title: "Favorite film number \(index)", year: 1_950 + index % 60, runtime: 90 + index % 60,
                  rating: Double(index % 90) / 10, votes: 100 + index, genres: ["Drama", "Comedy"], mpaa: index.isMultiple(of: 3) ? nil : "PG")
        }
    }

    static func run(catalogPath: String, directory: URL) throws {
        let sides = try sizes.map { try Side(size: $0, catalogPath: catalogPath, directory: directory) }
        defer { sides.forEach { $0.close() } }
        var samples = sizes.map { _ in [Duration]() }
        for _ in 0..<taps {
            for (index, side) in sides.enumerated() { samples[index].append(try side.tap()) }
        }
        let medians = samples.map(Report.median)
        print("favorites: heart tap (Detail favoriteToggled) to the Favorites store's patch observer, C API, \(taps) taps each, alternating")
        for (index, size) in sizes.enumerated() {
            print("  at \(String(size).padding(toLength: 5, withPad: " ", startingAt: 0)) favorites  median \(Report.format(medians[index]))  p90 \(Report.format(Report.percentile(samples[index], 0.9)))  (\(sides[index].bytes) B per delivery)")
        }
        let ratio = Report.microseconds(medians[1]) / Report.microseconds(medians[0])
        print("  ratio 1,000 / 0  \(String(format: "%.2fx", ratio))  target: a heart tap at 1,000 favorites within 1.3x one at 0: \(ratio <= 1.3 ? "met" : "NOT met")")
    }

    /// Runs `body` to completion from synchronous code.
    static func awaitAll(_ body: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = LockedError()
        Task {
            do { try await body() } catch { failure.set(error) }
            done.signal()
        }
        done.wait()
        if let error = failure.get() { throw error }
    }
}

/// An error handed from a task to the thread waiting for it.
final class LockedError: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?
    func set(_ error: any Error) { lock.withLock { self.error = error } }
    func get() -> (any Error)? { lock.withLock { error } }
}
