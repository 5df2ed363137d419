public import TraceDomain
public import TraceGeodesy
import TraceIO
public import TraceSharing

/// Where an item of a scenario came from. Reports print every item with its provenance, so an
/// inferred pickup or timeline is never mistaken for a given one.
public enum Provenance: String, CaseIterable, Hashable, Sendable {
    /// A command-line flag (`--category`, `--pickup`, `--timeline`, …); flags override everything.
    case flag
    /// The scenario sidecar (`trip.scenario.json` or `--scenario FILE`).
    case sidecar
    /// The trace's own content: GPX track names and waypoints, CSV `role` and `state` columns.
    case trace
    /// Inferred by the documented rules (``InferenceRules``).
    case inferred
    /// Nothing said anything: the documented default (the category is a ride, no hand-off).
    case `default`
}

/// A value with where it came from and, in words, how (e.g. "the helper's first dwell").
public struct Sourced<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    public var provenance: Provenance
    /// How the value was found, for reports; may be empty.
    public var detail: String

    public init(_ value: Value, _ provenance: Provenance, _ detail: String = "") {
        self.value = value
        self.provenance = provenance
        self.detail = detail
    }
}

/// One entry of a state timeline: the request enters `state` at `time`.
public struct TimelineEntry: Hashable, Sendable {
    public var state: FulfilmentState
    public var time: Timestamp
    public var provenance: Provenance
    /// How the time was found (e.g. "first helper fix within 50 m of the pickup"); may be empty.
    public var detail: String

    public init(state: FulfilmentState, time: Timestamp, provenance: Provenance, detail: String = "") {
        self.state = state
        self.time = time
        self.provenance = provenance
        self.detail = detail
    }

    /// The event that enters `state`, or nil for Finding Villager (where every request starts).
    public static func event(entering state: FulfilmentState) -> FulfilmentEvent? {
        switch state {
        case .findingVillager: nil
        case .accepted: .accept
        case .enRoute: .depart
        case .atPickup: .arrive
        case .inTask: .startTask
        case .awaitingPayment: .finishTask
        case .completed: .confirmPayment
        }
    }

    /// Checks that `entries` form a timeline the fulfilment machine accepts: times never go
    /// backwards, and each state can follow the previous one (Accepted is entered at the first
    /// entry's time when the list starts later than Accepted: that entry is returned added, marked
    /// inferred). Returns the entries to replay.
    /// - Throws: ``TimelineProblem`` naming the offending entry's index in `entries`.
    public static func validated(_ entries: [TimelineEntry]) throws(TimelineProblem) -> [TimelineEntry] {
        var result: [TimelineEntry] = []
        var machine = FulfilmentMachine(category: .ride)
        for (i, entry) in entries.enumerated() {
            if let last = result.last, entry.time < last.time {
                throw TimelineProblem(
                    index: i, message: "\(entry.state.key) at \(entry.time.iso8601) is before \(last.state.key) at \(last.time.iso8601)")
            }
            guard let event = event(entering: entry.state) else {
                guard i == 0 else { throw TimelineProblem(index: i, message: "findingVillager can only be the first entry") }
                result.append(entry)
                continue
            }
            if machine.state == .findingVillager && entry.state > .accepted {
                _ = try? machine.handle(.accept)
                result.append(
                    TimelineEntry(
                        state: .accepted, time: entry.time, provenance: .inferred, detail: "not listed: entered with the first listed state"
                    ))
            }
            do {
                _ = try machine.handle(event)
            } catch {
                throw TimelineProblem(index: i, message: "\(entry.state.key) cannot follow \(machine.state.key): \(error)")
            }
            result.append(entry)
        }
        return result
    }
}

/// Why a timeline is not usable: which entry, and why.
public struct TimelineProblem: Error, Hashable, Sendable {
    /// The entry's index in the list given.
    public var index: Int
    public var message: String
}

/// What a scenario source says about a trip: every item optional, each with its provenance. The
/// sidecar (`ScenarioSpec(sidecarBytes:file:)`) and the command-line flags each give one;
/// ``overriding(with:)`` lays the flags over the sidecar. What is still missing is read from the
/// traces or inferred when the replay runs (``ReplayScenario``).
public struct ScenarioSpec: Hashable, Sendable {
    public var category: Sourced<RequestCategory>?
    /// Pickup handed off to a third party (the delegate's phone sources the "hirer" locations).
    public var pickupHandedOff: Sourced<Bool>?
    public var pickup: Sourced<Coordinate>?
    public var dropoff: Sourced<Coordinate>?
    /// Trace files by role (paths as given, or resolved against the sidecar's folder).
    public var traces: [Role: Sourced<String>] = [:]
    /// The state timeline, as one unit: a given timeline is replayed as it is.
    public var timeline: Sourced<[TimelineEntry]>?
    /// When the request was cancelled, if it was.
    public var cancelledAt: Sourced<Timestamp>?

    public init() {}

    /// This spec with every item `other` has replacing this one's (trace roles one by one).
    public func overriding(with other: ScenarioSpec) -> ScenarioSpec {
        var s = self
        s.category = other.category ?? category
        s.pickupHandedOff = other.pickupHandedOff ?? pickupHandedOff
        s.pickup = other.pickup ?? pickup
        s.dropoff = other.dropoff ?? dropoff
        for (role, path) in other.traces { s.traces[role] = path }
        s.timeline = other.timeline ?? timeline
        s.cancelledAt = other.cancelledAt ?? cancelledAt
        return s
    }

    /// Parses "LAT,LON" in decimal degrees (a flag's value), validated.
    public static func coordinate(parsing text: String) -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let lat = Double(parts[0].filter { $0 != " " }), let lon = Double(parts[1].filter { $0 != " " }),
            let c = try? Coordinate(latitude: lat, longitude: lon)
        else { return nil }
        return c
    }

    /// Parses "STATE@TIME,STATE@TIME,…" (state keys or names, ISO 8601 times with a zone) into
    /// entries marked `provenance`; returns the offending item's text and why on failure.
    public static func timeline(parsing text: String, provenance: Provenance) -> Result<[TimelineEntry], TimelineTextError> {
        var entries: [TimelineEntry] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "@", maxSplits: 1)
            guard parts.count == 2 else { return .failure(TimelineTextError(item: String(item), message: "expected STATE@TIME")) }
            guard let state = FulfilmentState(parsing: String(parts[0])) else {
                return .failure(
                    TimelineTextError(
                        item: String(item),
                        message:
                            "unknown state '\(parts[0])'; expected one of \(FulfilmentState.allCases.map(\.key).joined(separator: ", "))"))
            }
            guard let (time, zoned) = Timestamp.parseISO8601(parts[1]), zoned else {
                return .failure(
                    TimelineTextError(item: String(item), message: "expected an ISO 8601 time with a zone, e.g. 2024-05-01T10:00:00Z"))
            }
            entries.append(TimelineEntry(state: state, time: time, provenance: provenance))
        }
        guard !entries.isEmpty else { return .failure(TimelineTextError(item: text, message: "no entries")) }
        return .success(entries)
    }
}

/// A `--timeline` item that could not be read.
public struct TimelineTextError: Error, Hashable, Sendable {
    public var item: String
    public var message: String
}

/// The scenario a replay ran: every item resolved, with its provenance.
public struct ReplayScenario: Hashable, Sendable {
    public var category: Sourced<RequestCategory>
    public var pickupHandedOff: Sourced<Bool>
    /// Nil only when nothing gave one and no helper fix exists to infer it from.
    public var pickup: Sourced<Coordinate>?
    public var dropoff: Sourced<Coordinate>?
    /// How the pickup was found, and so how far an inferred timeline can be trusted:
    /// ``PickupInference/noStop`` means there was no credible pickup (the reports answer per
    /// state instead, ``Replay/asEachState(_:scenario:options:span:)``).
    public var pickupInference = PickupInference.given

    /// Whether the whole scenario rests on a pickup that is not credible: no stop after setting
    /// off (``PickupInference/noStop``) and no timeline entry given. Reports then answer as each
    /// state (``Replay/asEachState(_:scenario:options:span:)``) instead of showing the timeline.
    public var lacksCrediblePickup: Bool {
        pickupInference == .noStop && timeline.allSatisfy { $0.provenance == .inferred }
    }
    /// The trace files and the roles read from each.
    public var traces: [TraceAssignment]
    /// The states entered, in order, with their times (inferred entries included, as found).
    public var timeline: [TimelineEntry]
    /// When the request was cancelled, if it was.
    public var cancelledAt: Sourced<Timestamp>?
    /// The constants the inference used.
    public var rules: InferenceRules

    /// Every item whose provenance is ``Provenance/inferred`` or ``Provenance/default``, named
    /// for a report's header (e.g. "pickup", "timeline: En Route").
    public var assumedItems: [String] {
        var items: [String] = []
        if category.provenance == .inferred || category.provenance == .default { items.append("category") }
        if let pickup, pickup.provenance == .inferred { items.append("pickup") }
        if let dropoff, dropoff.provenance == .inferred { items.append("dropoff") }
        for e in timeline where e.provenance == .inferred { items.append("timeline: \(e.state.displayName)") }
        return items
    }
}

/// One trace file's part in a replay.
public struct TraceAssignment: Hashable, Sendable {
    public var path: String
    /// The role of tracks and rows that do not name one.
    public var defaultRole: Role
    /// Where the file was named (flag, sidecar, or the command's TRACE argument: flag).
    public var provenance: Provenance
    /// The roles found in it, with how many timed fixes each.
    public var roles: [RoleFixCount]
}

/// Fixes of one role in one file.
public struct RoleFixCount: Hashable, Sendable {
    public var role: Role
    /// Timed track points read for the role.
    public var fixes: Int
    /// Whether the role was named by the content (a track name, the CSV role column) rather than
    /// by the file's default.
    public var namedInTrace: Bool
}
