import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceGeodesy
import TraceJSON
import TraceSharing

@testable import TraceReplay

@Suite("Replay: a trip held in memory (LoadedTrip) replays with the bytes of the two passes that read twice")
struct LoadedTripTests {
    /// Every scenario sidecar under Traces/ (the demo trips, the real traces, the georust trace).
    static let sidecars: [String] = {
        let root = packageRoot.appendingPathComponent("Traces")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".scenario.json") }.sorted()
    }()

    static func spec(_ sidecar: String) throws -> ScenarioSpec {
        let file = packageRoot.appendingPathComponent("Traces/\(sidecar)").path
        return try ScenarioSpec(sidecarBytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
    }

    /// The sidecar's traces only: everything else inferred.
    static func inferred(_ spec: ScenarioSpec) -> ScenarioSpec {
        var s = ScenarioSpec()
        s.traces = spec.traces
        return s
    }

    /// The JSON of a replay (a) read twice (`tripInMemory` off), (b) from the trip the first pass
    /// kept, (c) of the trip `Replay.load` gives; `singlePass` off, so that a complete scenario
    /// runs the first pass too.
    func three(_ inputs: [TraceInput], _ spec: ScenarioSpec, _ options: ReplayOptions = ReplayOptions()) throws -> [String] {
        var twice = options
        twice.singlePass = false
        twice.tripInMemory = false
        var memory = twice
        memory.tripInMemory = true
        let trip = try #require(try Replay.load(inputs, scenario: spec, options: memory))
        let results = [
            try Replay.run(inputs, scenario: spec, options: twice), try Replay.run(inputs, scenario: spec, options: memory),
            try Replay.run(trip, options: memory),
        ]
        #expect(results[0] == results[1] && results[1] == results[2])
        return results.map { JSONWriter.string($0.json) }
    }

    @Test("every bundled trip, as given and inferred, and with a per-file limit of 16 fixes: the same bytes", arguments: sidecars)
    func bundled(sidecar: String) throws {
        let given = try Self.spec(sidecar)
        var small = ReplayOptions()
        small.memoryLimitFixes = 16  // every file over it: kept in file order, as a second read gives it
        for (spec, options) in [(given, ReplayOptions()), (Self.inferred(given), ReplayOptions()), (Self.inferred(given), small)] {
            let out = try three([], spec, options)
            #expect(out[0] == out[1] && out[1] == out[2], "\(sidecar)")
            #expect(out[0].contains("\"schema\": \"tracekit-replay/3\""))
        }
    }

    @Test("the goldens' trace with no scenario (georust-garmin-activity.gpx): the same bytes either way")
    func goldenTrace() throws {
        let path = packageRoot.appendingPathComponent("Traces/georust-garmin-activity.gpx").path
        var ideal = ReplayOptions.ideal
        ideal.viewer = .last
        for options in [ReplayOptions(), ideal] {
            let out = try three([TraceInput(path: path)], ScenarioSpec(), options)
            #expect(out[0] == out[1] && out[1] == out[2])
        }
    }

    @Test("a multi-role CSV (role and state columns) and an unordered GPX over the per-file limit: the same bytes")
    func multiRoleAndUnordered() throws {
        var text = "time,lat,lon,accuracy,role,state\n"
        for i in 0..<40 {
            text += "\(time(i * 10)),\(lat(P(north: Double(i) * 40, east: 0, t: 0))),8,\(5 + i % 7),helper,\(i < 20 ? "En Route" : "inTask")\n"
        }
        for i in 0..<40 { text += "\(time(i * 10 + 5)),47.01,8,,hirer,\n" }
        let csv = try temp(text, ext: "csv")
        let out = try three([TraceInput(path: csv)], ScenarioSpec())
        #expect(out[0] == out[1] && out[1] == out[2])

        var fixes = InferenceTests.trip
        fixes.swapAt(3, 6)
        fixes.swapAt(40, 50)
        let gpxPath = try temp(gpx([(nil, fixes)]))
        var small = ReplayOptions()
        small.memoryLimitFixes = 4
        let streamed = try three([TraceInput(path: gpxPath)], ScenarioSpec(), small)
        #expect(streamed[0] == streamed[1] && streamed[1] == streamed[2])
        let r = try Replay.run([TraceInput(path: gpxPath)], scenario: ScenarioSpec(), options: small)
        #expect(r.files[0].outOfOrderFixes > 0)  // over the limit: replayed in file order, as read again
        let sorted = try three([TraceInput(path: gpxPath)], ScenarioSpec())
        #expect(sorted[0] == sorted[1] && sorted[0] != streamed[0])
    }

    @Test("--split trips (a window each): the same results with the trips in memory and read twice, also over the per-file limit")
    func splitTrips() throws {
        let a = InferenceTests.trip
        let b = InferenceTests.trip.map { P(north: $0.north + 500, east: $0.east, t: $0.t + 3000) }
        let inputs = [TraceInput(path: try temp(gpx([(nil, a + b)])))]
        var small = ReplayOptions()
        small.memoryLimitFixes = 16
        for options in [ReplayOptions(), small] {
            var twice = options
            twice.tripInMemory = false
            let memory = try Replay.runTrips(inputs, scenario: ScenarioSpec(), options: options, rules: .default)
            let read = try Replay.runTrips(inputs, scenario: ScenarioSpec(), options: twice, rules: .default)
            #expect(memory.trips.count == 2 && memory == read)
            #expect(memory.trips.map { JSONWriter.string($0.result.json) } == read.trips.map { JSONWriter.string($0.result.json) })
        }
    }

    @Test("one loaded trip replayed under two policies (and another view) equals the two fresh replays")
    func policies() throws {
        let spec = Self.inferred(try Self.spec("trips/ride/ride.scenario.json"))
        let trip = try #require(try Replay.load([], scenario: spec, options: ReplayOptions()))
        var a = ReplayOptions(), b = ReplayOptions()
        a.policy[.enRoute].distanceFilter = 0
        a.policy[.inTask].distanceFilter = 0
        b.policy[.enRoute].distanceFilter = 200
        b.viewer = .extrapolate(maximumSeconds: ViewerModel.defaultExtrapolationSeconds)
        b.energyProfile.radio.tailSeconds = 3
        for options in [a, b, a] {
            var twice = options
            twice.tripInMemory = false
            let fresh = try Replay.run([], scenario: spec, options: twice)
            let loaded = try Replay.run(trip, options: options)
            #expect(fresh == loaded)
            #expect(JSONWriter.string(fresh.json) == JSONWriter.string(loaded.json))
        }
        #expect(try Replay.run(trip, options: a) != Replay.run(trip, options: b))
    }

    @Test("an observer of a loaded trip's replay sees every delivered update once")
    func observer() throws {
        struct Counting: ReplayObserver {
            var count = 0
            mutating func delivered(_ update: DeliveredUpdate) { count += 1 }
        }
        let spec = Self.inferred(try Self.spec("trips/dog-walk/dog-walk.scenario.json"))
        let trip = try #require(try Replay.load([], scenario: spec, options: ReplayOptions()))
        var counting = Counting()
        let r = try Replay.run(trip, options: ReplayOptions(), observer: &counting)
        #expect(counting.count == r.roleTotals.reduce(0) { $0 + $1.deliveredFixes } && counting.count > 0)
    }

    @Test("bytes per fix: 24, plus 8 for each of accuracy, speed and course some fix reports")
    func bytesPerFix() throws {
        var c = FixColumns()
        let at = try Coordinate(latitude: 47, longitude: 8)
        c.append(ReplayFix(time: 0, coordinate: at, accuracy: nil, speed: nil))
        #expect(c.bytesPerFix == 24 && c.bytes == 24)
        c.append(ReplayFix(time: 1, coordinate: at, accuracy: 5, speed: nil))
        #expect(c.bytesPerFix == 32 && c.bytes == 64)
        #expect(c[0].accuracy.isNaN && c[1].accuracy == 5 && c[1].speed.isNaN && c[1].course.isNaN)
        c.append(ReplayFix(time: 2, coordinate: at, accuracy: nil, speed: 1.5, course: 360))
        #expect(c.bytesPerFix == 48 && c[2].accuracy.isNaN && c[2].speed == 1.5 && c[2].course == 0 && c[0].speed.isNaN)

        // A GPX without accuracy, speed or course: 24 bytes a fix.
        let path = try temp(gpx([(nil, InferenceTests.trip)]))
        let trip = try #require(try Replay.load([TraceInput(path: path)], scenario: ScenarioSpec(), options: ReplayOptions()))
        #expect(trip.fixes == InferenceTests.trip.count && trip.bytes == 24 * trip.fixes)
    }

    @Test("over the trip's bytes: load gives nil and the replay reads twice, with the same bytes")
    func memoryBound() throws {
        let path = try temp(gpx([(nil, InferenceTests.trip)]))  // 71 fixes, 24 bytes each
        let inputs = [TraceInput(path: path)]
        var tiny = ReplayOptions()
        tiny.memoryLimitTripBytes = 24 * 70
        tiny.memoryLimitFixes = 8
        #expect(try Replay.load(inputs, scenario: ScenarioSpec(), options: tiny) == nil)
        let first = try Replay.firstPass(inputs, options: tiny, keepingTrip: true)
        #expect(!first.holdsTrip && first.records.allSatisfy { $0.record.buffer == nil })  // back to the two passes
        var fits = tiny
        fits.memoryLimitTripBytes = 24 * 71
        #expect(try Replay.load(inputs, scenario: ScenarioSpec(), options: fits)?.bytes == 24 * 71)
        var twice = tiny
        twice.tripInMemory = false
        let a = try Replay.run(inputs, scenario: ScenarioSpec(), options: tiny)
        let b = try Replay.run(inputs, scenario: ScenarioSpec(), options: twice)
        let c = try Replay.run(inputs, scenario: ScenarioSpec(), options: fits)
        #expect(JSONWriter.string(a.json) == JSONWriter.string(b.json) && JSONWriter.string(b.json) == JSONWriter.string(c.json))
        #expect(a.roleTotals.reduce(0) { $0 + $1.rawFixes } == 71)
    }

    @Test(
        "a replay of a loaded trip with other reading or inference options is refused, naming the option",
        arguments: ["read", "inputFormat", "rules", "window", "memoryLimitFixes"])
    func mismatch(option: String) throws {
        let path = try temp(gpx([(nil, InferenceTests.trip)]))
        let trip = try #require(try Replay.load([TraceInput(path: path)], scenario: ScenarioSpec(), options: ReplayOptions()))
        var o = ReplayOptions()
        switch option {
        case "read": o.read.maximumSpeed = 10
        case "inputFormat": o.inputFormat = .gpx
        case "rules": o.rules.recordingGapSeconds = 60
        case "window": o.window = 0...1
        default: o.memoryLimitFixes = 5
        }
        #expect(throws: ReplayError.self) { try Replay.run(trip, options: o) }
        do {
            _ = try Replay.run(trip, options: o)
        } catch {
            #expect(error.description.hasPrefix("the trip was loaded with other '\(option)' options than this replay's"), "\(error)")
        }
        // What the replay may change is taken: another policy, viewer, network, send rule.
        var fine = ReplayOptions()
        fine.policy[.enRoute].distanceFilter = 7
        fine.viewer = .extrapolate(maximumSeconds: 5)
        fine.network = .ideal
        fine.tracekitVersion = "x"
        #expect(throws: Never.self) { try Replay.run(trip, options: fine) }
    }
}
