import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceJSON
public import TraceSharing
import TraceSimulation

/// How an update travels from the sender's phone to each viewer (README, "The other party's
/// view"; `--network`).
public enum NetworkModel: String, CaseIterable, Hashable, Sendable {
    /// The view TraceKit measured before it modelled the network: an update reaches every viewer
    /// the instant it is sent and is never lost, and the viewers' views are sampled at the
    /// sender's raw fixes. Kept for comparison; its figures are byte for byte those of earlier
    /// versions.
    case ideal
    /// The energy profile's network (``TraceEnergy/NetworkProfile``): the radio's wait from the
    /// battery model's radio state, the uplink, a seeded log-normal backend-and-downlink delay and
    /// a loss per viewer; the views are sampled on the viewers' clock, every second of request
    /// time (``ViewClock``). The default.
    case realistic
}

/// What a viewer's map draws between updates (README, "The other party's view"; `--viewer`).
public enum ViewerModel: Hashable, Sendable {
    /// The marker stays at the last received position until the next update arrives.
    case last
    /// The marker moves from the last received position along its velocity for at most
    /// `maximumSeconds` after the update's fix, then stops: the velocity is the update's reported
    /// speed and course when it has both, otherwise the one derived from the last two received
    /// updates (the distance and the azimuth between them over the time between their fixes);
    /// without either, the marker stays.
    case extrapolate(maximumSeconds: Double)

    /// The extrapolation's limit when none is given: 10 s (assumed: two to three update intervals
    /// of a 30 m distance filter at city speeds). The limit bounds the overshoot when the sender
    /// stops: a phone that stands still delivers no fix through a distance filter, so nothing
    /// tells the viewer it stopped, and its marker runs on for the limit.
    public static let defaultExtrapolationSeconds = 10.0

    /// The viewer a replay uses when none is chosen: a send rule that predicts needs a viewer that
    /// predicts. Dead reckoning sends a fix when the position the viewer would draw is more than
    /// its threshold from it; a viewer that draws the last received position predicts nothing, so
    /// the rule would send what a distance filter of the same threshold sends (plus its
    /// heartbeat). So: ``extrapolate(maximumSeconds:)`` at ``defaultExtrapolationSeconds`` when
    /// `send` is dead reckoning, or when it is nil and a state where a phone shares its location
    /// has a dead-reckoning rule in `policy`; else ``last``.
    public static func paired(with policy: SharingPolicy, send: SendRule?) -> ViewerModel {
        predicts(policy: policy, send: send) ? .extrapolate(maximumSeconds: defaultExtrapolationSeconds) : .last
    }

    /// Whether the send rules in effect predict: `send` is dead reckoning, or it is nil and a state
    /// of `policy` whose tier is on has a dead-reckoning rule.
    public static func predicts(policy: SharingPolicy, send: SendRule?) -> Bool {
        if let send { return send != .everyDelivered }
        return FulfilmentState.allCases.contains { state in
            let row = policy[state]
            if row.tier == .off { return false }
            if case .deadReckoning = row.send { return true }
            return false
        }
    }

    /// Whether this model predicts the sender's motion between updates.
    public var predicts: Bool {
        if case .extrapolate = self { return true }
        return false
    }

    /// "last" or "extrapolate:10" (the command line's form).
    public var key: String {
        switch self {
        case .last: "last"
        case .extrapolate(let s): "extrapolate:\(JSONWriter.number(s))"
        }
    }

    /// For reports: "last received position" or "extrapolates up to 10 s".
    public var summary: String {
        switch self {
        case .last: "last received position"
        case .extrapolate(let s): "extrapolates up to \(JSONWriter.number(s)) s"
        }
    }
}

/// The viewers' sampling clock under the realistic network: one sample of each viewer's view of
/// each sender it sees, every ``periodSeconds`` of request time.
public enum ViewClock {
    /// 1 s.
    public static let periodSeconds = 1.0
    static let periodNanoseconds: Int64 = 1_000_000_000
}

/// One update as a viewer holds it: the reported position, its fix's time on the request clock
/// (nanoseconds) and the reported speed (m/s) and course (degrees), NaN when absent.
struct ViewUpdate {
    var coordinate: Coordinate
    var time: Int64
    var speed: Double
    var course: Double
}

extension ViewUpdate {
    /// Equal bit for bit.
    func isIdentical(to o: ViewUpdate) -> Bool {
        coordinate.latitude.bitPattern == o.coordinate.latitude.bitPattern
            && coordinate.longitude.bitPattern == o.coordinate.longitude.bitPattern && time == o.time
            && speed.bitPattern == o.speed.bitPattern && course.bitPattern == o.course.bitPattern
    }
}

/// The last two updates a viewer accepted from one sender (the sender keeps the same of what it
/// sent, for the dead-reckoning rule), and, for an extrapolating viewer, where the marker stops.
struct ViewPair {
    var last: ViewUpdate
    var previous: ViewUpdate?
    /// An extrapolating viewer's marker at the end of its limit: the last position moved along the
    /// velocity for the limit (Karney's geodesic, or the tangent plane within its domain); nil
    /// when the marker stays (no velocity, or the last viewer).
    var stop: Coordinate?
    /// Whether ``stop`` is within the tangent plane's domain (at most 2 km away), where the marker
    /// moves on the straight line in latitude and longitude between the two (within 0.35 m of the
    /// geodesic at 2 km up to 75° of latitude, 1 cm at 300 m); beyond, each drawing solves the
    /// geodesic.
    var near = true
    /// The velocity, for drawings beyond the tangent plane's domain: m/s and degrees.
    var speed = 0.0, course = 0.0
}

extension ViewPair {
    /// Equal bit for bit.
    func isIdentical(to o: ViewPair) -> Bool {
        guard last.isIdentical(to: o.last), near == o.near, speed.bitPattern == o.speed.bitPattern,
            course.bitPattern == o.course.bitPattern
        else { return false }
        switch (previous, o.previous) {
        case (nil, nil): break
        case (let a?, let b?): guard a.isIdentical(to: b) else { return false }
        default: return false
        }
        switch (stop, o.stop) {
        case (nil, nil): return true
        case (let a?, let b?): return a.latitude.bitPattern == b.latitude.bitPattern && a.longitude.bitPattern == b.longitude.bitPattern
        default: return false
        }
    }
}

extension ViewerModel {
    /// The pair after accepting `u`: `u` the last, the old last the previous, and the
    /// extrapolation's stop from the velocity of `u` (reported speed and course, else derived from
    /// the two).
    ///
    /// A derived velocity's stop at most ``linearStopMetres`` (500 m) on continues the step from
    /// the previous update to `u` on the straight line in latitude and longitude, scaled to the
    /// limit: within 0.1 m of the geodesic continued through the two (up to 75° of latitude; 3 cm
    /// at 300 m), and no trigonometry. Otherwise (a reported velocity, or a stop farther on) the
    /// geodesic is solved.
    @inline(__always)
    func accept(_ u: ViewUpdate, after old: ViewPair?, geodesic: some GeodesicDirectSolver) -> ViewPair {
        var pair = ViewPair(last: u, previous: old?.last)
        guard case .extrapolate(let limit) = self else { return pair }
        var speed = u.speed, course = u.course
        if !(speed.isFinite && course.isFinite) {
            guard let p = pair.previous, u.time > p.time else { return pair }
            let f = limit / (Double(u.time &- p.time) / 1e9)
            var dLon = u.coordinate.longitude - p.coordinate.longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            let lat = u.coordinate.latitude + f * (u.coordinate.latitude - p.coordinate.latitude)
            if abs(lat) <= TangentPlane.maximumLatitude && abs(u.coordinate.latitude) <= TangentPlane.maximumLatitude {
                let stop = Coordinate(
                    uncheckedLatitude: lat, longitude: Coordinate.normalizedLongitude(u.coordinate.longitude + f * dLon))
                if let d = TangentPlane.distanceIfNear(from: u.coordinate, to: stop), d <= Self.linearStopMetres {
                    if d > 0 { pair.stop = stop }
                    return pair
                }
            }
            let step = TangentPlane.inverse(from: p.coordinate, to: u.coordinate, fallback: geodesic)
            speed = step.distance / (Double(u.time &- p.time) / 1e9)
            course = step.finalAzimuth
        }
        let distance = speed * limit
        guard distance > 0, distance.isFinite else { return pair }
        pair.speed = speed
        pair.course = course
        if let q = TangentPlane.destinationIfNear(from: u.coordinate, azimuth: course, distance: distance) {
            pair.stop = q
        } else {
            pair.near = false
            pair.stop = (try? geodesic.direct(from: u.coordinate, azimuth: course, distance: distance).destination)
        }
        return pair
    }

    /// How far on a derived velocity's stop may be found on the straight line in latitude and
    /// longitude: 500 m.
    static let linearStopMetres = 500.0

    /// What the map draws at `time` (request clock, nanoseconds) from the updates in `pair`.
    @inline(__always)
    func draw(_ pair: ViewPair, at time: Int64, geodesic: some GeodesicDirectSolver) -> Coordinate {
        guard case .extrapolate(let limit) = self, let stop = pair.stop else { return pair.last.coordinate }
        let from = pair.last.coordinate
        let elapsed = Double(time &- pair.last.time) / 1e9
        guard elapsed > 0 else { return from }
        if elapsed >= limit { return stop }
        if pair.near {
            let f = elapsed / limit
            var dLon = stop.longitude - from.longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            return Coordinate(
                uncheckedLatitude: from.latitude + f * (stop.latitude - from.latitude),
                longitude: Coordinate.normalizedLongitude(from.longitude + f * dLon))
        }
        return (try? geodesic.direct(from: from, azimuth: pair.course, distance: pair.speed * elapsed).destination) ?? from
    }
}

/// The realistic network's random draws for one update to one viewer, keyed by the seed, the
/// sender, the viewer and the fix's time, so the same fix meets the same network under every
/// policy (common random numbers: a comparison of two policies is not blurred by luck).
struct NetworkDraw {
    /// Whether the update is lost on its way to the viewer.
    let lost: Bool
    /// The backend-and-downlink delay, seconds.
    let backendSeconds: Double

    init(_ profile: NetworkProfile, seed: UInt64, sender: Role, viewer: Role, fixTime: Int64) {
        // "network\0" keeps the stream apart from the accuracy emulation's (which mixes the role).
        var key = seed ^ 0x6E65_7477_6F72_6B00
        key = key &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(sender.rawValue * 3 + viewer.rawValue + 1)
        key = key &* 0xBF58_476D_1CE4_E5B9 ^ UInt64(bitPattern: fixTime)
        var random = SeededRandom(seed: key)
        lost = random.unit() < profile.lossProbability
        let z = random.gaussian()
        // exp(σz) with IEEE arithmetic only (the same on every platform); its exp takes [-700, 0].
        let e = max(min(profile.backendSigma * z, 700), -700)
        backendSeconds = profile.backendMedianSeconds * (e <= 0 ? DeterministicMath.exp(e) : 1 / DeterministicMath.exp(-e))
    }
}

extension Replay {
    /// The warning for a viewer chosen to draw the last received position next to a send rule
    /// that predicts (``ViewerModel/paired(with:send:)``), or nil: such a rule then sends what a
    /// distance filter of its threshold would.
    public static func viewerPairingWarning(_ options: ReplayOptions) -> String? {
        guard options.chosenViewer == .last, ViewerModel.predicts(policy: options.policy, send: options.send) else { return nil }
        return
            "the viewer draws the last received position, which predicts nothing: the dead-reckoning send rule sends what a distance filter of its threshold would (with its heartbeat); leave --viewer out, or give --viewer extrapolate, for a viewer that predicts"
    }
}
