import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceIO

private let kmlOpen = #"<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">"#

/// A KML 2.2 document (with the `gx` prefix declared) around `body`.
private func kml(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(kmlOpen)\n<Document>\n\(body)\n</Document>\n</kml>\n"
}

private func readKML(_ text: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(KMLReader(bytes: Array(text.utf8), options: options))
}

private func at(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
    try Coordinate(latitude: latitude, longitude: longitude)
}

@Suite("KML reader")
struct KMLReaderTests {
    @Test("LineString Placemark: a track named after the Placemark, lon,lat[,alt] tuples in any white space, untimed")
    func lineString() throws {
        let r = try readKML(
            kml(
                """
                <Placemark><name> Morning drive </name><LineString><tessellate>1</tessellate><coordinates>
                  29.463088,46.840330,120.5 29.463026,46.840393
                \t29.462876,46.840539,-3
                </coordinates></LineString></Placemark>
                """))
        #expect(r.shape == "T(Morning drive) S P P P")
        #expect(r.points.map(\.coordinate) == [try at(46.840330, 29.463088), try at(46.840393, 29.463026), try at(46.840539, 29.462876)])
        #expect(r.points.map(\.elevation) == [120.5, nil, -3])
        #expect(r.points.allSatisfy { $0.time == nil })
        #expect(r.count(.missingTime) == 3)
        #expect(r.diagnostics.examples.first?.line == 5)  // the first tuple's line
        #expect(r.diagnostics.assumptions == ["1 LineString has no time; its points are read without times"])
    }

    @Test("MultiGeometry with two LineStrings: one track, a segment per LineString; Polygons are not read")
    func multiGeometry() throws {
        let r = try readKML(
            kml(
                """
                <Placemark><name>two</name><MultiGeometry>
                  <LineString><coordinates>1,2 3,4</coordinates></LineString>
                  <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>
                  <LineString><coordinates>5,6</coordinates></LineString>
                </MultiGeometry></Placemark>
                """))
        #expect(r.shape == "T(two) S P P S P")
        #expect(r.points.map(\.coordinate) == [try at(2, 1), try at(4, 3), try at(6, 5)])
        #expect(r.diagnostics.assumptions.contains("1 Polygon was not read (an area, not a trace)"))
    }

    @Test("gx:Track, times first as the schema has it: when and gx:coord matched by index, lon lat alt")
    func gxTrack() throws {
        let r = try readKML(
            kml(
                """
                <Placemark><name>hike</name><gx:Track><altitudeMode>absolute</altitudeMode>
                  <when>2014-05-25T18:30:59Z</when>
                  <when>2014-05-25T18:31:09.5Z</when>
                  <when>2014-05-25T13:31:19-05:00</when>
                  <gx:coord>-97.8586 30.244696 274.2</gx:coord>
                  <gx:coord>-97.85869  30.244598 274.6</gx:coord>
                  <gx:coord>-97.858732 30.244513</gx:coord>
                  <gx:angles>0 0 0</gx:angles>
                  <ExtendedData><SchemaData schemaUrl="#s"><gx:SimpleArrayData name="hr"><gx:value>99</gx:value><gx:value>100</gx:value>
                  <gx:value>101</gx:value></gx:SimpleArrayData></SchemaData></ExtendedData>
                </gx:Track></Placemark>
                """))
        #expect(r.shape == "T(hike) S P P P")
        #expect(r.points.map(\.time) == [utc("2014-05-25T18:30:59Z"), utc("2014-05-25T18:31:09.5Z"), utc("2014-05-25T18:31:19Z")])
        #expect(r.points.map(\.coordinate) == [try at(30.244696, -97.8586), try at(30.244598, -97.85869), try at(30.244513, -97.858732)])
        #expect(r.points.map(\.elevation) == [274.2, 274.6, nil])
        #expect(r.diagnostics.isClean)
    }

    @Test("gx:Track written interleaved (when, coord, when, coord) or positions first: the same points")
    func gxTrackInterleaved() throws {
        let interleaved = try readKML(
            kml(
                """
                <Placemark><gx:Track><when>2020-01-01T00:00:00Z</when><gx:coord>1 2 3</gx:coord>
                <when>2020-01-01T00:00:01Z</when><gx:coord>1.0005 2.0005 3</gx:coord></gx:Track></Placemark>
                """))
        let coordsFirst = try readKML(
            kml(
                """
                <Placemark><gx:Track><gx:coord>1 2 3</gx:coord><gx:coord>1.0005 2.0005 3</gx:coord>
                <when>2020-01-01T00:00:00Z</when><when>2020-01-01T00:00:01Z</when></gx:Track></Placemark>
                """))
        #expect(interleaved.shape == "T S P P")
        #expect(interleaved.items == coordsFirst.items)
        #expect(interleaved.points.map(\.time) == [utc("2020-01-01T00:00:00Z"), utc("2020-01-01T00:00:01Z")])
        #expect(interleaved.diagnostics.isClean && coordsFirst.diagnostics.isClean)
    }

    @Test("gx:Track count mismatch: stated; extra positions read without times, extra times ignored")
    func gxTrackMismatch() throws {
        let moreCoords = try readKML(
            kml(
                """
                <Placemark><gx:Track>
                <when>2020-01-01T00:00:00Z</when>
                <gx:coord>1 2 3</gx:coord><gx:coord>1 2.1 3</gx:coord><gx:coord>1 2.2 3</gx:coord>
                </gx:Track></Placemark>
                """))
        #expect(moreCoords.shape == "T S P P P")
        #expect(moreCoords.points.map(\.time) == [utc("2020-01-01T00:00:00Z"), nil, nil])
        #expect(moreCoords.count(.missingTime) == 2)
        #expect(
            moreCoords.diagnostics.assumptions == [
                "1 gx:Track with unequal <when> and <gx:coord> counts (first: line 4, 1 <when> and 3 <gx:coord>): matched by index; extra positions are read without times, extra times ignored"
            ])
        let moreTimes = try readKML(
            kml(
                """
                <Placemark><gx:Track><when>2020-01-01T00:00:00Z</when><when>2020-01-01T00:00:01Z</when>
                <gx:coord>1 2 3</gx:coord></gx:Track></Placemark>
                """))
        #expect(moreTimes.shape == "T S P")
        #expect(moreTimes.points.map(\.time) == [utc("2020-01-01T00:00:00Z")])
        #expect(moreTimes.diagnostics.counts.isEmpty)
        #expect(moreTimes.diagnostics.assumptions.count == 1)
    }

    @Test("gx:MultiTrack: one track with a segment per gx:Track; time order restarts per segment")
    func multiTrack() throws {
        let r = try readKML(
            kml(
                """
                <Placemark><name>day</name><gx:MultiTrack><altitudeMode>absolute</altitudeMode><gx:interpolate>0</gx:interpolate>
                <gx:Track><when>2020-01-01T10:00:00Z</when><when>2020-01-01T10:00:01Z</when><gx:coord>1 2 0</gx:coord><gx:coord>1 2.0005 0</gx:coord></gx:Track>
                <gx:Track><when>2020-01-01T09:00:00Z</when><gx:coord>1 2.002 0</gx:coord></gx:Track>
                </gx:MultiTrack></Placemark>
                """))
        #expect(r.shape == "T(day) S P P S P")
        #expect(r.diagnostics.isClean)  // 09:00 after 10:00:01 is in a new segment: not backwards
    }

    @Test("Point Placemarks are waypoints with the Placemark's name and TimeStamp; Placemarks without geometry are skipped")
    func pointWaypoints() throws {
        let r = try readKML(
            kml(
                """
                <Placemark><name>Track Recording Started</name><TimeStamp><when>2014-05-25T18:30:57Z</when></TimeStamp></Placemark>
                <Placemark><name>LAP001</name><TimeStamp><when>2010-05-28T01:16:36Z</when></TimeStamp>
                  <Point><coordinates>-122.071174,37.341691,65.40</coordinates></Point></Placemark>
                <Placemark><name>summit</name><Point><coordinates> 10.5,46.25 </coordinates></Point></Placemark>
                """))
        #expect(r.tracks == 0)
        let w = waypoints(r)
        #expect(w.count == 2)
        let lap = try at(37.341691, -122.071174), summit = try at(46.25, 10.5)
        #expect(w[0].name == "LAP001" && w[0].time == utc("2010-05-28T01:16:36Z") && w[0].elevation == 65.40)
        #expect(w[0].coordinate == lap)
        #expect(w[1].name == "summit" && w[1].time == nil && w[1].coordinate == summit)
        #expect(r.diagnostics.isClean)  // a waypoint need not have a time
    }

    @Test("what is not geometry is skipped: CDATA/HTML descriptions, Style, LookAt's gx:TimeSpan, comments, nested Folders")
    func skipped() throws {
        let r = try readKML(
            kml(
                """
                <Style id="s"><LineStyle><color>ff0000ff</color></LineStyle></Style>
                <LookAt><gx:TimeSpan><begin>2000-01-01T00:00:00Z</begin><end>2000-01-02T00:00:00Z</end></gx:TimeSpan><longitude>1</longitude></LookAt>
                <!-- <Placemark><LineString><coordinates>9,9</coordinates></LineString></Placemark> -->
                <Folder><name>outer</name><Folder><name>inner</name>
                <Placemark><name><![CDATA[A <b>bold</b> name]]></name>
                  <description><![CDATA[<p>4.83 mi</p><coordinates>7,7</coordinates>]]></description>
                  <description><table><tr><td>html as markup</td></tr></table></description>
                  <styleUrl>#s</styleUrl>
                  <LineString><coordinates>1,2</coordinates></LineString></Placemark>
                </Folder></Folder>
                """))
        #expect(r.shape == "T(A <b>bold</b> name) S P")
        #expect(r.points.map(\.coordinate) == [try at(2, 1)])
        #expect(r.diagnostics.assumptions == ["1 LineString has no time; its points are read without times"])  // LookAt's span is not the LineString's
    }

    @Test("a LineString under a Folder's TimeSpan: no per-point times invented, one assumption, the span kept")
    func timeSpan() throws {
        var reader = KMLReader(
            bytes: Array(
                kml(
                    """
                    <Folder><name>Track 1</name><TimeSpan><begin>2025-02-21T20:45:56Z</begin><end>2025-02-21T21:26:43Z</end></TimeSpan>
                    <Placemark><name>Path</name><LineString><coordinates>29.46,46.84 29.47,46.85</coordinates></LineString></Placemark></Folder>
                    <Folder><name>Track 2</name><Placemark><TimeSpan><begin>2025-02-22</begin></TimeSpan>
                    <LineString><coordinates>29.48,46.86</coordinates></LineString></Placemark></Folder>
                    """
                ).utf8))
        var items: [TraceItem] = []
        while let item = try reader.next() { items.append(item) }
        let r = ReadResult(items: items, diagnostics: reader.diagnostics)
        #expect(r.shape == "T(Path) S P P T S P")
        #expect(r.points.allSatisfy { $0.time == nil })
        #expect(
            reader.lineStringSpans == [
                KMLReader.TimeSpan(begin: utc("2025-02-21T20:45:56Z"), end: utc("2025-02-21T21:26:43Z")),
                KMLReader.TimeSpan(begin: utc("2025-02-22T00:00:00Z"), end: nil),
            ])
        #expect(
            r.diagnostics.assumptions.contains(
                "2 LineStrings have only a TimeSpan (first 2025-02-21T20:45:56Z…2025-02-21T21:26:43Z, last 2025-02-22…?); their points are read without times"
            ))
    }

    @Test("times: a date-only or year-month when is the period's first instant (stated); no zone is UTC (stated); unreadable is counted")
    func times() throws {
        let r = try readKML(
            kml(
                """
                <Placemark><gx:Track><when>2014-05</when><when>2014-05-25</when><when>2014-05-25T18:31:00</when><when>yesterday</when>
                <when>2014-02-30</when>
                <gx:coord>1 2 0</gx:coord><gx:coord>1 2 0</gx:coord><gx:coord>1 2 0</gx:coord><gx:coord>1 2 0</gx:coord><gx:coord>1 2 0</gx:coord>
                </gx:Track></Placemark>
                """))
        #expect(r.points.map(\.time) == [utc("2014-05-01T00:00:00Z"), utc("2014-05-25T00:00:00Z"), utc("2014-05-25T18:31:00Z"), nil, nil])
        #expect(r.count(.invalidTime) == 2)
        #expect(r.count(.missingTime) == 0)  // an unreadable time is not also a missing one
        #expect(r.diagnostics.assumptions.contains { $0.hasPrefix("times of only a date, a year and month, or a year") })
        #expect(r.diagnostics.assumptions.contains("times without a zone were read as UTC"))
        let shifted = try readKML(
            kml("<Placemark><gx:Track><when>2014-05-25T18:31:00</when><gx:coord>1 2 0</gx:coord></gx:Track></Placemark>"),
            options: ReadOptions(zonelessUTCOffset: 3600))
        #expect(shifted.points.map(\.time) == [utc("2014-05-25T17:31:00Z")])
        #expect(shifted.diagnostics.isClean)
    }

    @Test("tuples: longitude first through the shared checks; unreadable or out of range positions are counted and dropped")
    func badTuples() throws {
        let r = try readKML(
            kml(
                """
                <Placemark><LineString><coordinates>
                10,50
                abc,50
                10,95
                10
                1,2,3,4
                370,50
                190,50
                </coordinates></LineString></Placemark>
                """))
        #expect(r.points.map(\.coordinate) == [try at(50, 10), try at(50, -170)])
        #expect(r.count(.invalidCoordinate) == 5)
        #expect(r.diagnostics.pointsDropped == 5)
        let lines = r.diagnostics.examples.filter { $0.kind == .invalidCoordinate }.map(\.line)
        #expect(lines == [6, 7, 8, 9, 10])
        #expect(r.diagnostics.examples.first { $0.kind == .invalidCoordinate }?.detail == "longitude 'abc' is not a number in 'abc,50'")
    }

    @Test("read(into:limit:) gives the items and diagnostics next() gives")
    func batches() throws {
        var body = "<Placemark><name>p</name><gx:Track>"
        for k in 0..<300 { body += "<when>2020-01-01T00:\(String(format: "%02d:%02d", k / 60, k % 60))Z</when>" }
        for k in 0..<301 { body += "<gx:coord>\(Double(k) / 1000) 45 \(k)</gx:coord>\n" }
        body += "</gx:Track></Placemark><Placemark><name>w</name><Point><coordinates>1,2</coordinates></Point></Placemark>"
        body += "<Placemark><LineString><coordinates>1,2 x,3 3,4</coordinates></LineString></Placemark>"
        let text = kml(body)
        let whole = try readKML(text)
        var reader = KMLReader(bytes: Array(text.utf8))
        var batch = FixBatch()
        var items: [TraceItem] = []
        while try reader.read(into: &batch, limit: 7) > 0 { items += batch.items }
        #expect(items == whole.items)
        #expect(reader.diagnostics == whole.diagnostics)
        #expect(whole.points.count == 303)
    }

    @Test("namespaces: gx elements under the prefix the root binds to the extension; KML elements under any prefix")
    func prefixes() throws {
        let r = try readKML(
            """
            <k:kml xmlns:k="http://www.opengis.net/kml/2.2" xmlns:ext="http://www.google.com/kml/ext/2.2"><k:Document>
            <k:Placemark><k:name>x</k:name><ext:Track><k:when>2020-01-01T00:00:00Z</k:when><ext:coord>1 2 3</ext:coord></ext:Track></k:Placemark>
            <k:Placemark><other:Track xmlns:other="urn:other"><k:when>2020-01-01T00:00:00Z</k:when></other:Track></k:Placemark>
            </k:Document></k:kml>
            """)
        #expect(r.shape == "T(x) S P")
        #expect(r.points.first?.time == utc("2020-01-01T00:00:00Z"))
        // KML 2.0 and 2.1 namespaces, and none, are KML too.
        for ns in ["http://earth.google.com/kml/2.0", "http://earth.google.com/kml/2.1", ""] {
            let old = try readKML(
                "<kml\(ns.isEmpty ? "" : " xmlns=\"\(ns)\"")><Placemark><LineString><coordinates>1,2</coordinates></LineString></Placemark></kml>"
            )
            #expect(old.points.count == 1)
        }
    }

    @Test("not KML: another root, a zip archive (KMZ), no XML are TraceReadErrors with line and column")
    func notKML() throws {
        let gpx = readError { () throws(TraceReadError) in try readKML("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>") }
        #expect(gpx?.message == "not a KML document: the root element is <gpx>, expected <kml>")
        #expect(gpx?.line == 2)
        let kmz = readError { () throws(TraceReadError) in
            try readTrace(KMLReader(bytes: [0x50, 0x4B, 0x03, 0x04, 0, 0, 0x08, 0], name: "t.kmz"))
        }
        #expect(kmz?.message.contains("KMZ is not read") == true)
        #expect(kmz?.file == "t.kmz" && kmz?.line == 1 && kmz?.column == 1)
        #expect(readError { () throws(TraceReadError) in try readKML("") }?.message == "unexpected end of file: no root element")
        #expect(readError { () throws(TraceReadError) in try readKML(kml("<Placemark><LineString><coordinates>1,2")) } != nil)
    }

    @Test("a <coordinates> text past the 1 MiB limit is a clear TraceReadError, not a growing buffer")
    func coordinatesLimit() throws {
        let tuples = String(repeating: "29.463088,46.840330,120.5 ", count: (1 << 20) / 26 + 10)
        let e = readError { () throws(TraceReadError) in
            try readKML(kml("<Placemark><LineString><coordinates>\(tuples)</coordinates></LineString></Placemark>"))
        }
        #expect(e?.message.hasPrefix("a <coordinates> text longer than 1048576 bytes") == true)
    }

    @Test("the fail policy stops at the first per-point problem")
    func failPolicy() throws {
        let e = readError { () throws(TraceReadError) in
            try readKML(
                kml("<Placemark><gx:Track><when>bad</when><gx:coord>1 2 3</gx:coord></gx:Track></Placemark>"),
                options: ReadOptions(policy: .fail))
        }
        #expect(e?.message.hasPrefix("unreadable time") == true)
    }

    @Test("the .kml extension names the format; openTrace opens the KML reader")
    func registered() throws {
        #expect(TraceFormat(pathExtension: "day.KML") == .kml)
        let path = try temporaryFile(
            Array(kml("<Placemark><LineString><coordinates>1,2</coordinates></LineString></Placemark>").utf8), ext: "kml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try openTrace(path)
        #expect(reader.format == .kml)
        #expect(try readTrace(reader).points.count == 1)
    }
}

@Suite(
    "KML corpus",
    .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
struct KMLCorpusTests {
    @Test("mapfinity hike: 1 gx:Track, 451 points 18:30:59Z…20:13:09Z; Placemarks without geometry and comments skipped")
    func hike() throws {
        let r = try readTrace(try openTrace(corpus("kml/gpsbabel-google_ext_mapfinity_hike.kml")))
        #expect(r.tracks == 1 && r.segments == 1 && r.points.count == 451)
        #expect(waypoints(r).isEmpty)
        #expect(r.points.allSatisfy { $0.time != nil && $0.elevation != nil })
        #expect(r.points.first?.time == utc("2014-05-25T18:30:59Z"))
        #expect(r.points.last?.time == utc("2014-05-25T20:13:09Z"))
        let first = try at(30.244696, -97.8586), last = try at(30.227217, -97.89716)
        #expect(r.points.first?.coordinate == first && r.points.first?.elevation == 274.2)
        #expect(r.points.last?.coordinate == last && r.points.last?.elevation == 320.7)
        #expect(r.diagnostics.isClean)
    }

    @Test("Training Center bike ride: 1 gx:Track, 5,109 points at 1 Hz beside its sensor arrays; 1 Point waypoint")
    func bike() throws {
        let r = try readTrace(try openTrace(corpus("kml/gpsbabel-gtrnctr_power_bike_gxtrack.kml")))
        #expect(r.tracks == 1 && r.segments == 1 && r.points.count == 5109)
        #expect(r.shape.hasPrefix("?"))  // the LAP001 waypoint comes first
        #expect(r.points.first?.time == utc("2010-05-28T01:16:36Z"))
        #expect(r.points.last?.time == utc("2010-05-28T02:41:44Z"))
        let first = try at(37.341691, -122.071174), last = try at(37.341590, -122.071411)
        #expect(r.points.first?.coordinate == first && r.points.first?.elevation == 65.40)
        #expect(r.points.last?.coordinate == last && r.points.last?.elevation == 60.60)
        let w = waypoints(r)
        #expect(w.count == 1 && w[0].name == "LAP001" && w[0].time == utc("2010-05-28T01:16:36Z"))
        #expect(r.diagnostics.isClean)
    }

    @Test("A810 dashcam: 4 LineStrings, 1,655/1,088/3,940/455 untimed points; the Folders' TimeSpans stated, none invented")
    func dashcam() throws {
        var reader = try KMLReader(path: corpus("kml/gpsbabel-a810_dashcam_linestrings.kml"))
        var items: [TraceItem] = []
        while let item = try reader.next() { items.append(item) }
        let r = ReadResult(items: items, diagnostics: reader.diagnostics)
        #expect(r.tracks == 4 && r.segments == 4 && r.points.count == 7138)
        let counts = r.shape.split(separator: "T").map { $0.split(separator: " ").filter { $0 == "P" }.count }.filter { $0 > 0 }
        #expect(counts == [1655, 1088, 3940, 455])
        #expect(r.items.first == .trackStart(name: "Path"))
        #expect(r.points.allSatisfy { $0.time == nil && $0.elevation == nil })
        #expect(r.points.first?.coordinate == (try at(46.840330, 29.463088)))
        #expect(r.points.last?.coordinate == (try at(46.835784, 29.455114)))
        #expect(r.count(.missingTime) == 7138 && r.diagnostics.pointsDropped == 0)
        #expect(
            r.diagnostics.assumptions == [
                "4 LineStrings have only a TimeSpan (first 2025-02-21T20:45:56Z…2025-02-21T21:26:43Z, last 2025-02-22T08:39:31Z…2025-02-22T08:50:30Z); their points are read without times"
            ])
        #expect(reader.lineStringSpans.count == 4)
        #expect(reader.lineStringSpans[2] == KMLReader.TimeSpan(begin: utc("2025-02-22T06:28:22Z"), end: utc("2025-02-22T08:04:40Z")))
    }
}
