import CinematicData
import CinematicFeatures
#if canImport(Glibc)
import Glibc
#endif

/// Entry points for `make bench` only: `package` access, so visible to this package's
/// benchmark and test targets and to no one else (the one door for seams).
package enum CinematicBenchmarks {
    /// Encodes `state` the way the C API would without its fragment cache (a new codec each
    /// time), serialized and freed. Returns the byte count.
    package static func encodeUncached(_ state: SearchState) -> Int {
        let text = SearchCodec().encodeState(state).mallocCopy()
        defer { free(text) }
        return strlen(text)
    }

    /// The coder the runtime's offline cache stores answers with (the provider's JSON).
    package static func offlineCacheCoder() -> any AnswerCoder { CachedAnswerJSON() }
}
