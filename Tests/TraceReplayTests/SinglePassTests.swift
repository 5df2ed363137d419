import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceJSON
import TraceSharing

@testable import TraceReplay

@Suite("Replay: a complete scenario is replayed in one pass, with the two passes' results")
struct SinglePassTests {
    func both(_ inputs: [TraceInput], _ spec: ScenarioSpec, _ options: ReplayOptions = ReplayOptions()) throws -> (
        one: ReplayResult, two: ReplayResult
    ) {
        var two = options
        two.singlePass = false
        return (try Replay.run(inputs, scenario: spec, options: options), try Replay.run(inputs, scenario: spec, options: two))
    }

    @Test("the demo trips: one pass applies, and writes the two passes' bytes", arguments: ["ride", "dog-walk", "third-party-pickup"])
    func demoTrips(name: String) throws {
        let file = packageRoot.appendingPathComponent("Traces/trips/\(name)/\(name).scenario.json").path
        let spec = try ScenarioSpec(sidecarBytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        let inputs = Role.allCases.compactMap { role in
            spec.traces[role].map { TraceInput(path: $0.value, defaultRole: role, provenance: $0.provenance) }
        }
        #expect(Replay.singlePassApplies(inputs, spec: spec))
        let (one, two) = try both([], spec)
        #expect(JSONWriter.string(one.json) == JSONWriter.string(two.json))
        var noDropoff = spec
        noDropoff.dropoff = nil
        #expect(!Replay.singlePassApplies(inputs, spec: noDropoff))
    }

    /// Out 1 km north from the pickup (passing the dropoff 500 m north at t 100), back to the
    /// dropoff and a stop there from t 300; In Task shows the hirer the helper's position and
    /// delivers every fix, so the dropoff arrival's visibility is measured. The timeline is
    /// complete (through Completed at the last fix): a partial one would leave states to infer.
    func roundTrip() throws -> (path: String, spec: ScenarioSpec, options: ReplayOptions) {
        var fixes = line(from: P(north: 0, east: 0, t: 0), count: 21, stepNorth: 50, dt: 10)  // t 0…200, north 0…1000
        fixes += line(from: P(north: 950, east: 0, t: 210), count: 9, stepNorth: -50, dt: 10)  // back to 550 at t 290
        fixes += stay(at: P(north: 500, east: 0, t: 300), count: 20, dt: 10)  // stop at the dropoff to t 490
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.atPickup, 0), (.inTask, 10), (.awaitingPayment, 490), (.completed, 490)])
        spec.pickup = Sourced(try .init(latitude: lat(P(north: 0, east: 0, t: 0)), longitude: lon(P(north: 0, east: 0, t: 0))), .flag)
        spec.dropoff = Sourced(try .init(latitude: lat(P(north: 500, east: 0, t: 0)), longitude: lon(P(north: 500, east: 0, t: 0))), .flag)
        var options = ReplayOptions.ideal  // no network delay
        options.policy[.inTask].hirerAnnotations.append(AnnotationRule(.helperLocation))
        options.policy[.inTask].distanceFilter = 0  // every fix delivered: the arrival is seen at once
        return (try temp(gpx([(nil, fixes)])), spec, options)
    }

    @Test("a given dropoff passed on the way counts at the last stop there, in one pass as in two")
    func dropoffAtLastStop() throws {
        let (path, spec, options) = try roundTrip()
        #expect(Replay.singlePassApplies([TraceInput(path: path)], spec: spec))
        let (one, two) = try both([TraceInput(path: path)], spec, options)
        #expect(JSONWriter.string(one.json) == JSONWriter.string(two.json))
        let dropoff = try #require(one.arrivals.first { $0.point == .dropoff && $0.viewer == .hirer })
        // The stop begins at t 300 (its anchor); the walk passed within 50 m at t 80–120.
        #expect(dropoff.arrivedAt?.iso8601 == "2024-05-01T10:05:00Z")
        #expect(dropoff.visibleAt == dropoff.arrivedAt)
    }

    @Test("a stop at the given dropoff split by a recording gap: the last stay there counts, in one pass as in two")
    func dropoffStopAcrossAGap() throws {
        var (_, spec, options) = try roundTrip()
        var fixes = line(from: P(north: 0, east: 0, t: 0), count: 21, stepNorth: 50, dt: 10)  // t 0…200, north 0…1000
        fixes += line(from: P(north: 950, east: 0, t: 210), count: 9, stepNorth: -50, dt: 10)  // back to 550 at t 290
        fixes += stay(at: P(north: 500, east: 0, t: 300), count: 10, dt: 10)  // at the dropoff to t 390: a dwell
        fixes += stay(at: P(north: 505, east: 0, t: 1590), count: 12, dt: 10)  // 20 min without a fix, then there to t 1700
        spec.timeline = try timeline([(.accepted, 0), (.atPickup, 0), (.inTask, 10), (.awaitingPayment, 1700), (.completed, 1700)])
        let inputs = [TraceInput(path: try temp(gpx([(nil, fixes)])))]
        #expect(Replay.singlePassApplies(inputs, spec: spec))
        let (one, two) = try both(inputs, spec, options)
        #expect(JSONWriter.string(one.json) == JSONWriter.string(two.json))
        let dropoff = try #require(one.arrivals.first { $0.point == .dropoff && $0.viewer == .hirer })
        // Not one stay from t 300 to 1700: the gap ends it, and the last stay there begins at 1590.
        #expect(dropoff.arrivedAt?.iso8601 == "2024-05-01T10:26:30Z")
        options.rules.recordingGapSeconds = 3600  // no gap: one stay from t 300
        let (a, b) = try both(inputs, spec, options)
        #expect(JSONWriter.string(a.json) == JSONWriter.string(b.json))
        #expect(a.arrivals.first { $0.point == .dropoff }?.arrivedAt?.iso8601 == "2024-05-01T10:05:00Z")
    }

    @Test("a file that needs the first pass (another role's track, times out of order) is replayed with it", arguments: [false, true])
    func abandoned(unordered: Bool) throws {
        let (_, spec, options) = try roundTrip()
        var helper = line(from: P(north: 0, east: 0, t: 0), count: 30, stepNorth: 40, dt: 10)
        var tracks: [(name: String?, points: [P])] = [(nil, helper)]
        if unordered {
            helper.swapAt(5, 9)
            tracks = [(nil, helper)]
        } else {
            tracks.append(("hirer", stay(at: P(north: 0, east: 0, t: 5), count: 10, dt: 10)))
        }
        let path = try temp(gpx(tracks))
        let (one, two) = try both([TraceInput(path: path)], spec, options)
        #expect(JSONWriter.string(one.json) == JSONWriter.string(two.json))
        #expect(one.files[0].outOfOrderFixes == 0)
        #expect(one.roleTotals.reduce(0) { $0 + $1.rawFixes } == (unordered ? 30 : 40))
    }
}

@Suite("Replay: whether an observer admits a single pass is a stated property of it")
struct ObserverSinglePassTests {
    struct Counting: ReplayObserver {
        var count = 0
        mutating func delivered(_ update: DeliveredUpdate) { count += 1 }
    }

    struct Ignoring: ReplayObserver {
        static var seesDeliveries: Bool { false }
        mutating func delivered(_ update: DeliveredUpdate) {}
    }

    @Test("an observer sees deliveries by default; NoReplayObserver and one that says so do not")
    func stated() {
        #expect(Counting.seesDeliveries)
        #expect(!NoReplayObserver.seesDeliveries)
        #expect(!Ignoring.seesDeliveries)
    }

    @Test("a complete scenario is tried in one pass only for an observer that does not see deliveries, and only with the option on")
    func chosen() throws {
        let (path, spec, options) = try SinglePassTests().roundTrip()
        let inputs = [TraceInput(path: path)]
        #expect(Replay.triesSinglePass(inputs, spec: spec, options: options, observer: NoReplayObserver.self))
        #expect(Replay.triesSinglePass(inputs, spec: spec, options: options, observer: Ignoring.self))
        #expect(!Replay.triesSinglePass(inputs, spec: spec, options: options, observer: Counting.self))
        var off = options
        off.singlePass = false
        #expect(!Replay.triesSinglePass(inputs, spec: spec, options: off, observer: NoReplayObserver.self))
        // The observer that sees deliveries is shown every one of them, once.
        var counting = Counting()
        let r = try Replay.run(inputs, scenario: spec, options: options, observer: &counting)
        #expect(counting.count == r.roleTotals.reduce(0) { $0 + $1.deliveredFixes })
        #expect(counting.count > 0)
    }
}
