import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing

/// The constants of the inference rules (README, "Replay: inference").
///
/// A *dwell* is the helper staying within ``dwellRadiusMetres`` of one fix (the stay's first, its
/// anchor) for at least ``dwellSeconds``, with no recording gap inside it (no two consecutive fixes
/// more than ``recordingGapSeconds`` apart): 50 m covers GNSS scatter at a kerb (2.5–5 × a phone's
/// 10–20 m urban accuracy) and the length of a car park's lane; 60 s is longer than a red light
/// or a stop-and-go queue at walking speed, shorter than any real pickup wait; a recording gap is
/// time nobody knows where the phone was, so a stay ends at one. The same radius is the geofence
/// of the pickup and the dropoff.
public struct InferenceRules: Hashable, Sendable {
    /// Metres.
    public var dwellRadiusMetres: Double
    /// Seconds.
    public var dwellSeconds: Double
    /// Seconds: no fix of any trace for longer than this is a recording gap (600 s, `--gap`; the
    /// default of ``TripRules/gapSeconds``). A gap is not request time (the replay's clock skips
    /// it), no stay of a role spans two of its fixes this far apart, and a given timeline entry
    /// more than this outside the recording is warned about.
    public var recordingGapSeconds: Double

    public init(dwellRadiusMetres: Double = 50, dwellSeconds: Double = 60, recordingGapSeconds: Double = 600) {
        self.dwellRadiusMetres = dwellRadiusMetres
        self.dwellSeconds = dwellSeconds
        self.recordingGapSeconds = recordingGapSeconds
    }

    public static let `default` = InferenceRules()
}

/// The pickup and dropoff points, found from what was given and the first pass's scans.
///
/// Pickup: given (flag, sidecar, GPX waypoint "pickup"), else the pickup party's first position
/// (the delegate's when pickup is handed off and a delegate trace exists, else the hirer's when a
/// hirer trace exists), else the centre of the helper's first dwell that begins after the helper
/// first moved farther than the radius from its start, else the helper's first position (no stop
/// after setting off: the trip is read as starting at the pickup).
///
/// Dropoff: given (flag, sidecar, GPX waypoint "dropoff"), else the centre of the helper's last
/// dwell that is farther than the radius from the pickup and begins after the pickup dwell (the
/// first dwell centred within the radius of the pickup, if any), else the centre of the helper's
/// final stop (the fixes at the end of the trace within the radius of the first of them, however
/// short). An inferred dropoff is reached no earlier than the start of that dwell or stop, so a
/// round trip that ends where it began is not "at the dropoff" as it sets off; a given dropoff
/// no earlier than the start of the helper's last dwell or final stop centred within the radius
/// of it, when there is one. The helper leaves the dropoff no earlier than the end of that stop
/// (``TimelineDetector``, Completed). Dwells end at recording gaps (``RoleScanner``).
enum PointInference {
    /// The dropoff, and the stop of the helper's that counts as reaching it, if any.
    struct Dropoff {
        var point: Sourced<Coordinate>
        /// The stop's start: the dropoff counts as reached no earlier (nil: any time).
        var notBefore: Int64?
        /// The stop's last fix: the helper leaves the dropoff no earlier (nil: any time).
        var stopEnd: Int64?
    }

    /// The pickup, and how it was found (``PickupInference``).
    static func pickup(
        given: Sourced<Coordinate>?, partyFirst: (role: Role, time: Int64, coordinate: Coordinate)?,
        helper: RoleScan, rules: InferenceRules
    ) -> (point: Sourced<Coordinate>?, how: PickupInference) {
        if let given { return (given, .given) }
        if let p = partyFirst {
            return (
                Sourced(p.coordinate, .inferred, "the \(p.role.key)'s first position (\(Timestamp(nanoseconds: p.time).iso8601))"),
                .partyTrace(p.role)
            )
        }
        if let departure = helper.departure, let d = helper.dwells.first(where: { $0.start.nanoseconds >= departure }) {
            return (
                Sourced(d.centre, .inferred, "the centre of the helper's first dwell after setting off (\(describe(d)))"),
                .dwell(seconds: d.end.seconds(since: d.start))
            )
        }
        if let first = helper.first {
            return (
                Sourced(
                    first.coordinate, .inferred, "the helper's first position: no dwell after setting off, the trip starts at the pickup"),
                .noStop
            )
        }
        return (nil, PickupInference.none)
    }

    static func dropoff(
        given: Sourced<Coordinate>?, pickup: Coordinate?, helper: RoleScan,
        rules: InferenceRules
    ) -> Dropoff? {
        let r = rules.dwellRadiusMetres
        if let given {
            // The helper's last stop there, when it stopped there at all: a round trip passes
            // its dropoff as it sets off, and a dog walk ends where it began.
            let stops = helper.dwells + (helper.finalStay.map { [$0] } ?? [])
            let last = stops.filter { RoleScanner.within($0.centre, given.value, r) }.max { $0.start < $1.start }
            return Dropoff(point: given, notBefore: last?.start.nanoseconds, stopEnd: last?.end.nanoseconds)
        }
        var after = Int64.min
        if let pickup, let pickupDwell = helper.dwells.first(where: { RoleScanner.within($0.centre, pickup, r) }) {
            after = pickupDwell.end.nanoseconds
        }
        let candidate = helper.dwells.last { dwell in
            dwell.start.nanoseconds > after && !(pickup.map { RoleScanner.within(dwell.centre, $0, r) } ?? false)
        }
        if let d = candidate {
            return Dropoff(
                point: Sourced(d.centre, .inferred, "the centre of the helper's last dwell (\(describe(d)))"),
                notBefore: d.start.nanoseconds,
                stopEnd: d.end.nanoseconds)
        }
        if let d = helper.finalStay {
            return Dropoff(
                point: Sourced(d.centre, .inferred, "the centre of the helper's final stop (\(describe(d)))"),
                notBefore: d.start.nanoseconds,
                stopEnd: d.end.nanoseconds)
        }
        return nil
    }

    static func describe(_ d: Dwell) -> String {
        "\(d.start.iso8601) to \(d.end.iso8601), \(d.fixes) fix\(d.fixes == 1 ? "" : "es")"
    }
}

/// Infers the timeline online from the helper's fixes, as a phone's geofences would see them.
/// Each event happens at the time of the fix that triggers it:
///
/// 1. Accepted at the helper's first fix (scheduled from the first pass; after a given timeline
///    that lists only Finding Villager, at the first helper fix from its time on).
/// 2. En Route at the first helper fix farther than the radius from the helper's first fix.
/// 3. At Pickup at the first helper fix within the radius of the pickup (from Accepted, skipping
///    En Route, when the helper starts there).
/// 4. In Task at the first helper fix farther than the radius from the pickup after that.
/// 5. Awaiting Payment at the first helper fix within the radius of the dropoff after that (and
///    not before the start of the stop that counts as reaching it, ``PointInference``).
/// 6. Completed when the helper leaves the dropoff: at the first helper fix after that stop's last
///    fix farther than the radius from the dropoff; else at the helper's last fix
///    (``complete()``), once Awaiting Payment was reached. So travel after the dropoff is not
///    Awaiting Payment.
///
/// A partial given timeline is continued from its last state (the initializer's `state`), with the
/// fixes from its last entry's time on (`from`). A rule that never fires leaves the request in its
/// state to the end (reported as such).
struct TimelineDetector {
    let radius: Double
    let start: Coordinate
    let pickup: Coordinate
    let dropoff: Coordinate
    let dropoffNotBefore: Int64
    let dropoffStopEnd: Int64
    /// Fixes before this time are not looked at (a partial timeline's last entry).
    let from: Int64
    private(set) var state: FulfilmentState

    /// `state`: the state the request is in when inference takes over (Accepted, or a partial
    /// timeline's last state), from the fix at `from` on.
    init(
        rules: InferenceRules, start: Coordinate, pickup: Coordinate, dropoff: Coordinate, dropoffNotBefore: Int64?,
        dropoffStopEnd: Int64?, state: FulfilmentState = .accepted, from: Int64 = .min
    ) {
        radius = rules.dwellRadiusMetres
        self.start = start
        self.pickup = pickup
        self.dropoff = dropoff
        self.dropoffNotBefore = dropoffNotBefore ?? .min
        self.dropoffStopEnd = dropoffStopEnd ?? .min
        self.state = state
        self.from = from
    }

    /// The next state a helper fix at `c` enters, if any; call again with the same fix until nil
    /// (one fix can pass several rules).
    mutating func step(_ c: Coordinate, at time: Int64) -> (FulfilmentState, String)? {
        guard time >= from else { return nil }
        let r = radius
        switch state {
        case .findingVillager:
            state = .accepted
            return (.accepted, "first helper fix after the given timeline")
        case .accepted:
            if RoleScanner.within(pickup, c, r) {
                state = .atPickup
                return (.atPickup, "first helper fix within \(fmt(r)) m of the pickup")
            }
            if !RoleScanner.within(start, c, r) {
                state = .enRoute
                return (.enRoute, "first helper fix farther than \(fmt(r)) m from its start")
            }
        case .enRoute:
            if RoleScanner.within(pickup, c, r) {
                state = .atPickup
                return (.atPickup, "first helper fix within \(fmt(r)) m of the pickup")
            }
        case .atPickup:
            if !RoleScanner.within(pickup, c, r) {
                state = .inTask
                return (.inTask, "first helper fix farther than \(fmt(r)) m from the pickup")
            }
        case .inTask:
            if time >= dropoffNotBefore, RoleScanner.within(dropoff, c, r) {
                state = .awaitingPayment
                return (.awaitingPayment, "first helper fix within \(fmt(r)) m of the dropoff")
            }
        case .awaitingPayment:
            if time > dropoffStopEnd, !RoleScanner.within(dropoff, c, r) {
                state = .completed
                return (.completed, "the helper left the dropoff: first fix farther than \(fmt(r)) m from it")
            }
        case .completed:
            break
        }
        return nil
    }

    /// Marks the request completed (at the helper's last fix), when it awaits payment there.
    mutating func complete() -> Bool {
        guard state == .awaitingPayment else { return false }
        state = .completed
        return true
    }
}

func fmt(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
}
