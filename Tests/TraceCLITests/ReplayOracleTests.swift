import Foundation
import TestSupport
import Testing

// An oracle for `tracekit replay` that owes nothing to the product: hand-built trips written as
// literal coordinates and times, and every expected figure computed here from first principles,
// namely the user's document (restated in docs/domain.md) written out as a table, the seed's
// distance filters and tiers as the README states them, Vincenty's inverse formula on WGS84 for
// distances, and the battery model's published constants and rules (docs: "Battery estimate").
// This file imports no TraceKit module: the built binary's JSON is the only product output read.

/// The oracle's own vocabulary (the JSON keys), in the document's order.
enum OracleState: Int, CaseIterable, Sendable {
    case findingVillager, accepted, enRoute, atPickup, inTask, awaitingPayment, completed
    var key: String { ["findingVillager", "accepted", "enRoute", "atPickup", "inTask", "awaitingPayment", "completed"][rawValue] }
}

enum OracleRole: Int, CaseIterable, Sendable {
    case hirer, helper, delegate
    var key: String { ["hirer", "helper", "delegate"][rawValue] }
    /// The replay's merge order at equal times (README, "Two-party replay": the helper first).
    static let mergeOrder: [OracleRole] = [.helper, .hirer, .delegate]
}

/// The user's document and the seed policy, written out (not read from the product).
enum OracleDocument {
    /// Whether `viewer`'s map shows the live position coming from `sender`'s phone in `state`.
    /// En Route and At Pickup: both maps show "Helper Location, Hirer Location"; In Task: the hirer
    /// "Hirer Location, Dropoff Point", the helper "Helper Location, Pickup Point"; the other
    /// states have accuracy "None". The hirer's location only for rides; after a hand-off the
    /// delegate gets the hirer's map and the "hirer location" comes from the delegate's phone.
    static func shows(_ viewer: OracleRole, positionOf sender: OracleRole, in state: OracleState, isRide: Bool, handedOff: Bool) -> Bool {
        let hirerSource: OracleRole = handedOff ? .delegate : .hirer
        let hirerMap = viewer == .hirer || (viewer == .delegate && handedOff)
        let helperMap = viewer == .helper
        guard hirerMap || helperMap else { return false }
        let helperLocation = sender == .helper
        let hirerLocation = sender == hirerSource && isRide
        switch state {
        case .enRoute, .atPickup: return helperLocation || hirerLocation
        case .inTask: return hirerMap ? hirerLocation : helperLocation
        case .findingVillager, .accepted, .awaitingPayment, .completed: return false
        }
    }

    /// The other parties whose maps show `sender`'s position (the relay's viewers).
    static func viewers(of sender: OracleRole, in state: OracleState, isRide: Bool, handedOff: Bool) -> [OracleRole] {
        OracleRole.allCases.filter { $0 != sender && shows($0, positionOf: sender, in: state, isRide: isRide, handedOff: handedOff) }
    }

    /// A phone requests location when some map, its own included, shows its position.
    static func usesLocation(_ role: OracleRole, _ state: OracleState, isRide: Bool, handedOff: Bool) -> Bool {
        OracleRole.allCases.contains { shows($0, positionOf: role, in: state, isRide: isRide, handedOff: handedOff) }
    }

    /// The seed's distance filter per live state (README: 30 m En Route, 13 m At Pickup, 160 m In Task).
    static func filter(_ state: OracleState) -> Double {
        switch state {
        case .enRoute: 30
        case .atPickup: 13
        case .inTask: 160
        default: 0
        }
    }

    /// P_loc of the state's tier, watts: NearestTenMeters 145 mW, BestForNavigation 425 mW,
    /// HundredMeters 30 mW (the battery model's defaults), none in the states without location.
    static func locationWatts(_ state: OracleState) -> Double {
        switch state {
        case .enRoute: 0.145
        case .atPickup: 0.425
        case .inTask: 0.030
        default: 0
        }
    }

    /// The dwell and geofence radius R (README, "Inference rules").
    static let radius = 50.0
}

/// The battery model's `lte` profile and rules, written out: promotion 1210 mW × 0.26 s,
/// transmit 1200 mW × 0.1 s, tail 1060 mW × 10.12 s; a send within the tail shares it (the tail
/// is charged up to the send), one at or after its end is promoted again (the old tail charged in
/// full), one during a promotion or transmission waits its turn; the last tail is charged in full.
/// A received update costs what a sent one does. E_fix 50 mJ; 3.85 V nominal.
enum OracleBattery {
    static let promotionWatts = 1.210, promotionSeconds = 0.26
    static let transmitWatts = 1.200, transmitSeconds = 0.1
    static let tailWatts = 1.060, tailSeconds = 10.12
    static let fixJoules = 0.050
    static let joulesPerMilliampHour = 3.85 * 3.6

    struct Radio: Equatable {
        var promotion = 0.0, transmit = 0.0, tail = 0.0, promotions = 0
        var total: Double { promotion + transmit + tail }
    }

    /// The radio's energy over `events` (seconds and a state, in time order) per state
    /// (docs/battery-model.md, "Per state"): each event's promotion and transmission to its own
    /// state, each tail (cut by the next event or run out in full, the last one in full) to the
    /// state of the event that started it.
    static func radioByState(_ events: [(time: Double, state: Int)]) -> [Int: Double] {
        var byState: [Int: Double] = [:]
        var transmissionEnd = -Double.infinity
        var promoted = false
        for (i, e) in events.enumerated() {
            let since = e.time - transmissionEnd
            let start: Double
            if since >= tailSeconds {
                if promoted { byState[events[i - 1].state, default: 0] += tailWatts * tailSeconds }
                byState[e.state, default: 0] += promotionWatts * promotionSeconds
                promoted = true
                start = e.time + promotionSeconds
            } else if since >= 0 {
                byState[events[i - 1].state, default: 0] += tailWatts * since
                start = e.time
            } else {
                start = transmissionEnd
            }
            byState[e.state, default: 0] += transmitWatts * transmitSeconds
            transmissionEnd = start + transmitSeconds
        }
        if let last = events.last { byState[last.state, default: 0] += tailWatts * tailSeconds }
        return byState
    }

    /// The radio's energy over `times` (seconds, in order), the last tail charged in full.
    static func radio(_ times: [Double]) -> Radio {
        var r = Radio()
        var transmissionEnd = -Double.infinity
        for t in times {
            let since = t - transmissionEnd
            let start: Double
            if since >= tailSeconds {
                if r.promotions > 0 { r.tail += tailWatts * tailSeconds }
                r.promotion += promotionWatts * promotionSeconds
                r.promotions += 1
                start = t + promotionSeconds
            } else if since >= 0 {
                r.tail += tailWatts * since
                start = t
            } else {
                start = transmissionEnd
            }
            r.transmit += transmitWatts * transmitSeconds
            transmissionEnd = start + transmitSeconds
        }
        if !times.isEmpty { r.tail += tailWatts * tailSeconds }
        return r
    }
}

/// Vincenty's inverse formula (Survey Review 23, 1975) on WGS84, in metres: the textbook
/// iteration, written here so the oracle does not measure with the product's geodesy.
func vincentyMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    if lat1 == lat2 && lon1 == lon2 { return 0 }
    let a = 6_378_137.0, f = 1 / 298.257223563
    let b = a * (1 - f)
    let rad = Double.pi / 180
    let L = (lon2 - lon1) * rad
    let u1 = atan((1 - f) * tan(lat1 * rad)), u2 = atan((1 - f) * tan(lat2 * rad))
    let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)
    var lambda = L
    var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cos2Alpha = 0.0, cos2SigmaM = 0.0
    for _ in 0..<200 {
        let sinLambda = sin(lambda), cosLambda = cos(lambda)
        let x = cosU2 * sinLambda, y = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
        sinSigma = (x * x + y * y).squareRoot()
        if sinSigma == 0 { return 0 }
        cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
        sigma = atan2(sinSigma, cosSigma)
        let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
        cos2Alpha = 1 - sinAlpha * sinAlpha
        cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
        let c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
        let previous = lambda
        lambda = L + (1 - c) * f * sinAlpha * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        if abs(lambda - previous) < 1e-13 { break }
    }
    let uu = cos2Alpha * (a * a - b * b) / (b * b)
    let bigA = 1 + uu / 16384 * (4096 + uu * (-768 + uu * (320 - 175 * uu)))
    let bigB = uu / 1024 * (256 + uu * (-128 + uu * (74 - 47 * uu)))
    let deltaSigma =
        bigB * sinSigma
        * (cos2SigmaM + bigB / 4
            * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
    return b * bigA * (sigma - deltaSigma)
}

/// A hand-built trip: literal positions and whole-second times (from 2024-05-01T10:00:00Z).
struct OracleTrip: Sendable {
    struct Fix: Sendable {
        /// Seconds from the trip's base time.
        var t: Double
        var lat: Double, lon: Double
        init(t: Double, lat: Double, lon: Double) { self.t = t; self.lat = lat; self.lon = lon }
        init(t: Int, lat: Double, lon: Double) { self.init(t: Double(t), lat: lat, lon: lon) }
    }
    var name: String
    var category: String
    var isRide: Bool
    var handedOff = false
    var pickup: (lat: Double, lon: Double)
    var dropoff: (lat: Double, lon: Double)
    var timeline: [(OracleState, Double)]
    var cancelledAt: Double? = nil
    var traces: [(OracleRole, [Fix])]
    /// Whole seconds since 1970 of the trip's time 0 (2024-05-01T10:00:00Z for the hand-built trips).
    var baseEpoch = 1_714_557_600

    /// Fixes every `dt` seconds from `t` while staying at `at` displaced by each offset in turn
    /// (degrees of latitude and longitude), `count` fixes.
    static func stay(_ at: (Double, Double), from t: Int, every dt: Int, count: Int, offsets: [(Double, Double)] = [(0, 0)]) -> [Fix] {
        (0..<count).map { i in
            let o = offsets[i % offsets.count]
            return Fix(t: t + i * dt, lat: at.0 + o.0, lon: at.1 + o.1)
        }
    }

    /// `count` fixes moving in equal steps of (dLat, dLon) from `from` (the first fix one step on).
    static func move(_ from: (Double, Double), from t: Int, every dt: Int, count: Int, step: (Double, Double)) -> [Fix] {
        (1...count).map { i in Fix(t: t + i * dt, lat: from.0 + Double(i) * step.0, lon: from.1 + Double(i) * step.1) }
    }
}

extension OracleTrip {
    static let origin = (lat: 47.3700, lon: 8.5400)
    static let pickupPoint = (lat: 47.3700, lon: 8.5500)
    static let dropoffPoint = (lat: 47.3700, lon: 8.5820)
    /// Stationary jitter at a kerb, degrees: up to about 17 m north–south and 6 m east–west, so
    /// that some fixes leak through At Pickup's 13 m filter and most do not.
    static let jitter: [(Double, Double)] = [
        (0, 0), (0.00008, 0), (-0.00006, 0.00003), (0.00003, -0.00004),
        (0.00015, 0.00002), (-0.00012, 0), (0.00002, 0.00006), (0, -0.00008),
    ]
    static let still: [(Double, Double)] = [(0, 0), (0.00001, 0), (0, 0.00002), (-0.00001, -0.00001)]

    /// The helper's drive: waits at the origin, drives east to the pickup in 22.6 m steps (En
    /// Route, every other fix delivered through 30 m), waits at the kerb with jitter (At Pickup,
    /// 13 m), drives on in 60.3 m steps (In Task, every third through 160 m) to the dropoff, waits.
    static func helperDrive(pickupWaitCount: Int = 19) -> [Fix] {
        var f = stay(origin, from: 0, every: 5, count: 5)  // t 0…20
        f += move(origin, from: 20, every: 5, count: 33, step: (0, 0.0003))  // t 25…185, lon 8.5499
        f += stay(pickupPoint, from: 190, every: 10, count: pickupWaitCount, offsets: jitter)  // t 190…370
        let leave = 190 + 10 * pickupWaitCount
        f += move(pickupPoint, from: leave + 10, every: 4, count: 40, step: (0, 0.0008))  // to lon 8.5820
        let arrive = leave + 10 + 160
        f += stay(dropoffPoint, from: arrive + 5, every: 10, count: 13, offsets: still)
        return f
    }

    /// A ride: the hirer walks 111 m from home to the pickup, waits, rides with the helper.
    static let ride: OracleTrip = {
        let helper = helperDrive()
        let home = (47.3710, 8.5500)
        var hirer = stay(home, from: 0, every: 10, count: 11, offsets: still)  // t 0…100
        hirer += move(home, from: 100, every: 5, count: 10, step: (-0.0001, 0))  // t 105…150 to the pickup
        hirer += stay((47.37002, 8.55001), from: 160, every: 10, count: 22, offsets: jitter)  // t 160…370
        // In the car: 2 m north of the helper at the helper's times (the merge puts the helper first).
        hirer += helper.filter { $0.t >= 384 }.map { Fix(t: $0.t, lat: $0.lat + 0.00002, lon: $0.lon) }
        return OracleTrip(
            name: "ride", category: "ride", isRide: true, pickup: pickupPoint, dropoff: dropoffPoint,
            timeline: [(.accepted, 0), (.enRoute, 20), (.atPickup, 190), (.inTask, 380), (.awaitingPayment, 560), (.completed, 665)],
            traces: [(.helper, helper), (.hirer, hirer)])
    }()

    /// A ride whose pickup is handed off: a delegate walks to the pickup (its phone is the hirer
    /// location), the hirer stays home 1.2 km away (its phone shares nothing, but receives).
    static let handedOffRide: OracleTrip = {
        let helper = helperDrive(pickupWaitCount: 10)
        let home = (47.3800, 8.5600)
        let hirer = stay(home, from: 0, every: 15, count: 40, offsets: still)
        let start = (47.3715, 8.5490)
        var delegate = stay(start, from: 2, every: 8, count: 12, offsets: still)  // t 2…90
        delegate += move(start, from: 90, every: 6, count: 15, step: (-0.0001, 0.0000667))  // t 96…180
        delegate += stay((47.3700, 8.55005), from: 186, every: 7, count: 14, offsets: jitter)
        delegate += stay((47.3700, 8.5495), from: 290, every: 20, count: 20, offsets: still)  // stays behind when the helper leaves
        return OracleTrip(
            name: "handed-off ride", category: "ride", isRide: true, handedOff: true, pickup: pickupPoint, dropoff: dropoffPoint,
            timeline: [(.accepted, 0), (.enRoute, 20), (.atPickup, 190), (.inTask, 290), (.awaitingPayment, 470), (.completed, 575)],
            traces: [(.helper, helper), (.hirer, hirer), (.delegate, delegate)])
    }()

    /// Dog walking (not a ride): the helper walks to the door, waits, walks the dog in a loop,
    /// and hands it back; the hirer's phone records at home and must never share.
    static let dogWalk: OracleTrip = {
        let door = (47.3700, 8.5500)
        let start = (47.3680, 8.5480)
        var helper = stay(start, from: 0, every: 4, count: 4)  // t 0…12
        helper += move(start, from: 12, every: 4, count: 40, step: (0.00005, 0.00005))  // 6.6 m per 4 s to the door, t 16…172
        helper += stay(door, from: 180, every: 6, count: 20, offsets: jitter)  // t 180…294
        var loop = move(door, from: 294, every: 5, count: 30, step: (0.0003, 0))  // north 33 m steps
        loop += move((door.0 + 0.009, door.1), from: 444, every: 5, count: 15, step: (-0.0006, 0.0002))  // back in 68 m steps
        helper += loop
        helper += stay((door.0, door.1 + 0.003), from: 524, every: 10, count: 10, offsets: still)  // t 524…614
        let hirer = stay(door, from: 1, every: 9, count: 75, offsets: still)
        return OracleTrip(
            name: "dog walk", category: "dog walking", isRide: false, pickup: door, dropoff: (door.0, door.1 + 0.003),
            timeline: [(.accepted, 0), (.enRoute, 12), (.atPickup, 176), (.inTask, 296), (.awaitingPayment, 530), (.completed, 614)],
            traces: [(.helper, helper), (.hirer, hirer)])
    }()

    /// A ride cancelled while the helper waits at the pickup: later fixes are not replayed.
    static let cancelled: OracleTrip = {
        var trip = ride
        trip.name = "cancelled ride"
        trip.cancelledAt = 283
        return trip
    }()

    static let all: [String: OracleTrip] = [
        "ride": ride, "handed-off ride": handedOffRide, "dog walk": dogWalk, "cancelled ride": cancelled,
    ]
}

/// What the oracle expects of one state × role cell.
struct OracleCell {
    var raw = 0, delivered = 0, sent = 0
    var forwarded = [0, 0, 0]
    var distance = 0.0
    var errors: [Double] = [], staleness: [Double] = []
    var withoutUpdate = 0
    var location = 0.0, fixes = 0.0, radio = 0.0
}

/// The oracle's replay: every figure, derived from the trip and the rules above.
struct OracleReplay {
    var cells = [[OracleCell]](repeating: [OracleCell](repeating: OracleCell(), count: 3), count: 7)  // [state][role]
    var seconds = [Double](repeating: 0, count: 7)
    var entered = [Bool](repeating: false, count: 7)
    var phones: [OracleRole] = []
    var radioTimes: [[Double]] = [[], [], []]
    var radioStates: [[Int]] = [[], [], []]  // the state of each radio event
    var start = 0.0, end = 0.0
    var afterCancellation = 0
    /// Arrivals: [point][viewer] → (arrived, visible) seconds from the base.
    var arrived: [Double?] = [nil, nil]
    var visible: [[Double?]] = [[nil, nil, nil], [nil, nil, nil]]
    /// The smallest distance between a filter or the radius and a step it was compared with: the
    /// trips are built so that no decision is closer than a centimetre (so the product's own
    /// distance, within 0.038 mm of the geodesic, decides the same way).
    var closestCall = Double.infinity

    init(_ trip: OracleTrip) {
        let events = trip.timeline.map { (state: $0.0, t: $0.1) }
        var fixes: [(role: OracleRole, fix: OracleTrip.Fix)] = []
        for role in OracleRole.mergeOrder {
            for (r, list) in trip.traces where r == role { fixes += list.map { (role, $0) } }
        }
        // Stable sort: equal times keep the merge order.
        fixes = fixes.enumerated().sorted { ($0.element.fix.t, $0.offset) < ($1.element.fix.t, $1.offset) }.map(\.element)
        start = min(fixes.map(\.fix.t).min()!, events.map(\.t).min()!, trip.cancelledAt ?? .infinity)
        end = max(fixes.map(\.fix.t).max()!, events.map(\.t).max()!, trip.cancelledAt ?? -.infinity)
        let hasTrace = Set(trip.traces.map(\.0))
        phones = [.helper, .hirer] + (trip.handedOff || hasTrace.contains(.delegate) ? [.delegate] : [])

        // The state at time t: the last event at or before it (events apply before fixes of their time).
        func state(at t: Double) -> OracleState { events.last { $0.t <= t }?.state ?? .findingVillager }
        let cancel = trip.cancelledAt.map { c in (c, state(at: c)) }
        entered[0] = true
        for e in events where cancel.map({ e.t < $0.0 }) ?? true { entered[e.state.rawValue] = true }
        // Seconds per state: from the start to the first event, event to event, the last to the
        // end (or to the cancellation, after which no state's clock runs).
        let stop = cancel?.0 ?? end
        var since = start
        var current = OracleState.findingVillager
        for e in events where e.t <= stop {
            seconds[current.rawValue] += e.t - since
            current = e.state
            since = e.t
        }
        seconds[current.rawValue] += stop - since

        let pickup = trip.pickup, dropoff = trip.dropoff
        let radius = OracleDocument.radius
        // The dropoff counts as reached no earlier than the start of the helper's final stay, when
        // it is centred within R of the dropoff, else of the last such dwell (README, "Inference
        // rules"): anchor-based stays over every helper fix (a fix within R of the stay's first
        // fix extends it, the first beyond starts the next), a dwell lasting at least 60 s from
        // its first fix to its last, a centre the mean of its fixes.
        struct Stay {
            var anchor: OracleTrip.Fix
            var lastInside: Double
            var sumLat = 0.0, sumLon = 0.0, n = 1.0
            var centre: (lat: Double, lon: Double) { (anchor.lat + sumLat / n, anchor.lon + sumLon / n) }
        }
        var dwells: [Stay] = []
        var open: Stay?
        for (role, fix) in fixes where role == .helper {
            if var stay = open {
                let d = vincentyMetres(stay.anchor.lat, stay.anchor.lon, fix.lat, fix.lon)
                closestCall = min(closestCall, abs(d - radius))
                if d <= radius {
                    stay.n += 1
                    stay.sumLat += fix.lat - stay.anchor.lat
                    stay.sumLon += fix.lon - stay.anchor.lon
                    stay.lastInside = fix.t
                    open = stay
                    continue
                }
                if stay.lastInside - stay.anchor.t >= 60 { dwells.append(stay) }
            }
            open = Stay(anchor: fix, lastInside: fix.t)
        }
        var notBefore = -Double.infinity
        for stay in dwells + (open.map { [$0] } ?? []) {
            let d = vincentyMetres(stay.centre.lat, stay.centre.lon, dropoff.lat, dropoff.lon)
            closestCall = min(closestCall, abs(d - radius))
            if d <= radius { notBefore = stay.anchor.t }
        }
        var last: [OracleTrip.Fix?] = [nil, nil, nil]  // each role's previous raw fix
        var gate: [OracleTrip.Fix?] = [nil, nil, nil]  // each phone's last delivered fix
        var received = [[OracleTrip.Fix?]](repeating: [nil, nil, nil], count: 3)  // [viewer][sender]
        var leftPickup = false
        for (role, fix) in fixes {
            let r = role.rawValue
            if let c = cancel, fix.t >= c.0 {
                afterCancellation += 1
                continue
            }
            let s = state(at: fix.t)
            var cell = cells[s.rawValue][r]
            cell.raw += 1
            if let p = last[r] { cell.distance += vincentyMetres(p.lat, p.lon, fix.lat, fix.lon) }
            last[r] = fix

            if role == .helper {
                let d = vincentyMetres(fix.lat, fix.lon, pickup.lat, pickup.lon)
                closestCall = min(closestCall, abs(d - radius))
                if arrived[0] == nil {
                    if d <= radius { arrived[0] = fix.t }
                } else if !leftPickup {
                    leftPickup = d > radius
                }
                let e = vincentyMetres(fix.lat, fix.lon, dropoff.lat, dropoff.lon)
                closestCall = min(closestCall, abs(e - radius))
                if leftPickup, arrived[1] == nil, fix.t >= notBefore, e <= radius { arrived[1] = fix.t }
            }

            let isPhone = phones.contains(role)
            let viewers = OracleDocument.viewers(of: role, in: s, isRide: trip.isRide, handedOff: trip.handedOff)
            if isPhone && OracleDocument.usesLocation(role, s, isRide: trip.isRide, handedOff: trip.handedOff) {
                var deliver = true
                if let g = gate[r] {
                    let step = vincentyMetres(g.lat, g.lon, fix.lat, fix.lon)
                    closestCall = min(closestCall, abs(step - OracleDocument.filter(s)))
                    deliver = step >= OracleDocument.filter(s)  // Core Location: at least the filter
                }
                if deliver {
                    gate[r] = fix
                    cell.delivered += 1
                    if !viewers.isEmpty {
                        cell.sent += 1
                        radioTimes[r].append(fix.t)
                        radioStates[r].append(s.rawValue)
                        for v in viewers {
                            cell.forwarded[v.rawValue] += 1
                            received[v.rawValue][r] = fix
                            if phones.contains(v) {
                                radioTimes[v.rawValue].append(fix.t)
                                radioStates[v.rawValue].append(s.rawValue)
                            }
                            if role == .helper {
                                for (i, point) in [pickup, dropoff].enumerated() {
                                    if let a = arrived[i], fix.t >= a, visible[i][v.rawValue] == nil,
                                        vincentyMetres(fix.lat, fix.lon, point.lat, point.lon) <= radius
                                    {
                                        visible[i][v.rawValue] = fix.t
                                    }
                                }
                            }
                        }
                    }
                }
            } else if !OracleDocument.usesLocation(role, s, isRide: trip.isRide, handedOff: trip.handedOff) {
                gate[r] = nil  // location off: the next fix is a first fix again
            }
            // The viewers' view at this fix, after any update it produced.
            for v in viewers {
                if let got = received[v.rawValue][r] {
                    cell.errors.append(vincentyMetres(fix.lat, fix.lon, got.lat, got.lon))
                    cell.staleness.append(fix.t - got.t)
                } else {
                    cell.withoutUpdate += 1
                }
            }
            cells[s.rawValue][r] = cell
        }

        // Energy per state: location by the state's tier while the phone uses location, 50 mJ a
        // delivered fix, and the radio's energy of the events of the state (``radioByState``).
        for role in phones {
            let r = role.rawValue
            let events = zip(radioTimes[r], radioStates[r]).map { (time: $0.0, state: $0.1) }.enumerated()
                .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
                .map(\.element)
            let radio = OracleBattery.radioByState(events)
            for s in OracleState.allCases {
                if OracleDocument.usesLocation(role, s, isRide: trip.isRide, handedOff: trip.handedOff) {
                    cells[s.rawValue][r].location = OracleDocument.locationWatts(s) * seconds[s.rawValue]
                }
                cells[s.rawValue][r].fixes = Double(cells[s.rawValue][r].delivered) * OracleBattery.fixJoules
                cells[s.rawValue][r].radio = radio[s.rawValue] ?? 0
            }
        }
    }

    /// A role's cells over the trip.
    func total(_ role: OracleRole) -> OracleCell {
        var t = OracleCell()
        for s in OracleState.allCases {
            let c = cells[s.rawValue][role.rawValue]
            t.raw += c.raw; t.delivered += c.delivered; t.sent += c.sent
            for v in 0..<3 { t.forwarded[v] += c.forwarded[v] }
            t.distance += c.distance
            t.errors += c.errors; t.staleness += c.staleness
            t.withoutUpdate += c.withoutUpdate
            t.location += c.location; t.fixes += c.fixes; t.radio += c.radio
        }
        return t
    }

    /// The nearest-rank p95 (the ⌈0.95 n⌉-th smallest sample).
    static func p95(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted[max(1, Int((0.95 * Double(sorted.count)).rounded(.up))) - 1]
    }
}

@Suite("tracekit replay against an independent oracle: hand-built trips, every figure from first principles")
struct ReplayOracleTests {
    /// A time `seconds` (whole) after the hand-built trips' base, 2024-05-01T10:00:00Z.
    static func iso(_ seconds: Double) -> String {
        let s = Int(seconds) + 36_000
        return String(format: "2024-05-01T%02d:%02d:%02dZ", s / 3600, s / 60 % 60, s % 60)
    }

    static func gpx(_ fixes: [OracleTrip.Fix]) -> String {
        var s =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"oracle\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for f in fixes { s += "<trkpt lat=\"\(f.lat)\" lon=\"\(f.lon)\"><time>\(iso(f.t))</time></trkpt>\n" }
        return s + "</trkseg></trk></gpx>\n"
    }

    /// Writes the trip's traces and sidecar into `dir`; returns the sidecar's path.
    static func write(_ trip: OracleTrip, in dir: String) throws -> String {
        var traces: [String] = []
        for (role, fixes) in trip.traces {
            try gpx(fixes).write(toFile: "\(dir)/\(role.key).gpx", atomically: true, encoding: .utf8)
            traces.append("\"\(role.key)\": \"\(role.key).gpx\"")
        }
        let timeline = trip.timeline.map { "{\"state\": \"\($0.0.key)\", \"at\": \"\(iso($0.1))\"}" }
        let sidecar = """
            {"schema": "tracekit-scenario/1", "category": "\(trip.category)", "pickupHandedOff": \(trip.handedOff),
             "pickup": {"lat": \(trip.pickup.lat), "lon": \(trip.pickup.lon)}, "dropoff": {"lat": \(trip.dropoff.lat), "lon": \(trip.dropoff.lon)},
             "traces": {\(traces.joined(separator: ", "))}, "timeline": [\(timeline.joined(separator: ", "))],
             "cancelledAt": \(trip.cancelledAt.map { "\"\(iso($0))\"" } ?? "null")}
            """
        let path = "\(dir)/trip.scenario.json"
        try sidecar.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func replay(_ trip: OracleTrip, _ extra: [String] = []) throws -> [String: Any] {
        let dir = scratchFolder.appendingPathComponent("oracle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The oracle computes the ideal view (instant, lossless, sampled at the sender's fixes).
        let r = try Run(["replay", "--network", "ideal", "--scenario", try write(trip, in: dir), "--format", "json"] + extra)
        #expect(r.status == 0, "\(trip.name): \(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    /// Times and durations: equal to a nanosecond (the product keeps times in nanoseconds).
    static func closeTime(_ a: Double?, _ b: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= 1e-9
    }

    /// Equal to within `tolerance` (absolute) or 1e-9 relative.
    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= max(tolerance, 1e-9 * abs(b))
    }

    /// The histogram's documented p95: the exact nearest-rank sample rounded down to 0.1 below
    /// 102.4, within 0.2 % below it above. `slack` admits either neighbouring 0.1 step when the
    /// exact value lies that close to a step (the product measures with its own geodesy).
    static func p95Matches(_ reported: Double?, _ samples: [Double], slack: Double) -> Bool {
        guard let reported else { return false }
        let exact = OracleReplay.p95(samples)
        if exact < 102.4 {
            let low = ((exact - slack) * 10).rounded(.down) / 10, high = ((exact + slack) * 10).rounded(.down) / 10
            return (reported - low) > -1e-9 && (high - reported) > -1e-9 && reported <= samples.max()! + slack
        }
        return reported <= exact + slack && reported >= exact * (1 - 0.002) - slack
    }

    /// Checks one ROLE object of the JSON against the oracle's cell.
    static func check(_ m: [String: Any], _ c: OracleCell, seconds: Double, _ what: String) {
        #expect(m["rawFixes"] as? Int == c.raw, "\(what): raw fixes \(m["rawFixes"] ?? "nil") vs \(c.raw)")
        #expect(m["deliveredFixes"] as? Int == c.delivered, "\(what): delivered \(m["deliveredFixes"] ?? "nil") vs \(c.delivered)")
        #expect(m["sentUpdates"] as? Int == c.sent, "\(what): sent \(m["sentUpdates"] ?? "nil") vs \(c.sent)")
        let forwarded = m["forwarded"] as? [String: Int] ?? [:]
        for v in OracleRole.allCases {
            #expect(
                forwarded[v.key] == c.forwarded[v.rawValue],
                "\(what): forwarded to \(v.key) \(forwarded[v.key] ?? -1) vs \(c.forwarded[v.rawValue])")
        }
        #expect(closeTime(m["seconds"] as? Double, seconds), "\(what): seconds \(m["seconds"] ?? "nil") vs \(seconds)")
        #expect(
            close(m["distanceMetres"] as? Double, c.distance, 1e-4), "\(what): distance \(m["distanceMetres"] ?? "nil") vs \(c.distance)")
        let view = m["view"] as? [String: Any] ?? [:]
        #expect(view["samples"] as? Int == c.errors.count, "\(what): view samples \(view["samples"] ?? "nil") vs \(c.errors.count)")
        #expect(
            view["withoutUpdate"] as? Int == c.withoutUpdate,
            "\(what): without update \(view["withoutUpdate"] ?? "nil") vs \(c.withoutUpdate)")
        let error = view["displayErrorMetres"] as? [String: Any], stale = view["stalenessSeconds"] as? [String: Any]
        if c.errors.isEmpty {
            #expect(
                error?["mean"] is NSNull && error?["p95"] is NSNull && error?["max"] is NSNull, "\(what): display error without samples")
            #expect(stale?["mean"] is NSNull && stale?["p95"] is NSNull && stale?["max"] is NSNull, "\(what): staleness without samples")
        } else {
            let n = Double(c.errors.count)
            #expect(
                close(error?["mean"] as? Double, c.errors.reduce(0, +) / n, 1e-4),
                "\(what): display error mean \(error?["mean"] ?? "nil") vs \(c.errors.reduce(0, +) / n)")
            #expect(
                close(error?["max"] as? Double, c.errors.max()!, 1e-4),
                "\(what): display error max \(error?["max"] ?? "nil") vs \(c.errors.max()!)")
            #expect(
                p95Matches(error?["p95"] as? Double, c.errors, slack: 1e-4),
                "\(what): display error p95 \(error?["p95"] ?? "nil") vs exact \(OracleReplay.p95(c.errors))")
            #expect(
                close(stale?["mean"] as? Double, c.staleness.reduce(0, +) / n),
                "\(what): staleness mean \(stale?["mean"] ?? "nil") vs \(c.staleness.reduce(0, +) / n)")
            #expect(
                closeTime(stale?["max"] as? Double, c.staleness.max()!),
                "\(what): staleness max \(stale?["max"] ?? "nil") vs \(c.staleness.max()!)")
            #expect(
                p95Matches(stale?["p95"] as? Double, c.staleness, slack: 0),
                "\(what): staleness p95 \(stale?["p95"] ?? "nil") vs exact \(OracleReplay.p95(c.staleness))")
        }
        let energy = m["energyJoules"] as? [String: Double] ?? [:]
        #expect(close(energy["location"], c.location), "\(what): location J \(energy["location"] ?? -1) vs \(c.location)")
        #expect(close(energy["fixes"], c.fixes), "\(what): fixes J \(energy["fixes"] ?? -1) vs \(c.fixes)")
        #expect(close(energy["radio"], c.radio, 1e-9), "\(what): radio J \(energy["radio"] ?? -1) vs \(c.radio)")
        #expect(
            close(energy["total"], c.location + c.fixes + c.radio, 1e-9),
            "\(what): total J \(energy["total"] ?? -1) vs \(c.location + c.fixes + c.radio)")
    }

    static let tripNames = ["ride", "handed-off ride", "dog walk", "cancelled ride"]

    @Test(
        """
        per state and role: raw, delivered, sent, forwarded, time, distance, display error, staleness and every part of \
        energy; each phone's whole estimate; the arrivals
        """, arguments: tripNames)
    func trip(name: String) throws {
        let trip = try #require(OracleTrip.all[name])
        let oracle = OracleReplay(trip)
        #expect(oracle.closestCall > 0.01, "\(name): a decision within \(oracle.closestCall) m of its threshold; rebuild the trip")
        let doc = try Self.replay(trip)
        try Self.checkStates(trip, oracle, doc)
        try Self.checkPhones(trip, oracle, doc)
        try Self.checkArrivals(trip, oracle, doc)
    }

    /// Every state × role cell and every role's totals of the replay's JSON `doc`, against the oracle.
    static func checkStates(_ trip: OracleTrip, _ oracle: OracleReplay, _ doc: [String: Any]) throws {
        let name = trip.name
        let states = try #require(doc["states"] as? [[String: Any]])
        #expect(states.map { $0["state"] as? String } == OracleState.allCases.map(\.key))
        for (s, st) in zip(OracleState.allCases, states) {
            #expect(
                Self.closeTime(st["seconds"] as? Double, oracle.seconds[s.rawValue]),
                "\(name) \(s.key): seconds \(st["seconds"] ?? "nil") vs \(oracle.seconds[s.rawValue])")
            #expect(st["entered"] as? Bool == oracle.entered[s.rawValue], "\(name) \(s.key): entered")
            let roles = try #require(st["roles"] as? [[String: Any]])
            #expect(roles.compactMap { $0["role"] as? String } == oracle.phones.map(\.key), "\(name) \(s.key): the phones")
            for m in roles {
                guard let role = OracleRole.allCases.first(where: { $0.key == m["role"] as? String }) else { continue }
                Self.check(m, oracle.cells[s.rawValue][role.rawValue], seconds: oracle.seconds[s.rawValue], "\(name) \(s.key) \(role.key)")
            }
        }
        // The timeline as replayed: the events before any cancellation, seconds from the start.
        let timeline = (doc["scenario"] as? [String: Any])?["timeline"] as? [[String: Any]] ?? []
        let events = trip.timeline.filter { e in trip.cancelledAt.map { e.1 < $0 } ?? true }
        #expect(timeline.map { $0["state"] as? String } == events.map(\.0.key), "\(name): timeline")
        for (entry, event) in zip(timeline, events) {
            #expect(
                Self.closeTime(entry["secondsFromStart"] as? Double, event.1 - oracle.start),
                "\(name) \(event.0.key): \(entry["secondsFromStart"] ?? "nil") s from the start vs \(event.1 - oracle.start)")
        }
        let totals = try #require(doc["totals"] as? [[String: Any]])
        #expect(totals.compactMap { $0["role"] as? String } == oracle.phones.map(\.key))
        let duration = oracle.end - oracle.start
        #expect(
            Self.closeTime(doc["durationSeconds"] as? Double, duration),
            "\(name): duration \(doc["durationSeconds"] ?? "nil") vs \(duration)")
        for m in totals {
            guard let role = OracleRole.allCases.first(where: { $0.key == m["role"] as? String }) else { continue }
            Self.check(m, oracle.total(role), seconds: duration, "\(name) total \(role.key)")
        }
        let notes = doc["notes"] as? [String] ?? []
        if oracle.afterCancellation > 0 {
            #expect(notes.contains("\(oracle.afterCancellation) fixes after the cancellation were not replayed"), "\(notes)")
        } else {
            #expect(!notes.contains { $0.contains("after the cancellation") })
        }
    }

    /// Each phone's whole estimate in `doc` (location, fixes, the radio's parts and promotions,
    /// receptions, mAh) against the oracle.
    static func checkPhones(_ trip: OracleTrip, _ oracle: OracleReplay, _ doc: [String: Any]) throws {
        let name = trip.name
        let energy = try #require(doc["energy"] as? [[String: Any]])
        #expect(energy.compactMap { $0["role"] as? String } == oracle.phones.map(\.key))
        for phone in energy {
            guard let role = OracleRole.allCases.first(where: { $0.key == phone["role"] as? String }) else { continue }
            let e = try #require(phone["estimate"] as? [String: Any])
            let t = oracle.total(role)
            let radio = OracleBattery.radio(oracle.radioTimes[role.rawValue].sorted())
            let what = "\(name) \(role.key)"
            #expect(phone["hasTrace"] as? Bool == trip.traces.contains { $0.0 == role }, "\(what) hasTrace")
            #expect(
                Self.close(e["locationJoules"] as? Double, t.location), "\(what) location \(e["locationJoules"] ?? "nil") vs \(t.location)")
            #expect(Self.close(e["fixesJoules"] as? Double, t.fixes), "\(what) fixes")
            let parts = e["radioJoules"] as? [String: Double] ?? [:]
            #expect(Self.close(parts["promotion"], radio.promotion), "\(what) promotion \(parts["promotion"] ?? -1) vs \(radio.promotion)")
            #expect(Self.close(parts["transmit"], radio.transmit), "\(what) transmit")
            #expect(Self.close(parts["tail"], radio.tail), "\(what) tail \(parts["tail"] ?? -1) vs \(radio.tail)")
            #expect(Self.close(parts["total"], t.radio), "\(what) radio: the states add up to the phone")
            #expect(e["radioPromotions"] as? Int == radio.promotions, "\(what) promotions")
            #expect(e["deliveredFixes"] as? Int == t.delivered)
            #expect(e["sent"] as? Int == t.sent, "\(what) sent")
            #expect(e["received"] as? Int == oracle.radioTimes[role.rawValue].count - t.sent, "\(what) received")
            let total = t.location + t.fixes + radio.total
            #expect(Self.close(e["totalJoules"] as? Double, total), "\(what) total")
            #expect(Self.close(e["milliampHours"] as? Double, total / OracleBattery.joulesPerMilliampHour), "\(what) mAh")
        }
    }

    /// The arrivals in `doc` against the oracle's: when the helper arrived at the pickup and the
    /// dropoff, and when each viewer saw it.
    static func checkArrivals(_ trip: OracleTrip, _ oracle: OracleReplay, _ doc: [String: Any]) throws {
        let name = trip.name
        let arrivals = try #require(doc["arrivals"] as? [[String: Any]])
        let viewers: [OracleRole] = trip.handedOff ? [.hirer, .delegate] : [.hirer]
        #expect(arrivals.count == 2 * viewers.count)
        var i = 0
        for (p, point) in ["pickup", "dropoff"].enumerated() {
            for v in viewers {
                guard i < arrivals.count else { break }
                let a = arrivals[i]
                i += 1
                let what = "\(name) \(point) seen by \(v.key)"
                #expect(a["point"] as? String == point && a["viewer"] as? String == v.key, "\(what)")
                let time = { (key: String) in (a[key] as? String).flatMap { OracleTrip.seconds($0, since: trip.baseEpoch) } }
                let arrivedAt = time("arrivedAt"), visibleAt = time("visibleAt"), seen = oracle.visible[p][v.rawValue]
                #expect(
                    arrivedAt.map { abs($0 - (oracle.arrived[p] ?? .nan)) <= 1e-9 }
                        ?? (oracle.arrived[p] == nil && a["arrivedAt"] is NSNull),
                    "\(what): arrived \(a["arrivedAt"] ?? "nil") vs \(oracle.arrived[p].map { "\($0) s" } ?? "never")")
                #expect(
                    visibleAt.map { abs($0 - (seen ?? .nan)) <= 1e-9 } ?? (seen == nil && a["visibleAt"] is NSNull),
                    "\(what): visible \(a["visibleAt"] ?? "nil") vs \(seen.map { "\($0) s" } ?? "never")")
                if let seen, let arrived = oracle.arrived[p] {
                    #expect(
                        Self.closeTime(a["lateSeconds"] as? Double, seen - arrived),
                        "\(what): late \(a["lateSeconds"] ?? "nil") vs \(seen - arrived)")
                } else {
                    #expect(a["lateSeconds"] is NSNull, "\(what): late without a sighting")
                }
            }
        }
    }

    @Test("the oracle's trips exercise what they are for (so that the comparisons above are not empty)")
    func tripsAreNotTrivial() throws {
        let ride = OracleReplay(OracleTrip.ride)
        let helper = OracleRole.helper.rawValue, hirer = OracleRole.hirer.rawValue
        let enRoute = OracleState.enRoute.rawValue, atPickup = OracleState.atPickup.rawValue, inTask = OracleState.inTask.rawValue
        // En Route: the helper's 22.6 m steps deliver every other fix through 30 m.
        #expect(ride.cells[enRoute][helper].delivered * 2 >= ride.cells[enRoute][helper].raw - 2)
        #expect(ride.cells[enRoute][helper].delivered < ride.cells[enRoute][helper].raw)
        // At Pickup: the waiting helper's jitter leaks some updates through 13 m, not all.
        let wait = ride.cells[atPickup][helper]
        #expect(wait.delivered > 1 && wait.delivered < wait.raw)
        // In Task: the helper uses location but shares with no one; the hirer neither.
        #expect(ride.cells[inTask][helper].delivered > 0 && ride.cells[inTask][helper].sent == 0)
        #expect(ride.cells[inTask][hirer].delivered > 0 && ride.cells[inTask][hirer].sent == 0)
        // Both views have samples, staleness and updates not yet received.
        #expect(!ride.cells[enRoute][helper].errors.isEmpty && !ride.cells[enRoute][hirer].errors.isEmpty)
        #expect(ride.cells[enRoute][helper].errors.max()! > 10 && ride.cells[atPickup][helper].staleness.max()! > 10)
        // Under Core Location a sharing phone's first fix in a state where it shares is delivered
        // (it follows a state with location off), so a viewer always holds an update at the
        // sender's fixes: no sample without one, which the product must report as 0 too.
        #expect(ride.total(.hirer).withoutUpdate + ride.total(.helper).withoutUpdate == 0)
        // Radio: shared tails and fresh promotions both occur.
        let r = OracleBattery.radio(ride.radioTimes[helper])
        #expect(r.promotions > 1 && r.promotions < ride.radioTimes[helper].count)
        // The pickup arrival is seen, the dropoff arrival (In Task) never.
        #expect(ride.visible[0][hirer] != nil && ride.visible[1][hirer] == nil && ride.arrived[1] != nil)
        // Hand-off: the delegate shares, the hirer sends nothing but receives.
        let handed = OracleReplay(OracleTrip.handedOffRide)
        #expect(handed.total(.delegate).sent > 0 && handed.total(.hirer).sent == 0 && handed.total(.hirer).delivered == 0)
        #expect(handed.radioTimes[hirer].count > 0)
        #expect(handed.total(.helper).forwarded[OracleRole.delegate.rawValue] > 0)
        // Not a ride: the hirer's phone never shares or delivers.
        let dog = OracleReplay(OracleTrip.dogWalk)
        #expect(dog.total(.hirer).delivered == 0 && dog.total(.hirer).raw > 0 && dog.total(.helper).sent > 0)
        // Cancelled: fixes after it are not replayed, and the states' clocks stop.
        let cancelled = OracleReplay(OracleTrip.cancelled)
        #expect(cancelled.afterCancellation > 10)
        #expect(cancelled.seconds.reduce(0, +) < cancelled.end - cancelled.start)
        // The closed form of one isolated LTE update: 1.21 × 0.26 + 1.2 × 0.1 + 1.06 × 10.12 J.
        #expect(abs(OracleBattery.radio([0]).total - 11.1618) < 1e-12)
        // Vincenty against a textbook value: one degree of longitude on the equator, 111,319.491 m.
        #expect(abs(vincentyMetres(0, 0, 0, 1) - 111_319.490_793) < 1e-5)
    }
}

extension OracleTrip {
    /// An ISO 8601 UTC time as the trip files write it (`YYYY-MM-DDThh:mm:ss[.fff]Z`): whole
    /// seconds since 1970 by the civil-from-days count (Hinnant's algorithm), and the fraction
    /// apart, so that differences of times keep every digit.
    static func epoch(_ text: String) -> (seconds: Int, fraction: Double)? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map(String.init)
        guard text.hasSuffix("Z"), parts.count == 6, let y0 = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            let hh = Int(parts[3]), let mm = Int(parts[4]), let ss = Double(parts[5])
        else { return nil }
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let whole = ss.rounded(.down)
        return (days * 86_400 + hh * 3600 + mm * 60 + Int(whole), ss - whole)
    }

    /// Seconds from `base` (whole seconds since 1970) to the time `text`.
    static func seconds(_ text: String, since base: Int) -> Double? {
        epoch(text).map { Double($0.seconds - base) + $0.fraction }
    }

    /// A trip of `Traces/trips` read without TraceKit: the sidecar with Foundation's JSON parser,
    /// each GPX's `<trkpt lat lon><time>` by a pattern (the generator's layout), times relative to
    /// the sidecar's first timeline entry. The Finding Villager entry is the request's epoch, not
    /// an event (the replay's clock starts at the first fix or event).
    static func load(sidecar: String) throws -> OracleTrip {
        let url = packageRoot.appendingPathComponent(sidecar)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let entries = try #require(doc["timeline"] as? [[String: String]])
        let first = try #require(entries.first?["at"])
        let base = try #require(epoch(first)).seconds
        var timeline: [(OracleState, Double)] = []
        for e in entries where e["state"] != "findingVillager" {
            let state = try #require(OracleState.allCases.first { $0.key == e["state"] })
            let at = try #require(e["at"])
            timeline.append((state, try #require(seconds(at, since: base))))
        }
        let point = { (key: String) throws -> (lat: Double, lon: Double) in
            let p = try #require(doc[key] as? [String: Double])
            return (try #require(p["lat"]), try #require(p["lon"]))
        }
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([^"]+)" lon="([^"]+)">\s*<time>([^<]+)</time>"#)
        var traces: [(OracleRole, [Fix])] = []
        for (key, file) in try #require(doc["traces"] as? [String: String]) {
            let role = try #require(OracleRole.allCases.first { $0.key == key })
            let text = try String(contentsOf: url.deletingLastPathComponent().appendingPathComponent(file), encoding: .utf8)
            let ns = text as NSString
            var fixes: [Fix] = []
            for m in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let field = { (i: Int) in ns.substring(with: m.range(at: i)) }
                fixes.append(
                    Fix(
                        t: try #require(seconds(field(3), since: base)), lat: try #require(Double(field(1))),
                        lon: try #require(Double(field(2)))))
            }
            traces.append((role, fixes))
        }
        let category = try #require(doc["category"] as? String)
        return OracleTrip(
            name: sidecar, category: category, isRide: category == "ride", handedOff: doc["pickupHandedOff"] as? Bool ?? false,
            pickup: try point("pickup"), dropoff: try point("dropoff"), timeline: timeline,
            cancelledAt: (doc["cancelledAt"] as? String).flatMap { seconds($0, since: base) }, traces: traces, baseEpoch: base)
    }
}
