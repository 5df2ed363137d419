public import TraceDomain
public import TraceGeodesy

/// Everything that configures smoothing for one device: the tier's noise floor, the travel
/// mode's process noise, the platform's accuracy convention, the gate and the frame.
///
/// Defaults come from docs/battery-model.md, "Kalman defaults"; the bike column and the nominal σ
/// of a fix without reported accuracy are assumptions, documented on ``processNoise(tier:mode:)``
/// and ``nominalSigma(tier:)``.
public struct SmoothingConfiguration: Sendable, Hashable {
    /// The accuracy tier the fixes were recorded at (not ``AccuracyTier/off``).
    public let tier: AccuracyTier
    /// How the device travels.
    public let mode: TravelMode
    /// How reported accuracies are read.
    public var convention: AccuracyConvention
    /// Lowest σ per axis, metres: a fix never claims to be better than its tier allows.
    public var sigmaFloor: Double
    /// σ per axis, metres, for a fix that reports no accuracy.
    public var nominalSigma: Double
    /// The filter's numbers (q, gate, initial velocity variance).
    public var parameters: KalmanParameters
    /// Distance from the frame's origin, metres, beyond which the local frame is re-anchored on
    /// the estimate after an update (10 km: there the orthographic frame's scale is off by
    /// 1.2e-6). Infinity disables re-anchoring.
    public var reanchorDistance: Double

    /// The defaults for `tier` and `mode`, or nil when the tier is off (no fixes to smooth).
    public init?(tier: AccuracyTier, mode: TravelMode, convention: AccuracyConvention = .ios, gate: Double = 13.8) {
        guard let floor = Self.sigmaFloor(tier: tier), let q = Self.processNoise(tier: tier, mode: mode),
            let nominal = Self.nominalSigma(tier: tier)
        else { return nil }
        self.tier = tier
        self.mode = mode
        self.convention = convention
        sigmaFloor = floor
        nominalSigma = nominal
        parameters = KalmanParameters(processNoise: q, gate: gate, initialVelocityVariance: mode.initialSpeedSigma * mode.initialSpeedSigma)
        reanchorDistance = 10_000
    }

    /// The measurement variance per axis, m², for a fix reporting `accuracy` metres:
    /// (accuracy / divisor)², at least the floor squared; the nominal σ squared when there is no
    /// accuracy. None reported means nil, not finite, or not positive: Core Location reports a
    /// negative accuracy for an invalid fix, Android's `getAccuracy()` returns 0 when the fix has
    /// none, and CSV exports write 0 for a missing value, so 0 is never read as a perfect fix.
    @inlinable
    public func variance(accuracy: Double?) -> Double {
        let sigma: Double
        if let a = ReportedAccuracy.usable(accuracy) { sigma = max(convention.sigma(accuracy: a), sigmaFloor) } else { sigma = nominalSigma }
        return sigma * sigma
    }

    /// σ floor per axis, metres, by tier (docs/battery-model.md, "Kalman defaults"): 2, 3, 5, 25,
    /// 200, 600 m from BestForNavigation to ThreeKilometers; nil when off.
    public static func sigmaFloor(tier: AccuracyTier) -> Double? {
        switch tier {
        case .off: nil
        case .bestForNavigation: 2
        case .best: 3
        case .nearestTenMeters: 5
        case .hundredMeters: 25
        case .kilometer: 200
        case .threeKilometers: 600
        }
    }

    /// Process noise q, m²/s³, by tier and mode. Walk and drive are the table of
    /// docs/battery-model.md, "Kalman defaults" (0.3 / 3 for the GNSS tiers; 0.1 / 10, 0.003 / 10
    /// and 0.003 / 0.1 for HundredMeters, Kilometer and ThreeKilometers). Bike is an assumption:
    /// the geometric mean of walk and drive rounded to one significant figure (1, 1, 1, 1, 0.2,
    /// 0.02).
    public static func processNoise(tier: AccuracyTier, mode: TravelMode) -> Double? {
        switch (tier, mode) {
        case (.off, _): nil
        case (.bestForNavigation, .walk), (.best, .walk), (.nearestTenMeters, .walk): 0.3
        case (.bestForNavigation, .bike), (.best, .bike), (.nearestTenMeters, .bike): 1
        case (.bestForNavigation, .drive), (.best, .drive), (.nearestTenMeters, .drive): 3
        case (.hundredMeters, .walk): 0.1
        case (.hundredMeters, .bike): 1
        case (.hundredMeters, .drive): 10
        case (.kilometer, .walk): 0.003
        case (.kilometer, .bike): 0.2
        case (.kilometer, .drive): 10
        case (.threeKilometers, .walk): 0.003
        case (.threeKilometers, .bike): 0.02
        case (.threeKilometers, .drive): 0.1
        }
    }

    /// σ per axis, metres, assumed for a fix without reported accuracy: the upper end of the
    /// tier's nominal accuracy (``AccuracyTier/nominalAccuracy``: 5, 10, 10, 100, 1,000 and
    /// 3,000 m) read as an iOS `horizontalAccuracy` (÷ √2), so 3.54, 7.07, 7.07, 70.7, 707 and
    /// 2,121 m; nil when off. Core Location's tiers are requests in iOS terms, whatever the
    /// convention of the fixes.
    public static func nominalSigma(tier: AccuracyTier) -> Double? {
        tier.nominalAccuracy.map { AccuracyConvention.ios.sigma(accuracy: $0.upperBound) }
    }
}
