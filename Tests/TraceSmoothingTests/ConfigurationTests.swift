import Testing
import TraceDomain
import TraceSharing
import TraceSmoothing

@Suite("Smoothing configuration")
struct ConfigurationTests {
    @Test(
        "conventions: iOS ÷ √2, Android ÷ 1.51, W3C ÷ 2.45",
        arguments: [
            (AccuracyConvention.ios, 10 / 2.0.squareRoot()), (.android, 10 / 1.51), (.w3c, 10 / 2.45),
        ])
    func conventions(convention: AccuracyConvention, sigma: Double) {
        #expect(convention.sigma(accuracy: 10) == sigma)
        let c = SmoothingConfiguration(tier: .bestForNavigation, mode: .walk, convention: convention)!
        #expect(abs(c.variance(accuracy: 10) - sigma * sigma) < 1e-12)
    }

    @Test("per-tier floor, nominal σ for a fix without (usable) accuracy")
    func floorAndNominal() {
        let c = SmoothingConfiguration(tier: .best, mode: .walk)!
        #expect(c.sigmaFloor == 3)
        #expect(c.variance(accuracy: 1) == 9)  // 0.71 m is below Best's 3 m floor
        #expect(abs(c.variance(accuracy: nil) - 50) < 1e-9)  // (10/√2)²: Best's nominal 10 m
        #expect(c.variance(accuracy: .nan) == c.variance(accuracy: nil))
        #expect(c.variance(accuracy: -4) == c.variance(accuracy: nil))
        // 0 is Android's and CSV exports' "no accuracy", not a perfect fix (the floor).
        #expect(c.variance(accuracy: 0) == c.variance(accuracy: nil))
        #expect(c.variance(accuracy: -0.0) == c.variance(accuracy: nil))
        #expect(c.variance(accuracy: .infinity) == c.variance(accuracy: nil))
    }

    @Test("the battery model's Kalman table (docs/battery-model.md): floors and q (walk / drive); bike in between; off has none")
    func table() {
        let expected: [(AccuracyTier, Double, Double, Double)] = [
            (.bestForNavigation, 2, 0.3, 3), (.best, 3, 0.3, 3), (.nearestTenMeters, 5, 0.3, 3),
            (.hundredMeters, 25, 0.1, 10), (.kilometer, 200, 0.003, 10), (.threeKilometers, 600, 0.003, 0.1),
        ]
        for (tier, floor, walk, drive) in expected {
            #expect(SmoothingConfiguration.sigmaFloor(tier: tier) == floor)
            #expect(SmoothingConfiguration.processNoise(tier: tier, mode: .walk) == walk)
            #expect(SmoothingConfiguration.processNoise(tier: tier, mode: .drive) == drive)
            let bike = SmoothingConfiguration.processNoise(tier: tier, mode: .bike)!
            #expect(bike > walk && bike < drive, "\(tier): bike q \(bike)")
            // The nominal σ of a fix without accuracy is never below the floor.
            #expect(SmoothingConfiguration.nominalSigma(tier: tier)! >= floor)
        }
        #expect(SmoothingConfiguration(tier: .off, mode: .walk) == nil)
    }
}
