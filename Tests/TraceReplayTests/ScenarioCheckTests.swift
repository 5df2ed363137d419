import Foundation
import Testing
import TraceDomain
import TraceGeodesy
import TraceIO
import TraceJSON
import TraceSharing

@testable import TraceReplay

/// Hand-given scenario items checked against the traces (README, "Replay: items that contradict
/// the traces"), and a partial timeline continued by inference.
@Suite("Replay: scenario items that contradict the traces; partial timelines")
struct ScenarioCheckTests {
    static let start = Timestamp.parseISO8601(time(0))!.timestamp.nanoseconds

    static func at(_ seconds: Int) -> Timestamp { Timestamp(nanoseconds: start + Int64(seconds) * 1_000_000_000) }

    static func point(_ p: P) throws -> Coordinate { try Coordinate(latitude: lat(p), longitude: lon(p)) }

    /// Replays `InferenceTests.trip` (0…540 s, 960 m north and 960 m east of 47° N 8° E) under
    /// `spec`, in one pass and in two; both must give the same JSON.
    func replayBoth(_ spec: ScenarioSpec) throws -> ReplayResult {
        let path = try temp(gpx([(nil, InferenceTests.trip)]))
        var two = ReplayOptions()
        two.singlePass = false
        let a = try Replay.run([TraceInput(path: path)], scenario: spec, options: ReplayOptions())
        let b = try Replay.run([TraceInput(path: path)], scenario: spec, options: two)
        #expect(JSONWriter.string(a.json) == JSONWriter.string(b.json))
        return a
    }

    /// A complete scenario for the trip (the inferred one's times), so that one pass applies.
    func complete() throws -> ScenarioSpec {
        var spec = ScenarioSpec()
        spec.timeline = try timeline([
            (.accepted, 0), (.enRoute, 125), (.atPickup, 200), (.inTask, 335), (.awaitingPayment, 410), (.completed, 540),
        ])
        spec.pickup = Sourced(try Self.point(P(north: 960, east: 0, t: 0)), .flag, "--pickup")
        spec.dropoff = Sourced(try Self.point(P(north: 960, east: 960, t: 0)), .flag, "--dropoff")
        return spec
    }

    /// The spherical distance (mean radius), by the haversine formula written out here.
    static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let r = Double.pi / 180
        let h =
            pow(sin((b.latitude - a.latitude) * r / 2), 2) + cos(a.latitude * r) * cos(b.latitude * r)
            * pow(sin((b.longitude - a.longitude) * r / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }

    @Test("a pickup given as LON,LAT, thousands of km from every helper fix: one warning line, saying how far and that it looks swapped")
    func swappedPickup() throws {
        var spec = try complete()
        let north = lat(P(north: 960, east: 0, t: 0))
        spec.pickup = Sourced(try Coordinate(latitude: 8, longitude: north), .flag, "--pickup")  // LON,LAT of the pickup
        let r = try replayBoth(spec)
        #expect(r.warnings.count == 1)
        let w = try #require(r.warnings.first)
        #expect(w.hasPrefix("pickup 8.000000, \(DecimalText.fixed(north, 6)) (--pickup) is "))
        #expect(w.contains("the helper never comes within 50 m of it"))
        #expect(w.hasSuffix("; it looks swapped (LON,LAT): as \(DecimalText.fixed(north, 6)), 8.000000 it would lie among them"))
        // The distance stated is to the nearest corner of the fixes' box: (47° N, its east edge).
        let corner = try Coordinate(latitude: 47, longitude: lon(P(north: 0, east: 960, t: 0)))
        let km = Self.metres(spec.pickup!.value, corner) / 1000
        let number = String(w.split(separator: " ")[5].filter { $0 != "," })
        let stated = try #require(Double(number))
        #expect(abs(stated - km) <= 0.5, "\(stated) km stated, \(km) km by hand")
        #expect(km > 4000)
        // Warned, not refused: the replay ran as given.
        #expect(r.scenario.pickup?.value.latitude == 8 && r.scenario.pickup?.provenance == .flag)
    }

    @Test("a given point far from the fixes but not swapped is warned without 'swapped'; within 1 km of them, nothing")
    func farPoint() throws {
        var spec = try complete()
        spec.dropoff = Sourced(try Self.point(P(north: 960 + 10_200, east: 960, t: 0)), .sidecar, "sidecar s.json")  // 10.2 km north
        let r = try replayBoth(spec)
        #expect(r.warnings.count == 1)
        let w = try #require(r.warnings.first)
        #expect(w.hasPrefix("dropoff ") && w.contains("(sidecar s.json) is 10 km from the helper's fixes"), "\(w)")
        #expect(!w.contains("swapped"))
        // 900 m south of the southernmost fix: no warning; 1100 m: "1.1 km".
        spec = try complete()
        spec.pickup = Sourced(try Self.point(P(north: -900, east: 0, t: 0)), .flag, "--pickup")
        #expect(try replayBoth(spec).warnings.isEmpty)
        spec.pickup = Sourced(try Self.point(P(north: -1100, east: 0, t: 0)), .flag, "--pickup")
        let far = try replayBoth(spec).warnings
        #expect(far.count == 1 && far[0].contains(" is 1.1 km from the helper's fixes"))
        // An inferred point is never checked (it comes from the fixes); nor is one near them.
        #expect(try replayBoth(complete()).warnings.isEmpty)
    }

    @Test("given timeline times outside the recording by more than 600 s: one warning line listing them; within 600 s, nothing")
    func timelineOutsideTheTrace() throws {
        var spec = try complete()
        var entries = spec.timeline!.value
        entries[0].time = Self.at(-3600)  // accepted an hour before the first fix
        entries[entries.count - 1].time = Self.at(540 + 700)  // completed 700 s after the last
        spec.timeline = Sourced(try TimelineEntry.validated(entries), .flag, "--timeline")
        let r = try replayBoth(spec)
        #expect(
            r.warnings == [
                "timeline (--timeline): 2 times outside the recording (2024-05-01T10:00:00Z … 2024-05-01T10:09:00Z) by more than 600 s: "
                    + "accepted at 2024-05-01T09:00:00Z, 60.0 min before the first fix; completed at 2024-05-01T10:20:40Z, 11.7 min after the last fix"
            ])
        // The replay's clock still runs from the earliest entry to the latest.
        #expect(r.start == Self.at(-3600) && r.end == Self.at(1240))
        entries[0].time = Self.at(-600)
        entries[entries.count - 1].time = Self.at(540 + 600)
        spec.timeline = Sourced(try TimelineEntry.validated(entries), .flag, "--timeline")
        #expect(try replayBoth(spec).warnings.isEmpty)
        // A cancellation is a given time too.
        spec = try complete()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 125)])
        spec.cancelledAt = Sourced(Self.at(5000), .sidecar, "sidecar s.json")
        let c = try replayBoth(spec).warnings
        #expect(c.count == 1 && c[0].hasSuffix("cancelledAt at 2024-05-01T11:23:20Z, 74.3 min after the last fix"))
    }

    @Test(
        "a partial timeline is continued by inference after its last entry, labelled inferred with the rule; skipped states are not inferred, and a note says so"
    )
    func partialTimeline() throws {
        var spec = try complete()
        spec.timeline = try timeline([(.accepted, 0), (.inTask, 335)])
        #expect(!Replay.singlePassApplies([TraceInput(path: "trip.gpx")], spec: spec))  // something to infer: two passes
        let r = try replayBoth(spec)
        let t = r.scenario.timeline
        #expect(t.map(\.state) == [.accepted, .inTask, .awaitingPayment, .completed])
        #expect(t[0].provenance == .flag && t[1].provenance == .flag)
        #expect(t[2].provenance == .inferred && t[2].detail == "first helper fix within 50 m of the dropoff")
        #expect(t[3].provenance == .inferred && t[3].detail == "the helper's last fix")
        #expect(r.seconds(of: .awaitingPayment) == 410 && r.seconds(of: .completed) == 540)
        #expect(r.scenario.assumedItems == ["category", "timeline: Awaiting Payment", "timeline: Completed"])
        #expect(
            r.notes.contains(
                "timeline given through In Task (2024-05-01T10:05:35Z): the states after it are inferred from the helper's fixes from then on "
                    + "(labelled inferred); En Route and At Pickup, skipped before it, not inferred (a given timeline is kept as given up to its last entry)"
            ), "\(r.notes)")
        // Only fixes from the last entry on count: the helper's pass by the dropoff is after it.
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 125)])
        let e = try replayBoth(spec)
        #expect(e.scenario.timeline.map(\.state) == [.accepted, .enRoute, .atPickup, .inTask, .awaitingPayment, .completed])
        #expect(e.seconds(of: .atPickup) == 200 && e.seconds(of: .inTask) == 335)
        // A given timeline whose last entry is after the helper's last fix: nothing to infer, said.
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 600)])
        let late = try replayBoth(spec)
        #expect(late.scenario.timeline.map(\.state) == [.accepted, .enRoute])
        #expect(
            late.notes.contains(
                "timeline given through En Route (2024-05-01T10:10:00Z): no helper fix from then on, so nothing after it is inferred"))
        // Complete timelines (through Completed, or cancelled) are replayed as given.
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 125)])
        spec.cancelledAt = Sourced(Self.at(150), .flag)
        #expect(try replayBoth(spec).scenario.timeline.map(\.state) == [.accepted, .enRoute])
    }

    @Test("distance to the fixes' box: 0 inside, to the nearer edge of longitude across the antimeridian")
    func boxDistance() throws {
        var box = BoundingBox(try Coordinate(latitude: 10, longitude: 179))
        box.extend(toInclude: try Coordinate(latitude: 11, longitude: -179))  // crosses the antimeridian
        #expect(ScenarioChecks.distance(try Coordinate(latitude: 10.5, longitude: 180), to: box) == 0)
        let west = try Coordinate(latitude: 10.5, longitude: 178)
        #expect(abs(ScenarioChecks.distance(west, to: box) - Self.metres(west, try Coordinate(latitude: 10.5, longitude: 179))) < 1e-6)
        let east = try Coordinate(latitude: 12, longitude: -178)
        #expect(abs(ScenarioChecks.distance(east, to: box) - Self.metres(east, try Coordinate(latitude: 11, longitude: -179))) < 1e-6)
        #expect(ScenarioChecks.kilometres(4_571_234) == "4,571 km" && ScenarioChecks.kilometres(1049) == "1.0 km")
    }
}

@Suite("Replay: no hourly rate from a trip of seconds")
struct ShortTripRateTests {
    @Test("a zero-length trip (2.7 km, every fix at one time) and a 44 s one: no mAh/h or mW for any phone, and why")
    func zeroAndShort() throws {
        let zero = line(from: P(north: 0, east: 0, t: 0), count: 46, stepNorth: 60, dt: 0)  // 2.7 km in 0 s
        let r = try replay(try temp(gpx([(nil, zero)])))
        #expect(r.durationSeconds == 0 && r.roleTotals.first { $0.role == .helper }!.distanceMetres > 2690)
        for phone in r.energy {
            #expect(phone.estimate.milliampHoursPerHour == nil && phone.estimate.averageMilliwatts == nil)
            #expect(phone.estimate.rateWithheld == "0 s covered; rates need at least 300 s")
        }
        #expect(r.energy.contains { $0.estimate.milliampHours > 0 })  // the charge itself is given
        let short = line(from: P(north: 0, east: 0, t: 0), count: 45, stepNorth: 2, dt: 1)  // 44 s
        for phone in try replay(try temp(gpx([(nil, short)]))).energy {
            #expect(phone.estimate.milliampHoursPerHour == nil && phone.estimate.rateWithheld == "44 s covered; rates need at least 300 s")
        }
        let long = line(from: P(north: 0, east: 0, t: 0), count: 31, stepNorth: 60, dt: 10)  // 300 s
        for phone in try replay(try temp(gpx([(nil, long)]))).energy { #expect(phone.estimate.milliampHoursPerHour != nil) }
    }
}
