public import TraceDomain
public import TraceGeodesy
public import TraceSharing

/// Decides, fix by fix, whether a phone would deliver a location update: the emulation of one
/// device under a state's tier, accuracy gate, distance filter and delivery model.
///
/// For each fix offered, in order:
/// 1. Location off (``AccuracyTier/off``) delivers nothing.
/// 2. The state's optional ``AccuracyGate`` stops a fix whose reported accuracy is worse than its
///    threshold (and, if it says so, a fix without one); such a fix leaves the gate unchanged.
/// 3. The ``DeliveryModel`` decides: the first fix is delivered, after that the model's distance
///    and time rules apply, measured from the last *delivered* fix. ``DeliveryModel/coreLocation``
///    (the default) is Apple's `distanceFilter`: horizontal distance at least the filter, accuracy
///    not consulted; see ``DeliveryModel`` for the Android, speed-elastic and heartbeat rules and
///    their sources.
///
/// Times: a fix whose time is not finite is never delivered and changes nothing (as a fix the
/// accuracy gate stops). A time earlier than the last delivered fix's is a clock that stepped
/// back: for that fix no time has elapsed (time rules hold it back, a heartbeat does not fire;
/// distance rules apply as usual), and the last delivered fix's time is moved back to it, so the
/// time rules measure from the new clock from then on instead of waiting until the old time
/// comes round again.
///
/// Speed: whatever the model in use, the gate keeps the speed of the last delivered fix (its
/// reported speed, or when it reports none, the distance from the previous delivered fix over the
/// time since it: what the app, and an SDK inside it, has seen), so a switch to
/// ``DeliveryModel/speedElastic(elasticityMultiplier:)`` by a new state or by
/// ``deliveryOverride`` starts from the right filter.
///
/// A phone standing still leaks jitter through any of these filters when the filter is below about
/// 2.5 × its accuracy (docs/battery-model.md, "Distance filters"); the tests measure it.
///
/// Distance: ``TangentPlane`` (≤ 0.3 mm from the geodesic, a few nanoseconds), with the exact
/// solver given at initialisation (Karney's geodesic, TraceProj's `Geodesic`) beyond 2 km or 80°
/// latitude. It is measured only when the rule needs it: a rule decided on time alone needs none,
/// and a fix that ``TangentPlane/Screen`` (the last delivered fix's scale) shows to be short of the
/// threshold by over 1 % is not delivered without it, the decision the distance would give (the
/// tests compare every decision and the gate's state with and without the screen). O(1) per fix,
/// no allocation; a `Sendable` value, one per device.
public struct UpdateGate: Sendable {
    /// The state's tier; ``AccuracyTier/off`` delivers nothing.
    public var tier: AccuracyTier {
        get { rule.tier }
        set { rule.tier = newValue }
    }
    /// Metres; 0 delivers every fix (under ``DeliveryModel/androidFused(interval:minUpdateInterval:)``
    /// too: Android skips the distance check when it is 0).
    public var distanceFilter: Double {
        get { rule.distanceFilter }
        set { rule.distanceFilter = newValue }
    }
    /// The optional accuracy gate; nil delivers fixes whatever their accuracy.
    public var accuracyGate: AccuracyGate?
    /// The model in use: ``deliveryOverride`` when set, otherwise the state's.
    public var delivery: DeliveryModel { rule.delivery }
    /// A model that replaces every state's (for example to replay one policy under each platform's
    /// rules); nil uses the state's. Kept across ``apply(_:)-(StatePolicy)``.
    public var deliveryOverride: DeliveryModel? {
        didSet { rule.delivery = deliveryOverride ?? stateDelivery }
    }
    /// The last delivered fix and its time (seconds on any fixed clock; moved back with a clock
    /// that steps back), or nil before the first.
    public var lastDelivered: (coordinate: Coordinate, time: Double)? { memory.lastDelivered }
    /// The speed of the last delivered fix, m/s: reported, or derived (see the type's
    /// discussion); 0 before the first.
    public var deliveredSpeed: Double { memory.speed }
    /// The settings the rule decides with: ``tier``, ``distanceFilter``, ``delivery``.
    private var rule: DeliveryRule
    /// What the rule remembers between fixes (``lastDelivered``, ``deliveredSpeed``).
    private var memory = DeliveryMemory.empty
    /// The state's own model (what ``delivery`` returns to when the override is removed).
    private var stateDelivery: DeliveryModel
    /// The exact solver for the rare step beyond the tangent plane's domain (over 2 km, or near a
    /// pole): given, never constructed here, so this module needs no geodesy library of its own.
    private let exact: any GeodesicSolver & Sendable
    /// The last delivered fix's scale, for fixes certainly short of the filter; made again when
    /// first needed after a delivery (nil beyond ±80°). Derived from ``lastDelivered``: not
    /// compared.
    private var screen: TangentPlane.Screen?
    /// Whether fixes are screened (the tests compare the decisions without).
    var screens = true

    /// A gate configured from a state's row of the policy; `exact` measures the steps beyond the
    /// tangent plane's domain (TraceProj's `Geodesic()`, Karney's algorithm, in a replay).
    public init(_ row: StatePolicy, exact: some GeodesicSolver & Sendable) {
        self.init(tier: row.tier, distanceFilter: row.distanceFilter, delivery: row.delivery, accuracyGate: row.accuracyGate, exact: exact)
    }

    /// A gate with explicit settings; `exact` as for ``init(_:exact:)``.
    public init(
        tier: AccuracyTier, distanceFilter: Double, delivery: DeliveryModel = .coreLocation, accuracyGate: AccuracyGate? = nil,
        exact: some GeodesicSolver & Sendable
    ) {
        self.exact = exact
        rule = DeliveryRule(tier: tier, distanceFilter: distanceFilter, delivery: delivery)
        self.accuracyGate = accuracyGate
        stateDelivery = delivery
    }

    /// Applies a new state's row, keeping the last delivered fix (Core Location keeps measuring from
    /// it when the app changes `distanceFilter`) and any ``deliveryOverride``. Turning the tier off
    /// forgets it: the next fix after location is switched on again is a first fix.
    public mutating func apply(_ row: StatePolicy) {
        rule = DeliveryRule(tier: row.tier, distanceFilter: row.distanceFilter, delivery: deliveryOverride ?? row.delivery)
        accuracyGate = row.accuracyGate
        stateDelivery = row.delivery
        if tier == .off { memory = .empty }
    }

    /// Applies the settings of an action from ``FulfilmentMachine``: its tier (off once the request
    /// is cancelled or completed), filter, delivery model and accuracy gate, as
    /// ``apply(_:)-(StatePolicy)`` does for a row.
    public mutating func apply(_ action: SharingAction) {
        apply(
            StatePolicy(
                tier: action.tier, frame: action.frame, distanceFilter: action.distanceFilter,
                delivery: action.delivery, accuracyGate: action.accuracyGate,
                shows: ShownContent(route: false, routeLines: action.routeLines, destination: false),
                hirerAnnotations: [], helperAnnotations: []))
    }

    /// Offers a fix taken at `time` (seconds) with no reported accuracy or speed; returns whether it
    /// is delivered, and if so records it.
    public mutating func offer(_ fix: Coordinate, at time: Double) -> Bool {
        offer(fix, at: time, accuracy: nil, speed: nil)
    }

    /// Offers a fix taken at `time` (seconds) with its reported horizontal accuracy (metres) and
    /// speed (m/s), either possibly absent; returns whether it is delivered, and if so records it.
    /// Accuracy is read only by the ``accuracyGate``; speed is recorded for every delivered fix
    /// and read only by ``DeliveryModel/speedElastic(elasticityMultiplier:)``.
    public mutating func offer(_ fix: Coordinate, at time: Double, accuracy: Double?, speed: Double?) -> Bool {
        if let accuracyGate, !accuracyGate.admits(accuracy: accuracy) { return false }
        // The memory and screen go in as locals, and the solver is reached through a closure only
        // for a long step: borrowing it from `self` for every fix would copy the gate.
        var memory = memory, screen = screen
        let delivered = rule.offer(fix, at: time, speed: speed, memory: &memory, screen: &screen, screens: screens) {
            exact.inverse(from: $0, to: $1).distance
        }
        self.memory = memory
        self.screen = screen
        return delivered
    }

    /// ``offer(_:at:accuracy:speed:)`` with the fix's time as a ``TraceDomain/Timestamp``
    /// (nanoseconds since 1970-01-01T00:00:00Z, UTC), as a service receives it.
    public mutating func offer(_ fix: Coordinate, at time: Timestamp, accuracy: Double? = nil, speed: Double? = nil) -> Bool {
        offer(fix, at: time.seconds, accuracy: accuracy, speed: speed)
    }

    /// Whether this gate and `other` decide every later offer alike, given the same rows and fixes:
    /// the same settings, and the same memory (the last delivered fix, its time and the delivered
    /// speed, compared bit for bit). The exact solver is not compared: give both the same.
    public func decidesAlike(_ other: UpdateGate) -> Bool {
        guard tier == other.tier, distanceFilter.bitPattern == other.distanceFilter.bitPattern, accuracyGate == other.accuracyGate,
            delivery == other.delivery, stateDelivery == other.stateDelivery, deliveryOverride == other.deliveryOverride,
            deliveredSpeed.bitPattern == other.deliveredSpeed.bitPattern
        else { return false }
        switch (lastDelivered, other.lastDelivered) {
        case (nil, nil): return true
        case (let a?, let b?):
            return a.coordinate.latitude.bitPattern == b.coordinate.latitude.bitPattern
                && a.coordinate.longitude.bitPattern == b.coordinate.longitude.bitPattern && a.time.bitPattern == b.time.bitPattern
        default: return false
        }
    }
}
