import Foundation
import Testing
import TraceDomain
import TraceIO
import TraceSharing

@Suite("Traces/: every scenario sidecar and the traces it names")
struct SidecarTests {
    @Test("the corpus has the generated trips, the real recordings and their sidecars")
    func inventory() {
        #expect(sidecars.filter { $0.hasPrefix("trips/") }.count == 3, "\(sidecars)")
        #expect(sidecars.filter { $0.hasPrefix("real/") }.count == 8, "\(sidecars)")
        #expect(sidecars.contains("georust-garmin-activity.scenario.json"))
        // Every trace file in Traces/ has a sidecar that names it.
        let named = Set(sidecars.flatMap { (try? Scenario($0))?.traces.map { $0.file.standardizedFileURL.path } ?? [] })
        let traces = files(below: tracesFolder).filter { [".gpx", ".csv"].contains(where: $0.hasSuffix) }
        for t in traces {
            #expect(named.contains(tracesFolder.appendingPathComponent(t).standardizedFileURL.path), "\(t) has no sidecar")
        }
    }

    @Test("conforms to tracekit-scenario/1", arguments: sidecars)
    func schema(sidecar: String) throws {
        let s = try Scenario(sidecar)
        #expect(s.problems.isEmpty, "\(sidecar): \(s.problems)")
        #expect(
            s.pickupHandedOff == s.traces.contains { $0.role == .delegate }, "\(sidecar): a delegate's trace goes with a handed-off pickup")
    }

    @Test("its traces exist and read with TraceIO without fatal errors, every point timed", arguments: sidecars)
    func traces(sidecar: String) throws {
        let s = try Scenario(sidecar)
        for (role, file) in s.traces {
            #expect(FileManager.default.fileExists(atPath: file.path), "\(sidecar): \(role.key) trace \(file.path) is missing")
            let fixes = try readFixes(file)
            #expect(fixes.count >= 40, "\(sidecar): \(role.key) has \(fixes.count) points")
            // The partly timed hike (gpxpy-korita-zbevnica) is the one recording with untimed points.
            let timed = fixes.filter { $0.time != nil }.count
            #expect(timed == fixes.count || sidecar.hasPrefix("real/gpxpy-korita"), "\(sidecar): \(timed) of \(fixes.count) timed")
        }
    }

    @Test("a timeline is in state order, in time order and within the traces' span", arguments: sidecars)
    func timeline(sidecar: String) throws {
        let s = try Scenario(sidecar)
        guard let timeline = s.timeline else { return }  // no timeline: the replay infers it
        for (a, b) in zip(timeline, timeline.dropFirst()) {
            #expect(a.state < b.state, "\(sidecar): \(a.state.key) before \(b.state.key)")
            #expect(a.at <= b.at, "\(sidecar): \(b.state.key) at \(b.at) precedes \(a.state.key) at \(a.at)")
        }
        var times: [Timestamp] = []
        for (role, _) in s.traces { times += try s.fixes(of: role).compactMap(\.time) }
        let first = try #require(times.min()), last = try #require(times.max())
        // Finding Villager comes before anyone's phone records; every later state within the recording.
        for step in timeline where step.state > .findingVillager {
            #expect(step.at >= first && step.at <= last, "\(sidecar): \(step.state.key) at \(step.at) outside \(first)…\(last)")
        }
    }

    @Test(
        "ride and non-ride categories as intended",
        arguments: [
            ("trips/ride/ride.scenario.json", "ride", true, false),
            ("trips/dog-walk/dog-walk.scenario.json", "dog walking", false, false),
            ("trips/third-party-pickup/third-party-pickup.scenario.json", "delivery", false, true),
            ("real/gpxpy-around-visnjan-with-car.scenario.json", "ride", true, false),
            ("real/gpxgo-visnjan_mytracks_android.scenario.json", "dog walking", false, false),
            ("real/togeojson-apple_watch_route.scenario.json", "dog walking", false, false),
            ("georust-garmin-activity.scenario.json", "dog walking", false, false),
            ("real/trackintel-google_location_history.scenario.json", "babysitting", false, false),
            ("real/togeojson-blue_hills_expertgps.scenario.json", "delivery", false, false),
            ("real/gpxanimator-bikeride_garmin_connect.scenario.json", "delivery", false, false),
            ("real/georust-garmin_with_extensions_gpsmap64s.scenario.json", "hiking companion", false, false),
            ("real/gpxpy-korita-zbevnica.scenario.json", "hiking companion", false, false),
        ])
    func category(sidecar: String, name: String, isRide: Bool, handedOff: Bool) throws {
        let s = try Scenario(sidecar)
        let category = RequestCategory(named: s.category)
        #expect(category.name == name)
        #expect(category.isRide == isRide)
        #expect(s.pickupHandedOff == handedOff)
    }
}
