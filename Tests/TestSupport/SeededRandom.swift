/// A deterministic generator for tests (Knuth's MMIX linear congruential step): the same numbers on
/// every run and every machine, from a seed.
public struct SeededRandom: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next state (the whole 64 bits; take the high bits, the low ones are weak).
    public mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }

    /// A number in [0, 1) from the state's top 53 bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
