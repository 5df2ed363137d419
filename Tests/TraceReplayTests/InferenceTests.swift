import Testing
import TraceDomain
import TraceGeodesy
import TraceIO
import TraceReplay
import TraceSharing

@Suite("Replay: scenario inference")
struct InferenceTests {
    /// Waits 120 s at home, drives 960 m north (60 m per 5 s), waits 120 s at the pickup, drives
    /// 960 m east, waits 120 s at the dropoff. Steps of 60 m keep every geofence test clear of the
    /// 50 m radius (the test's degrees per metre are spherical: within 0.3 % of the ellipsoid's).
    static let trip: [P] = {
        var p = stay(at: P(north: 0, east: 0, t: 0), count: 13, dt: 10)  // 0…120 s at home
        p += line(from: P(north: 60, east: 0, t: 125), count: 16, stepNorth: 60, dt: 5)  // 125…200 s, to 960 m north
        p += stay(at: P(north: 960, east: 0, t: 210), count: 13, dt: 10)  // 210…330 s at the pickup
        p += line(from: P(north: 960, east: 60, t: 335), count: 16, stepEast: 60, dt: 5)  // 335…410 s, to 960 m east
        p += stay(at: P(north: 960, east: 960, t: 420), count: 13, dt: 10)  // 420…540 s at the dropoff
        return p
    }()

    @Test("dwells: the home wait is not the pickup; pickup and dropoff are the later dwells; every item is labelled inferred")
    func dwells() throws {
        let r = try replay(try temp(gpx([(nil, Self.trip)])))
        let s = r.scenario
        #expect(s.category.provenance == .default && s.category.value == .ride)
        let pickup = try #require(s.pickup), dropoff = try #require(s.dropoff)
        #expect(pickup.provenance == .inferred && dropoff.provenance == .inferred)
        // The dwells' centres are their fixes' mean: the stay points themselves.
        #expect(abs(pickup.value.latitude - lat(P(north: 960, east: 0, t: 0))) < 1e-9 && abs(pickup.value.longitude - 8) < 1e-9)
        #expect(abs(dropoff.value.longitude - lon(P(north: 0, east: 960, t: 0))) < 1e-9)
        // By hand: Accepted at the first fix (0 s); En Route at the first fix farther than 50 m
        // from it (60 m north, 125 s); At Pickup at the first fix within 50 m of the pickup
        // (960 m north, 200 s: 900 m is 60 m short); In Task at the first fix farther than 50 m
        // from it (60 m east, 335 s); Awaiting Payment at the first fix within 50 m of the dropoff,
        // not before its dwell began (960 m east, 410 s); Completed at the last fix (540 s).
        #expect(r.seconds(of: .accepted) == 0)
        #expect(r.seconds(of: .enRoute) == 125)
        #expect(r.seconds(of: .atPickup) == 200)
        #expect(r.seconds(of: .inTask) == 335)
        #expect(r.seconds(of: .awaitingPayment) == 410)
        #expect(r.seconds(of: .completed) == 540)
        #expect(s.timeline.allSatisfy { $0.provenance == .inferred })
        #expect(
            s.assumedItems == [
                "category", "pickup", "dropoff", "timeline: Accepted", "timeline: En Route", "timeline: At Pickup",
                "timeline: In Task", "timeline: Awaiting Payment", "timeline: Completed",
            ])
        // State seconds follow the timeline; raw fixes per state add up to the trace.
        #expect(r.states[FulfilmentState.enRoute.rawValue].seconds == 75)
        #expect(r.states[FulfilmentState.atPickup.rawValue].seconds == 135)
        #expect(r.states[FulfilmentState.inTask.rawValue].seconds == 75)
        #expect(r.durationSeconds == 540)
        #expect(r.cell(.accepted, .helper).rawFixes == 13 && r.cell(.enRoute, .helper).rawFixes == 15)
        #expect(r.states.reduce(0) { $0 + $1[.helper]!.rawFixes } == Self.trip.count)
    }

    @Test("a single drive with no stop: the trip starts at the pickup and ends at the final fix")
    func singleDrive() throws {
        let drive = line(from: P(north: 0, east: 0, t: 0), count: 41, stepNorth: 60, dt: 5)  // 2.4 km in 200 s
        let r = try replay(try temp(gpx([(nil, drive)])))
        #expect(r.scenario.pickup?.detail.hasPrefix("the helper's first position") == true)
        #expect(r.seconds(of: .atPickup) == 0 && r.entry(.enRoute) == nil)
        #expect(r.seconds(of: .inTask) == 5)  // 60 m: the first fix farther than 50 m
        #expect(r.seconds(of: .awaitingPayment) == 200)  // the final stop is the last fix alone
        #expect(r.seconds(of: .completed) == 200)
        #expect(r.cell(.atPickup, .helper).rawFixes == 1 && r.cell(.inTask, .helper).rawFixes == 39)
        #expect(r.cell(.awaitingPayment, .helper).rawFixes == 1)
    }

    @Test("a ride with a hirer trace: pickup is the hirer's first position; each sees the other in En Route")
    func rideWithHirer() throws {
        var helper = stay(at: P(north: 0, east: 0, t: 0), count: 1, dt: 1)
        helper += line(from: P(north: 100, east: 0, t: 10), count: 10, stepNorth: 100, dt: 10)  // to 1000 m north at 100 s
        helper += stay(at: P(north: 1000, east: 0, t: 110), count: 10, dt: 10)
        helper += line(from: P(north: 1000, east: 200, t: 210), count: 10, stepEast: 200, dt: 10)
        let hirer = stay(at: P(north: 1000, east: 5, t: 0), count: 21, dt: 10)
        let path = try temp(gpx([("helper", helper), ("hirer", hirer)]))
        let r = try replay(path, options: .ideal)  // ideal: the arrival is seen at once
        #expect(r.scenario.pickup?.detail.hasPrefix("the hirer's first position") == true)
        #expect(
            r.scenario.traces[0].roles.map(\.role) == [.hirer, .helper] || r.scenario.traces[0].roles.map(\.role) == [.helper, .hirer])
        let enRoute = r.cell(.enRoute, .hirer)
        #expect(enRoute.rawFixes > 0 && enRoute.forwarded[.helper] == enRoute.sentUpdates && enRoute.sentUpdates >= 1)
        #expect(r.cell(.enRoute, .helper).forwarded[.hirer] >= 1)
        let arrival = try #require(r.arrivals.first { $0.point == .pickup })
        #expect(arrival.arrivedAt != nil && arrival.lateSeconds == 0)
    }

    @Test("a non-ride category: the hirer's location is never sent or forwarded, in any state")
    func nonRide() throws {
        var helper = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 100, dt: 10)
        helper += stay(at: P(north: 1000, east: 0, t: 100), count: 30, dt: 10)
        let hirer = line(from: P(north: 1000, east: 0, t: 0), count: 40, stepEast: 40, dt: 10)
        var spec = ScenarioSpec()
        spec.category = Sourced(RequestCategory(named: "babysitting"), .flag)
        let r = try replay(try temp(gpx([("helper", helper), ("hirer", hirer)])), spec: spec)
        #expect(r.roleTotals.first { $0.role == .hirer }!.rawFixes == 40)
        for st in r.states {
            #expect(st[.hirer]!.sentUpdates == 0 && st[.hirer]!.forwarded.total == 0, "\(st.state)")
        }
        #expect(r.energy.first { $0.role == .hirer }!.estimate.sent == 0)
        // The hirer still sees the helper (the helper's location is shown for every category).
        #expect(r.roleTotals.first { $0.role == .helper }!.forwarded[.hirer] > 0)
    }

    @Test("a given dropoff on a round trip: Awaiting Payment at the final stop there, not when the walk passes it")
    func roundTripDropoff() throws {
        let home = P(north: 0, east: 0, t: 0)
        var walk = line(from: home, count: 6, stepNorth: 100, dt: 60)  // out 500 m north, t 0…300
        walk += line(from: P(north: 400, east: 0, t: 360), count: 5, stepNorth: -100, dt: 60)  // back home at t 600, no stop
        walk += line(from: P(north: 0, east: 100, t: 660), count: 5, stepEast: 100, dt: 60)  // out 500 m east, t 660…900
        walk += line(from: P(north: 0, east: 400, t: 960), count: 5, stepEast: -100, dt: 60)  // home at t 1200
        walk += stay(at: P(north: 0, east: 0, t: 1260), count: 5, dt: 30)  // and stays to t 1380
        let path = try temp(gpx([(nil, walk)], waypoints: [("pickup", home), ("dropoff", home)]))
        let r = try replay(path)
        #expect(r.scenario.dropoff?.provenance == .trace)
        #expect(r.seconds(of: .atPickup) == 0 && r.seconds(of: .inTask) == 60)
        #expect(r.seconds(of: .awaitingPayment) == 1200)  // the first rule alone would say 600
        #expect(r.seconds(of: .completed) == 1380)
    }

    @Test("given items win: flags over the sidecar over the trace's waypoints, labelled by source")
    func precedence() throws {
        let drive = line(from: P(north: 0, east: 0, t: 0), count: 41, stepNorth: 60, dt: 5)
        let path = try temp(
            gpx([(nil, drive)], waypoints: [("pickup", P(north: 500, east: 0, t: 0)), ("Dropoff", P(north: 1500, east: 0, t: 0))]))
        let r = try replay(path)
        #expect(r.scenario.pickup?.provenance == .trace && r.scenario.dropoff?.provenance == .trace)
        // En Route at 60 m (5 s); At Pickup at 480 m (40 s, 20 m short); In Task at 600 m (50 s:
        // 540 m is 40 m past); Awaiting Payment at 1500 m (125 s: 1440 m is 60 m short).
        #expect(r.seconds(of: .enRoute) == 5 && r.seconds(of: .atPickup) == 40 && r.seconds(of: .inTask) == 50)
        #expect(r.seconds(of: .awaitingPayment) == 125)
        var spec = ScenarioSpec()
        spec.pickup = Sourced(try Coordinate(latitude: lat(P(north: 1000, east: 0, t: 0)), longitude: 8), .flag, "--pickup")
        let f = try replay(path, spec: spec)
        #expect(f.scenario.pickup?.provenance == .flag && f.seconds(of: .atPickup) == 80 && f.seconds(of: .inTask) == 90)
        #expect(!f.scenario.assumedItems.contains("pickup"))
    }

    @Test("Completed when the helper leaves the dropoff: driving on 2.4 km after the dropoff dwell is not Awaiting Payment")
    func travelAfterTheDropoff() throws {
        // The trip, then on east from the dropoff dwell (420…540 s) 60 m per 5 s to 3360 m east at 740 s, no stop.
        let fixes = Self.trip + line(from: P(north: 960, east: 1020, t: 545), count: 40, stepEast: 60, dt: 5)
        let r = try replay(try temp(gpx([(nil, fixes)])))
        // The last dwell is still the dropoff (the trace ends moving: its final stop is one fix).
        #expect(
            r.scenario.dropoff?.detail.hasPrefix("the centre of the helper's last dwell (2024-05-01T10:06:50Z to 2024-05-01T10:09:00Z")
                == true)
        #expect(r.seconds(of: .awaitingPayment) == 410)
        // The first fix after the dwell's last (540 s) farther than 50 m from the dropoff: 60 m east at 545 s.
        #expect(r.seconds(of: .completed) == 545)
        #expect(r.entry(.completed)?.detail == "the helper left the dropoff: first fix farther than 50 m from it")
        #expect(r.states[FulfilmentState.awaitingPayment.rawValue].seconds == 135)
        #expect(r.cell(.awaitingPayment, .helper).rawFixes == 14)  // 410 s (the dwell's anchor) and the 13 after it
        #expect(abs(r.cell(.awaitingPayment, .helper).distanceMetres - 60) < 1)  // the step into it, then still
        #expect(abs(r.cell(.completed, .helper).distanceMetres - 2400) < 10 && r.cell(.completed, .helper).rawFixes == 40)
        // Scatter inside the dwell beyond the radius of its centre does not complete the request
        // early: leaving counts only after the dwell's last fix. The dwell's 13 fixes after its
        // anchor lie 40 m east of it but one 20 m west (within 50 m of the anchor, all in the stay),
        // so its centre is ≈ 32.9 m east of the anchor and that one fix ≈ 52.9 m from it.
        var scattered = Self.trip
        for i in (scattered.count - 13)..<scattered.count { scattered[i].east += 40 }
        scattered[scattered.count - 6].east = 940
        let s = try replay(
            try temp(gpx([(nil, scattered + line(from: P(north: 960, east: 1080, t: 545), count: 10, stepEast: 60, dt: 5))])))
        #expect(s.seconds(of: .awaitingPayment) == 410 && s.seconds(of: .completed) == 545)
    }

    @Test("a stay does not span a recording gap: two fixes 20 min apart at one place are not a dwell, so not the dropoff")
    func gapIsNotADwell() throws {
        // Home, out to the pickup and its dwell, then east: 480 m by 370 s, a 20 min gap, the next fix
        // 5 m on (within 50 m of the last), and on to 960 m east at 1610 s, where the trace ends moving.
        var fixes = Array(Self.trip.prefix(13 + 16 + 13))  // to the pickup dwell's end (330 s)
        fixes += line(from: P(north: 960, east: 60, t: 335), count: 8, stepEast: 60, dt: 5)  // 480 m east at 370 s
        fixes += line(from: P(north: 960, east: 485, t: 1570), count: 1, dt: 5)
        fixes += line(from: P(north: 960, east: 540, t: 1575), count: 8, stepEast: 60, dt: 5)  // 960 m east at 1610 s
        let r = try replay(try temp(gpx([(nil, fixes)])))
        // Read as a 20 min dwell it would have been the dropoff (the last dwell after the pickup's).
        #expect(r.scenario.dropoff?.detail.hasPrefix("the centre of the helper's final stop") == true)
        #expect(abs(try #require(r.scenario.dropoff).value.longitude - lon(P(north: 0, east: 960, t: 0))) < 1e-9)
        #expect(r.seconds(of: .awaitingPayment) == 1610 && r.seconds(of: .completed) == 1610)
        // A pause shorter than the gap (5 min) is a stay as before; a longer gap, by the rule's constant, is not.
        var pause = fixes
        for i in pause.indices where pause[i].t >= 1570 { pause[i].t -= 900 }  // the gap is 300 s
        let p = try replay(try temp(gpx([(nil, pause)])))
        #expect(
            p.scenario.dropoff?.detail.hasPrefix(
                "the centre of the helper's last dwell (2024-05-01T10:06:10Z to 2024-05-01T10:11:10Z, 2 fixes)") == true)
        var options = ReplayOptions()
        options.rules.recordingGapSeconds = 1800
        let long = try replay(try temp(gpx([(nil, fixes)])), options: options)
        #expect(long.scenario.dropoff?.detail.hasPrefix("the centre of the helper's last dwell") == true)
        #expect(long.scenario.rules.recordingGapSeconds == 1800)
    }

    @Test("the CSV state column is the timeline (a partial one is continued by inference); the role column assigns roles")
    func csvColumns() throws {
        var text = "time,lat,lon,role,state\n"
        for i in 0..<6 {
            text += "\(time(i * 10)),\(lat(P(north: Double(i) * 100, east: 0, t: 0))),8,helper,\(i < 3 ? "En Route" : "inTask")\n"
        }
        for i in 0..<6 { text += "\(time(i * 10)),47.01,8,hirer,\n" }
        let r = try replay(try temp(text, ext: "csv"))
        // The column ends at In Task: Awaiting Payment and Completed are inferred after it, at the
        // final stop (the last fix alone, 500 m north at 50 s).
        #expect(r.scenario.timeline.map(\.state) == [.accepted, .enRoute, .inTask, .awaitingPayment, .completed])
        #expect(r.scenario.timeline[1].provenance == .trace && r.seconds(of: .inTask) == 30)
        #expect(r.scenario.timeline.suffix(2).allSatisfy { $0.provenance == .inferred })
        #expect(r.seconds(of: .awaitingPayment) == 50 && r.seconds(of: .completed) == 50)
        #expect(r.cell(.enRoute, .helper).rawFixes == 3 && r.cell(.inTask, .helper).rawFixes == 2)
        #expect(r.cell(.awaitingPayment, .helper).rawFixes == 1)
        #expect(r.cell(.enRoute, .hirer).rawFixes == 3)
    }
}
