public import TraceDomain

/// Time spent in each accuracy tier, in seconds: the buckets of Apple's MetricKit
/// `MXLocationActivityMetric`, so that field data can check a replay, plus the time with location
/// off (which MetricKit does not report).
///
/// Mapping (``AccuracyTier`` → MetricKit property): bestForNavigation →
/// `cumulativeBestAccuracyForNavigationTime`, best → `cumulativeBestAccuracyTime`,
/// nearestTenMeters → `cumulativeNearestTenMetersAccuracyTime`, hundredMeters →
/// `cumulativeHundredMetersAccuracyTime`, kilometer → `cumulativeKilometerAccuracyTime`,
/// threeKilometers → `cumulativeThreeKilometersAccuracyTime`; off → none
/// (``AccuracyTier/metricKitName``).
public struct TierSeconds: Hashable, Sendable {
    private var off = 0.0, threeKilometers = 0.0, kilometer = 0.0, hundredMeters = 0.0
    private var nearestTenMeters = 0.0, best = 0.0, bestForNavigation = 0.0

    /// The six tiers MetricKit reports, in the order of its documentation (most accurate first).
    public static let metricKitOrder: [AccuracyTier] = [
        .bestForNavigation, .best, .nearestTenMeters, .hundredMeters, .kilometer, .threeKilometers,
    ]

    /// No time in any tier.
    public init() {}

    /// Seconds spent in `tier`.
    public subscript(tier: AccuracyTier) -> Double {
        get {
            switch tier {
            case .off: off
            case .threeKilometers: threeKilometers
            case .kilometer: kilometer
            case .hundredMeters: hundredMeters
            case .nearestTenMeters: nearestTenMeters
            case .best: best
            case .bestForNavigation: bestForNavigation
            }
        }
        set {
            switch tier {
            case .off: off = newValue
            case .threeKilometers: threeKilometers = newValue
            case .kilometer: kilometer = newValue
            case .hundredMeters: hundredMeters = newValue
            case .nearestTenMeters: nearestTenMeters = newValue
            case .best: best = newValue
            case .bestForNavigation: bestForNavigation = newValue
            }
        }
    }

    /// Seconds with location on, in any tier (the sum of the six MetricKit buckets).
    public var activeSeconds: Double { threeKilometers + kilometer + hundredMeters + nearestTenMeters + best + bestForNavigation }

    /// All seconds, off included.
    public var totalSeconds: Double { off + activeSeconds }
}

extension AccuracyTier {
    /// The `MXLocationActivityMetric` property that counts time in this tier, e.g.
    /// "cumulativeBestAccuracyTime"; nil for off.
    public var metricKitName: String? {
        switch self {
        case .off: nil
        case .threeKilometers: "cumulativeThreeKilometersAccuracyTime"
        case .kilometer: "cumulativeKilometerAccuracyTime"
        case .hundredMeters: "cumulativeHundredMetersAccuracyTime"
        case .nearestTenMeters: "cumulativeNearestTenMetersAccuracyTime"
        case .best: "cumulativeBestAccuracyTime"
        case .bestForNavigation: "cumulativeBestAccuracyForNavigationTime"
        }
    }
}
