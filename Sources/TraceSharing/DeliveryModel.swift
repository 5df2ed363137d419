/// How a phone decides which fixes it delivers to the app: one of the platform rules that
/// ``UpdateGate`` emulates, chosen per state by the policy (``StatePolicy/delivery``) and
/// overridable in code (``UpdateGate/deliveryOverride``).
///
/// Every model delivers the first fix offered while location is on, and measures distance
/// horizontally (``TraceGeodesy/TangentPlane``, Karney's geodesic beyond 2 km) from the last
/// *delivered* fix, using the state's distance filter `F` (``StatePolicy/distanceFilter``). None of
/// them consults the reported accuracy: that is the separate, optional ``AccuracyGate``. Times are
/// seconds on the trace's clock (``UpdateGate`` documents a time that is not finite or goes
/// back). A replay has no fix between two fixes of the trace, so a time rule
/// fires at the first fix at or after its deadline.
///
/// Sources (read to understand, never copied):
/// - Apple, `CLLocationManager.distanceFilter`: "the minimum distance in meters the device must
///   move horizontally before an update event is generated", measured "relative to the previously
///   delivered location"; `kCLDistanceFilterNone` (our 0) delivers every movement.
/// - Android, `android.location.LocationRequest(.Builder)` and Google Play services'
///   `com.google.android.gms.location.LocationRequest.Builder`; AOSP
///   `services/core/java/com/android/server/location/provider/LocationProviderManager.java`
///   (`LocationRegistration`'s delivery filter).
/// - Transistor Software, background-geolocation `distanceFilter`, `elasticityMultiplier` and
///   `disableElasticity` documentation; the maintainer's answer in
///   transistorsoft/flutter_background_geolocation#452.
/// - OwnTracks booklet, "Location data" (iOS move mode), and the OwnTracks Android app's
///   `setupLocationRequest` (interval and smallest displacement in one `LocationRequest`).
public enum DeliveryModel: Hashable, Sendable {
    /// Core Location's `distanceFilter`: a fix is delivered when its horizontal distance from the
    /// last delivered fix is at least `F` (`>=`; `F` = 0 delivers every fix). No time rule. The
    /// default.
    case coreLocation

    /// Android's location request as the platform's `LocationProviderManager` filters it for one
    /// registration, with `minUpdateDistanceMeters` = `F`:
    ///
    /// 1. Fastest-interval check: with `Δt` the time since the last delivered fix and the jitter
    ///    allowance `j = min(0.1 × interval, 30 s)` (AOSP `FASTEST_INTERVAL_JITTER_PERCENTAGE` and
    ///    `MAX_FASTEST_INTERVAL_JITTER_MS`), a fix with `Δt < minUpdateInterval − j` is dropped.
    /// 2. Distance check: when `F > 0`, a fix with distance `<= F` is dropped. Note `<=`: a fix
    ///    exactly `F` away is dropped here but delivered under ``coreLocation``. (The
    ///    `getMinUpdateDistanceMeters` documentation says "closer … than", i.e. `<`; the code that
    ///    runs drops `<=`, and that is what is emulated.)
    ///
    /// `minUpdateInterval` nil is the *implicit* minimum update interval. Google Play services'
    /// fused provider documents `IMPLICIT_MIN_UPDATE_INTERVAL` as "the same as the interval", and
    /// current AOSP `LocationRequest.getMinUpdateIntervalMillis()` returns the interval when none
    /// was set, so nil means `interval`. (The framework's `Builder` documentation only promises
    /// "a sensible default between 0 and the interval", and some AOSP releases used interval / 6:
    /// to model such a device, give the value explicitly.) An explicit value above `interval` is
    /// reduced to it, as `Builder.build()` does. `interval` itself is how often the provider is
    /// asked to compute a fix; the trace supplies the fixes, so it acts only through the implicit
    /// minimum and the jitter allowance. AOSP works in whole milliseconds; seconds here differ
    /// from that by less than a millisecond.
    case androidFused(interval: Double, minUpdateInterval: Double?)

    /// Transistor Software background-geolocation's speed-elastic distance filter, as documented:
    /// the speed is rounded to the nearest 5 m/s (`r = 5 × round(v / 5)`, halves away from zero),
    /// the multiplier is `r / 5`, and the effective filter is `r / 5 × F × elasticityMultiplier`.
    /// Elasticity applies only above 5 m/s (the maintainer: "Elasticity isn't applied until speed
    /// > 5"); at or below it, and with `elasticityMultiplier` 0 (documented as the same as
    /// `disableElasticity: true`), the filter is `F`. The documentation's worked example rounds
    /// 27 m/s to 30, which contradicts "nearest" (25); the stated rule is followed.
    ///
    /// The SDK re-scales `distanceFilter` each time a location reaches it, and the new value
    /// governs the locations after it, so the filter a fix must clear comes from the speed of the
    /// last *delivered* fix. That speed is the fix's reported speed, or, when it has none (or a
    /// negative or non-finite one, as Core Location reports an invalid speed), the distance from
    /// the previous *delivered* fix divided by the time since it (0 for the first fix or when no
    /// time has elapsed): the SDK only sees delivered locations, so that is the speed it could
    /// derive. A derived speed is what the positions say, jitter included: a still phone whose
    /// jitter leaks through the filter reads as moving, the filter grows and further leaks
    /// become rarer (the tests measure it). A reported 0 is a speed (standing still), not "none";
    /// Android's `getSpeed()` returns 0 when `hasSpeed()` is false, so such a fix counts as
    /// still, which is also what the SDK would read. ``UpdateGate`` keeps this speed under every
    /// model, so switching to this one starts from it. On iOS the SDK hands the filter to Core
    /// Location, so the comparison is ``coreLocation``'s `>=`.
    case speedElastic(elasticityMultiplier: Double)

    /// "Distance OR time" (OwnTracks iOS move mode: publish "as soon as the device moves
    /// locatorDisplacement meters or after locatorInterval seconds, whatever happens first"): a fix
    /// is delivered when it is at least `F` from the last delivered fix, or at least `interval`
    /// seconds after it (a heartbeat).
    case distanceOrTime(interval: Double)

    /// "Distance AND time": a fix is delivered when it is at least `F` from the last delivered fix
    /// and at least `interval` seconds after it (a minimum interval). OwnTracks Android puts its
    /// interval and displacement into one Android location request; to emulate that request
    /// exactly (jitter allowance, `<=`), use ``androidFused(interval:minUpdateInterval:)``.
    case distanceAndTime(interval: Double)

    /// The speed above which the speed-elastic filter scales, and its rounding step, m/s.
    public static let elasticSpeedStep = 5.0

    /// The key used in policy files: "coreLocation", "androidFused", "speedElastic",
    /// "distanceOrTime", "distanceAndTime".
    public var key: String {
        switch self {
        case .coreLocation: "coreLocation"
        case .androidFused: "androidFused"
        case .speedElastic: "speedElastic"
        case .distanceOrTime: "distanceOrTime"
        case .distanceAndTime: "distanceAndTime"
        }
    }

    /// Every model's key, in declaration order (for messages and help).
    public static let keys = ["coreLocation", "androidFused", "speedElastic", "distanceOrTime", "distanceAndTime"]

    /// Android's effective minimum update interval, seconds: the explicit value capped at the
    /// interval, or the interval itself when implicit; nil for other models.
    public var effectiveMinUpdateInterval: Double? {
        guard case .androidFused(let interval, let minimum) = self else { return nil }
        return min(minimum ?? interval, interval)
    }

    /// Android's jitter allowance on the minimum update interval, seconds:
    /// `min(0.1 × interval, 30)`; nil for other models.
    public var jitterAllowance: Double? {
        guard case .androidFused(let interval, _) = self else { return nil }
        return min(0.1 * interval, 30)
    }

    /// The speed-elastic filter for a base filter `filter` (metres) at `speed` (m/s, ≥ 0), in
    /// metres. Other models return `filter`.
    public func elasticFilter(_ filter: Double, speed: Double) -> Double {
        guard case .speedElastic(let multiplier) = self, multiplier != 0, speed > Self.elasticSpeedStep else { return filter }
        let rounded = (speed / Self.elasticSpeedStep).rounded(.toNearestOrAwayFromZero) * Self.elasticSpeedStep
        return rounded / Self.elasticSpeedStep * filter * multiplier
    }
}
