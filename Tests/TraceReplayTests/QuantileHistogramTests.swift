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
}
