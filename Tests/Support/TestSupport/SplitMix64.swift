import TraceSimulation

/// A seeded generator (SplitMix64, Steele et al. 2014) so every random test and benchmark input
/// is reproducible. The step itself is `TraceSimulation`'s ``SeededRandom``.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        var r = SeededRandom(seed: state)
        defer { state = r.state }
        return r.next()
    }

    /// A uniform double in [lo, hi).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double { Double.random(in: lo..<hi, using: &self) }
}
