/// A small deterministic generator (SplitMix64) for seeded walks, so a failing seed replays.
///
/// ```swift
/// var random = SplitMix(seed: 3)
/// let step = random.next(6)   // 0..<6
/// ```
public struct SplitMix {
    private var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next number in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
