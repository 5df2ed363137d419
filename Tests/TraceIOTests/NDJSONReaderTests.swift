import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceGeodesy
import TracePlatform

@testable import TraceIO

private func readNDJSON(_ lines: [String], options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(NDJSONReader(bytes: Array(lines.map { $0 + "\n" }.joined().utf8), options: options))
}

@Suite("NDJSON reader")
struct NDJSONReaderTests {
    @Test("generic keys: lat/lon, latitude/longitude, latitudeE7/longitudeE7, lng; case and _/- ignored")
    func coordinateKeys() throws {
        let r = try readNDJSON([
            #"{"lat": 48.1, "lon": 11.5, "time": "2024-05-01T10:00:00Z"}"#,
            #"{"Latitude": 48.2, "LONGITUDE": 11.6, "time": "2024-05-01T11:00:00Z"}"#,
            #"{"latitude_e7": 482000000, "longitude-E7": 116000000, "time": "2024-05-01T12:00:00Z"}"#,
            #"{"lat": 48.3, "lng": 11.7, "time": "2024-05-01T13:00:00Z"}"#,
        ])
        #expect(r.shape == "T S P P P P")
        #expect(r.points.map(\.coordinate.latitude) == [48.1, 48.2, 48.2, 48.3])
        #expect(r.points.map(\.coordinate.longitude) == [11.5, 11.6, 11.6, 11.7])
        #expect(r.diagnostics.isClean)
    }

    @Test("times: ISO 8601, epoch seconds, epoch milliseconds (by magnitude, number or text), tst, ts")
    func times() throws {
        let r = try readNDJSON([
            #"{"lat": 1, "lon": 2, "timestamp": "2024-05-01T10:00:00.250+02:00"}"#,
            #"{"lat": 1, "lon": 2, "tst": 1714557601}"#,
            #"{"lat": 1, "lon": 2, "ts": 1714557602500}"#,
            #"{"lat": 1, "lon": 2, "time": "1714557603"}"#,
        ])
        #expect(
            r.points.map { $0.time!.nanoseconds } == [
                1_714_550_400_250_000_000, 1_714_557_601_000_000_000, 1_714_557_602_500_000_000, 1_714_557_603_000_000_000,
            ])
    }

    @Test("measures: accuracy/acc/horizontalAccuracy, alt/altitude/elevation, speed in m/s, OwnTracks vel in km/h, cog/bearing/heading")
    func measures() throws {
        let r = try readNDJSON([
            #"{"lat": 1, "lon": 2, "tst": 1714557600, "acc": 12, "alt": 510, "vel": 36, "cog": 90}"#,
            #"{"lat": 1, "lon": 2, "tst": 1714557601, "horizontal_accuracy": 5, "elevation": -3.5, "speed": 2.5, "bearing": 180}"#,
            #"{"lat": 1, "lon": 2, "tst": 1714557602, "accuracy": 7, "altitude": 3, "heading": 270, "vel": -1}"#,
        ])
        let p = r.points
        #expect(p[0].horizontalAccuracy == 12 && p[0].elevation == 510 && p[0].speed == 10 && p[0].course == 90)
        #expect(p[1].horizontalAccuracy == 5 && p[1].elevation == -3.5 && p[1].speed == 2.5 && p[1].course == 180)
        #expect(p[2].horizontalAccuracy == 7 && p[2].elevation == 3 && p[2].course == 270 && p[2].speed == nil)
    }

    @Test("nested shapes: browser/Capacitor/Expo {coords, timestamp} and {location: {...}}")
    func nested() throws {
        let r = try readNDJSON([
            #"{"coords": {"latitude": 52.5, "longitude": 13.4, "accuracy": 8, "altitude": 34, "speed": 1.5, "heading": 45}, "timestamp": 1714557600000}"#,
            #"{"location": {"lat": 52.6, "lng": 13.5}, "time": "2024-05-01T10:00:01Z", "id": 7}"#,
        ])
        #expect(r.shape == "T S P P")
        #expect(r.points[0].coordinate.latitude == 52.5 && r.points[0].horizontalAccuracy == 8 && r.points[0].speed == 1.5)
        #expect(r.points[0].time == Timestamp(nanoseconds: 1_714_557_600_000_000_000))
        #expect(r.points[1].coordinate.longitude == 13.5 && r.points[1].time == Timestamp(nanoseconds: 1_714_557_601_000_000_000))
        #expect(r.diagnostics.isClean)
    }

    @Test("a bad later line is a dropped point, counted at its line; a truncated last line and numbers JSON cannot hold too")
    func badLines() throws {
        let r = try readNDJSON([
            #"{"lat": 1, "lon": 2, "tst": 1714557600}"#, "not json", #"{"lat": 1, "lon": 2, "tst": 1714557601}"#,
            #"{"lat": NaN, "lon": 2}"#, #"{"lat": 1e400, "lon": 2}"#, #"{"lat": 0x1p3, "lon": 2}"#, #"{"lat": 1, "lo"#,
        ])
        #expect(r.points.count == 2)
        #expect(r.diagnostics.pointsRead == 7 && r.diagnostics.pointsDropped == 5)
        #expect(r.diagnostics.counts[.unreadableRecord] == 5)
        #expect(r.diagnostics.examples.filter { $0.kind == .unreadableRecord }.map(\.line) == [2, 4, 5, 6, 7])
        #expect(r.diagnostics.examples.first?.detail == "'not json' is not a JSON object")
        #expect(r.diagnostics.assumptions.isEmpty)
    }

    @Test("the fail policy stops at a bad later line")
    func failPolicy() {
        let e = readError { () throws(TraceReadError) in
            try readNDJSON([#"{"lat": 1, "lon": 2, "tst": 1714557600}"#, #"{"lat": 1,"#], options: ReadOptions(policy: .fail))
        }
        #expect(e?.line == 2)
    }

    @Test("a first line that is not a JSON location object is not an NDJSON location log")
    func notNDJSON() {
        let e = readError { () throws(TraceReadError) in try readNDJSON(["lat,lon", "1,2"]) }
        #expect(e?.line == 1 && e?.message.hasPrefix("not a JSON location log") == true)
        let f = readError { () throws(TraceReadError) in try readNDJSON([#"{"name": "x", "value": 3}"#]) }
        #expect(f?.message == "not a JSON location log: the first object (keys name, value) has no latitude and longitude")
        let g = readError { () throws(TraceReadError) in try readNDJSON([#"  {"lat": 1, "lon": }"#]) }
        #expect(g?.line == 1 && g?.column == 21)
    }

    @Test("per-point problems: a missing longitude drops the point, an unreadable time keeps it")
    func problems() throws {
        let r = try readNDJSON([
            #"{"lat": 1, "lon": 2, "tst": 1714557600}"#, #"{"lat": 1, "tst": 1714557601}"#, #"{"lat": 1, "lon": 2, "time": "yesterday"}"#,
        ])
        #expect(r.points.count == 2)
        #expect(r.count(.missingCoordinate) == 1 && r.count(.invalidTime) == 1)
        #expect(r.diagnostics.examples.first { $0.kind == .invalidTime }?.line == 3)
    }

    @Test("TraceKit's own lines: read → write → read gives the same items (track names are not in the format)")
    func roundTrip() throws {
        let path = try writeTemporary(WriterTests.sample, .ndjson)
        defer { try? Platform.remove(path) }
        let first = try readAll(path)
        let expected = WriterTests.sample.map { item -> TraceItem in
            if case .trackStart = item { return .trackStart(name: nil) }
            return item
        }
        #expect(first == expected)
        let again = try writeTemporary(first, .ndjson)
        defer { try? Platform.remove(again) }
        #expect(try readAll(again) == first)
    }

    @Test("TraceKit's own lines: routes and a change of track number")
    func ownStructure() throws {
        let r = try readNDJSON([
            #"{"type":"trackpoint","track":1,"segment":1,"time":"2024-05-01T10:00:00Z","lat":1,"lon":2}"#,
            #"{"type":"trackpoint","track":2,"segment":1,"time":"2024-05-01T10:00:01Z","lat":1,"lon":2}"#,
            #"{"type":"routepoint","route":1,"lat":3,"lon":4}"#,
            #"{"type":"waypoint","lat":5,"lon":6,"name":"x"}"#,
        ])
        #expect(r.items.count == 9)
        #expect(r.shape == "T S P T S P ? ? ?")
        #expect(r.items[6] == .routeStart(name: nil))
        guard case .waypoint(let w) = r.items[8] else {
            Issue.record("no waypoint")
            return
        }
        #expect(w.name == "x")
    }
}

@Suite(
    "NDJSON corpus",
    .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
struct NDJSONCorpusTests {
    @Test("the corpus's GeoJSON converted to NDJSON reads back to the same points")
    func corpusRoundTrip() throws {
        let original = try readAll(corpus("geojson/togeojson-run_gpxtpx_coordtimes.geojson"))
        let path = try writeTemporary(original, .ndjson)
        defer { try? Platform.remove(path) }
        let again = try readAll(path)
        #expect(again.count == 1120)
        #expect(
            again.compactMap { if case .trackPoint(let f) = $0 { f } else { nil } }
                == original.compactMap {
                    if case .trackPoint(let f) = $0 { f } else { nil }
                })
    }
}
