import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceDomain
import TracePlatform

@testable import TraceIO

func readJSON(_ text: String, format: TraceFormat = .json, options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(JSONTraceReader(bytes: Array(text.utf8), format: format, options: options))
}

/// The waypoints of a result.
func waypoints(_ r: ReadResult) -> [Fix] { r.items.compactMap { if case .waypoint(let f) = $0 { f } else { nil } } }

@Suite("GeoJSON reader")
struct GeoJSONReaderTests {
    @Test("a LineString with coordTimes is a track of one segment; positions are [lon, lat, ele]")
    func lineString() throws {
        let r = try readJSON(
            #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "run", "coordTimes": ["2015-01-19T21:24:20Z", "2015-01-19T21:24:21Z"]},
               "geometry": {"type": "LineString", "coordinates": [[-122.4, 37.7, 11.2], [-122.4001, 37.7001]]}}
            ]}
            """#, format: .geojson)
        #expect(r.shape == "T(run) S P P")
        #expect(r.points[0].coordinate.longitude == -122.4 && r.points[0].coordinate.latitude == 37.7 && r.points[0].elevation == 11.2)
        #expect(r.points[1].elevation == nil && r.points[1].time == Timestamp(nanoseconds: 1_421_702_661_000_000_000))
        #expect(r.diagnostics.isClean)
    }

    @Test("a MultiLineString with nested coordTimes is a track with a segment per line")
    func multiLineString() throws {
        let r = try readJSON(
            #"""
            {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "MultiLineString",
              "coordinates": [[[1, 2], [1.1, 2.1]], [[3, 4]]]},
              "properties": {"coordTimes": [["2020-01-01T00:00:00Z", "2020-01-01T00:00:01Z"], ["2020-01-01T01:00:00Z"]], "times": []}}]}
            """#)
        #expect(r.shape == "T S P P S P")
        #expect(r.points[2].time == Timestamp(nanoseconds: 1_577_840_400_000_000_000))
    }

    @Test("times whose count differs from the positions': stated, and the line's points are untimed")
    func mismatchedTimes() throws {
        let r = try readJSON(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"times": ["2020-01-01T00:00:00Z"]}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [1.1, 2.1]]}}]}"#
        )
        #expect(r.points.count == 2 && r.points.allSatisfy { $0.time == nil })
        #expect(r.count(.missingTime) == 2)
        #expect(
            r.diagnostics.assumptions == [
                "1 GeoJSON line whose times do not match the positions were read untimed (first: line 1: 1 times for 2 positions)"
            ]
        )
    }

    @Test("timed Points form one track; untimed or named Points are waypoints")
    func points() throws {
        let r = try readJSON(
            #"""
            {"type": "FeatureCollection", "properties": {"sensor": "x"}, "features": [
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.68, 51.04]}, "properties": {"time": "2013-08-02T09:16:37Z", "phenomenons": {"Speed": {"value": 0}}}},
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.69, 51.05]}, "properties": {"time": "2013-08-02T09:16:43Z"}},
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-71.1, 42.2, 86.25]}, "properties": {"name": "LOOKOUT", "time": "2001-06-02T03:26:55Z"}},
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": null},
            {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[1, 2], [1, 3], [2, 3], [1, 2]]]}, "properties": {}}
            ]}
            """#)
        #expect(r.shape == "T S P P ? ?")
        let w = waypoints(r)
        #expect(w[0].name == "LOOKOUT" && w[0].elevation == 86.25 && w[0].time == Timestamp(nanoseconds: 991_452_415_000_000_000))
        #expect(w[1].name == nil && w[1].time == nil)
        #expect(r.diagnostics.assumptions == ["skipped 1 GeoJSON features without a point or line geometry"])
    }

    @Test("a single Feature or a bare geometry as the whole document")
    func singleFeature() throws {
        let f = try readJSON(
            #"{"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}"#)
        #expect(f.shape == "T(a) S P P")
        let g = try readJSON(#"{"coordinates": [[1, 2], [3, 4]], "type": "LineString"}"#, format: .geojson)
        #expect(g.shape == "T S P P")
    }

    @Test("a bad position is an invalid coordinate (dropped); a syntax error names the file's line and column")
    func errors() throws {
        let r = try readJSON(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 2], ["a", 3], [1, 95]]}}]}"#
        )
        #expect(r.points.count == 1 && r.count(.invalidCoordinate) == 2)
        let e = readError { () throws(TraceReadError) in
            try readJSON("{\"type\": \"FeatureCollection\", \"features\": [\n  {\"type\": \"Feature\", \"geometry\": nul}]}")
        }
        #expect(e?.line == 2 && e?.column == 35 && e?.message.hasPrefix("JSON: expected 'null'") == true)
        let n = readError { () throws(TraceReadError) in try readJSON(#"{"locations": []}"#, format: .geojson) }
        #expect(n?.message == "a JSON object with keys locations: not GeoJSON (no features, no Feature or geometry type)")
    }

    @Test("TraceKit's GeoJSON: read → write → read gives the same items (waypoints exact, line points with time and elevation)")
    func roundTrip() throws {
        var a = Fix(
            coordinate: try Coordinate(latitude: 47.376887123456789, longitude: 8.541694),
            time: Timestamp(nanoseconds: 1_700_000_000_123_456_789))
        a.elevation = 408.25
        var b = Fix(
            coordinate: try Coordinate(latitude: -0.000001, longitude: -179.9999999),
            time: Timestamp(nanoseconds: 1_700_000_001_000_000_000))
        b.elevation = -12
        let untimed = Fix(coordinate: try Coordinate(latitude: 3, longitude: 4))
        var w = WriterTests.sample[0]
        if case .waypoint(var f) = w {
            f.time = Timestamp(nanoseconds: 5)
            f.horizontalAccuracy = 3
            w = .waypoint(f)
        }
        let items: [TraceItem] = [
            w, .trackStart(name: "Ride, \"one\""), .segmentStart, .trackPoint(a), .trackPoint(b), .segmentStart, .trackPoint(a),
            .trackStart(name: nil), .segmentStart, .trackPoint(a), .trackPoint(untimed), .routeStart(name: "r"), .routePoint(a),
            .routePoint(b),
        ]
        let path = try writeTemporary(items, .geojson)
        defer { try? Platform.remove(path) }
        let first = try readAll(path)
        #expect(first == items)
        let again = try writeTemporary(first, .geojson)
        defer { try? Platform.remove(again) }
        #expect(try readAll(again) == first)
    }
}

@Suite(
    "GeoJSON corpus",
    .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
struct GeoJSONCorpusTests {
    @Test("togeojson run: 1 LineString, 1,118 timed [lon, lat, ele] positions")
    func run() throws {
        let r = try readTrace(try openTrace(corpus("geojson/togeojson-run_gpxtpx_coordtimes.geojson")))
        #expect(r.shape.hasPrefix("T(Greeting SF with a dumb, dumb route) S P"))
        #expect(r.points.count == 1118 && r.tracks == 1 && r.segments == 1)
        #expect(r.points.first?.coordinate.longitude == -122.407225 && r.points.first?.elevation == 11.2)
        #expect(r.points.first?.time == utc("2015-01-19T21:24:20Z") && r.points.last?.time == utc("2015-01-19T21:45:16Z"))
        #expect(r.points.last?.coordinate.latitude == 37.783073)
        #expect(r.diagnostics.isClean)
    }

    @Test("togeojson blue hills: 3 MultiLineStrings (13 lines, 1,242 points) and 46 waypoints, 42 timed")
    func blueHills() throws {
        let r = try readTrace(try openTrace(corpus("geojson/togeojson-blue_hills_coordtimes.geojson")))
        #expect(r.tracks == 3 && r.segments == 13 && r.points.count == 1242)
        #expect(r.items.prefix(1) == [.trackStart(name: "BIG LOOP")])
        #expect(r.points.allSatisfy { $0.time != nil })
        let w = waypoints(r)
        #expect(w.count == 46 && w.filter { $0.time != nil }.count == 42 && w[0].name == "LOOKOUT")
        #expect(r.points.first?.coordinate.longitude == -71.09622 && r.points.first?.time == utc("2001-06-24T15:09:09Z"))
        #expect(r.points.last?.elevation == 43.5864 && r.points.last?.time == utc("2001-05-26T20:44:11Z"))
    }

    @Test("enviroCar: 1,101 timed Point features are one track (a .json file that is GeoJSON)")
    func envirocar() throws {
        let reader = try openTrace(corpus("geojson/envirocar-track_dresden_points.json"))
        #expect(reader.format == .json)
        let r = try readTrace(reader)
        #expect(r.tracks == 1 && r.points.count == 1101 && waypoints(r).isEmpty)
        #expect(r.points.first?.coordinate.longitude == 13.6817 && r.points.first?.coordinate.latitude == 51.0486)
        #expect(r.points.first?.time == utc("2013-08-02T09:16:37Z") && r.points.last?.time == utc("2013-08-02T11:09:13Z"))
        #expect(r.points.last?.coordinate.latitude == 49.9394)
        // The phone repeats its 10:04:58 position at 10:05:15 (the OBD speed says 156 km/h), then
        // catches up 1.51 km in 10 s and goes on from there: a teleport, kept.
        #expect(r.diagnostics.counts == [.teleport: 1] && r.diagnostics.assumptions.isEmpty)
        #expect(r.diagnostics.examples.map(\.description) == ["line 16965: teleport: 1.51 km in 10 s, beyond the 1 km allowed at 100 m/s"])
    }

    @Test("togeojson 3-day hike: 3 LineStrings of 1,966, 1,685 and 1,584 points")
    func hike() throws {
        let r = try readTrace(try openTrace(corpus("long/togeojson-multitrackgpx_3days.geojson")))
        #expect(r.shape.hasPrefix("T(Tag 1) S P"))
        #expect(r.tracks == 3 && r.points.count == 5235)
        let starts = r.items.indices.filter { if case .trackStart = r.items[$0] { true } else { false } }
        #expect(starts == [0, 1968, 3655])
        #expect(r.points.first?.coordinate.longitude == 8.1783223 && r.points.last?.elevation == 263.0578613)
        #expect(r.points.last?.time == utc("2008-07-14T12:46:02Z"))
    }

    @Test("the corpus's GeoJSON survives read → write → read")
    func corpusRoundTrip() throws {
        for name in [
            "geojson/togeojson-blue_hills_coordtimes.geojson", "geojson/envirocar-track_dresden_points.json",
            "long/togeojson-multitrackgpx_3days.geojson",
        ] {
            let original = try readAll(corpus(name))
            let path = try writeTemporary(original, .geojson)
            defer { try? Platform.remove(path) }
            let again = try readAll(path)
            #expect(
                again.compactMap { if case .trackPoint(let f) = $0 { f } else { nil } }
                    == original.compactMap {
                        if case .trackPoint(let f) = $0 { f } else { nil }
                    }, "\(name)")
            #expect(again.filter { $0 == .segmentStart }.count == original.filter { $0 == .segmentStart }.count, "\(name)")
        }
    }
}
