public import TraceDomain
import TraceIO

/// A long recording replayed trip by trip (``Replay/runTrips(_:scenario:options:rules:)``).
public struct TripReplays: Hashable, Sendable {
    /// How the recording was cut.
    public var split: TripSplit
    /// Each trip with its replay, in time order.
    public var trips: [TripReplay]

    /// One trip's replay.
    public struct TripReplay: Hashable, Sendable {
        public var trip: Trip
        public var result: ReplayResult
    }

    /// The trips' figures summed per role: fixes, delivered and sent updates, distance, seconds
    /// and energy (the trips' totals rows and estimates added up).
    public var totals: [RoleTotal] {
        var byRole: [Role: RoleTotal] = [:]
        for t in trips {
            for m in t.result.roleTotals {
                var r = byRole[m.role] ?? RoleTotal(role: m.role)
                r.rawFixes += m.rawFixes
                r.deliveredFixes += m.deliveredFixes
                r.sentUpdates += m.sentUpdates
                r.distanceMetres += m.distanceMetres
                byRole[m.role] = r
            }
            for e in t.result.energy {
                var r = byRole[e.role] ?? RoleTotal(role: e.role)
                r.joules += e.estimate.totalJoules
                r.milliampHours += e.estimate.milliampHours
                byRole[e.role] = r
            }
        }
        return Role.allCases.compactMap { byRole[$0] }.sorted { order($0.role) < order($1.role) }
    }

    private func order(_ r: Role) -> Int { r == .helper ? 0 : r == .hirer ? 1 : 2 }

    /// The trips' request time, summed.
    public var seconds: Double { trips.reduce(0) { $0 + $1.result.durationSeconds } }

    /// One role's figures over every trip.
    public struct RoleTotal: Hashable, Sendable {
        public var role: Role
        public var rawFixes = 0
        public var deliveredFixes = 0
        public var sentUpdates = 0
        public var distanceMetres = 0.0
        public var joules = 0.0
        public var milliampHours = 0.0
    }
}

extension Replay {
    /// Refuses a scenario that gives a trip's own items (pickup, dropoff, timeline, cancellation)
    /// for a recording replayed trip by trip.
    /// - Throws: ``ReplayError/invalid(_:)`` naming the item and where it was given.
    public static func checkSplittable(_ spec: ScenarioSpec) throws(ReplayError) {
        let given = [
            spec.pickup.map { ("the pickup", $0.detail) }, spec.dropoff.map { ("the dropoff", $0.detail) },
            spec.timeline.map { ("the timeline", $0.detail) }, spec.cancelledAt.map { ("the cancellation", $0.detail) },
        ].compactMap { $0 }
        if let (item, source) = given.first {
            throw .invalid(
                "\(item) is given (\(source.isEmpty ? "scenario" : source)), but each trip of a split recording infers its own: replay that trip's file from 'tracekit split' instead"
            )
        }
    }

    /// A request longer than this is not one trip (a ride, a walk, a delivery): a replay that spans
    /// more says so (``longRecordingWarning(gaps:span:rules:split:)``). 4 h.
    public static let longRequestSeconds = 4.0 * 3600

    /// The one warning line of a replay whose recording holds recording gaps or spans more than
    /// ``longRequestSeconds``, suggesting `--split`; nil otherwise, and for a trip of a split
    /// recording whose only finding would be its length.
    static func longRecordingWarning(gaps: [RecordingGap], span: Double, rules: InferenceRules, split: Bool) -> String? {
        let excluded = gaps.reduce(0) { $0 + $1.seconds }
        if !gaps.isEmpty {
            let n = gaps.count
            return "the recording has \(n) gap\(n == 1 ? "" : "s") without a fix longer than \(minutes(rules.recordingGapSeconds)) "
                + "(\(hours(excluded)), excluded from request time: not charged, not counted as staleness) and spans \(hours(span)): "
                + (split ? "each gap is not request time" : "it looks like several trips; replay each as its own request with --split")
        }
        guard !split, span > longRequestSeconds else { return nil }
        return "the replay spans \(hours(span)), longer than any one request (\(hours(longRequestSeconds))): "
            + "if the recording holds several trips, replay each as its own request with --split"
    }

    /// "45 min", "22.1 h", "4 h", "23.2 d".
    private static func hours(_ s: Double) -> String {
        func tenths(_ x: Double) -> String {
            let t = Int((x * 10).rounded())
            return t % 10 == 0 ? "\(t / 10)" : "\(t / 10).\(t % 10)"
        }
        if s < 5400 { return "\(Int((s / 60).rounded())) min" }
        if s < 172_800 { return tenths(s / 3600) + " h" }
        return tenths(s / 86_400) + " d"
    }

    private static func minutes(_ s: Double) -> String {
        s.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(s / 60)) min" : "\(s) s"
    }

    /// Cuts the helper's recording into trips (``TripSplit/find(_:options:rules:)``) and replays
    /// each as its own request: its fixes, of every role, are those timed within the trip
    /// (``ReplayOptions/window``), and its pickup, dropoff and timeline are inferred within it.
    ///
    /// A given pickup, dropoff, timeline or cancellation belongs to one request, not to every trip
    /// of a recording: such a scenario is refused (replay that trip's file from `tracekit split`).
    /// Waypoints named pickup and dropoff are not used either. The category and a handed-off
    /// pickup apply to every trip.
    ///
    /// A trip without a credible pickup (``ReplayScenario/lacksCrediblePickup``), or every trip
    /// when `asEachState` is true, is also answered as each live state
    /// (``ReplayResult/asEachState``, ``asEachState(_:options:)`` over the trip's window).
    /// - Throws: ``ReplayError``; `.invalid` for a scenario that gives a trip's items.
    public static func runTrips(
        _ inputs: [TraceInput], scenario spec: ScenarioSpec, options: ReplayOptions, rules: TripRules, asEachState: Bool = false
    )
        throws(ReplayError) -> TripReplays
    {
        try checkSplittable(spec)
        var all = inputs
        for role in Role.allCases {
            guard let t = spec.traces[role], !all.contains(where: { samePath($0.path, t.value) }) else { continue }
            all.append(TraceInput(path: t.value, defaultRole: role, provenance: t.provenance))
        }
        let helpers = all.filter { $0.defaultRole == .helper }
        let split = try TripSplit.find(helpers.isEmpty ? all : helpers, options: options, rules: rules)
        var replays = TripReplays(split: split, trips: [])
        for trip in split.trips {
            var o = options
            o.window = trip.start.nanoseconds...trip.end.nanoseconds
            var result = try run(inputs, scenario: spec, options: o)
            if asEachState || result.scenario.lacksCrediblePickup {
                if let t = try load(inputs, scenario: spec, options: o) {
                    result.asEachState = try Self.asEachState(t, options: o)
                } else {
                    result.asEachState = try Self.asEachState(inputs, scenario: spec, options: o, span: (result.start, result.end))
                }
            }
            replays.trips.append(.init(trip: trip, result: result))
        }
        return replays
    }
}
