/// A sum of floating-point numbers kept exact, so that its ``value`` does not depend on the order
/// the terms came in: a batch that adds its trips in their order, a merge of shards read in any
/// order and `merge --summary`, which adds each trip as its line is read, write the same digits.
///
/// The terms are kept as Shewchuk's non-overlapping partials (as Python's `math.fsum`): their sum
/// is the exact sum of every term added, and ``value`` rounds it once, to the nearest double (ties
/// to even). The partials are few (one or two for figures of like size; never more than about 40,
/// the doubles' exponent range over their precision), so a sum is a few dozen bytes whatever the
/// number of terms. Terms that are not finite are summed apart (an infinity or NaN is the value);
/// a sum of finite terms that passes ±1.8e308 is that infinity from then on (Python's `fsum`
/// raises an error there), so only then can the order of the terms matter.
public struct ExactSum: Hashable, Sendable {
    /// Non-zero, non-overlapping, increasing in magnitude; their exact sum is the sum.
    private var partials: [Double] = []
    /// The infinite and NaN terms, added as doubles.
    private var special = 0.0

    public init() {}

    /// Adds `term`.
    public mutating func add(_ term: Double) {
        guard term.isFinite else {
            special += term
            return
        }
        var x = term
        var kept = 0
        for j in partials.indices {
            var y = partials[j]
            if abs(x) < abs(y) { swap(&x, &y) }
            let hi = x + y
            let lo = y - (hi - x)
            if lo != 0 {
                partials[kept] = lo
                kept += 1
            }
            x = hi
        }
        partials.removeSubrange(kept...)
        guard x.isFinite else {
            // Finite terms whose sum passes ±1.8e308: the sum is that infinity (Python's fsum
            // raises an error instead), not the NaN the partials would give.
            special += x
            partials.removeAll()
            return
        }
        partials.append(x)
    }

    /// Adds every term of `other`.
    public mutating func add(_ other: ExactSum) {
        for p in other.partials { add(p) }
        special += other.special
    }

    /// The exact sum rounded to the nearest double (0 without a term).
    public var value: Double {
        guard special == 0 else { return special }
        var n = partials.count
        guard n > 0 else { return 0 }
        n -= 1
        var hi = partials[n], lo = 0.0
        while n > 0 {
            let x = hi
            n -= 1
            let y = partials[n]
            hi = x + y
            lo = y - (hi - x)
            if lo != 0 { break }
        }
        // Half-way cases: the partials below decide which way `hi + lo` rounds.
        if n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0)) {
            let y = lo * 2, x = hi + y
            if y == x - hi { hi = x }
        }
        return hi
    }

    /// Equal when their values are: two sums of the same terms in another order may keep other
    /// partials.
    public static func == (a: ExactSum, b: ExactSum) -> Bool { a.value == b.value }

    public func hash(into h: inout Hasher) { h.combine(value) }
}
