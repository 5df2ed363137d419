import Foundation
import Testing

@testable import TraceSimulation

@Suite("Seeded random numbers")
struct RandomTests {
    @Test("SplitMix64 reproduces the reference sequence (seed 0: 0xE220A8397B1DCDAF, …)")
    func reference() {
        // Reference values of Vigna's splitmix64.c for a state of 0.
        var r = SeededRandom(seed: 0)
        #expect(r.next() == 0xE220_A839_7B1D_CDAF)
        #expect(r.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(r.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("the IEEE-only log, exp and sinCos agree with libm to a few ulps")
    func elementary() {
        var r = SeededRandom(seed: 7)
        for _ in 0..<20_000 {
            let x = r.uniform(1e-12, 1)
            #expect(abs(DeterministicMath.log(x) - Foundation.log(x)) <= 4 * abs(Foundation.log(x)).ulp)
            let y = r.uniform(-50, 0)
            #expect(abs(DeterministicMath.exp(y) - Foundation.exp(y)) <= 4 * Foundation.exp(y).ulp)
            let a = r.uniform(-1.5, 1.5)
            let sc = DeterministicMath.sinCos(a)
            #expect(abs(sc.sin - Foundation.sin(a)) <= 2 * 1.0.ulp && abs(sc.cos - Foundation.cos(a)) <= 2 * 1.0.ulp)  // 2 ulps of 1
        }
        #expect(DeterministicMath.log(1) == 0 && DeterministicMath.exp(0) == 1)
    }

    @Test("Gaussian numbers: mean 0 and variance 1 within 5 standard errors; a seed fixes them")
    func gaussian() {
        var r = SeededRandom(seed: 42)
        let n = 200_000
        var sum = 0.0, sum2 = 0.0, beyond3 = 0
        for _ in 0..<n {
            let g = r.gaussian()
            sum += g
            sum2 += g * g
            if abs(g) > 3 { beyond3 += 1 }
        }
        let mean = sum / Double(n), variance = sum2 / Double(n) - mean * mean
        #expect(abs(mean) < 5 / Double(n).squareRoot())
        #expect(abs(variance - 1) < 5 * (2 / Double(n)).squareRoot())
        // P(|g| > 3) = 0.0027: 540 expected, Poisson spread ±23.
        #expect(abs(beyond3 - 540) < 5 * 23)
        var a = SeededRandom(seed: 9), b = SeededRandom(seed: 9), c = SeededRandom(seed: 10)
        let xs = (0..<100).map { _ in a.gaussian() }
        #expect(xs == (0..<100).map { _ in b.gaussian() })
        #expect(xs != (0..<100).map { _ in c.gaussian() })
    }
}
