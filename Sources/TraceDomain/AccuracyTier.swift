/// The location accuracy a state asks the phone for: one of Core Location's desired-accuracy
/// tiers, or off (no location updates).
public enum AccuracyTier: Int, CaseIterable, Comparable, Hashable, Sendable {
    /// Location services are not used.
    case off
    /// `kCLLocationAccuracyThreeKilometers`: 3,000 m, minimal battery.
    case threeKilometers
    /// `kCLLocationAccuracyKilometer`: 1,000 m, very low battery.
    case kilometer
    /// `kCLLocationAccuracyHundredMeters`: 100 m, low battery.
    case hundredMeters
    /// `kCLLocationAccuracyNearestTenMeters`: 10 m, moderate battery.
    case nearestTenMeters
    /// `kCLLocationAccuracyBest`: 5–10 m, high battery.
    case best
    /// `kCLLocationAccuracyBestForNavigation`: 1–5 m, very high battery.
    case bestForNavigation

    /// The key used in policy files, e.g. "nearestTenMeters".
    public var key: String {
        switch self {
        case .off: "off"
        case .threeKilometers: "threeKilometers"
        case .kilometer: "kilometer"
        case .hundredMeters: "hundredMeters"
        case .nearestTenMeters: "nearestTenMeters"
        case .best: "best"
        case .bestForNavigation: "bestForNavigation"
        }
    }

    /// The Core Location constant, or "None" for off (as the seed writes it).
    public var coreLocationName: String {
        switch self {
        case .off: "None"
        case .threeKilometers: "kCLLocationAccuracyThreeKilometers"
        case .kilometer: "kCLLocationAccuracyKilometer"
        case .hundredMeters: "kCLLocationAccuracyHundredMeters"
        case .nearestTenMeters: "kCLLocationAccuracyNearestTenMeters"
        case .best: "kCLLocationAccuracyBest"
        case .bestForNavigation: "kCLLocationAccuracyBestForNavigation"
        }
    }

    /// The nominal accuracy range in metres from the seed; nil when off.
    public var nominalAccuracy: ClosedRange<Double>? {
        switch self {
        case .off: nil
        case .threeKilometers: 3000...3000
        case .kilometer: 1000...1000
        case .hundredMeters: 100...100
        case .nearestTenMeters: 10...10
        case .best: 5...10
        case .bestForNavigation: 1...5
        }
    }

    /// The seed's battery cost level.
    public var batteryLevel: BatteryLevel {
        switch self {
        case .off: .none
        case .threeKilometers: .minimal
        case .kilometer: .veryLow
        case .hundredMeters: .low
        case .nearestTenMeters: .moderate
        case .best: .high
        case .bestForNavigation: .veryHigh
        }
    }

    /// The seed's use case for the tier.
    public var useCase: String {
        switch self {
        case .off: "Location not used"
        case .threeKilometers: "Low-power location updates"
        case .kilometer: "Region monitoring (geofencing)"
        case .hundredMeters: "City-level location, weather apps"
        case .nearestTenMeters: "General tracking (e.g. Maps)"
        case .best: "Fitness apps, ride-sharing"
        case .bestForNavigation: "Turn-by-turn navigation (car, walking, biking)"
        }
    }

    /// The jitter-safe distance filter for the tier in metres (about 2.5 × its accuracy:
    /// docs/battery-model.md, "Distance filters"); nil when off.
    public var jitterSafeDistanceFilter: Double? {
        switch self {
        case .off: nil
        case .threeKilometers: 3750
        case .kilometer: 1250
        case .hundredMeters: 160
        case .nearestTenMeters: 30
        case .best: 20
        case .bestForNavigation: 13
        }
    }

    /// The tier whose ``key`` or Core Location name is `text`.
    public init?(parsing text: String) {
        guard let t = AccuracyTier.allCases.first(where: { $0.key == text || $0.coreLocationName == text }) else { return nil }
        self = t
    }

    public static func < (a: AccuracyTier, b: AccuracyTier) -> Bool { a.rawValue < b.rawValue }
}

/// The seed's battery cost levels, from none to very high.
public enum BatteryLevel: Int, CaseIterable, Comparable, Hashable, Sendable {
    case none, minimal, veryLow, low, moderate, high, veryHigh

    /// The seed's wording, e.g. "Very High".
    public var displayName: String {
        switch self {
        case .none: "None"
        case .minimal: "Minimal"
        case .veryLow: "Very Low"
        case .low: "Low"
        case .moderate: "Moderate"
        case .high: "High"
        case .veryHigh: "Very High"
        }
    }

    public static func < (a: BatteryLevel, b: BatteryLevel) -> Bool { a.rawValue < b.rawValue }
}
