import Foundation
import TestSupport
import Testing

@testable import TraceBatch

@Suite("Trip discovery, manifests and shards")
struct TripDiscoveryTests {
    /// A scratch folder removed at the end.
    static func scratch(_ body: (String) throws -> Void) throws {
        let dir = scratchFolder.appendingPathComponent("tracekit-discovery-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir)
    }

    static func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("the bundled corpus: sidecars claim their traces, every trip once, sorted")
    func bundledCorpus() throws {
        let trips = try TripDiscovery.trips(under: packageRoot.appendingPathComponent("Traces").path)
        #expect(
            trips.map(\.id) == [
                "georust-garmin-activity.scenario.json",
                "real/georust-garmin_with_extensions_gpsmap64s.scenario.json",
                "real/gpxanimator-bikeride_garmin_connect.scenario.json",
                "real/gpxgo-visnjan_mytracks_android.scenario.json",
                "real/gpxpy-around-visnjan-with-car.scenario.json",
                "real/gpxpy-korita-zbevnica.scenario.json",
                "real/togeojson-apple_watch_route.scenario.json",
                "real/togeojson-blue_hills_expertgps.scenario.json",
                "real/trackintel-google_location_history.scenario.json",
                "trips/dog-walk/dog-walk.scenario.json",
                "trips/ride/ride.scenario.json",
                "trips/third-party-pickup/third-party-pickup.scenario.json",
            ])
        #expect(trips.allSatisfy { $0.kind == .sidecar })
    }

    @Test("a folder: unclaimed traces are trips, a sidecar without traces goes with its trace, hidden names skipped")
    func folderRules() throws {
        try Self.scratch { dir in
            try Self.write(
                "\(dir)/a/trip.scenario.json", #"{"schema": "tracekit-scenario/1", "traces": {"helper": "h.gpx", "hirer": "./x.csv"}}"#)
            try Self.write("\(dir)/a/h.gpx", "")
            try Self.write("\(dir)/a/x.csv", "")
            try Self.write("\(dir)/a/extra.PLT", "")
            try Self.write("\(dir)/b/run.gpx", "")
            try Self.write("\(dir)/b/run.scenario.json", #"{"schema": "tracekit-scenario/1", "category": "dog walking"}"#)
            try Self.write("\(dir)/b/lonely.scenario.json", #"{"schema": "tracekit-scenario/1"}"#)
            try Self.write("\(dir)/b/notes.txt", "")
            try Self.write("\(dir)/.hidden/c.gpx", "")
            let trips = try TripDiscovery.trips(under: dir)
            #expect(trips.map(\.id) == ["a/extra.PLT", "a/trip.scenario.json", "b/lonely.scenario.json", "b/run.gpx"])
            #expect(trips.map(\.kind) == [.trace, .sidecar, .sidecar, .trace])
            #expect(trips[3].path == "\(dir)/b/run.gpx")
        }
    }

    @Test("every readable format is a trace; TraceKit's own JSON documents are not")
    func formats() throws {
        try Self.scratch { dir in
            for name in ["a.nmea", "b.KML", "c.geojson", "d.ndjson", "e.jsonl", "f.nma", "records.json"] {
                try Self.write("\(dir)/\(name)", "{}")
            }
            try Self.write("\(dir)/baseline.json", "{\n  \"schema\": \"tracekit-baseline/3\",\n  \"trips\": []\n}")
            try Self.write("\(dir)/chatty.json", #"{"format": "tracekit-policy", "version": 2}"#)
            try Self.write("\(dir)/night.policy.json", "{}")
            try Self.write("\(dir)/notes.txt", "x")
            try Self.write("\(dir)/results.jsonl", #"{"schema": "tracekit-batch-trip/1", "trip": "a"}"#)
            let trips = try TripDiscovery.trips(under: dir)
            #expect(trips.map(\.id) == ["a.nmea", "b.KML", "c.geojson", "d.ndjson", "e.jsonl", "f.nma", "records.json"])
            #expect(TripDiscovery.trip(file: "\(dir)/baseline.json", id: "b") == nil)
            #expect(TripDiscovery.trip(file: "\(dir)/records.json", id: "r")?.kind == .trace)
        }
    }

    @Test("a manifest: relative to its folder, comments and blank lines skipped, folders walked, order kept")
    func manifest() throws {
        try Self.scratch { dir in
            try Self.write("\(dir)/t/one.gpx", "")
            try Self.write("\(dir)/t/two.gpx", "")
            try Self.write("\(dir)/d/three.csv", "")
            try Self.write("\(dir)/list.txt", "# the corpus\nt/two.gpx\n\n  t/one.gpx  \r\nd\nmissing.gpx\n")
            let trips = try TripDiscovery.trips(inputs: ["\(dir)/list.txt"])
            #expect(trips.map(\.id) == ["t/two.gpx", "t/one.gpx", "d/three.csv", "missing.gpx"])
            #expect(trips[0].path == "\(dir)/t/two.gpx")
            // Standard input: relative to the working folder.
            let fromStdin = try TripDiscovery.trips(inputs: ["-"], stdin: { Array("\(dir)/t/one.gpx\n".utf8) })
            #expect(fromStdin.map(\.path) == ["\(dir)/t/one.gpx"])
            // A line that is neither a trip nor a folder names the manifest's line.
            try Self.write("\(dir)/bad.txt", "t/one.gpx\nnot-a-trip\n")
            #expect(throws: BatchTripError(.cannotOpen, "\(dir)/bad.txt:2: 'not-a-trip': no such trip, trace or folder")) {
                try TripDiscovery.trips(inputs: ["\(dir)/bad.txt"])
            }
        }
    }

    @Test(
        "confinement: a manifest file's lines stay in its folder (absolute, ../, a link out refused); standard input's do not; trips carry their corpus folder; confined: false lifts it all"
    )
    func confinement() throws {
        try Self.scratch { dir in
            try Self.write("\(dir)/corpus/t/one.gpx", "")
            try Self.write("\(dir)/corpus/t/trip.scenario.json", #"{"schema": "tracekit-scenario/1", "traces": {"helper": "one.gpx"}}"#)
            try Self.write("\(dir)/outside.gpx", "")
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/corpus/out", withDestinationPath: "..")
            let walked = try TripDiscovery.trips(inputs: ["\(dir)/corpus"])
            #expect(walked.map(\.sidecarPaths) == [.confined(roots: ["\(dir)/corpus"])])
            #expect(try walked[0].files() == ["\(dir)/corpus/t/trip.scenario.json", "\(dir)/corpus/t/one.gpx"])
            let advice = "; a manifest's lines are relative paths inside its folder (--allow-outside-paths allows others)"
            for (line, why) in [
                ("\(dir)/outside.gpx", "'\(dir)/outside.gpx' is an absolute path"),
                ("../outside.gpx", "'../outside.gpx' climbs out of the manifest's folder with '..'"),
                ("out/outside.gpx", "'out/outside.gpx' leads out of the manifest's folder through a symbolic link (to \(dir)/outside.gpx)"),
            ] {
                try Self.write("\(dir)/corpus/list.txt", "t/one.gpx\n\(line)\n")
                #expect(throws: BatchTripError(.data, "\(dir)/corpus/list.txt:2: \(why)\(advice)")) {
                    try TripDiscovery.trips(inputs: ["\(dir)/corpus/list.txt"])
                }
                let allowed = try TripDiscovery.trips(inputs: ["\(dir)/corpus/list.txt"], confined: false)
                #expect(allowed.count == 2 && allowed.allSatisfy { $0.sidecarPaths == .anywhere })
            }
            // A manifest file's trips read only inside its folder; standard input's lines are the caller's.
            try Self.write("\(dir)/corpus/list.txt", "t/trip.scenario.json\n")
            try Self.write("\(dir)/corpus/folders.txt", "t\n")
            let listed = try TripDiscovery.trips(inputs: ["\(dir)/corpus/list.txt"]) + TripDiscovery.trips(inputs: ["\(dir)/corpus/folders.txt"])
            #expect(listed.map(\.sidecarPaths) == [.confined(roots: ["\(dir)/corpus"]), .confined(roots: ["\(dir)/corpus", "\(dir)/corpus/t"])])
            let piped = try TripDiscovery.trips(inputs: ["-"], stdin: { Array("\(dir)/outside.gpx\n".utf8) })
            #expect(piped.map(\.path) == ["\(dir)/outside.gpx"] && piped[0].sidecarPaths == .sidecarFolder)
            // A sidecar whose trace leaves its folder: files() refuses it before anything is opened.
            try Self.write("\(dir)/corpus/t/trip.scenario.json", #"{"schema": "tracekit-scenario/1", "traces": {"helper": "../../outside.gpx"}}"#)
            let bad = try #require(try TripDiscovery.trips(inputs: ["\(dir)/corpus"]).first { $0.kind == .sidecar })
            #expect(throws: BatchTripError.self) { try bad.files() }
        }
    }

    @Test("inputs: a missing input and duplicate names are errors")
    func inputErrors() throws {
        #expect(throws: BatchTripError(.cannotOpen, "/nonexistent/corpus: No such file or directory")) {
            try TripDiscovery.trips(inputs: ["/nonexistent/corpus"])
        }
        try Self.scratch { dir in
            try Self.write("\(dir)/x/a.gpx", "")
            try Self.write("\(dir)/y/a.gpx", "")
            #expect(throws: BatchTripError(.usage, "two trips are named 'a.gpx': give inputs whose trips have different relative paths")) {
                try TripDiscovery.trips(inputs: ["\(dir)/x", "\(dir)/y"])
            }
        }
    }

    @Test("shards: index mod N, every trip in exactly one shard", arguments: [1, 2, 3, 5])
    func shards(count: Int) throws {
        let items = Array(0..<17)
        var seen: [Int] = []
        for i in 0..<count {
            let part = Shard(index: i, count: count)!.select(items)
            #expect(part.allSatisfy { $0 % count == i })
            seen += part
        }
        #expect(seen.sorted() == items)
    }

    @Test(
        "shard text",
        arguments: [("0/1", true), ("1/2", true), ("2/2", false), ("-1/2", false), ("1", false), ("a/b", false), ("0/0", false)])
    func shardParsing(text: String, valid: Bool) {
        #expect((Shard(parsing: text) != nil) == valid)
    }
}
