import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceIO
import TraceSharing

@testable import TraceReplay

/// The dead-reckoning send rule (README, "Sending: the dead-reckoning rule"), counted by hand.
@Suite("Replay: the dead-reckoning send rule")
struct SendRuleTests {
    struct Collect: ReplayObserver {
        var sent: [Int] = []
        mutating func delivered(_ u: DeliveredUpdate) {
            if u.sent { sent.append(Int(u.time.seconds(since: Timestamp.parseISO8601(time(0))!.timestamp).rounded())) }
        }
    }

    /// Sends of the helper, in seconds after the start, with every fix delivered (filter 0) in
    /// En Route, an extrapolating viewer that runs for 60 s, and `rule` for every state.
    func sends(_ points: [P], rule: SendRule, viewer: ViewerModel = .extrapolate(maximumSeconds: 60)) throws -> (
        times: [Int], result: ReplayResult
    ) {
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        var o = ReplayOptions()
        o.policy[.enRoute].distanceFilter = 0
        o.viewer = viewer
        o.send = rule
        var seen = Collect()
        let r = try Replay.run([TraceInput(path: try temp(gpx([(nil, points)])))], scenario: spec, options: o, observer: &seen)
        return (seen.sent, r)
    }

    @Test("a straight constant-speed track: the first fix, the one that gives the viewer a velocity, then only heartbeats")
    func straight() throws {
        // 10 m/s north for 120 s. Fixes 1–3 are within 30 m of fix 0 (which alone gives no
        // velocity: the marker stays); fix 4 is 40 m off and is sent. From then on the last two
        // sent updates give 10 m/s north and the marker is where the phone is: only the 30 s
        // heartbeat sends (at 34, 64, 94 s).
        let points = line(from: P(north: 0, east: 0, t: 0), count: 121, stepNorth: 10, dt: 1)
        let (times, r) = try sends(points, rule: .deadReckoning(thresholdMetres: 30, heartbeatSeconds: 30))
        #expect(times == [0, 4, 34, 64, 94, 124].filter { $0 <= 120 })
        let m = r.cell(.enRoute, .helper)
        #expect(m.deliveredFixes == 121 && m.sentUpdates == 5)  // delivered and sent stay apart
        // Every delivered fix sent without the rule.
        #expect(try sends(points, rule: .everyDelivered).times.count == 121)
    }

    @Test("a straight track with reported speed and course: only the first fix and the heartbeats")
    func straightReported() throws {
        // The same 10 m/s north, now with each fix's speed and course (0°, north): the first
        // update already gives the viewer its velocity, so only the 30 s heartbeats follow.
        var csv = "lat,lon,time,speed,course\n"
        for p in line(from: P(north: 0, east: 0, t: 0), count: 121, stepNorth: 10, dt: 1) {
            csv += "\(lat(p)),\(lon(p)),\(time(p.t)),10,0\n"
        }
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        var o = ReplayOptions()
        o.policy[.enRoute].distanceFilter = 0
        o.viewer = .extrapolate(maximumSeconds: 60)
        o.send = .deadReckoning(thresholdMetres: 30, heartbeatSeconds: 30)
        var seen = Collect()
        _ = try Replay.run([TraceInput(path: try temp(csv, ext: "csv"))], scenario: spec, options: o, observer: &seen)
        #expect(seen.sent == [0, 30, 60, 90, 120])
    }

    @Test("a zig-zag: a send at each turn, none along the legs")
    func zigzag() throws {
        // 20 s east, 20 s north, 20 s east, 20 s north, at 10 m/s; threshold 15 m, heartbeat 60 s.
        var points: [P] = []
        var north = 0.0, east = 0.0
        for t in 0...80 {
            points.append(P(north: north, east: east, t: t))
            if (t / 20) % 2 == 0 { east += 10 } else { north += 10 }
        }
        let (times, _) = try sends(points, rule: .deadReckoning(thresholdMetres: 15, heartbeatSeconds: 60))
        // The start (0, then 2: the first velocity), then right after each turn at 20, 40 and 60 s:
        // 2 s after the turn the marker, still going the old way, is 28 m off (1 s: 14 m).
        #expect(times.first == 0)
        for turn in [20, 40, 60] {
            #expect(times.contains { $0 > turn && $0 <= turn + 3 }, "a send after the turn at \(turn) s: \(times)")
        }
        // Along the legs, away from the turns, nothing is sent.
        let quiet = times.filter { t in ![0, 20, 40, 60].contains { t >= $0 && t <= $0 + 6 } }
        #expect(quiet.isEmpty, "\(times)")
    }

    @Test("dead reckoning under the last-position viewer: a distance rule on sends, with the state's distance filter by default")
    func lastViewer() throws {
        // The viewer keeps the last position, so the phone sends when 20 m (En Route's filter set
        // to 20 below; nil threshold takes it) from the last sent: every third fix of a 10 m/s walk
        // would be 30 m: sent at 0, 3, 6, … (> 20 m: the third fix).
        let points = line(from: P(north: 0, east: 0, t: 0), count: 31, stepNorth: 10, dt: 1)
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        var o = ReplayOptions()
        o.policy[.enRoute].distanceFilter = 0
        o.viewer = .last
        o.policy[.enRoute].send = .deadReckoning(thresholdMetres: 20, heartbeatSeconds: 600)
        var seen = Collect()
        _ = try Replay.run([TraceInput(path: try temp(gpx([(nil, points)])))], scenario: spec, options: o, observer: &seen)
        #expect(seen.sent == Array(stride(from: 0, through: 30, by: 3)))
    }

    @Test("fewer sends cost less energy: the radio is charged for the sends the rule lets through")
    func energy() throws {
        let points = line(from: P(north: 0, east: 0, t: 0), count: 121, stepNorth: 10, dt: 1)
        let every = try sends(points, rule: .everyDelivered).result
        let reckoned = try sends(points, rule: .deadReckoning(thresholdMetres: 30, heartbeatSeconds: 30)).result
        let e0 = every.energy.first { $0.role == .helper }!.estimate, e1 = reckoned.energy.first { $0.role == .helper }!.estimate
        #expect(e0.sent == 121 && e1.sent == 5 && e1.radio.totalJoules < e0.radio.totalJoules)
        #expect(e1.fixesJoules == e0.fixesJoules)  // delivered fixes are the OS's, whatever is sent
    }

    /// The straight 10 m/s walk of ``straight()`` with a 30 m dead-reckoning rule. Under the
    /// default extrapolating viewer (10 s) the phone sends the first fix, the one 40 m off that
    /// gives a velocity (4 s), then, as the marker stops 10 s after each update's fix, the fix
    /// 10 + 4 s after the last sent (40 m > 30 m; at 13 s it is 30 m, not more): 0, 4, 18, …, 116.
    /// Under the last-position viewer, every fix more than 30 m from the last sent: every 4th.
    @Test("no viewer chosen: dead reckoning (the --send override or a policy row) pairs with the extrapolating viewer, and says so")
    func pairing() throws {
        let points = line(from: P(north: 0, east: 0, t: 0), count: 121, stepNorth: 10, dt: 1)
        let rule = SendRule.deadReckoning(thresholdMetres: 30, heartbeatSeconds: 30)
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        let path = try temp(gpx([(nil, points)]))
        func run(_ configure: (inout ReplayOptions) -> Void) throws -> (sent: [Int], result: ReplayResult) {
            var o = ReplayOptions()
            o.policy[.enRoute].distanceFilter = 0
            configure(&o)
            var seen = Collect()
            let r = try Replay.run([TraceInput(path: path)], scenario: spec, options: o, observer: &seen)
            return (seen.sent, r)
        }
        let paired = try run { $0.send = rule }
        let extrapolating = try run {
            $0.send = rule
            $0.viewer = .extrapolate(maximumSeconds: ViewerModel.defaultExtrapolationSeconds)
        }
        let last = try run {
            $0.send = rule
            $0.viewer = .last
        }
        #expect(paired.sent == [0] + Array(stride(from: 4, through: 120, by: 14)))
        #expect(paired.sent == extrapolating.sent)
        #expect(last.sent == Array(stride(from: 0, through: 120, by: 4)))
        #expect(paired.result.view.viewer == .extrapolate(maximumSeconds: ViewerModel.defaultExtrapolationSeconds))
        #expect(paired.result.view.pairedWithSendRule && !extrapolating.result.view.pairedWithSendRule)
        #expect(paired.result.view.summary.contains("viewer extrapolates up to 10 s (paired with the dead-reckoning send rule)"))
        // The warning only for a last-position viewer chosen next to a rule that predicts.
        let warns = { (r: ReplayResult) in r.warnings.contains { $0.contains("sends what a distance filter of its threshold would") } }
        #expect(warns(last.result) && !warns(paired.result) && !warns(extrapolating.result))
        // A policy row's rule pairs too; every delivered fix sent keeps the last-position viewer,
        // and so does a dead-reckoning row in a state whose tier is off (nothing is sent there).
        let row = try run { $0.policy[.enRoute].send = rule }
        #expect(row.sent == paired.sent && row.result.view.pairedWithSendRule)
        let plain = try run { _ in }
        #expect(plain.result.view.viewer == .last && !plain.result.view.pairedWithSendRule && plain.sent.count == 121)
        var offRow = SharingPolicy.seed
        offRow[.completed].send = rule
        #expect(offRow[.completed].tier == .off && ViewerModel.paired(with: offRow, send: nil) == .last)
    }
}

