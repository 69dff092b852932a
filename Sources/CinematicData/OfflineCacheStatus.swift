import CinematicDomain

/// Whether an ``OfflineCache`` is working, and what last went wrong with it. The cache never
/// fails a request (a store that fails caches nothing, a lookup that fails finds nothing), so
/// this is how the layer above learns of a problem and reports it: errors are never silent.
///
/// ```swift
/// let status = cache.status
/// if !status.isUsable { log("running without the offline cache: \(status.lastError!.message)") }
/// ```
public struct OfflineCacheStatus: Sendable, Equatable {
    /// False when the cache runs without its file because another connection kept it locked
    /// past the busy timeout at open (nothing was changed): stores are dropped and lookups
    /// find nothing until the cache is opened again. A cache that works, even one whose last
    /// operation failed, is usable.
    public var isUsable: Bool
    /// The latest failure (at open, or of a store, lookup or replacement); nil when none.
    public var lastError: MovieError?
    /// How many operations failed since the cache was opened.
    public var failures: Int
    /// How many times our own damaged file was replaced by an empty cache since it was opened.
    public var replacements: Int

    /// A working cache with nothing to report.
    package static let working = OfflineCacheStatus(isUsable: true, lastError: nil, failures: 0, replacements: 0)

    /// This status with `error` recorded as the latest failure.
    package func failed(_ error: MovieError, usable: Bool) -> OfflineCacheStatus {
        OfflineCacheStatus(isUsable: usable, lastError: error, failures: failures + 1, replacements: replacements)
    }
}
