import Foundation
import Testing
import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceProj
import TraceSharing
import TraceSmoothing

/// The noise the emulation adds: its size, its memory, its seed, and when it is not added.
@Suite("Accuracy emulation")
struct AccuracyEmulationTests {
    /// HundredMeters over a recording of 20 m (iOS): σ_tier = 100/√2, σ_fix = 20/√2, so
    /// σ_added = √(5000 − 200) = 69.28 m per axis.
    static let sigmaAdded = (100.0 * 100 / 2 - 20.0 * 20 / 2).squareRoot()

    static func phone(
        _ emulation: PhoneConfiguration.AccuracyEmulation, seed: UInt64 = 1, tier: AccuracyTier = .hundredMeters,
        role: Role = .helper, convention: AccuracyConvention = .ios
    ) -> PhoneEmulator {
        PhoneEmulator(
            PhoneConfiguration(accuracyEmulation: emulation, seed: seed, convention: convention), role: role, row: Fixture.row(tier),
            exact: Geodesic())
    }

    @Test("white noise: σ per axis is σ_added within 2 %, zero mean, axes and fixes uncorrelated")
    func whiteStatistics() {
        // 40,000 independent samples per axis: the standard error of σ is 1/√(2n) = 0.35 %, of the
        // mean σ/√n = 0.35 m, of a correlation 1/√n = 0.005.
        var phone = Self.phone(.white)
        let out = Fixture.standingStill(&phone, count: 40_000, accuracy: 20)
        let e = out.map { Fixture.offset(of: $0.coordinate).east }, n = out.map { Fixture.offset(of: $0.coordinate).north }
        for axis in [e, n] {
            let m = Moments(axis)
            #expect(abs(m.sigma / Self.sigmaAdded - 1) < 0.02, "σ \(m.sigma) against \(Self.sigmaAdded)")
            #expect(abs(m.mean) < 4 * Self.sigmaAdded / 200, "mean \(m.mean)")
            #expect(abs(Moments.correlation(Array(axis.dropLast()), Array(axis.dropFirst()))) < 0.02)
        }
        #expect(abs(Moments.correlation(e, n)) < 0.02)
        // The fix reports the tier's nominal accuracy, exactly.
        #expect(out.allSatisfy { $0.accuracy == 100 })
    }

    @Test(
        "Gauss–Markov: σ per axis is σ_added within 4 %, lag-1 autocorrelation exp(−dt/τ) for each step size",
        arguments: [60.0, 20.0])
    func gaussMarkovStatistics(tau: Double) {
        // Irregular steps: 3 s and 12 s alternating, 60,000 fixes. With τ = 60 s a step of 12 s
        // keeps φ = 0.82, so about n(1 − φ²)/(1 + φ²) ≈ 10,000 independent samples: the standard
        // error of σ is about 0.7 %, of each autocorrelation about 0.005.
        var phone = Self.phone(.gaussMarkov(tau: tau))
        var t = 0.0
        var steps: [Double] = []
        let out = (0..<60_000).map { i in
            let o = phone.offer(Fixture.still, at: t, accuracy: 20, speed: 0)
            let dt = i % 2 == 0 ? 3.0 : 12.0
            steps.append(dt)
            t += dt
            return o
        }
        let e = out.map { Fixture.offset(of: $0.coordinate).east }, n = out.map { Fixture.offset(of: $0.coordinate).north }
        for axis in [e, n] {
            let m = Moments(axis)
            #expect(abs(m.sigma / Self.sigmaAdded - 1) < 0.04, "τ \(tau): σ \(m.sigma) against \(Self.sigmaAdded)")
            for dt in [3.0, 12.0] {
                let pairs = axis.indices.dropLast().filter { steps[$0] == dt }
                let r = Moments.correlation(pairs.map { axis[$0] }, pairs.map { axis[$0 + 1] })
                #expect(abs(r - exp(-dt / tau)) < 0.02, "τ \(tau), dt \(dt): lag-1 \(r), expected \(exp(-dt / tau))")
            }
        }
    }

    @Test("the default correlation time is 60 s")
    func defaultTau() {
        #expect(PhoneConfiguration.AccuracyEmulation.gaussMarkov() == .gaussMarkov(tau: 60))
    }

    @Test(
        "the same seed and role give the same fixes; another seed or role gives others",
        arguments: [
            PhoneConfiguration.AccuracyEmulation.white, .gaussMarkov(tau: 60),
        ])
    func determinism(emulation: PhoneConfiguration.AccuracyEmulation) {
        func run(seed: UInt64, role: Role) -> [Coordinate] {
            var phone = Self.phone(emulation, seed: seed, role: role)
            return Fixture.standingStill(&phone, count: 200, accuracy: 5).map(\.coordinate)
        }
        let a = run(seed: 42, role: .helper)
        #expect(a == run(seed: 42, role: .helper))
        #expect(Set(a).count == 200, "every fix moved differently")
        for (seed, role) in [(43 as UInt64, Role.helper), (42, .hirer), (42, .delegate)] {
            let b = run(seed: seed, role: role)
            #expect(zip(a, b).filter { $0 == $1 }.count == 0, "seed \(seed), \(role)")
        }
    }

    @Test(
        "a tier not coarser than the fix passes it through, drawing nothing",
        arguments: [
            // (tier, reported accuracy, convention): at or below σ_tier per axis in that convention.
            (AccuracyTier.best, 10.0, AccuracyConvention.ios), (.best, 30, .ios), (.bestForNavigation, 5, .ios),
            (.hundredMeters, 250, .w3c), (.threeKilometers, 3000, .ios),
        ])
    func passThrough(tier: AccuracyTier, accuracy: Double, convention: AccuracyConvention) {
        var phone = Self.phone(.white, tier: tier, convention: convention)
        let fixes = (0..<50).map { try! Coordinate(latitude: 45 + Double($0) * 1e-4, longitude: 7) }
        for (i, f) in fixes.enumerated() {
            let o = phone.offer(f, at: Double(i), accuracy: accuracy, speed: nil)
            #expect(o.coordinate == f && o.accuracy == accuracy)
        }
    }

    @Test(
        "a coarser tier reports its nominal accuracy in the recording's convention",
        arguments: [
            (AccuracyTier.bestForNavigation, AccuracyConvention.ios, 5.0), (.best, .ios, 10), (.hundredMeters, .ios, 100),
            (.kilometer, .android, 1000 * 1.51 / 2.0.squareRoot()), (.threeKilometers, .w3c, 3000 * 2.45 / 2.0.squareRoot()),
        ])
    func reportedAccuracy(tier: AccuracyTier, convention: AccuracyConvention, expected: Double) {
        var phone = Self.phone(.white, tier: tier, convention: convention)
        let o = phone.offer(Fixture.still, at: 0, accuracy: 1, speed: nil)
        #expect(o.coordinate != Fixture.still)
        // Relative 1e-15: σ × divisor in two roundings.
        #expect(abs(o.accuracy! - expected) <= 1e-15 * expected, "\(o.accuracy!) against \(expected)")
    }

    @Test("a fix without accuracy is taken as exact: the full tier σ is added")
    func withoutAccuracy() {
        var phone = Self.phone(.white, tier: .nearestTenMeters)
        let out = Fixture.standingStill(&phone, count: 40_000, accuracy: nil)
        let sigma = Moments(out.map { Fixture.offset(of: $0.coordinate).north }).sigma
        #expect(abs(sigma / (10 / 2.0.squareRoot()) - 1) < 0.02, "\(sigma)")
        #expect(out.allSatisfy { $0.accuracy == 10 })
    }

    @Test(
        "fixes that draw no noise do not advance the stream (tier not coarser, location off)",
        arguments: [
            PhoneConfiguration.AccuracyEmulation.white, .gaussMarkov(tau: 60),
        ])
    func streamAdvancesOnlyOnDraws(emulation: PhoneConfiguration.AccuracyEmulation) {
        // Reference: three coarse fixes at t = 0, 10, 20.
        var reference = Self.phone(emulation)
        let expected = [0.0, 10, 20].map { reference.offer(Fixture.still, at: $0, accuracy: 20, speed: nil).coordinate }
        // The same, with a fine fix (200 m > HundredMeters) at 5 s and location off from 12 to 18 s.
        var phone = Self.phone(emulation)
        var got = [phone.offer(Fixture.still, at: 0, accuracy: 20, speed: nil).coordinate]
        #expect(phone.offer(Fixture.still, at: 5, accuracy: 200, speed: nil).coordinate == Fixture.still)
        got.append(phone.offer(Fixture.still, at: 10, accuracy: 20, speed: nil).coordinate)
        phone.apply(Fixture.row(.off))
        for t in [12.0, 14, 16] {
            let o = phone.offer(Fixture.still, at: t, accuracy: 20, speed: nil)
            #expect(!o.delivered && o.coordinate == Fixture.still && o.accuracy == 20)
        }
        phone.apply(Fixture.row(.hundredMeters))
        got.append(phone.offer(Fixture.still, at: 20, accuracy: 20, speed: nil).coordinate)
        #expect(got == expected)
    }

    @Test("Gauss–Markov continues across a change of tier: one process, rescaled")
    func gaussMarkovAcrossTiers() {
        // From HundredMeters to Kilometer (accuracy nil: σ 70.7 then 707 m per axis), one second
        // apart, τ = 60 s: the unit process keeps correlation e^(−1/60) = 0.983 and its size grows
        // tenfold. Pooled over 400 seeds and both axes (800 pairs: standard error about 0.002).
        var ab = 0.0, aa = 0.0, bb = 0.0
        for seed in UInt64(1)...400 {
            var phone = Self.phone(.gaussMarkov(tau: 60), seed: seed)
            let a = Fixture.offset(of: phone.offer(Fixture.still, at: 0, accuracy: nil, speed: nil).coordinate)
            phone.apply(Fixture.row(.kilometer))
            let b = Fixture.offset(of: phone.offer(Fixture.still, at: 1, accuracy: nil, speed: nil).coordinate)
            ab += a.east * b.east + a.north * b.north
            aa += a.east * a.east + a.north * a.north
            bb += b.east * b.east + b.north * b.north
        }
        let r = ab / (aa * bb).squareRoot()
        #expect(abs(r - exp(-1.0 / 60)) < 0.01, "correlation across the change: \(r)")
        #expect(abs((bb / aa).squareRoot() / 10 - 1) < 0.02, "size ratio \((bb / aa).squareRoot())")
    }
}
