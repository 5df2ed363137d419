/// A histogram of non-negative values for exact-rank quantiles in bounded memory.
///
/// Values are quantised down to steps of 0.1 (metres or seconds). Below 102.4 each 0.1 step has
/// its own bin, so a quantile is exact to 0.1 (rounded down); above, bins are log-linear with 512
/// per doubling, so a quantile is within 0.2 % below the true sample (HdrHistogram's layout).
/// Quantiles use the nearest-rank definition (the ⌈p·n⌉-th smallest sample) and report the lower
/// edge of its bin, never above the exact maximum. The mean and the maximum are exact. Memory grows
/// with the largest value seen: about 8 bytes × (1024 + 512 × log2(max / 102.4)), 30 KB for
/// values up to 10 km, whatever the number of samples.
///
/// Mergeable: ``merge(_:)`` of two histograms is the histogram of both sets of samples, so the
/// quantile of a merge is the quantile of the pooled samples at the same resolution, whatever
/// the order of the merges (the sum, and so the mean, may differ in its last bits with the order:
/// ``withoutSum``).
/// ``compact`` is a small serialisable form (the non-empty bins only), read back exactly by
/// ``init(count:sum:maximum:bins:)``.
public struct QuantileHistogram: Hashable, Sendable {
    public private(set) var count = 0
    public private(set) var sum = 0.0
    public private(set) var maximum = 0.0
    private var bins: [Int] = []

    public init() {}

    /// A histogram from its ``compact`` form: `bins` are (bin, samples) with bins increasing and
    /// samples > 0, summing to `count`; nil when they are not, or when `maximum` or `sum` is
    /// negative or not finite, or `maximum` falls outside the last bin.
    public init?(count: Int, sum: Double, maximum: Double, bins compact: [(bin: Int, count: Int)]) {
        guard count >= 0, sum.isFinite, sum >= 0, maximum.isFinite, maximum >= 0 else { return nil }
        var total = 0, last = -1
        for b in compact {
            guard b.bin > last, b.count > 0, b.bin < 1 << 20 else { return nil }
            last = b.bin
            let (sum, overflow) = total.addingReportingOverflow(b.count)
            guard !overflow else { return nil }  // crafted counts: refused, not a trap
            total = sum
        }
        guard total == count else { return nil }
        if let top = compact.last {
            // The largest sample lies in the last non-empty bin (the same quantisation as `add`).
            guard Self.bin(Int(Swift.min(maximum * 10, 1e15))) == top.bin else { return nil }
        } else if maximum != 0 || sum != 0 {
            return nil
        }
        self.count = count
        self.sum = sum
        self.maximum = maximum
        bins = Array(repeating: 0, count: last + 1)
        for b in compact { bins[b.bin] = b.count }
    }

    /// This histogram with its sum set to 0 (its ``mean`` then 0, not the samples'): for pools
    /// merged in an order that varies from run to run. The counts, bins and maximum of a merge do
    /// not depend on its order; a floating-point sum does, in its last bits.
    public var withoutSum: QuantileHistogram {
        var h = self
        h.sum = 0
        return h
    }

    /// The non-empty bins, (bin, samples), bins increasing: with ``count``, ``sum`` and
    /// ``maximum`` the whole histogram. Its size grows with the distinct values seen, at most the
    /// number of samples.
    public var compact: [(bin: Int, count: Int)] {
        bins.enumerated().compactMap { $0.element > 0 ? (bin: $0.offset, count: $0.element) : nil }
    }

    /// The bin of a value in steps of 0.1.
    static func bin(_ steps: Int) -> Int {
        if steps < 1024 { return steps }
        let e = (Int.bitWidth - steps.leadingZeroBitCount - 1) - 9
        return 1024 + (e - 1) * 512 + ((steps >> e) - 512)
    }

    /// The smallest value (in steps of 0.1) of a bin.
    static func lowerEdge(_ bin: Int) -> Int {
        if bin < 1024 { return bin }
        let e = (bin - 1024) / 512 + 1
        return ((bin - 1024) % 512 + 512) << e
    }

    @inline(__always)
    public mutating func add(_ value: Double) {
        let v = value.isFinite ? Swift.max(value, 0) : 0
        count += 1
        sum += v
        if v > maximum { maximum = v }
        let steps = Int(min(v * 10, 1e15))
        let b = Self.bin(steps)
        if b >= bins.count { grow(to: b) }
        bins[b] += 1
    }

    /// Room for bin `b` (rare: the histogram grows with the largest value seen).
    @inline(never)
    private mutating func grow(to b: Int) { bins.append(contentsOf: repeatElement(0, count: b + 1 - bins.count)) }

    /// Adds `other`'s samples.
    public mutating func merge(_ other: QuantileHistogram) {
        count += other.count
        sum += other.sum
        maximum = Swift.max(maximum, other.maximum)
        let n = other.bins.count
        if n > bins.count { bins.append(contentsOf: repeatElement(0, count: n - bins.count)) }
        // Bin by bin, without a bounds or uniqueness check each (vectorised: `tune` merges every
        // trip's pools for each candidate). A bin's count cannot overflow: it is at most `count`,
        // which the addition above checked.
        bins.withUnsafeMutableBufferPointer { mine in
            other.bins.withUnsafeBufferPointer { theirs in
                for i in 0..<n { mine[i] &+= theirs[i] }
            }
        }
    }

    public var mean: Double? { count > 0 ? sum / Double(count) : nil }
    public var max: Double? { count > 0 ? maximum : nil }

    /// The nearest-rank `p` quantile (p in (0, 1]), at the documented resolution; nil when empty.
    public func quantile(_ p: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Swift.max(1, Int((p * Double(count)).rounded(.up)))
        var seen = 0
        for (i, n) in bins.enumerated() {
            seen += n
            if seen >= rank { return Swift.min(Double(Self.lowerEdge(i)) / 10, maximum) }
        }
        return maximum
    }
}
