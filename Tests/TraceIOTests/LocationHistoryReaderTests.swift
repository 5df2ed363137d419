import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceDomain

@testable import TraceIO

@Suite("JSON location histories")
struct LocationHistoryReaderTests {
    @Test("Records.json: latitudeE7/longitudeE7, ISO timestamp or timestampMs text, accuracy, altitude, velocity, heading")
    func records() throws {
        let r = try readJSON(
            #"""
            {"locations": [
              {"latitudeE7": 525121303, "longitudeE7": 134309551, "accuracy": 25, "timestamp": "2013-04-15T06:31:26.860Z",
               "activity": [{"activity": [{"type": "STILL", "confidence": 100}], "timestamp": "2013-04-15T06:31:30Z"}]},
              {"timestampMs": "1486105895000", "latitudeE7": 356617327, "longitudeE7": 1396785506, "accuracy": 8, "velocity": 3, "heading": 145, "altitude": 98}
            ]}
            """#)
        #expect(r.shape == "T S P P")
        #expect(r.points[0].coordinate.latitude == 52.5121303 && r.points[0].coordinate.longitude == 13.4309551)
        #expect(r.points[0].time == utc("2013-04-15T06:31:26.860Z") && r.points[0].horizontalAccuracy == 25)
        #expect(r.points[1].time == Timestamp(nanoseconds: 1_486_105_895_000_000_000))
        #expect(r.points[1].speed == 3 && r.points[1].course == 145 && r.points[1].elevation == 98)
        #expect(r.count(.timeWentBackwards) == 0 && r.diagnostics.assumptions.isEmpty)
    }

    @Test("Semantic Location History: visits at start and end, activity ends, raw points; untimed waypoints skipped and counted")
    func semantic() throws {
        let r = try readJSON(
            #"""
            {"timelineObjects": [
              {"placeVisit": {"location": {"latitudeE7": 374850711, "longitudeE7": -1221474242, "name": "Office"},
                "duration": {"startTimestamp": "2013-05-09T01:24:28.883Z", "endTimestamp": "2013-05-09T16:55:16.119Z"}}},
              {"activitySegment": {"startLocation": {"latitudeE7": 374850000, "longitudeE7": -1221470000}, "endLocation": {},
                "duration": {"startTimestamp": "2013-05-09T17:00:00Z", "endTimestamp": "2013-05-09T17:30:00Z"},
                "waypointPath": {"waypoints": [{"latE7": 374859313, "lngE7": -1221480331}, {"latE7": 374859619, "lngE7": -1221504516}]},
                "simplifiedRawPath": {"points": [{"latE7": 374861183, "lngE7": -1221503067, "accuracyMeters": 15, "timestamp": "2013-05-09T17:10:00Z"}]}}}
            ]}
            """#)
        #expect(r.shape == "T S P P S P P")
        #expect(
            r.points.map(\.time)
                == ["2013-05-09T01:24:28.883Z", "2013-05-09T16:55:16.119Z", "2013-05-09T17:00:00Z", "2013-05-09T17:10:00Z"].map(utc))
        #expect(r.points[3].horizontalAccuracy == 15 && r.points[3].coordinate.latitude == 37.4861183)
        #expect(r.diagnostics.assumptions.contains("skipped 2 untimed waypointPath waypoints"))
        #expect(r.diagnostics.assumptions.contains("skipped 1 activity start or end locations without a position"))
        #expect(r.diagnostics.assumptions.contains(JSONTraceReader.semanticAssumption))
    }

    @Test("Timeline (on-device): semanticSegments with visit, activity and timelinePath; rawSignals positions as a second track")
    func timeline() throws {
        let r = try readJSON(
            #"""
            {"semanticSegments": [
              {"startTime": "2024-03-01T08:00:00.000+01:00", "endTime": "2024-03-01T09:00:00.000+01:00",
               "visit": {"hierarchyLevel": 0, "probability": 0.9, "topCandidate": {"placeId": "x", "semanticType": "HOME", "placeLocation": {"latLng": "48.1351°, 11.5820°"}}}},
              {"startTime": "2024-03-01T09:00:00.000+01:00", "endTime": "2024-03-01T09:30:00.000+01:00",
               "activity": {"start": {"latLng": "48.1351°, 11.5820°"}, "end": {"latLng": "48.1500°, 11.6000°"}, "topCandidate": {"type": "WALKING"}}},
              {"startTime": "2024-03-01T09:00:00.000+01:00", "endTime": "2024-03-01T11:00:00.000+01:00",
               "timelinePath": [{"point": "48.1400°, 11.5900°", "time": "2024-03-01T09:10:00.000+01:00"}]}
            ],
            "rawSignals": [
              {"position": {"LatLng": "48.1351°, 11.5820°", "accuracyMeters": 13, "altitudeMeters": 520.5, "source": "GPS", "timestamp": "2024-03-01T08:00:05.000+01:00", "speedMetersPerSecond": 0.5}},
              {"activityRecord": {"probableActivities": [{"type": "STILL", "confidence": 0.9}], "timestamp": "2024-03-01T08:00:06.000+01:00"}}
            ],
            "userLocationProfile": {"frequentPlaces": []}}
            """#)
        #expect(r.shape == "T(semanticSegments) S P P S P P S P T(rawSignals) S P")
        #expect(r.points[0].coordinate.latitude == 48.1351 && r.points[0].time == utc("2024-03-01T07:00:00Z"))
        #expect(r.points[3].coordinate.longitude == 11.6 && r.points[3].time == utc("2024-03-01T08:30:00Z"))
        #expect(r.points[4].time == utc("2024-03-01T08:10:00Z"))
        #expect(r.points[5].horizontalAccuracy == 13 && r.points[5].elevation == 520.5 && r.points[5].speed == 0.5)
        #expect(r.diagnostics.assumptions == ["skipped 1 rawSignals without a position"])
    }

    @Test("Timeline (iOS): a top-level array of segments with geo: positions and minute offsets")
    func iosTimeline() throws {
        let r = try readJSON(
            #"""
            [{"startTime": "2024-03-01T08:00:00.000+01:00", "endTime": "2024-03-01T09:00:00.000+01:00",
              "visit": {"probability": "0.9", "topCandidate": {"probability": "0.8", "semanticType": "Home", "placeLocation": "geo:48.135100,11.582000"}}},
             {"startTime": "2024-03-01T09:00:00.000+01:00", "endTime": "2024-03-01T10:00:00.000+01:00",
              "timelinePath": [{"point": "geo:48.140000,11.590000", "durationMinutesOffsetFromStartTime": "15"}]}]
            """#)
        #expect(r.shape == "T(semanticSegments) S P P S P")
        #expect(r.points[1].time == utc("2024-03-01T08:00:00Z") && r.points[2].time == utc("2024-03-01T08:15:00Z"))
        #expect(r.points[2].coordinate.latitude == 48.14)
        #expect(r.diagnostics.assumptions == ["Timeline path times are startTime plus durationMinutesOffsetFromStartTime"])
    }

    @Test("arrays of locations: WKT POINT(lon lat) texts and times like 2014-09-10 06:54:07+0200")
    func wktArray() throws {
        let r = try readJSON(
            #"[{"point":"POINT(11.564388282625075 48.16350662940509)","time":"2014-09-10 06:54:07+0200","id":"\\x0001"},{"point":"POINT(11.5 48.2)","time":"2014-09-10 06:54:08+0200"}]"#
        )
        #expect(r.shape == "T S P P")
        #expect(r.points[0].coordinate.longitude == 11.564388282625075 && r.points[0].coordinate.latitude == 48.16350662940509)
        #expect(r.points[0].time == utc("2014-09-10T04:54:07Z"))
    }

    @Test("zone-less times are UTC (stated) or at the given offset")
    func zoneless() throws {
        let text = #"[{"lat": 1, "lon": 2, "time": "2024-01-01 12:00:00"}]"#
        let r = try readJSON(text)
        #expect(
            r.points[0].time == utc("2024-01-01T12:00:00Z") && r.diagnostics.assumptions == ["JSON times without a zone were read as UTC"])
        let o = try readJSON(text, options: ReadOptions(zonelessUTCOffset: 3600))
        #expect(o.points[0].time == utc("2024-01-01T11:00:00Z") && o.diagnostics.isClean)
    }

    @Test("a JSON document that is none of these is an error naming what was found")
    func notAHistory() {
        let e = readError { () throws(TraceReadError) in try readJSON(#"{"name": "policy", "states": {"a": 1}, "version": 2}"#) }
        #expect(e?.message == "a JSON object with keys name, states, version: not a location history, GeoJSON or array of locations")
        #expect(e?.line == 1 && e?.column == 1)
        let a = readError { () throws(TraceReadError) in try readJSON("[1, 2]") }
        #expect(a?.message == "a JSON array whose first element is a number: not a location (no latitude and longitude)")
        let s = readError { () throws(TraceReadError) in try readJSON("lat,lon\n1,2\n") }
        #expect(s?.message == "not JSON: expected '{' or '[' at the start")
        let t = readError { () throws(TraceReadError) in try readJSON(#"[{"lat": 1, "lon": 2}] x"#) }
        #expect(t?.message == "expected the end of the document after the top-level value" && t?.column == 24)
    }

    @Test("an element over the per-element cap is a clear error; a skipped member of any size is not")
    func elementCap() throws {
        let big = String(repeating: "1,", count: JSONStream.elementCap / 2 + 8)
        let e = readError { () throws(TraceReadError) in try readJSON("[{\"lat\": 1, \"lon\": 2, \"x\": [" + big + "1]}]") }
        #expect(e?.message == "a JSON element longer than 15 MiB (the per-element cap)" && e?.column == 2)
        let r = try readJSON("{\"padding\": [" + big + "1], \"locations\": [{\"latitudeE7\": 1, \"longitudeE7\": 2}]}")
        #expect(r.points.count == 1)
    }
}

@Suite(
    "JSON history corpus",
    .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
struct LocationHistoryCorpusTests {
    @Test("reitti Records.json: 95 records, Berlin, 2013-04-15 06:31:26.860 … 08:53:31.548")
    func reitti() throws {
        let r = try readTrace(try openTrace(corpus("json/reitti-google_records_berlin.json")))
        #expect(r.points.count == 95 && r.tracks == 1 && r.segments == 1)
        #expect(r.points.first?.coordinate.latitude == 52.5121303 && r.points.first?.coordinate.longitude == 13.4309551)
        #expect(r.points.first?.time == utc("2013-04-15T06:31:26.860Z") && r.points.last?.time == utc("2013-04-15T08:53:31.548Z"))
        #expect(r.points.last?.horizontalAccuracy == 49 && r.points.last?.coordinate.longitude == 13.432127)
        #expect(r.diagnostics.isClean)
    }

    @Test("kgeo Records.json: 12 records, Toronto, accuracy up to 997 m")
    func kgeo() throws {
        let r = try readTrace(try openTrace(corpus("json/kgeo-google_records_toronto.json")))
        #expect(r.points.count == 12)
        #expect(r.points.first?.coordinate.longitude == -79.4176419 && r.points.first?.horizontalAccuracy == 30)
        #expect(r.points.first?.time == utc("2015-10-10T18:47:02.597Z") && r.points.last?.time == utc("2015-10-10T18:58:40.399Z"))
        #expect(r.points.compactMap(\.horizontalAccuracy).max() == 997)
    }

    @Test("barefoot samples: 1,194 WKT points with +0200 times")
    func barefoot() throws {
        let r = try readTrace(try openTrace(corpus("json/barefoot-x0001_munich_samples.json")))
        #expect(r.points.count == 1194 && r.tracks == 1)
        #expect(r.points.first?.coordinate.longitude == 11.564388282625075 && r.points.first?.coordinate.latitude == 48.16350662940509)
        #expect(r.points.first?.time == utc("2014-09-10T04:54:07Z") && r.points.last?.time == utc("2014-09-10T05:14:02Z"))
        #expect(r.points.last?.coordinate.latitude == 48.128828842804964)
        // PROVENANCE's 470 m jump within 1 s at 07:04:26+02:00: the track goes on from it, a
        // teleport (the file is one line).
        #expect(r.diagnostics.counts == [.teleport: 1] && r.diagnostics.assumptions.isEmpty)
        #expect(r.diagnostics.examples.map(\.description) == ["line 1: teleport: 470.4 m in 1 s, beyond the 100 m allowed at 100 m/s"])
    }

    @Test(
        "gpsbabel Semantic Location History May 2013: 51 visits × 2 + 72 activity ends + 128 raw points = 302 fixes; 224 waypoints skipped")
    func semantic() throws {
        let r = try readTrace(try openTrace(corpus("long/gpsbabel-google_semantic_2013_may.json"), options: ReadOptions(policy: .report)))  // as written
        #expect(r.points.count == 302 && r.tracks == 1 && r.segments == 135)
        #expect(r.points.filter { $0.horizontalAccuracy != nil }.count == 128)
        #expect(r.points.first?.coordinate.latitude == 37.4850711 && r.points.first?.time == utc("2013-05-09T01:24:28.883Z"))
        #expect(r.points.last?.coordinate.latitude == 37.4277169 && r.points.last?.time == utc("2013-06-01T16:06:54.349Z"))
        #expect(r.diagnostics.assumptions.contains("skipped 224 untimed waypointPath waypoints"))
        #expect(r.diagnostics.assumptions.contains("skipped 96 activity start or end locations without a position"))
    }
}
