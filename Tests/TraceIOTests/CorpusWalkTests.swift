import Foundation
import Testing

@testable import TraceIO

/// Every file of the shared corpus, with what PROVENANCE.md states it holds: the format its
/// name selects, then tracks, segments, track points and waypoints (or the start of the one-line
/// error a malformed file gives). The walk fails when a file is added to or removed from the
/// corpus without a row here.
private let corpusRows: [(path: String, format: TraceFormat, tracks: Int, segments: Int, points: Int, waypoints: Int)] = [
    ("csv/gpsbabel-bike_unicsv.csv", .csv, 1, 1, 1812, 0),
    ("csv/gpsbabel-iblue747.csv", .csv, 1, 1, 747, 0),
    ("csv/gpsbabel-mtk_logger_m241_bt747.csv", .csv, 1, 1, 1199, 0),
    ("csv/trackintel-google_location_history.csv", .csv, 1, 1, 416, 0),
    ("geojson/envirocar-track_dresden_points.json", .json, 1, 1, 1101, 0),
    ("geojson/togeojson-blue_hills_coordtimes.geojson", .geojson, 3, 13, 1242, 46),
    ("geojson/togeojson-run_gpxtpx_coordtimes.geojson", .geojson, 1, 1, 1118, 0),
    ("gpx/georust-garmin-activity.gpx", .gpx, 1, 1, 988, 0),
    ("gpx/georust-garmin_with_extensions_gpsmap64s.gpx", .gpx, 1, 2, 3540, 0),
    ("gpx/gpsbabel-bike_from_tcx.gpx", .gpx, 1, 1, 1812, 2),
    ("gpx/gpsbabel-garmin-edge-800.gpx", .gpx, 1, 8, 1286, 1),
    ("gpx/gpsbabel-mtk_logger_m241.gpx", .gpx, 1, 1, 1199, 7),
    ("gpx/gpsbabel-sbn-v13_gt31.gpx", .gpx, 1, 1, 3453, 0),
    ("gpx/gpswizard-coros_walk_kimmeridge.gpx", .gpx, 1, 1, 8294, 0),
    ("gpx/gpswizard-motion_windsurf_0470.gpx", .gpx, 1, 1, 5054, 0),
    ("gpx/gpxanimator-bikeride_garmin_connect.gpx", .gpx, 1, 1, 8234, 0),
    ("gpx/gpxgo-visnjan_mytracks_android.gpx", .gpx, 1, 1, 413, 2),
    ("gpx/gpxpy-around-visnjan-with-car.gpx", .gpx, 1, 1, 104, 0),
    ("gpx/gpxpy-korita-zbevnica.gpx", .gpx, 4, 4, 871, 2),
    ("gpx/togeojson-apple_watch_route.gpx", .gpx, 1, 1, 44, 0),
    ("gpx/togeojson-blue_hills_expertgps.gpx", .gpx, 3, 14, 1243, 46),
    ("json/barefoot-x0001_munich_samples.json", .json, 1, 1, 1194, 0),
    ("json/kgeo-google_records_toronto.json", .json, 1, 1, 12, 0),
    ("json/reitti-google_records_berlin.json", .json, 1, 1, 95, 0),
    // Four LineStrings of 1,655, 1,088, 3,940 and 455 untimed positions.
    ("kml/gpsbabel-a810_dashcam_linestrings.kml", .kml, 4, 4, 7138, 0),
    ("kml/gpsbabel-google_ext_mapfinity_hike.kml", .kml, 1, 1, 451, 0),
    ("kml/gpsbabel-gtrnctr_power_bike_gxtrack.kml", .kml, 1, 1, 5109, 1),
    // 51 visits at their start and end, 72 activity ends with a location, 128 timed raw points; one
    // segment per timeline object (224 untimed waypoints are skipped and stated).
    ("long/gpsbabel-google_semantic_2013_may.json", .json, 1, 135, 302, 0),
    ("long/reitti-gpslogger_day_20250601.gpx", .gpx, 1, 1, 2463, 0),
    ("long/togeojson-multitrackgpx_3days.geojson", .geojson, 3, 3, 5235, 0),
    ("malformed/dougfales-with_empty_tracks_iOS.gpx", .gpx, 1, 3, 14, 1),
    ("malformed/georust-with_accuracy_badfix.gpx", .gpx, 1, 1, 3, 0),
    ("malformed/gpxgo-gpx-without-xml-declaration.gpx", .gpx, 1, 1, 1, 0),
    ("malformed/gpxgo-iso8859-1encoded.gpx", .gpx, 0, 0, 0, 8),
    ("malformed/gpxpy-Mojstrovka_time_1901.gpx", .gpx, 1, 1, 184, 0),
    ("malformed/gpxpy-unicode_with_bom.gpx", .gpx, 0, 0, 0, 1),
    ("malformed/opentracks-csv_export.csv", .csv, 1, 3, 4, 0),
    ("malformed/opentracks-trackpointextensions_incorrect.gpx", .gpx, 1, 3, 5, 2),
    ("malformed/trackintel-posmo_epoch_bug.csv", .csv, 1, 1, 2404, 0),
    ("nmea/aerorust-nmea1_skydive_fixloss.nmea", .nmea, 1, 1, 993, 0),
    // PROVENANCE counts 13 RMC fixes; the stationary section starts with a GLL fix (status A,
    // dated by its ZDA) and the car section with a GGA fix (quality 1, 8 satellites) whose RMC
    // was cut off, which the NMEA reader keeps as fixes of their own.
    ("nmea/gpsd-bt451_phases_backwards.nmea", .nmea, 1, 1, 15, 0),
    ("nmea/gpsd-gpsdf_android_badchecksums.nmea", .nmea, 1, 1, 51, 0),
    ("other/owntracks-demo-iphone.rec", .rec, 1, 1, 23, 0),
    ("plt/gpsbabel-ozi_20070813_short.plt", .plt, 1, 1, 44, 0),
]

/// The files with implausible motion (``ImpliedMotion`` at the default 100 m/s, read under
/// `report`): speed spikes and teleports, measured. Every other file of the corpus has none: the
/// real car, bike and walk logs of gpx/ never go past 197 km/h with a time step of at least 1 s
/// (gpsbabel-sbn-v13_gt31.gpx; its 78 same-second pairs, like the MTK logger's, are a few metres
/// apart and fit).
private let motionRows: [String: (spikes: Int, teleports: Int)] = [
    // The phone repeats its 10:04:58 position at 10:05:15 (OBD speed 156 km/h), then catches up
    // 1.51 km in 10 s.
    "geojson/envirocar-track_dresden_points.json": (0, 1),
    // PROVENANCE's 470 m jump within 1 s at 07:04:26+02:00; the track goes on from it.
    "json/barefoot-x0001_munich_samples.json": (0, 1),
    // Two activity segments whose start location and first raw point share an instant but lie
    // 201 m and 718 m apart (a place's centre against the phone's fix).
    "long/gpsbabel-google_semantic_2013_may.json": (0, 2),
    // Three synthetic points about 500 m and 1 s apart.
    "malformed/georust-with_accuracy_badfix.gpx": (0, 2),
    // 2.71 km walked at one bogus 1901 instant: within one second every fix must lie within
    // 100 m of the window's first, so the walk breaks up into jumps.
    "malformed/gpxpy-Mojstrovka_time_1901.gpx": (0, 15),
    // 2,404 fixes over 228 km stamped within 5 s (a seconds-for-milliseconds epoch bug).
    "malformed/trackintel-posmo_epoch_bug.csv": (23, 549),
]

/// The reader for `format` over `bytes`, as it is (not under the motion stage).
private func rawReader(_ bytes: [UInt8], _ format: TraceFormat, _ options: ReadOptions) -> any CheckedTraceReader {
    switch format {
    case .gpx: GPXReader(bytes: bytes, options: options)
    case .csv: CSVReader(bytes: bytes, options: options)
    case .plt: PLTReader(bytes: bytes, options: options)
    case .rec: RECReader(bytes: bytes, options: options)
    case .nmea: NMEAReader(bytes: bytes, options: options)
    case .kml: KMLReader(bytes: bytes, options: options)
    case .ndjson: NDJSONReader(bytes: bytes, options: options)
    case .geojson, .json: JSONTraceReader(bytes: bytes, format: format, options: options)
    }
}

/// The corpus files that are not of their format, and the error each gives.
private let corpusErrors: [(path: String, message: String)] = [
    ("malformed/georust-badcharacter.xml", "invalid character U+2202 in a name")
]

@Suite(
    "Shared corpus walk: every file reads with the counts PROVENANCE.md states",
    .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
struct CorpusWalkTests {
    @Test("the table names every file of the corpus, and only those")
    func complete() throws {
        #expect(motionRows.keys.allSatisfy { path in corpusRows.contains { $0.path == path } })
        var found: [String] = []
        let root = traces.path
        let walker = FileManager.default.enumerator(atPath: root)!
        while let name = walker.nextObject() as? String {
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &folder), !folder.boolValue, name != "PROVENANCE.md" {
                found.append(name)
            }
        }
        #expect(found.sorted() == (corpusRows.map(\.path) + corpusErrors.map(\.path)).sorted())
    }

    @Test("each file: its format, tracks, segments, points and waypoints", arguments: corpusRows.map(\.path))
    func counts(path: String) throws {
        let row = corpusRows.first { $0.path == path }!
        let reader = try openTrace(corpus(path), options: ReadOptions(policy: .report))  // the files as written
        #expect(reader.format == row.format)
        let r = try readTrace(reader)
        let waypoints = r.items.filter { if case .waypoint = $0 { true } else { false } }.count
        #expect(r.tracks == row.tracks && r.segments == row.segments, "\(r.tracks) tracks, \(r.segments) segments")
        #expect(r.points.count == row.points)
        #expect(waypoints == row.waypoints)
    }

    @Test("each file: its speed spikes and teleports, none unless listed", arguments: corpusRows.map(\.path))
    func motion(path: String) throws {
        let expected = motionRows[path] ?? (0, 0)
        let r = try readTrace(try openTrace(corpus(path)))
        #expect(r.count(.speedSpike) == expected.spikes && r.count(.teleport) == expected.teleports, "\(r.diagnostics.summaryLines)")
        // Under skip the stage drops each spike its reader's checks found and starts a segment at
        // each teleport; nothing else changes.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: corpus(path))))
        let format = TraceFormat(pathExtension: path)!
        let options = ReadOptions(policy: .skip)
        let raw = try readTrace(rawReader(bytes, format, options))
        let skipped = try readTrace(try openTrace(corpus(path), options: options))
        #expect(skipped.points.count == raw.points.count - raw.count(.speedSpike))
        #expect(skipped.segments == raw.segments + raw.count(.teleport))
        #expect(skipped.diagnostics.counts == raw.diagnostics.counts)
        #expect(skipped.diagnostics.pointsDropped == raw.diagnostics.pointsDropped + raw.count(.speedSpike))
    }

    @Test("each file not of its format: one line naming the file, the place and the problem", arguments: corpusErrors.map(\.path))
    func errors(path: String) {
        let expected = corpusErrors.first { $0.path == path }!.message
        do {
            _ = try readTrace(try openTrace(corpus(path)))
            Issue.record("\(path) was read")
        } catch {
            #expect(error.description.hasPrefix(corpus(path) + ":"))
            #expect(error.description.hasSuffix(expected))
            #expect(!error.description.contains("\n"))
        }
    }
}
