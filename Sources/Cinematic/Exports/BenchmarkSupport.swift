import CinematicFeatures
#if canImport(Glibc)
import Glibc
#endif

/// Entry points for `make bench` only (not part of the C API; hidden by the version script).
@_spi(Benchmarks)
public enum CinematicBenchmarks {
    /// Encodes `state` the way the C API would without its fragment cache: the whole tree
    /// through jansson, serialized and freed. Returns the byte count.
    public static func encodeUncached(_ state: SearchState) -> Int {
        let text = JSONBuilder.dump(consuming: SearchCodec.node(state))
        defer { free(text) }
        return strlen(text)
    }
}
