/// A seeded pseudo-random generator for simulations: SplitMix64 (Steele, Lea and Flood, 2014)
/// with its own conversions to uniform and Gaussian numbers, so a seed gives the same sequence
/// on every platform and with every Swift version (the standard library's `Double.random(in:)`
/// makes no such promise).
///
/// Uniform doubles take the top 53 bits. Gaussian numbers use Marsaglia's polar method with a
/// logarithm built from IEEE arithmetic only (`DeterministicMath`), so they too are bit-identical
/// across platforms. O(1) per number, no allocation.
public struct SeededRandom: Sendable, Hashable {
    /// The generator's 64-bit state.
    public private(set) var state: UInt64
    private var spare: Double?

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
        spare = nil
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1), a multiple of 2⁻⁵³.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A uniform double in [`low`, `high`).
    public mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// A standard normal number (mean 0, standard deviation 1).
    public mutating func gaussian() -> Double {
        if let s = spare {
            spare = nil
            return s
        }
        while true {
            let u = 2 * unit() - 1, v = 2 * unit() - 1
            let s = u * u + v * v
            guard s > 0 && s < 1 else { continue }
            let f = (-2 * DeterministicMath.log(s) / s).squareRoot()
            spare = v * f
            return u * f
        }
    }

    /// A new generator seeded from this one (for independent streams: truth, noise, spikes).
    public mutating func split() -> SeededRandom { SeededRandom(seed: next()) }
}
