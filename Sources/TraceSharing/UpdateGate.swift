public import TraceGeodesy
import TraceProj

/// Decides, fix by fix, whether a phone would deliver a location update under a state's tier and
/// distance filter, with Core Location's semantics.
///
/// Semantics (Apple's `distanceFilter`): the first fix is always delivered; after that a fix is
/// delivered when its horizontal distance from the last *delivered* fix is at least the filter
/// (a filter of 0 delivers every fix). Reported accuracy is not consulted. With tier off nothing is
/// delivered. The optional platform rules of the state apply on top: a fix within
/// `minimumInterval` seconds of the last delivered one is not delivered, and one at least
/// `heartbeat` seconds after it is delivered even if the phone has not moved.
///
/// Distance: ``TangentPlane`` (≤ 0.3 mm from the geodesic, a few nanoseconds), with Karney's
/// geodesic beyond 2 km or 80° latitude. O(1) per fix, no allocation; a `Sendable` value, one per
/// device.
public struct UpdateGate: Sendable {
    /// The state's tier; ``AccuracyTier/off`` delivers nothing.
    public var tier: AccuracyTier
    /// Metres; 0 delivers every fix.
    public var distanceFilter: Double
    /// Seconds, optional.
    public var minimumInterval: Double?
    /// Seconds, optional.
    public var heartbeat: Double?
    /// The last delivered fix and its time (seconds on any fixed clock), or nil before the first.
    public private(set) var lastDelivered: (coordinate: Coordinate, time: Double)?
    private let geodesic = Geodesic()

    /// A gate configured from a state's row of the policy.
    public init(_ row: StatePolicy) {
        tier = row.tier
        distanceFilter = row.distanceFilter
        minimumInterval = row.minimumInterval
        heartbeat = row.heartbeat
    }

    /// A gate with explicit settings.
    public init(tier: AccuracyTier, distanceFilter: Double, minimumInterval: Double? = nil, heartbeat: Double? = nil) {
        self.tier = tier
        self.distanceFilter = distanceFilter
        self.minimumInterval = minimumInterval
        self.heartbeat = heartbeat
    }

    /// Applies a new state's row, keeping the last delivered fix (Core Location keeps measuring from
    /// it when the app changes `distanceFilter`). Turning the tier off forgets it: the next fix after
    /// location is switched on again is a first fix.
    public mutating func apply(_ row: StatePolicy) {
        tier = row.tier
        distanceFilter = row.distanceFilter
        minimumInterval = row.minimumInterval
        heartbeat = row.heartbeat
        if tier == .off { lastDelivered = nil }
    }

    /// Applies the settings of an action from ``FulfilmentMachine``: its tier (off once the request
    /// is cancelled or completed), filter and platform rules, as ``apply(_:)-(StatePolicy)`` does for
    /// a row.
    public mutating func apply(_ action: SharingAction) {
        apply(StatePolicy(
            tier: action.tier, frame: action.frame, distanceFilter: action.distanceFilter,
            minimumInterval: action.minimumInterval, heartbeat: action.heartbeat,
            shows: ShownContent(route: false, routeLines: action.routeLines, destination: false),
            hirerAnnotations: [], helperAnnotations: []))
    }

    /// Offers a fix taken at `time` (seconds); returns whether it is delivered, and if so records it.
    public mutating func offer(_ fix: Coordinate, at time: Double) -> Bool {
        guard tier != .off else { return false }
        guard let last = lastDelivered else {
            lastDelivered = (fix, time)
            return true
        }
        let elapsed = time - last.time
        if let minimumInterval, elapsed < minimumInterval { return false }
        var deliver = TangentPlane.distance(from: last.coordinate, to: fix, fallback: geodesic) >= distanceFilter
        if !deliver, let heartbeat, elapsed >= heartbeat { deliver = true }
        if deliver { lastDelivered = (fix, time) }
        return deliver
    }
}
