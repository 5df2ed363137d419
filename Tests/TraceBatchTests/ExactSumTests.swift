import Testing
import TraceBatch

@Test("an exact sum is its terms' exact sum rounded once, whatever their order; adding them one by one drifts")
func exactSum() {
    // A corpus's energy cell (helper, In Task, J) of 11 trips: added in order the sum reads 49.35
    // (49.4 at one decimal); the exact sum of these doubles is 49.349999… (49.3).
    let terms = [
        3.4, 4.15, 34.9, 1.05, 0.10000000000000009, 0, 3.15, 0.09999999999999998, 0.44999999999999996, 1.4499999999999993,
        0.5999999999999996,
    ]
    var sequential = 0.0
    for t in terms { sequential += t }
    #expect(sequential == 49.35)
    for order in [terms, terms.reversed(), terms.sorted(), terms.sorted(by: >)] {
        var s = ExactSum()
        for t in order { s.add(t) }
        #expect(s.value == 49.349999999999994)
    }
    var cancelled = ExactSum(), tenths = ExactSum()
    for t in [1e100, 1.0, -1e100] { cancelled.add(t) }
    for _ in 0..<10 { tenths.add(0.1) }
    #expect(cancelled.value == 1 && tenths.value == 1)  // one by one: 0 and 0.9999999999999999
    var merged = ExactSum()
    merged.add(cancelled)
    merged.add(tenths)
    #expect(merged.value == 2 && merged != tenths && ExactSum().value == 0)
    // Finite terms whose sum passes ±1.8e308: that infinity, not NaN.
    var huge = ExactSum(), down = ExactSum()
    for t in [1e308, 1e308] { huge.add(t) }
    for t in [-1e308, -1e308, 5.0] { down.add(t) }
    #expect(huge.value == .infinity && down.value == -.infinity)
}
