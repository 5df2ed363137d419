import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceProj
import TraceSharing

/// The scenario a replay runs, item by item: the flags and sidecar first, then the traces
/// (waypoints, a state column), then inference from the roles' scans. Its timeline is the events
/// to schedule and, when no timeline is given or found, the online detector that infers the rest.
struct ResolvedScenario {
    var category: Sourced<RequestCategory>
    var handedOff: Sourced<Bool>
    var pickup: Sourced<Coordinate>?
    var dropoff: Sourced<Coordinate>?
    /// The dropoff counts as reached no earlier than this (``PointInference/dropoff``); `.min` when
    /// any time counts.
    var dropoffNotBefore: Int64
    /// The given timeline's events, the inferred timeline's start, the cancellation.
    var events: [ScheduledEvent] = []
    var inference = TimelineInference.given
    /// Inferred timelines: the helper's last fix, where the request is completed.
    var completesAt = Int64.max
    var notes: [String] = []
    /// Scenario items that contradict the traces, one line each (``ReplayResult/warnings``).
    var warnings: [String] = []

    /// Resolves `spec` against the first pass's records (the state columns) and waypoints and the
    /// roles' scans (indexed by role).
    /// - Throws: ``ReplayError/invalid(_:)`` for a state column that is not a valid timeline.
    init(spec: ScenarioSpec, first: Replay.FirstPass, scans: RoleTable<RoleScan?>, rules: InferenceRules) throws(ReplayError) {
        let helper = scans[.helper] ?? RoleScan()
        category = spec.category ?? Sourced(RequestCategory.ride, .default, "none given: a ride")
        handedOff = spec.pickupHandedOff ?? Sourced(false, .default, "none given")
        let partyRole: Role = handedOff.value ? .delegate : .hirer
        let party = scans[partyRole]?.first.map { (partyRole, $0.time, $0.coordinate) }
        pickup = PointInference.pickup(given: spec.pickup ?? first.pickup, partyFirst: party, helper: helper, rules: rules)
        let dropoffFound = PointInference.dropoff(given: spec.dropoff ?? first.dropoff, pickup: pickup?.value, helper: helper, rules: rules)
        dropoff = dropoffFound?.point
        dropoffNotBefore = dropoffFound?.notBefore ?? .min

        var given = spec.timeline
        if given == nil { given = try Self.stateColumnTimeline(first) }
        if let given {
            for e in given.value {
                guard let event = TimelineEntry.event(entering: e.state) else { continue }
                events.append(ScheduledEvent(time: e.time.nanoseconds, event: event, provenance: e.provenance, detail: e.detail))
            }
        } else if let start = helper.first, let last = helper.last, let p = pickup?.value, let d = dropoff?.value {
            events.append(ScheduledEvent(time: start.time, event: .accept, provenance: .inferred, detail: "the helper's first fix"))
            inference = .online(
                TimelineDetector(rules: rules, start: start.coordinate, pickup: p, dropoff: d, dropoffNotBefore: dropoffFound?.notBefore))
            completesAt = last.time
        } else {
            notes.append("no helper fix: the timeline cannot be inferred, the request stays in Finding Villager")
        }
        if let c = spec.cancelledAt {
            events.append(ScheduledEvent(time: c.value.nanoseconds, event: .cancel, provenance: c.provenance, detail: c.detail))
        }
    }

    /// The timeline of the first CSV `state` column found (the helper's files first), if any.
    static func stateColumnTimeline(_ first: Replay.FirstPass) throws(ReplayError) -> Sourced<[TimelineEntry]>? {
        let ordered = first.records.map(\.record).sorted { ($0.role == .helper ? 0 : 1) < ($1.role == .helper ? 0 : 1) }
        guard let r = ordered.first(where: { !$0.stateChanges.isEmpty }) else { return nil }
        var entries: [TimelineEntry] = []
        for change in r.stateChanges {
            guard let state = FulfilmentState(parsing: change.state) else {
                throw .invalid(
                    "\(r.path): state '\(change.state)' is not a fulfilment state; expected one of \(FulfilmentState.allCases.map(\.key).joined(separator: ", "))"
                )
            }
            entries.append(
                TimelineEntry(
                    state: state, time: Timestamp(nanoseconds: change.time), provenance: .trace, detail: "the state column of \(r.path)"))
        }
        do {
            return Sourced(try TimelineEntry.validated(entries), .trace, "the state column of \(r.path)")
        } catch {
            throw .invalid("\(r.path): state column: \(error.message)")
        }
    }
}
