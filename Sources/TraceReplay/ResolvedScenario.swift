import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// The scenario a replay runs, item by item: the flags and sidecar first, then the traces
/// (waypoints, a state column), then inference from the roles' scans. Its timeline is the events
/// to schedule and, when no timeline is given or found or the given one is partial (it ends before
/// Completed and no cancellation is given), the online detector that infers the rest: a partial
/// timeline is kept as given up to its last entry, and the states after it are inferred from the
/// helper's fixes from that entry's time on (a note says so, and which states it skipped before).
struct ResolvedScenario {
    var category: Sourced<RequestCategory>
    var handedOff: Sourced<Bool>
    var pickup: Sourced<Coordinate>?
    /// How the pickup was found.
    var pickupInference = PickupInference.given
    var dropoff: Sourced<Coordinate>?
    /// The dropoff counts as reached no earlier than this (``PointInference/dropoff``); `.min` when
    /// any time counts.
    var dropoffNotBefore: Int64
    /// The timeline given (flags, sidecar, a state column), as validated; nil when none was.
    var givenTimeline: Sourced<[TimelineEntry]>?
    /// The cancellation given, if any.
    var cancelledAt: Sourced<Timestamp>?
    /// The given timeline's events, the inferred timeline's start, the cancellation.
    var events: [ScheduledEvent] = []
    var inference = TimelineInference.given
    /// Inferred timelines: the helper's last fix, where the request is completed.
    var completesAt = Int64.max
    var notes: [String] = []
    /// Scenario items that contradict the traces, one line each (``ReplayResult/warnings``): added
    /// by the engine after the replay (``ScenarioChecks``), when the helper's scan is finished.
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
        (pickup, pickupInference) = PointInference.pickup(
            given: spec.pickup ?? first.pickup, partyFirst: party, helper: helper, rules: rules)
        let dropoffFound = PointInference.dropoff(given: spec.dropoff ?? first.dropoff, pickup: pickup?.value, helper: helper, rules: rules)
        dropoff = dropoffFound?.point
        dropoffNotBefore = dropoffFound?.notBefore ?? .min

        var given = spec.timeline
        if given == nil { given = try Self.stateColumnTimeline(first) }
        givenTimeline = given
        cancelledAt = spec.cancelledAt
        let pickupPoint = pickup?.value, dropoffPoint = dropoff?.value
        func detector(_ state: FulfilmentState, _ from: Int64) -> TimelineDetector? {
            guard let start = helper.first, let p = pickupPoint, let d = dropoffPoint else { return nil }
            return TimelineDetector(
                rules: rules, start: start.coordinate, pickup: p, dropoff: d, dropoffNotBefore: dropoffFound?.notBefore,
                dropoffStopEnd: dropoffFound?.stopEnd, state: state, from: from)
        }
        if let given {
            for e in given.value {
                guard let event = TimelineEntry.event(entering: e.state) else { continue }
                events.append(ScheduledEvent(time: e.time.nanoseconds, event: event, provenance: e.provenance, detail: e.detail))
            }
            if let last = given.value.last, Self.isPartial(given.value, cancelled: spec.cancelledAt != nil) {
                let through = "timeline given through \(last.state.displayName) (\(last.time.iso8601))"
                let skipped = Self.skippedStates(given.value)
                let before =
                    skipped.isEmpty
                    ? ""
                    : "; \(Self.list(skipped.map(\.displayName))), skipped before it, not inferred (a given timeline is kept as given up to its last entry)"
                if let end = helper.last, end.time >= last.time.nanoseconds, let d = detector(last.state, last.time.nanoseconds) {
                    inference = .online(d)
                    completesAt = end.time
                    notes.append(
                        "\(through): the states after it are inferred from the helper's fixes from then on (labelled inferred)\(before)")
                } else {
                    notes.append("\(through): no helper fix from then on, so nothing after it is inferred\(before)")
                }
            }
        } else if let start = helper.first, let last = helper.last, let d = detector(.accepted, .min) {
            events.append(ScheduledEvent(time: start.time, event: .accept, provenance: .inferred, detail: "the helper's first fix"))
            inference = .online(d)
            completesAt = last.time
        } else {
            notes.append("no helper fix: the timeline cannot be inferred, the request stays in Finding Villager")
        }
        if let c = spec.cancelledAt {
            events.append(ScheduledEvent(time: c.value.nanoseconds, event: .cancel, provenance: c.provenance, detail: c.detail))
        }
    }

    /// Whether a given timeline (validated) leaves states to infer: it ends before Completed and
    /// no cancellation ends the request.
    static func isPartial(_ entries: [TimelineEntry], cancelled: Bool) -> Bool {
        guard let last = entries.last else { return false }
        return !cancelled && last.state < .completed
    }

    /// The states a validated timeline passes over between its first and last entries (the state
    /// machine lets a request skip En Route and At Pickup), in order.
    static func skippedStates(_ entries: [TimelineEntry]) -> [FulfilmentState] {
        var skipped: [FulfilmentState] = []
        for (a, b) in zip(entries, entries.dropFirst()) {
            skipped += FulfilmentState.allCases.filter { $0 > a.state && $0 < b.state }
        }
        return skipped
    }

    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
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
