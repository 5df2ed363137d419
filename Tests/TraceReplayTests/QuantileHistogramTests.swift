import TestSupport
import Testing

@testable import TraceReplay

@Suite("Replay: p95 histogram")
struct HistogramTests {
    @Test("nearest rank, exact to 0.1 below 102.4, within 0.2 % above, never above the maximum")
    func quantiles() {
        var h = QuantileHistogram()
        for i in 1...100 { h.add(Double(i)) }  // 1 … 100
        #expect(h.quantile(0.95) == 95 && h.quantile(1) == 100 && h.mean == 50.5 && h.max == 100)
        var big = QuantileHistogram()
        var rng = SplitMix64(seed: 7)
        var values: [Double] = []
        for _ in 0..<10_000 {
            let v = rng.uniform(0, 20_000)
            values.append(v)
            big.add(v)
        }
        values.sort()
        let exact = values[9_499]  // the 9,500th smallest of 10,000
        let p95 = big.quantile(0.95)!
        #expect(p95 <= exact && p95 >= exact * (1 - 1.0 / 512) - 0.1)
        for b in [0, 1023, 1024, 1535, 1536, 5000] {
            #expect(QuantileHistogram.bin(QuantileHistogram.lowerEdge(b)) == b)
        }
        #expect(QuantileHistogram().quantile(0.95) == nil)
    }

    /// 0.95·n is not whole for 10, 30 and 70 samples: the rank is ⌈9.5⌉ = 10, ⌈28.5⌉ = 29 and
    /// ⌈66.5⌉ = 67, where rounding down gives 9, 28 and 66, and rounding to nearest even gives 10,
    /// 28 and 66. The samples are 1 … n in steps of 1 (exact bins), added in a shuffled order.
    @Test("the p95 rank is ⌈0.95·n⌉ where 0.95·n is not whole (10, 30 and 70 samples)", arguments: [(10, 10.0), (30, 29.0), (70, 67.0)])
    func fractionalRank(samples n: Int, expected: Double) {
        var values = (1...n).map(Double.init)
        var rng = SplitMix64(seed: UInt64(n))
        for i in stride(from: values.count - 1, to: 0, by: -1) {
            values.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        var h = QuantileHistogram()
        for v in values { h.add(v) }
        let rank = Int((0.95 * Double(n)).rounded(.up))
        #expect(Double(rank) == expected)
        #expect(h.quantile(0.95) == expected)
        #expect(h.quantile(0.5) == Double((n + 1) / 2))
    }
}

@Suite("Replay: p95 histogram, merged and compact")
struct HistogramMergeTests {
    @Test("a merge is the histogram of both sets of samples; the compact form reads back equal")
    func mergeAndCompact() {
        var rng = SplitMix64(seed: 3)
        var a = QuantileHistogram(), b = QuantileHistogram(), both = QuantileHistogram()
        for i in 0..<5_000 {
            let v = i % 2 == 0 ? rng.uniform(0, 80) : rng.uniform(0, 9_000)
            if i % 3 == 0 { a.add(v) } else { b.add(v) }
            both.add(v)
        }
        var m = a
        m.merge(b)
        #expect(m.count == both.count && m.max == both.max && m.compact.elementsEqual(both.compact, by: { $0 == $1 }))
        for p in [0.5, 0.95, 1.0] { #expect(m.quantile(p) == both.quantile(p)) }
        let back = QuantileHistogram(count: m.count, sum: m.sum, maximum: m.maximum, bins: m.compact)
        #expect(back == m)
        #expect(QuantileHistogram(count: 0, sum: 0, maximum: 0, bins: []) == QuantileHistogram())
    }

    @Test("a merge into a shorter, a longer or an empty histogram, or of one with itself, leaves the other and its copies alone")
    func mergeShapes() {
        var small = QuantileHistogram(), large = QuantileHistogram()
        for v in [0.5, 3, 7.25, 99] { small.add(v) }
        for v in [1, 250, 8_000, 0.5] { large.add(v) }
        let smallCopy = small, largeCopy = large
        var a = small
        a.merge(large)  // grows to the longer one's bins
        var b = large
        b.merge(small)  // the shorter one's bins only
        #expect(a.compact.elementsEqual(b.compact, by: { $0 == $1 }) && a.count == 8 && a.maximum == 8_000)
        #expect(small == smallCopy && large == largeCopy)
        var empty = QuantileHistogram()
        empty.merge(large)
        #expect(empty.compact.elementsEqual(large.compact, by: { $0 == $1 }) && empty.count == large.count)
        var twice = large
        twice.merge(twice)
        #expect(twice.count == 2 * large.count && twice.compact.map(\.count) == large.compact.map { 2 * $0.count })
        #expect(large == largeCopy)
    }

    @Test(
        "a compact form that is not a histogram is refused",
        arguments: [
            ("bins out of order", 2, 0.3, [(bin: 2, count: 1), (bin: 1, count: 1)]),
            ("a bin without samples", 1, 0.1, [(bin: 0, count: 0), (bin: 1, count: 1)]),
            ("counts that do not add up", 3, 0.3, [(bin: 1, count: 1), (bin: 2, count: 1)]),
            ("a maximum outside the last bin", 2, 5.0, [(bin: 1, count: 1), (bin: 2, count: 1)]),
            ("samples but no bins", 0, 1.0, []),
            ("counts whose sum overflows", 3, 0.2, [(bin: 1, count: Int.max), (bin: 2, count: Int.max)]),
        ] as [(String, Int, Double, [(bin: Int, count: Int)])])
    func refused(_ c: (String, Int, Double, [(bin: Int, count: Int)])) {
        #expect(QuantileHistogram(count: c.1, sum: 1, maximum: c.2, bins: c.3) == nil, "\(c.0)")
    }
}
