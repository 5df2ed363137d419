import Testing
import TraceDomain
import TraceSharing
import TraceSimulation
import TraceSmoothing

/// The evidence of issue 5 on simulated ground truth (3,600 fixes at 1 Hz ± 20 %, seeded).
@Suite("Smoothing accuracy on simulated ground truth")
struct SimulatedAccuracyTests {
    static let gnssTiers: [AccuracyTier] = [.bestForNavigation, .best, .nearestTenMeters]
    static let cases = gnssTiers.flatMap { tier in TravelMode.allCases.map { (tier, $0) } }

    @Test("white noise: RTS cuts position RMSE by ≥ 40 % against the raw fixes (GNSS tiers)", arguments: cases)
    func rmseReduction(tier: AccuracyTier, mode: TravelMode) {
        // Measured: 56–73 % (filter alone 26–49 %); drive gains least, walk most.
        let sigma = SmoothingConfiguration.nominalSigma(tier: tier)!
        for seed in [1, 2] as [UInt64] {
            let r = evaluate(mode: mode, tier: tier, noise: WhiteNoise(sigma: sigma, seed: seed + 100), seed: seed)
            #expect(r.smootherGain >= 0.40, "\(tier) \(mode) seed \(seed): RTS gain \(percent(r.smootherGain))")
            #expect(r.filterGain > 0 && r.filterGain < r.smootherGain, "\(tier) \(mode): filter \(percent(r.filterGain))")
        }
    }

    @Test("white noise, truth from the filter's own model: mean NEES in [1.6, 2.4] (2 dof)", arguments: cases)
    func neesModelMatched(tier: AccuracyTier, mode: TravelMode) {
        // Measured: filter 1.97–2.09, smoother 1.92–2.08.
        let sigma = SmoothingConfiguration.nominalSigma(tier: tier)!
        let r = evaluate(mode: mode, tier: tier, noise: WhiteNoise(sigma: sigma, seed: 7), seed: 3, modelMatched: true)
        #expect((1.6...2.4).contains(r.filterNEES), "\(tier) \(mode): filter NEES \(rounded(r.filterNEES))")
        #expect((1.6...2.4).contains(r.smootherNEES), "\(tier) \(mode): smoother NEES \(rounded(r.smootherNEES))")
    }

    @Test("white noise, realistic walk/bike/drive truth: NEES conservative, never over-confident", arguments: cases)
    func neesRealistic(tier: AccuracyTier, mode: TravelMode) {
        // The q values of docs/battery-model.md are sized for turns and stops, so on smooth stretches the filter
        // is a little pessimistic. Measured: filter 1.56–1.76, smoother 1.46–1.61; the bound
        // asserted is [1.2, 2.4].
        let sigma = SmoothingConfiguration.nominalSigma(tier: tier)!
        let r = evaluate(mode: mode, tier: tier, noise: WhiteNoise(sigma: sigma, seed: 11), seed: 4)
        #expect((1.2...2.4).contains(r.filterNEES), "\(tier) \(mode): filter NEES \(rounded(r.filterNEES))")
        #expect((1.2...2.4).contains(r.smootherNEES), "\(tier) \(mode): smoother NEES \(rounded(r.smootherNEES))")
    }

    @Test("spikes of 10–20 σ are all rejected and counted", arguments: cases)
    func spikes(tier: AccuracyTier, mode: TravelMode) {
        let sigma = SmoothingConfiguration.nominalSigma(tier: tier)!
        let spikes = SpikeInjector(probability: 0.02, sigma: sigma, minimumSigmas: 10, maximumSigmas: 20, seed: 5)
        let r = evaluate(mode: mode, tier: tier, noise: WhiteNoise(sigma: sigma, seed: 6), spikes: spikes, seed: 8)
        #expect(r.spikes > 40)
        #expect(r.spikesRejected == r.spikes, "\(tier) \(mode): \(r.spikesRejected) of \(r.spikes) spikes rejected")
        // The count includes them, and few good fixes besides (χ² 0.1 % plus manoeuvres).
        #expect(r.rejected >= r.spikes && r.rejected - r.spikes <= r.points / 200, "\(tier) \(mode): \(r.rejected) rejected")
        // And the spikes do not spoil the estimate.
        #expect(r.smootherGain >= 0.40)
    }

    @Test(
        "correlated noise (Gauss–Markov, τ = 60 s): the gain nearly vanishes and the naive filter is over-confident",
        arguments: cases)
    func correlated(tier: AccuracyTier, mode: TravelMode) {
        // docs/battery-model.md, "Kalman defaults": on noise correlated over about 60 s the gain
        // nearly disappears and a filter that assumes white noise becomes over-confident (mean
        // NEES 4–9 where 2 is expected). Measured here: RTS gain
        // 0.8–3.4 %; filter NEES 2.6–6.9, smoother NEES 6–21 (the smoother trusts its averaging
        // even more). Bounds asserted: gain in [−2 %, 10 %) (smoothing must not make the error
        // worse by more than 2 %: the margin allows for a seed where correlated error and the
        // averaging line up; none of the 9 cases comes near it); filter NEES in (2.4, 9];
        // smoother NEES above the filter's and at most 25.
        let sigma = SmoothingConfiguration.nominalSigma(tier: tier)!
        let r = evaluate(mode: mode, tier: tier, noise: GaussMarkovNoise(sigma: sigma, tau: 60, seed: 12), seed: 9)
        #expect(r.smootherGain < 0.10 && r.smootherGain >= -0.02, "\(tier) \(mode): gain \(percent(r.smootherGain))")
        #expect(r.filterNEES > 2.4 && r.filterNEES <= 9, "\(tier) \(mode): filter NEES \(rounded(r.filterNEES))")
        #expect(r.smootherNEES > r.filterNEES && r.smootherNEES <= 25, "\(tier) \(mode): smoother NEES \(rounded(r.smootherNEES))")
    }
}
