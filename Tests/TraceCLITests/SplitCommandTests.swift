import Foundation
import TestSupport
import Testing

/// `tracekit split`, and `--split` on replay, compare and batch, end to end.
@Suite("tracekit split and --split, end to end")
struct SplitCommandTests {
    func tempDir() throws -> String {
        let dir = scratchFolder.appendingPathComponent("split-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    /// Two drives of 21 fixes north (50 m, 10 s apart), an hour apart, in one GPX segment.
    func twoDrives(in dir: String) throws -> String {
        var s = "<gpx version=\"1.1\" creator=\"t\"><trk><name>day</name><trkseg>\n"
        for (start, offset) in [(0, 0.0), (3600, 0.02)] {
            for i in 0...20 {
                let t = start + i * 10
                let stamp = String(format: "2024-05-01T%02d:%02d:%02dZ", 10 + t / 3600, (t / 60) % 60, t % 60)
                s += "<trkpt lat=\"\(47 + offset + Double(i) * 50 / 111_153.0)\" lon=\"8\"><time>\(stamp)</time></trkpt>\n"
            }
        }
        let path = dir + "/day.gpx"
        try (s + "</trkseg></trk></gpx>\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("split writes one file per trip, named to sort in time order, with a line per trip and where every point went")
    func writesTrips() throws {
        let dir = try tempDir()
        let day = try twoDrives(in: dir)
        let r = try Run(["split", day, dir + "/out/trips"])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/out/trips").sorted()
        #expect(files == ["day.trip-01.gpx", "day.trip-02.gpx"])
        #expect(r.stdout.contains("trip 1  2024-05-01T10:00:00Z … 2024-05-01T10:03:20Z"))
        #expect(r.stdout.contains("2 trips in 42 track points (42 in trips); 1 recording gap longer than 10 min"))
        let info = try Run(["info", "-f", "json", dir + "/out/trips/day.trip-02.gpx"])
        let doc = try #require((try object(info.stdout)["files"] as? [[String: Any]])?.first)
        #expect(doc["trackPoints"] as? Double == 21 && doc["tracks"] as? Double == 1)
        // As CSV, and the summary as JSON.
        let csv = try Run(["split", "--to", "csv", "-f", "json", day, dir + "/csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let summary = try object(csv.stdout)
        #expect(summary["schema"] as? String == "tracekit-split/1" && (summary["trips"] as? [Any])?.count == 2)
        #expect(FileManager.default.fileExists(atPath: dir + "/csv/day.trip-01.csv"))
        // The rules are options: a 2-hour gap joins them.
        let joined = try Run(["split", "--gap", "2h", "--stay", "2h", day, dir + "/joined"])
        #expect(joined.stdout.contains("1 trip in 42 track points"), "\(joined.stdout)")
    }

    @Test("split refuses standard input, a folder as IN, a file as OUTDIR and a bad duration, each in a line naming it")
    func refuses() throws {
        let dir = try tempDir()
        let day = try twoDrives(in: dir)
        for (args, text) in [
            (["split", "-", dir + "/o"], "give a file, not standard input"),
            (["split", dir, dir + "/o"], "is a folder"),
            (["split", day, day], "exists and is not a folder"),
            (["split", "--gap", "ten", day, dir + "/o"], "'--gap' takes a duration"),
        ] {
            let r = try Run(args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").first?.contains(text) == true, "\(args): \(r.stderr)")
        }
    }

    @Test("replay --split: the trips and their total; a recording gap warns without --split; --svg refused")
    func replaySplit() throws {
        let dir = try tempDir()
        let day = try twoDrives(in: dir)
        let r = try Run(["replay", "--split", "-f", "json", day])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try object(r.stdout)
        #expect(doc["schema"] as? String == "tracekit-replay-trips/1")
        let trips = try #require(doc["trips"] as? [[String: Any]])
        #expect(trips.count == 2)
        for t in trips {
            let replay = try #require(t["replay"] as? [String: Any])
            #expect(replay["durationSeconds"] as? Double == 200)
        }
        let total = try #require(doc["total"] as? [String: Any])
        #expect(total["seconds"] as? Double == 400)
        let whole = try Run(["replay", day])
        #expect(whole.stderr.contains("tracekit: warning: the recording has 1 gap without a fix longer than 10 min"), "\(whole.stderr)")
        #expect(whole.stdout.contains("in 1 recording gap excluded: 2024-05-01T10:03:20Z → 2024-05-01T11:00:00Z"), "\(whole.stdout)")
        let table = try Run(["replay", "--split", day])
        #expect(table.stdout.contains("=== Trip 2 of 2:") && table.stdout.contains("Trips (each its own request):"))
        let svg = try Run(["replay", "--split", "--svg", dir + "/x.svg", day])
        #expect(svg.status == 64 && svg.stderr.contains("draw one trip"))
        let pickup = try Run(["replay", "--split", "--pickup", "47,8", day])
        #expect(pickup.status == 65 && pickup.stderr.contains("each trip of a split recording infers its own"), "\(pickup.stderr)")
        let compare = try Run(["compare", "--split", "--policy", "seed", "--policy", "seed", day])
        #expect(compare.status == 0 && compare.stdout.contains("Total over 2 trips:"), "\(compare.stderr)")
    }

    @Test("batch --split: a row per trip, FILE#NN")
    func batchSplit() throws {
        let dir = try tempDir()
        _ = try twoDrives(in: dir)
        let r = try Run(["batch", "--split", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("day.gpx#01") && r.stdout.contains("day.gpx#02") && r.stdout.contains("2 trips from"), "\(r.stdout)")
    }

    /// The split of each long recording of ../shared/traces: trips, their times, where every point went.
    static let corpus: [(file: String, trips: Int, first: String, last: String, points: Int, inStays: Int, stationary: Int, untimed: Int)] =
        [
            // A phone's day: home overnight, three trips between long stays, no recording gap.
            ("long/reitti-gpslogger_day_20250601.gpx", 3, "2025-06-01T12:14:48.098Z", "2025-06-01T16:58:19.380Z", 2463, 2290, 10, 0),
            // A Semantic Location History month: positions at visit and segment ends, gaps between most of them.
            ("long/gpsbabel-google_semantic_2013_may.json", 47, "2013-05-09T15:58:16.388Z", "2013-05-31T15:36:46.094Z", 302, 7, 73, 0),
            // Three days of hiking: overnight gaps, a lunch stay on days 1 and 3, daytime pauses on day 2.
            ("long/togeojson-multitrackgpx_3days.geojson", 6, "2008-07-12T09:58:23Z", "2008-07-14T12:46:02Z", 5235, 185, 4, 0),
            // A 10 h hike with long rests.
            ("gpx/georust-garmin_with_extensions_gpsmap64s.gpx", 6, "2019-05-01T04:31:11Z", "2019-05-01T14:41:35Z", 3540, 460, 0, 0),
            // Rides on three days of 2001, tracks not in time order (sorted before splitting).
            ("gpx/togeojson-blue_hills_expertgps.gpx", 10, "2001-05-26T15:15:07Z", "2001-10-13T21:25:40Z", 1243, 197, 0, 0),
            // An 11 h ride in eight pieces.
            ("gpx/gpxanimator-bikeride_garmin_connect.gpx", 9, "2019-10-22T14:36:00Z", "2019-10-23T01:27:08Z", 8234, 0, 0, 0),
            // A walk with two long stops.
            ("gpx/gpswizard-coros_walk_kimmeridge.gpx", 3, "2022-11-12T12:33:53Z", "2022-11-12T15:48:18Z", 8294, 321, 0, 0),
            // A hike with recording gaps and 358 track points without a time.
            ("gpx/gpxpy-korita-zbevnica.gpx", 3, "2010-10-03T09:48:33Z", "2010-10-03T13:19:31Z", 871, 0, 1, 358),
        ]

    @Test(
        "split on the long recordings of ../shared/traces: the trips, their times, and every point accounted for",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces/long").path),
            "../shared/traces not found (set TRACEKIT_SHARED to run the shared corpus)"))
    func corpusSplit() throws {
        let dir = try tempDir()
        for row in Self.corpus {
            let path = sharedFolder.appendingPathComponent("traces/" + row.file).path
            let r = try Run(["split", "-f", "json", path, dir + "/" + row.file])
            #expect(r.status == 0, "\(row.file): \(r.stderr)")
            let doc = try object(r.stdout)
            let trips = try #require(doc["trips"] as? [[String: Any]])
            #expect(trips.count == row.trips, "\(row.file)")
            #expect(trips.first?["start"] as? String == row.first, "\(row.file)")
            #expect(trips.last?["end"] as? String == row.last, "\(row.file)")
            let inTrips = trips.reduce(0.0) { $0 + ($1["fixes"] as? Double ?? 0) }
            #expect(doc["trackPoints"] as? Double == Double(row.points), "\(row.file)")
            #expect(doc["inLongStays"] as? Double == Double(row.inStays), "\(row.file)")
            #expect(doc["stationary"] as? Double == Double(row.stationary), "\(row.file)")
            #expect(doc["untimed"] as? Double == Double(row.untimed), "\(row.file)")
            // Nothing lost: the trips' fixes and the counted rest add up to the file's track points.
            #expect(inTrips + Double(row.inStays + row.stationary + row.untimed) == Double(row.points), "\(row.file)")
            // The written files hold the trips' fixes.
            var written = 0.0
            for t in trips {
                let info = try object(try Run(["info", "-f", "json", try #require(t["file"] as? String)]).stdout)
                written += (info["files"] as? [[String: Any]])?.first?["trackPoints"] as? Double ?? 0
            }
            #expect(written == inTrips, "\(row.file)")
            // Each trip replayed with --split is a request no longer than its trip.
            let replay = try Run(["replay", "--split", "-f", "json", path])
            #expect(replay.status == 0, "\(row.file): \(replay.stderr)")
            for t in try #require(try object(replay.stdout)["trips"] as? [[String: Any]]) {
                let result = try #require(t["replay"] as? [String: Any])
                let seconds = try #require(result["durationSeconds"] as? Double)
                let start = try #require(t["start"] as? String), end = try #require(t["end"] as? String)
                let trip = "\(row.file) trip \(t["index"] ?? "?")"
                #expect(seconds <= span(start, end) + 1e-6, "\(trip)")
                // Inference within the trip: a pickup and a dropoff, and every event inside the trip.
                let scenario = try #require(result["scenario"] as? [String: Any])
                #expect(scenario["pickup"] is [String: Any] && scenario["dropoff"] is [String: Any], "\(trip)")
                for e in scenario["timeline"] as? [[String: Any]] ?? [] {
                    let at = try #require(e["at"] as? String)
                    #expect(span(start, at) >= -1e-6 && span(at, end) >= -1e-6, "\(trip): \(e["state"] ?? "?") at \(at)")
                }
            }
        }
    }

    @Test(
        "batch --split over ../shared/traces/long: a row per trip (3 + 47 + 6), each replayed, named FILE#NN",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces/long").path),
            "../shared/traces not found (set TRACEKIT_SHARED to run the shared corpus)"))
    func corpusBatch() throws {
        let r = try Run(["batch", "--split", "--jsonl", sharedFolder.appendingPathComponent("traces/long").path])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try r.stdout.split(separator: "\n").map { try object(String($0)) }
        #expect(rows.count == 56)
        let ids = rows.compactMap { $0["trip"] as? String }
        #expect(
            ids.contains("reitti-gpslogger_day_20250601.gpx#03") && ids.contains("gpsbabel-google_semantic_2013_may.json#47"),
            "\(ids.prefix(5))")
    }

    func span(_ a: String, _ b: String) -> Double {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let g = ISO8601DateFormatter()
        func date(_ s: String) -> Date { f.date(from: s) ?? g.date(from: s)! }
        return date(b).timeIntervalSince(date(a))
    }
}
