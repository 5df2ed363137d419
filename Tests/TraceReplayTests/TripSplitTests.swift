import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceGeodesy
import TraceIO
import TraceProj
import TraceReplay

/// The trip rule (README, "Long recordings: trips") on hand-built fixes.
@Suite("Trips of a long recording")
struct TripSplitTests {
    /// Splits crafted fixes (north/east metres, seconds) with `rules`.
    func split(_ points: [P], rules: TripRules = .default) -> TripSplit {
        var s = TripSplitter(rules: rules, exact: Geodesic.wgs84)
        for p in points { s.add(time: nanos(p.t), try! Coordinate(latitude: lat(p), longitude: lon(p))) }
        return s.finish()
    }

    func nanos(_ t: Int) -> Int64 { Timestamp.parseISO8601(time(t))!.timestamp.nanoseconds }

    /// A 1 km drive north, 20 fixes 50 m and 10 s apart, from `start`.
    func drive(from start: P) -> [P] { line(from: start, count: 21, stepNorth: 50, dt: 10) }

    @Test("a recording gap longer than --gap separates two trips; nothing is lost")
    func gap() {
        let a = drive(from: P(north: 0, east: 0, t: 0))
        let b = drive(from: P(north: 1000, east: 0, t: 200 + 601))  // 601 s without a fix
        let s = split(a + b)
        #expect(s.trips.count == 2)
        #expect(s.gapCount == 1 && s.trips[0].endsAt == .gap && s.trips[1].startsAfter == .gap)
        #expect(s.trips.map(\.fixes) == [21, 21])
        #expect(s.trips.reduce(0) { $0 + $1.fixes } + s.inStays + s.stationary == s.fixes)
        #expect(abs(s.trips[0].distanceMetres - 1000) < 5)
    }

    @Test("a gap of exactly --gap is not a recording gap (a tunnel): one trip")
    func gapAtTheLimit() {
        let a = drive(from: P(north: 0, east: 0, t: 0))
        let b = drive(from: P(north: 1000, east: 0, t: 200 + 600))
        let s = split(a + b)
        #expect(s.trips.count == 1 && s.gapCount == 0 && s.trips[0].fixes == 42)
    }

    @Test("a long stay separates trips: the trip before ends at its anchor, the next starts at its last fix")
    func longStay() {
        // Steps of 150 m: each fix of the drives anchors its own stay.
        let a = line(from: P(north: 0, east: 0, t: 0), count: 8, stepNorth: 150, dt: 10)  // ends at 1050 m, t 70
        let stayed = stay(at: P(north: 1050, east: 20, t: 100), count: 31, dt: 30)  // to t 1000: 15.5 min from the anchor
        let b = line(from: P(north: 1050, east: 150, t: 1030), count: 8, stepEast: 150, dt: 10)
        let s = split(a + stayed + b)
        #expect(s.trips.count == 2)
        #expect(s.trips[0].endsAt == .stay && s.trips[1].startsAfter == .stay)
        // The arrival is the stay's anchor: the drive's last fix, 20 m from the stay's fixes.
        #expect(s.trips[0].end.nanoseconds == nanos(70))
        #expect(s.trips[1].start.nanoseconds == nanos(1000))
        #expect(s.trips.map(\.fixes) == [8, 9])
        #expect(s.inStays == 31 - 1)  // the stay's fixes but its last (the departure)
        #expect(s.trips.reduce(0) { $0 + $1.fixes } + s.inStays + s.stationary == s.fixes)
        #expect(s.piece(at: nanos(500))?.kind == .stay)
    }

    @Test("a stay shorter than --stay (a pickup wait) stays inside the trip")
    func shortStay() {
        let a = drive(from: P(north: 0, east: 0, t: 0))
        let wait = stay(at: P(north: 1000, east: 20, t: 230), count: 20, dt: 30)  // 9.5 min
        let b = line(from: P(north: 1000, east: 150, t: 830), count: 21, stepEast: 50, dt: 10)
        let s = split(a + wait + b)
        #expect(s.trips.count == 1 && s.trips[0].fixes == 62 && s.inStays == 0)
    }

    @Test("fixes that never leave the radius are no trip, and counted")
    func stationary() {
        let s = split(stay(at: P(north: 0, east: 0, t: 0), count: 10, dt: 30))  // 4.5 min: not a long stay either
        #expect(s.trips.isEmpty && s.stationary == 10 && s.inStays == 0)
        let long = split(stay(at: P(north: 0, east: 0, t: 0), count: 40, dt: 30))  // 19.5 min
        #expect(long.trips.isEmpty && long.inStays == 39 && long.stationary == 1)
    }

    @Test("a stay does not span a recording gap")
    func stayAcrossGap() {
        // Two fixes at one place an hour apart, then a drive: a gap, not a 60-minute stay.
        let s = split([P(north: 0, east: 0, t: 0), P(north: 0, east: 0, t: 3600)] + drive(from: P(north: 0, east: 0, t: 3610)))
        #expect(s.gapCount == 1 && s.inStays == 0)
        #expect(s.trips.count == 1 && s.trips[0].start.nanoseconds == nanos(3600) && s.trips[0].startsAfter == .gap)
    }

    @Test("the rules are options: a larger --gap joins, a shorter --stay cuts")
    func rules() {
        let a = drive(from: P(north: 0, east: 0, t: 0))
        let b = drive(from: P(north: 1000, east: 0, t: 200 + 900))
        #expect(split(a + b).trips.count == 2)
        // No gap under a 20-minute --gap, but 15 min at one place is a long stay: a longer --stay joins.
        #expect(split(a + b, rules: TripRules(gapSeconds: 1200)).trips.count == 2)
        #expect(split(a + b, rules: TripRules(gapSeconds: 1200, staySeconds: 1800)).trips.count == 1)
        let wait = stay(at: P(north: 1000, east: 20, t: 230), count: 20, dt: 30)
        let c = line(from: P(north: 1000, east: 150, t: 830), count: 21, stepEast: 50, dt: 10)
        #expect(split(a + wait + c, rules: TripRules(staySeconds: 300)).trips.count == 2)
    }

    @Test("replay --split: each trip its own request, none longer than its trip; a given pickup is refused")
    func replayTrips() throws {
        let a = drive(from: P(north: 0, east: 0, t: 0))
        let b = drive(from: P(north: 1000, east: 0, t: 3000))
        let path = try temp(gpx([(nil, a + b)]))
        let trips = try Replay.runTrips([TraceInput(path: path)], scenario: ScenarioSpec(), options: ReplayOptions(), rules: .default)
        #expect(trips.trips.count == 2)
        for t in trips.trips {
            #expect(t.result.durationSeconds <= t.trip.durationSeconds + 1e-9)
            #expect(t.result.roleTotals.first { $0.role == .helper }?.rawFixes == 21)
            #expect(t.result.recordingGaps.isEmpty)
        }
        #expect(trips.totals.first { $0.role == .helper }?.rawFixes == 42)
        var spec = ScenarioSpec()
        spec.pickup = Sourced(try Coordinate(latitude: 47, longitude: 8), .flag, "--pickup")
        #expect(throws: ReplayError.self) {
            try Replay.runTrips([TraceInput(path: path)], scenario: spec, options: ReplayOptions(), rules: .default)
        }
    }

    @Test("without --split, a recording gap is not request time: not in a state's time, not charged, not staleness; and one warning")
    func gapExcluded() throws {
        let a = drive(from: P(north: 0, east: 0, t: 0))
        let b = drive(from: P(north: 1000, east: 0, t: 3800))  // 3600 s without a fix
        let whole = try replay(try temp(gpx([(nil, a + b)])))
        #expect(whole.recordingGaps.count == 1)
        #expect(abs(whole.excludedSeconds - 3600) < 1e-6)
        #expect(abs(whole.durationSeconds - 400) < 1e-6)
        let stateSeconds = whole.states.reduce(0) { $0 + $1.seconds }
        #expect(abs(stateSeconds - 400) < 1e-6)
        for phone in whole.energy { #expect(phone.estimate.tierSeconds.totalSeconds <= 400 + 1e-6) }
        for s in whole.states {
            if let mx = s[.helper]?.view.stalenessMaxSeconds { #expect(mx < 600) }
        }
        #expect(whole.warnings.count == 1 && whole.warnings[0].contains("--split"))
        // A shorter gap (a tunnel) is request time: the viewer really does see a stale position.
        let tunnel = try replay(try temp(gpx([(nil, a + drive(from: P(north: 1000, east: 0, t: 500)))])))
        #expect(tunnel.recordingGaps.isEmpty && tunnel.warnings.isEmpty)
        #expect(abs(tunnel.durationSeconds - 700) < 1e-6)
    }

    @Test("a replay spanning more than 4 h warns once, suggesting --split")
    func longSpan() throws {
        // A fix every 5 minutes for 5 h: no gap, but longer than any one request.
        let slow = line(from: P(north: 0, east: 0, t: 0), count: 61, stepNorth: 200, dt: 300)
        let r = try replay(try temp(gpx([(nil, slow)])))
        #expect(r.warnings.count == 1 && r.warnings[0].contains("spans 5 h") && r.warnings[0].contains("(4 h)") && r.warnings[0].contains("--split"))
    }
}
