import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceEnergy
import TraceIO
import TraceJSON
import TraceSharing

@testable import TraceReplay

@Suite("Replay: engine counts, views, energy, determinism")
struct EngineTests {
    /// The whole trace in En Route: accepted and departed at the first fix.
    func enRoute() throws -> ScenarioSpec {
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)  // far away: never reached
        return spec
    }

    @Test(
        "counts by hand: the seed's En Route filter (30 m, Core Location) over 10 fixes",
        arguments: [
            // Fixes 50 m apart: every one is at least 30 m from the last delivered → 10.
            (50.0, 10),
            // 20 m apart: 0 delivered, 1 at 20 m no, 2 at 40 m yes, … → fixes 0, 2, 4, 6, 8.
            (20.0, 5),
            // 10 m apart: 0, 3 (30 m: Core Location delivers at exactly the filter? 30.0x m here), 6, 9 → 4.
            (10.5, 4),
        ])
    func counts(step: Double, delivered: Int) throws {
        let fixes = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: step, dt: 10)
        let r = try replay(try temp(gpx([(nil, fixes)])), spec: try enRoute(), options: .ideal)
        let m = r.cell(.enRoute, .helper)
        #expect(m.rawFixes == 10 && m.deliveredFixes == delivered)
        // En Route: the helper shares; the hirer's map shows it (ride) → every delivered fix is sent and forwarded.
        #expect(m.sentUpdates == delivered && m.forwarded[.hirer] == delivered && m.forwarded[.helper] == 0)
        #expect(abs(m.distanceMetres - 9 * step) < 9 * step * 0.003)  // spherical degrees: within 0.3 %
        #expect(r.energy.first { $0.role == .hirer }!.estimate.received == delivered)
    }

    @Test("display error and staleness: 20 m steps a second apart, every other fix delivered")
    func view() throws {
        let fixes = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 20, dt: 1)
        let v = try replay(try temp(gpx([(nil, fixes)])), spec: try enRoute(), options: .ideal).cell(.enRoute, .helper).view
        // After each even fix the hirer holds it (error 0, 0 s); at each odd fix it holds the fix
        // before (≈ 20 m, 1 s). Ten samples, none before the first update.
        #expect(v.samples == 10 && v.withoutUpdate == 0)
        #expect(abs(v.displayErrorMeanMetres! - 10) < 0.05)
        #expect(abs(v.displayErrorP95Metres! - 20) < 0.15 && abs(v.displayErrorMaxMetres! - 20) < 0.05)  // p95 rounded down to 0.1 m
        #expect(v.stalenessP95Seconds == 1 && v.stalenessMaxSeconds == 1 && v.stalenessMeanSeconds == 0.5)
    }

    @Test("energy parts, derived independently: LTE sends every 10 s share one tail")
    func energy() throws {
        let fixes = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 50, dt: 10)
        let r = try replay(try temp(gpx([(nil, fixes)])), spec: try enRoute(), options: .ideal)
        let e = try #require(r.energy.first { $0.role == .helper }).estimate
        // docs/battery-model.md: 90 s of NearestTenMeters at 145 mW; 10 fixes × 50 mJ.
        #expect(abs(e.locationJoules - 0.145 * 90) < 1e-9)
        #expect(abs(e.fixesJoules - 0.5) < 1e-12)
        // Radio (lte): one promotion (1.21 W × 0.26 s), ten transmissions (1.2 W × 0.1 s); the
        // first tail runs from 0.36 s to the next send at 10 s, the next eight from the end of a
        // transmission (10k + 0.1 s) to the next send; the last tail in full (10.12 s at 1.06 W).
        let radio = 1.21 * 0.26 + 10 * 1.2 * 0.1 + 1.06 * ((10 - 0.36) + 8 * 9.9 + 10.12)
        #expect(abs(e.radio.totalJoules - radio) < 1e-9)
        #expect(e.radioPromotions == 1 && e.sent == 10)
        // The states add up to the phone's total.
        let sum = r.states.reduce(0.0) { $0 + $1[.helper]!.energy.totalJoules }
        #expect(abs(sum - e.totalJoules) < 1e-9)
        // The hirer (no trace) receives the same updates: the same radio, and its own location
        // tier for a ride (its position is shown to the helper), but no fixes.
        let h = try #require(r.energy.first { $0.role == .hirer })
        #expect(!h.hasTrace && h.estimate.received == 10 && abs(h.estimate.radio.totalJoules - radio) < 1e-9)
        var off = ReplayOptions.ideal
        off.receiverRadio = false
        let quiet = try replay(try temp(gpx([(nil, fixes)])), spec: try enRoute(), options: off)
        #expect(quiet.energy.first { $0.role == .hirer }!.estimate.radio.totalJoules == 0)
    }

    @Test("a cancellation stops sharing; later fixes are not replayed, and the note says so")
    func cancellation() throws {
        let fixes = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 50, dt: 10)
        var spec = try enRoute()
        spec.cancelledAt = Sourced(Timestamp.parseISO8601(time(45))!.timestamp, .flag)
        let r = try replay(try temp(gpx([(nil, fixes)])), spec: spec)
        #expect(r.cell(.enRoute, .helper).rawFixes == 5 && r.cell(.enRoute, .helper).sentUpdates == 5)
        #expect(r.notes == ["5 fixes after the cancellation were not replayed"])
        #expect(r.states[FulfilmentState.enRoute.rawValue].seconds == 45)
    }

    @Test("determinism: two runs write byte-identical JSON")
    func determinism() throws {
        let path = try temp(gpx([(nil, InferenceTests.trip)]))
        let a = JSONWriter.string(try replay(path).json)
        let b = JSONWriter.string(try replay(path).json)
        #expect(a == b && a.contains("\"schema\": \"tracekit-replay/3\""))
    }

    @Test("a file not in time order is replayed sorted; over the memory limit, late fixes are skipped and counted")
    func unordered() throws {
        var fixes = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 50, dt: 10)
        fixes.swapAt(3, 6)
        let path = try temp(gpx([(nil, fixes)]))
        let sorted = try replay(path, spec: try enRoute())
        #expect(sorted.cell(.enRoute, .helper).deliveredFixes == 10 && sorted.files[0].outOfOrderFixes == 0)
        var small = ReplayOptions()
        small.memoryLimitFixes = 4
        let streamed = try replay(path, spec: try enRoute(), options: small)
        // In file order the times run 0 … 20, 60, 40, 50, 30, 70 …: 40, 50 and 30 come late.
        #expect(streamed.files[0].outOfOrderFixes == 3 && streamed.cell(.enRoute, .helper).rawFixes == 7)
    }

    @Test("no timed fix is a one-line error naming the file")
    func noFixes() throws {
        let path = try temp("<gpx><trk><trkseg><trkpt lat='1' lon='2'/></trkseg></trk></gpx>")
        #expect(throws: ReplayError.invalid("\(path): no timed track points to replay: 1 point has no usable time (first: line 1: no time)")) {
            try replay(path)
        }
    }
}

@Suite("Replay: scenario sidecar")
struct SidecarTests {
    @Test("a full sidecar reads; trace paths are relative to it (an absolute one only where allowed)")
    func full() throws {
        let text = """
            {"schema": "tracekit-scenario/1", "category": "dog-walking", "pickupHandedOff": true,
             "pickup": {"lat": 47.1, "lon": 8.2}, "dropoff": {"lat": 47.2, "lon": 8.3},
             "traces": {"helper": "h.gpx", "delegate": "/abs/d.gpx"},
             "timeline": [{"state": "enRoute", "at": "2024-05-01T10:00:00Z"}, {"state": "At Pickup", "at": "2024-05-01T11:05:00+01:00"}],
             "cancelledAt": null}
            """
        let s = try ScenarioSpec(sidecarBytes: Array(text.utf8), file: "dir/trip.scenario.json", paths: .anywhere)
        #expect(s.category?.value == .dogWalking && s.pickupHandedOff?.value == true)
        #expect(s.pickup?.value.latitude == 47.1 && s.dropoff?.value.longitude == 8.3)
        #expect(s.traces[.helper]?.value == "dir/h.gpx" && s.traces[.delegate]?.value == "/abs/d.gpx")
        // Accepted is entered with the first entry (inferred); 11:05+01:00 is 10:05Z.
        #expect(s.timeline?.value.map(\.state) == [.accepted, .enRoute, .atPickup])
        #expect(s.timeline?.value.map(\.provenance) == [.inferred, .sidecar, .sidecar])
        #expect(s.timeline?.value[2].time.iso8601 == "2024-05-01T10:05:00Z")
    }

    @Test(
        "errors: one line with file, line, column, member and why",
        arguments: [
            (
                "{\"schema\": \"tracekit-scenario/2\"}",
                "s.json:1:12: schema: unsupported schema \"tracekit-scenario/2\"; this TraceKit reads \"tracekit-scenario/1\""
            ),
            ("{}", "s.json:1:1: schema: missing; a scenario file starts with \"schema\": \"tracekit-scenario/1\""),
            (
                "{\"schema\": \"tracekit-scenario/1\",\n \"pickup\": {\"lat\": 95, \"lon\": 8}}",
                "s.json:2:20: pickup: latitude 95.0 is outside [-90, 90] degrees"
            ),
            (
                "{\"schema\": \"tracekit-scenario/1\", \"catgory\": \"ride\"}",
                "s.json:1:46: catgory: unknown member; expected one of schema, category, pickupHandedOff, pickup, dropoff, traces, timeline, cancelledAt"
            ),
            (
                "{\"schema\": \"tracekit-scenario/1\", \"traces\": {\"driver\": \"a.gpx\"}}",
                "s.json:1:56: traces.driver: unknown member; expected one of hirer, helper, delegate"
            ),
            (
                "{\"schema\": \"tracekit-scenario/1\", \"timeline\": [{\"state\": \"flying\", \"at\": \"2024-05-01T10:00:00Z\"}]}",
                "s.json:1:58: timeline[0].state: unknown state \"flying\"; expected one of findingVillager, accepted, enRoute, atPickup, inTask, awaitingPayment, completed"
            ),
            (
                "{\"schema\": \"tracekit-scenario/1\", \"timeline\": [{\"state\": \"enRoute\", \"at\": \"2024-05-01 10:00\"}]}",
                "s.json:1:75: timeline[0].at: expected an ISO 8601 time with a zone (e.g. 2024-05-01T10:00:00Z), got \"2024-05-01 10:00\""
            ),
            (
                "{\"schema\": \"tracekit-scenario/1\", \"timeline\": [{\"state\": \"inTask\", \"at\": \"2024-05-01T10:00:00Z\"}, {\"state\": \"completed\", \"at\": \"2024-05-01T10:01:00Z\"}]}",
                "s.json:1:99: timeline[1]: completed cannot follow inTask: event 'confirmPayment' is not allowed in state In Task"
            ),
            (
                "{\"schema\": \"tracekit-scenario/1\", \"timeline\": [{\"state\": \"inTask\", \"at\": \"2024-05-01T10:00:00Z\"}, {\"state\": \"awaitingPayment\", \"at\": \"2024-05-01T09:00:00Z\"}]}",
                "s.json:1:99: timeline[1]: awaitingPayment at 2024-05-01T09:00:00Z is before inTask at 2024-05-01T10:00:00Z"
            ),
            ("{\"schema\": \"tracekit-scenario/1\",", "s.json:1:34: expected a string key"),
        ])
    func errors(text: String, message: String) {
        #expect {
            _ = try ScenarioSpec(sidecarBytes: Array(text.utf8), file: "s.json")
        } throws: { error in
            let d = (error as? ScenarioFileError)?.description
            return d == message
        }
    }

    @Test(
        "trace paths stay in the sidecar's folder: absolute, ../ and sub/../../ refused naming the member and why; inside accepted; .anywhere allows all"
    )
    func confined() throws {
        func sidecar(_ trace: String) -> [UInt8] { Array(#"{"schema": "tracekit-scenario/1", "traces": {"helper": "\#(trace)"}}"#.utf8) }
        let advice = "; a sidecar's traces are relative paths inside its folder (--allow-outside-paths allows others)"
        for (trace, why) in [
            ("/etc/passwd", "'/etc/passwd' is an absolute path"),
            ("../x.gpx", "'../x.gpx' climbs out of the sidecar's folder with '..'"),
            ("sub/../../x.gpx", "'sub/../../x.gpx' climbs out of the sidecar's folder with '..'"),
            ("./../x.gpx", "'./../x.gpx' climbs out of the sidecar's folder with '..'"),
        ] {
            #expect {
                _ = try ScenarioSpec(sidecarBytes: sidecar(trace), file: "no-such-folder/s.json")
            } throws: { error in
                (error as? ScenarioFileError)?.description == "no-such-folder/s.json:1:56: traces.helper: \(why)\(advice)"
            }
            #expect(throws: ScenarioFileError.self) {
                try ScenarioSpec.tracePaths(sidecarBytes: sidecar(trace), file: "no-such-folder/s.json", paths: .sidecarFolder)
            }
            let anywhere = try ScenarioSpec(sidecarBytes: sidecar(trace), file: "no-such-folder/s.json", paths: .anywhere)
            #expect(anywhere.traces[.helper]?.value == ScenarioSpec.resolve(trace, besides: "no-such-folder/s.json"))
        }
        for trace in ["h.gpx", "sub/../h.gpx", "./sub/./h.gpx", "a/b/../../h.gpx"] {
            let s = try ScenarioSpec(sidecarBytes: sidecar(trace), file: "no-such-folder/s.json")
            #expect(s.traces[.helper]?.value == "no-such-folder/\(trace)")
            #expect(try ScenarioSpec.tracePaths(sidecarBytes: sidecar(trace), file: "no-such-folder/s.json", paths: .sidecarFolder) == ["no-such-folder/\(trace)"])
        }
        // Inside the sidecar's folder but outside the corpus folder (a root).
        let reason = SidecarPaths.confined(roots: ["corpus"]).refusal(of: "h.gpx", sidecar: "elsewhere/s.json")
        #expect(reason?.contains("h.gpx, outside the corpus folder corpus; ") == true, "\(reason ?? "")")
        #expect(SidecarPaths.confined(roots: ["corpus"]).refusal(of: "h.gpx", sidecar: "corpus/trip/s.json") == nil)
        // A sidecar that does not parse lists no trace (its replay says why).
        #expect(try ScenarioSpec.tracePaths(sidecarBytes: Array("{".utf8), file: "s.json", paths: .sidecarFolder).isEmpty)
    }

    @Test("the sidecar beside a trace")
    func beside() {
        #expect(Replay.sidecarPath(besides: "trips/trip.gpx") == "trips/trip.scenario.json")
        #expect(Replay.sidecarPath(besides: "a.b/trip") == "a.b/trip.scenario.json")
    }
}
