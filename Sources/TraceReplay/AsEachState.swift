public import TraceDomain
public import TraceEnergy
import TraceIO
public import TraceJSON

/// How the pickup of a replay was found, and so how far its inferred timeline can be trusted
/// (``ReplayScenario/pickupInference``).
public enum PickupInference: Hashable, Sendable {
    /// Given: a flag, the sidecar, or a GPX waypoint named "pickup".
    case given
    /// The pickup party's first position: the hirer's (or, handed off, the delegate's) trace.
    case partyTrace(Role)
    /// The centre of the helper's first dwell after setting off, which lasted `seconds`.
    case dwell(seconds: Double)
    /// No stop between setting off and the end of the recording: no credible pickup. The
    /// inferred timeline would start at the first fix; ``Replay/asEachState(_:scenario:options:)``
    /// answers per state instead.
    case noStop
    /// No helper fix: no pickup at all.
    case none

    /// A dwell shorter than this many seconds makes a "low" confidence: 2 minutes, twice the
    /// dwell rule's minimum (``InferenceRules/dwellSeconds``, 60 s), longer than a traffic
    /// light's cycle.
    public static let confidentDwellSeconds = 120.0

    /// "given", "high" (a party's trace or a dwell of 2 min or more), "low" (a shorter dwell), or
    /// "none" (no credible pickup).
    public var confidence: String {
        switch self {
        case .given: "given"
        case .partyTrace: "high"
        case .dwell(let s): s >= Self.confidentDwellSeconds ? "high" : "low"
        case .noStop, .none: "none"
        }
    }

    /// "given", "partyTrace", "dwell", "noStop" or "none" (JSON).
    public var key: String {
        switch self {
        case .given: "given"
        case .partyTrace: "partyTrace"
        case .dwell: "dwell"
        case .noStop: "noStop"
        case .none: "none"
        }
    }
}

/// One live state's answer for a whole recording replayed under that state's row of the policy
/// (``Replay/asEachState(_:scenario:options:)``): how many updates each phone delivers and sends,
/// how far off and how stale the viewers' view of it is, and what it costs.
public struct StateAnswer: Hashable, Sendable {
    public var state: FulfilmentState
    public var tier: AccuracyTier
    /// Request time in the state: the recording less its gaps.
    public var seconds: Double
    /// The helper's distance over it, metres: the trip's, by which every phone's charge per
    /// kilometre is divided.
    public var helperDistanceMetres: Double
    /// One per phone taking part (helper, hirer, then the delegate), in ``Role`` order.
    public var phones: [Phone]

    /// One phone's figures in the state.
    public struct Phone: Hashable, Sendable {
        public var role: Role
        public var hasTrace: Bool
        public var deliveredFixes: Int
        public var sentUpdates: Int
        /// The viewers of this phone's position in the state (none: nobody is shown it).
        public var viewers: [Role]
        /// What its viewers saw of its position (p95), nil when nobody received an update.
        public var displayErrorP95Metres: Double?
        public var stalenessP95Seconds: Double?
        public var joules: Double
        public var milliampHours: Double
        /// Charge per hour of the state; nil under ``TraceEnergy/EnergyEstimate/minimumRateSeconds``
        /// (300 s: one-off costs, such as the radio's last tail, would dominate the rate).
        public var milliampHoursPerHour: Double?
        /// Charge per kilometre the helper travelled; nil when it did not move.
        public var milliampHoursPerKilometre: Double?
        /// The phone's charge on each shipped device profile (``ReplayOptions/energySpread``):
        /// its whole replay's, which is the state's (the replay spends its request time in it).
        public var spread: EnergySpread? = nil
    }

    /// The answer as JSON (`tracekit-replay/3`'s `asEachState` entries).
    public var json: JSONValue {
        func opt(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
        return .object([
            ("state", .string(state.key)), ("name", .string(state.displayName)), ("tier", .string(tier.key)),
            ("seconds", .number(seconds)), ("helperDistanceMetres", .number(helperDistanceMetres)),
            (
                "phones",
                .array(
                    phones.map { p in
                        .object([
                            ("role", .string(p.role.key)), ("hasTrace", .bool(p.hasTrace)),
                            ("deliveredFixes", .number(Double(p.deliveredFixes))), ("sentUpdates", .number(Double(p.sentUpdates))),
                            ("viewers", .array(p.viewers.map { .string($0.key) })),
                            ("displayErrorP95Metres", opt(p.displayErrorP95Metres)), ("stalenessP95Seconds", opt(p.stalenessP95Seconds)),
                            ("joules", .number(p.joules)), ("milliampHours", .number(p.milliampHours)),
                            ("milliampHoursPerHour", opt(p.milliampHoursPerHour)),
                            ("milliampHoursPerKilometre", opt(p.milliampHoursPerKilometre)),
                            ("energyAcrossDevices", p.spread?.json ?? .null),
                        ])
                    })
            ),
        ])
    }
}

extension Replay {
    /// The live states a recording is replayed as, in order.
    public static let answeredStates: [FulfilmentState] = [.enRoute, .atPickup, .inTask]

    /// Replays the whole recording once per live state (En Route, At Pickup, In Task), each time
    /// under that state's row of the policy and with that state's viewers, and answers per state:
    /// updates delivered and sent, the view figures, and the battery in all, per hour and per
    /// kilometre.
    ///
    /// Each replay is an ordinary one of the trip, from memory, with a given timeline: the state
    /// entered at the first fix of any trace (Accepted with it) and the request cancelled 1 ns
    /// after the last, or at the cancellation the trip's scenario gives if that comes first (a
    /// cancellation ends a live state without entering another). Whatever the trip's scenario
    /// says of the timeline is replaced; its category, hand-off, points and traces are kept. No
    /// picture is recorded. Empty when the trip has no timed fix.
    /// - Throws: ``ReplayError``, as ``run(_:options:)`` would.
    public static func asEachState(_ trip: LoadedTrip, options: ReplayOptions) throws(ReplayError) -> [StateAnswer] {
        guard let span = trip.fixSpan else { return [] }
        var options = options
        options.recordTrack = false
        var answers: [StateAnswer] = []
        for state in answeredStates {
            let spec = stateSpec(trip.spec, state, span: span)
            let t = try LoadedTrip(inputs: trip.inputs, spec: spec, first: trip.first, options: options)
            answers.append(answer(state, of: try run(t, options: options)))
        }
        return answers
    }

    /// ``asEachState(_:options:)`` for a trip too large to hold in memory
    /// (``load(_:scenario:options:)`` gave nil): each state's replay reads the files again, over
    /// `span`, the first and last fix of a replay of it (``ReplayResult/start``, ``ReplayResult/end``,
    /// which a given timeline or cancellation outside the fixes widens).
    /// - Throws: ``ReplayError``.
    public static func asEachState(
        _ inputs: [TraceInput], scenario spec: ScenarioSpec, options: ReplayOptions, span: (start: Timestamp, end: Timestamp)
    ) throws(ReplayError) -> [StateAnswer] {
        var options = options
        options.recordTrack = false
        var answers: [StateAnswer] = []
        for state in answeredStates {
            let r = try run(inputs, scenario: stateSpec(spec, state, span: span), options: options)
            answers.append(answer(state, of: r))
        }
        return answers
    }

    /// `spec` with its timeline replaced by `state` from `span.start` on, and a cancellation 1 ns
    /// after `span.end` (so that the last fix is replayed in the state: an event at a fix's time
    /// comes before the fix), or the given one if it is earlier.
    static func stateSpec(_ spec: ScenarioSpec, _ state: FulfilmentState, span: (start: Timestamp, end: Timestamp)) -> ScenarioSpec {
        var s = spec
        let entry = TimelineEntry(state: state, time: span.start, provenance: .flag, detail: "as each state")
        // Accepted is entered with it (at the same time): the machine's only way into a live state.
        guard let entries = try? TimelineEntry.validated([entry]) else { preconditionFailure("a live state follows Accepted") }
        s.timeline = Sourced(entries, .flag, "as each state")
        let end = Timestamp(nanoseconds: span.end.nanoseconds + 1)
        if let c = spec.cancelledAt, c.value < end, c.value >= span.start {
            s.cancelledAt = c
        } else {
            s.cancelledAt = Sourced(end, .flag, "as each state: the end of the recording")
        }
        return s
    }

    /// The figures of `state` in `r`, a replay that spent its request time in it.
    static func answer(_ state: FulfilmentState, of r: ReplayResult) -> StateAnswer {
        let row = r.states.first { $0.state == state }
        let seconds = row?.seconds ?? 0
        let helperMetres = row?[.helper]?.distanceMetres ?? 0
        let perMilliampHour = r.energyProfile.joulesPerMilliampHour
        let phones = (row?.roles ?? []).map { m -> StateAnswer.Phone in
            let mAh = m.energy.totalJoules / perMilliampHour
            return StateAnswer.Phone(
                role: m.role, hasTrace: r.energy.first { $0.role == m.role }?.hasTrace ?? false, deliveredFixes: m.deliveredFixes,
                sentUpdates: m.sentUpdates, viewers: m.viewers, displayErrorP95Metres: m.view.displayErrorP95Metres,
                stalenessP95Seconds: m.view.stalenessP95Seconds, joules: m.energy.totalJoules, milliampHours: mAh,
                milliampHoursPerHour: seconds >= EnergyEstimate.minimumRateSeconds ? mAh * 3600 / seconds : nil,
                milliampHoursPerKilometre: helperMetres > 0 ? mAh * 1000 / helperMetres : nil,
                spread: r.energy.first { $0.role == m.role }?.spread)
        }
        return StateAnswer(state: state, tier: row?.tier ?? .off, seconds: seconds, helperDistanceMetres: helperMetres, phones: phones)
    }
}
