import Testing
import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceProj
import TraceSharing
import TraceSmoothing

/// A phone standing still, its accuracy emulated at a tier, leaks updates through a small
/// distance filter; smoothing before the filter holds it back (DESIGN.md: "the replay should show
/// this, and smoothing before the filter should be able to suppress it").
@Suite("Stationary jitter through the pipeline")
struct StationaryJitterTests {
    /// Updates delivered from 5 × 1,000 fixes (seeds 1…5) of an exact recording standing still,
    /// one a second, emulated at `tier` (accuracy A = the tier's nominal accuracy), through a
    /// filter of `factor` × A.
    static func leaks(
        _ tier: AccuracyTier, factor: Double, emulation: PhoneConfiguration.AccuracyEmulation = .white,
        smoothing: PhoneConfiguration.Smoothing = .off, model: DeliveryModel = .coreLocation
    ) -> Int {
        let a = tier.nominalAccuracy!.upperBound
        var total = 0
        for seed in UInt64(1)...5 {
            let configuration = PhoneConfiguration(accuracyEmulation: emulation, seed: seed, smoothing: smoothing)
            var phone = PhoneEmulator(
                configuration, role: .helper, row: Fixture.row(tier, filter: factor * a, delivery: model), exact: Geodesic())
            total += Fixture.standingStill(&phone, count: 1000, accuracy: nil).filter(\.delivered).count
        }
        return total
    }

    @Test(
        "white noise of accuracy A leaks through 1 × A and hardly through 2.5 × A, under each model",
        arguments: [
            (AccuracyTier.nearestTenMeters, DeliveryModel.coreLocation), (.hundredMeters, .coreLocation),
            (.nearestTenMeters, .androidFused(interval: 1, minUpdateInterval: nil)), (.best, .distanceAndTime(interval: 1)),
        ])
    func leakWithoutSmoothing(tier: AccuracyTier, model: DeliveryModel) {
        // One step's separation has σ = A per axis, so it leaks with probability exp(−r²/2A²):
        // 0.61 at r = A, 0.044 at 2.5 A, 0.011 at 3 A (DeliveryModelTests measures the gate alone).
        let one = Self.leaks(tier, factor: 1, model: model), safe = Self.leaks(tier, factor: 2.5, model: model)
        let three = Self.leaks(tier, factor: 3, model: model)
        print("stationary jitter, white, \(tier.key), \(model.key): \(one) / \(safe) / \(three) of 5,000 at 1 / 2.5 / 3 × A")
        #expect(one > 2250 && one < 3750, "1 × A: \(one) of 5,000")
        #expect(safe < 400, "2.5 × A: \(safe) of 5,000")
        #expect(three < 150, "3 × A: \(three) of 5,000")
        #expect(one > 8 * safe)
    }

    @Test(
        "smoothing before the filter cuts the leak at 1 × A to under a fifth for a walker",
        arguments: [
            AccuracyTier.bestForNavigation, .nearestTenMeters, .hundredMeters, .kilometer,
        ])
    func smoothingSuppressesLeak(tier: AccuracyTier) {
        let raw = Self.leaks(tier, factor: 1)
        let smoothed = Self.leaks(tier, factor: 1, smoothing: .on(mode: .walk))
        let safe = Self.leaks(tier, factor: 2.5, smoothing: .on(mode: .walk))
        print("stationary jitter, white, \(tier.key), walk smoothing: \(raw) raw, \(smoothed) smoothed at 1 × A, \(safe) at 2.5 × A")
        #expect(smoothed * 5 < raw, "smoothed \(smoothed) against raw \(raw) of 5,000")
        #expect(safe <= smoothed)
    }

    @Test(
        "smoothing for faster modes (more process noise) cuts the leak less, but still by half or more",
        arguments: [
            (AccuracyTier.nearestTenMeters, TravelMode.bike), (.nearestTenMeters, .drive), (.hundredMeters, .drive),
        ])
    func smoothingFasterModes(tier: AccuracyTier, mode: TravelMode) {
        let raw = Self.leaks(tier, factor: 1)
        let smoothed = Self.leaks(tier, factor: 1, smoothing: .on(mode: mode))
        print("stationary jitter, white, \(tier.key), \(mode) smoothing: \(raw) raw, \(smoothed) smoothed at 1 × A")
        #expect(smoothed * 2 < raw, "smoothed \(smoothed) against raw \(raw) of 5,000")
    }

    @Test(
        "Gauss–Markov noise (τ 60 s) leaks more slowly, and smoothing hardly helps",
        arguments: [
            AccuracyTier.nearestTenMeters, .hundredMeters,
        ])
    func gaussMarkov(tier: AccuracyTier) {
        // The error wanders over about a minute, so consecutive fixes are close (a step has
        // σ = A·√(1 − e^(−1/60)) ≈ 0.13 A per axis at 1 Hz) and a filter of 1 × A is crossed only
        // when the error has drifted that far: tens of seconds between leaks instead of every other
        // fix. A filter built on white noise cannot average correlated error away.
        let one = Self.leaks(tier, factor: 1, emulation: .gaussMarkov())
        let safe = Self.leaks(tier, factor: 2.5, emulation: .gaussMarkov())
        let smoothed = Self.leaks(tier, factor: 1, emulation: .gaussMarkov(), smoothing: .on(mode: .walk))
        let white = Self.leaks(tier, factor: 1)
        print("stationary jitter, Gauss–Markov, \(tier.key): \(one) / \(safe) at 1 / 2.5 × A, \(smoothed) smoothed at 1 × A")
        #expect(one > 50 && one * 5 < white, "1 × A: \(one) of 5,000 (white: \(white))")
        #expect(one > 5 * safe, "2.5 × A: \(safe)")
        #expect(smoothed * 2 > one, "smoothed \(smoothed) against \(one)")
    }
}
