import Foundation
import Testing
import TraceSimulation

@Suite("Noise processes")
struct NoiseTests {
    @Test("white noise: σ per axis, no correlation between fixes")
    func white() {
        var noise = WhiteNoise(sigma: 4, seed: 1)
        let n = 100_000
        var s2 = 0.0, lag = 0.0, previous = 0.0
        for _ in 0..<n {
            let e = noise.next(dt: 1)
            s2 += e.east * e.east + e.north * e.north
            lag += e.east * previous
            previous = e.east
        }
        #expect(abs((s2 / Double(2 * n)).squareRoot() - 4) < 0.05)
        #expect(abs(lag / Double(n) / 16) < 0.02)  // lag-1 correlation ≈ 0 (standard error 0.003)
    }

    @Test("Gauss–Markov: stationary σ, autocorrelation e^(−Δt/τ) with irregular steps")
    func gaussMarkov() {
        // Many independent chains sampled at irregular times; compare the error at t with the
        // error one τ later: the correlation must be e^-1 = 0.368.
        var sumAB = 0.0, sumA2 = 0.0, sumB2 = 0.0
        var steps = SeededRandom(seed: 3)
        let chains = 4000
        for c in 0..<chains {
            var noise = GaussMarkovNoise(sigma: 5, tau: 60, seed: UInt64(100 + c))
            var t = 0.0
            let a = noise.next(dt: 0).east
            var b = a
            while t < 60 {
                let dt = min(steps.uniform(0.2, 3), 60 - t)
                b = noise.next(dt: dt).east
                t += dt
            }
            sumAB += a * b
            sumA2 += a * a
            sumB2 += b * b
        }
        let rho = sumAB / (sumA2 * sumB2).squareRoot()
        #expect(abs(rho - exp(-1)) < 0.05, "correlation after τ: \(rho)")  // standard error ≈ 0.015
        #expect(abs((sumA2 / Double(chains)).squareRoot() - 5) < 0.2)
        #expect(abs((sumB2 / Double(chains)).squareRoot() - 5) < 0.2)
        var g = GaussMarkovNoise(sigma: 5, seed: 1)
        let first = g.next(dt: 0)
        #expect(g.next(dt: 0) == first)  // no time, no change
    }

    @Test("spikes: the requested rate, sizes between 10σ and 20σ, random directions")
    func spikes() {
        var s = SpikeInjector(probability: 0.02, sigma: 3, seed: 5)
        var hits = 0, east = 0.0
        for _ in 0..<100_000 {
            guard let d = s.next() else { continue }
            hits += 1
            let length = (d.east * d.east + d.north * d.north).squareRoot()
            #expect(length >= 30 - 1e-9 && length <= 60 + 1e-9)
            east += d.east / length
        }
        #expect(abs(hits - 2000) < 5 * 45)  // binomial spread ≈ 44
        #expect(abs(east / Double(hits)) < 0.1)  // no preferred direction
    }
}
