import Testing
import TraceGeodesy
import TraceDomain
import TracePlatform

@testable import TraceIO

/// Reads a GPX document from a string: the items and the diagnostics.
func readGPX(_ text: String, policy: ProblemPolicy = .report) throws(TraceReadError) -> (items: [TraceItem], diagnostics: Diagnostics) {
    var reader = GPXReader(bytes: Array(text.utf8), name: "t.gpx", options: ReadOptions(policy: policy))
    var items: [TraceItem] = []
    while let item = try reader.next() { items.append(item) }
    return (items, reader.diagnostics)
}

func trackPoints(_ items: [TraceItem]) -> [Fix] {
    items.compactMap { if case .trackPoint(let f) = $0 { f } else { nil } }
}

@Suite("GPX reader")
struct GPXReaderTests {
    @Test("structure: tracks, segments, points, routes, waypoints, names")
    func structure() throws {
        let (items, d) = try readGPX(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="1" lon="2"><name>Home</name></wpt>
              <rte><name>R</name><rtept lat="3" lon="4"/><rtept lat="3.1" lon="4.1"/></rte>
              <trk><name>Morning</name>
                <trkseg><trkpt lat="10" lon="20"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg>
                <trkseg></trkseg>
                <trkseg><trkpt lat="10.1" lon="20.1"><time>2020-01-01T00:00:01Z</time></trkpt></trkseg>
              </trk>
              <trk><trkseg/></trk>
            </gpx>
            """)
        var w = Fix(coordinate: try Coordinate(latitude: 1, longitude: 2))
        w.name = "Home"
        #expect(items.count == 12)
        #expect(items[0] == .waypoint(w))
        #expect(items[1] == .routeStart(name: "R"))
        #expect(items[4] == .trackStart(name: "Morning"))
        #expect(items[5] == .segmentStart && items[7] == .segmentStart && items[8] == .segmentStart)
        #expect(items[10] == .trackStart(name: nil) && items[11] == .segmentStart)
        #expect(d.isClean)
    }

    @Test("XML features: prefixes, attribute order and quotes, comments, CDATA, PIs, references, BOM")
    func xmlFeatures() throws {
        let (items, d) = try readGPX(
            "\u{FEFF}" + """
                <?xml version='1.0' encoding='UTF-8'?>
                <!DOCTYPE gpx [ <!ENTITY x "never expanded"> ]>
                <?processing instruction?>
                <!-- a comment with <trkpt lat="0" lon="0"> inside -->
                <g:gpx xmlns:g="http://www.topografix.com/GPX/1/0">
                  <g:trk><g:trkseg>
                    <g:trkpt lon='20.5' lat="10.25"><g:ele><![CDATA[ 12.5 ]]></g:ele>
                      <g:name>A &amp; B &#x263A; &#65;</g:name></g:trkpt>
                  </g:trkseg></g:trk>
                </g:gpx>
                """)
        let p = try #require(trackPoints(items).first)
        #expect(p.coordinate.latitude == 10.25 && p.coordinate.longitude == 20.5 && p.elevation == 12.5)
        #expect(p.name == "A & B ☺ A")
        #expect(d.counts == [.missingTime: 1])
    }

    @Test("extensions: Garmin TrackPointExtension, Apple un-namespaced, OpenTracks accuracy, unknown skipped")
    func extensions() throws {
        let (items, _) = try readGPX(
            """
            <gpx><trk><trkseg>
              <trkpt lat="1" lon="1"><extensions><ns3:TrackPointExtension><ns3:speed>3.5</ns3:speed><ns3:course>90</ns3:course><ns3:hr>120</ns3:hr></ns3:TrackPointExtension></extensions></trkpt>
              <trkpt lat="1" lon="1"><extensions><speed>1.3</speed><course>101.7</course><hAcc>1.8</hAcc><vAcc>1.2</vAcc></extensions></trkpt>
              <trkpt lat="1" lon="1"><extensions><opentracks:accuracy_horizontal>10</opentracks:accuracy_horizontal><foo><bar>1</bar></foo></extensions></trkpt>
              <trkpt lat="1" lon="1"><speed>2</speed><course>45</course><hdop>0.9</hdop><vdop>1.1</vdop><pdop>1.4</pdop><sat>7</sat><fix>3d</fix></trkpt>
            </trkseg></trk></gpx>
            """)
        let p = trackPoints(items)
        #expect(p[0].speed == 3.5 && p[0].course == 90)
        #expect(p[1].speed == 1.3 && p[1].course == 101.7 && p[1].horizontalAccuracy == 1.8 && p[1].verticalAccuracy == 1.2)
        #expect(p[2].horizontalAccuracy == 10)
        #expect(
            p[3].speed == 2 && p[3].hdop == 0.9 && p[3].vdop == 1.1 && p[3].pdop == 1.4 && p[3].satellites == 7 && p[3].fixType == .threeD)
    }

    @Test("ISO-8859-1 declared in the prolog is transcoded")
    func latin1() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8)
        bytes += [0x56, 0x69, 0x9A, 0x6E, 0x6A, 0x61, 0x6E, 0x20, 0xE9]  // "Vi\u{9A}njan é" in Latin-1
        bytes += Array("</name></wpt></gpx>".utf8)
        var reader = GPXReader(bytes: bytes)
        guard case .waypoint(let w)? = try reader.next() else { Issue.record("no waypoint"); return }
        #expect(w.name == "Vi\u{9A}njan é")
    }

    @Test("windows-1252 reads its own characters in 0x80–0x9F")
    func windows1252() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8)
        bytes += [0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x8A, 0xE9, 0x81]  // € “q” Šé and an undefined byte
        bytes += Array("</name></wpt></gpx>".utf8)
        var reader = GPXReader(bytes: bytes)
        guard case .waypoint(let w)? = try reader.next() else { Issue.record("no waypoint"); return }
        #expect(w.name == "€ “q” Šé\u{81}")
    }

    @Test("per-point problems are counted, and the policy decides", arguments: ProblemPolicy.allCases)
    func problems(policy: ProblemPolicy) throws {
        let doc = """
            <gpx><trk><trkseg>
            <trkpt lat="1" lon="1"><time>2020-01-01T00:00:05Z</time></trkpt>
            <trkpt lat="91" lon="1"><time>2020-01-01T00:00:06Z</time></trkpt>
            <trkpt lat="1"><time>2020-01-01T00:00:07Z</time></trkpt>
            <trkpt lat="1" lon="1"><time>2020-01-01T00:00:04Z</time></trkpt>
            <trkpt lat="1" lon="1"><time>2020-01-01T00:00:04Z</time></trkpt>
            <trkpt lat="1" lon="1"><time>yesterday</time><ele>high</ele></trkpt>
            <trkpt lat="1" lon="1"/>
            </trkseg></trk></gpx>
            """
        if policy == .fail {
            #expect(
                throws: TraceReadError(
                    file: "t.gpx", line: 3, column: 0, message: "invalid coordinate: latitude 91.0 is outside [-90, 90] degrees")
            ) {
                _ = try readGPX(doc, policy: policy)
            }
            return
        }
        let (items, d) = try readGPX(doc, policy: policy)
        #expect(d.pointsRead == 7)
        #expect(
            d.counts == [
                .invalidCoordinate: 1, .missingCoordinate: 1, .timeWentBackwards: 1, .duplicateTime: 1, .invalidTime: 1, .invalidValue: 1,
                .missingTime: 1,
            ])
        let kept = trackPoints(items).count
        #expect(kept == (policy == .report || policy == .filter ? 5 : 1))  // filter acts on motion only
        #expect(d.pointsDropped == 7 - kept)
        #expect(d.examples.first { $0.kind == .invalidCoordinate }?.line == 3)
    }

    @Test(
        "fatal errors name file, line and column (a file cut off under the fail policy)",
        arguments: [
            ("<gpx><trk></gpx>", "t.gpx:1:11: end tag </gpx> does not match <trk>"),
            ("<kml></kml>", "t.gpx:1:6: not a GPX document: the root element is <kml>, expected <gpx>"),
            ("<gpx><trk>", "t.gpx:1:11: unexpected end of file: <trk> is not closed"),
            (
                "<gpx>&bomb;</gpx>",
                "t.gpx:1:6: undefined entity '&bomb;' (only the five predefined entities and character references are read; DTD entities are never expanded)"
            ),
            ("<gpx a='1' a='2'/>", "t.gpx:1:12: duplicate attribute 'a'"),
            ("<gpx></gpx><gpx/>", "t.gpx:1:12: a second root element <gpx>"),
            ("<gpx>\n<wpt lat=\"1\" lon=\"2\"\n</gpx>", "t.gpx:3:1: '<' inside a start tag"),
            ("<xml∂></xml∂>", "t.gpx:1:2: invalid character U+2202 in a name"),
            ("", "t.gpx:1:1: unexpected end of file: no root element"),
            ("<?xml version='1.0' encoding='UTF-16'?><gpx/>", "t.gpx:1:31: unsupported encoding 'UTF-16' (UTF-8 and ISO-8859-1 are read)"),
            ("<gpx><!-- open comment", "t.gpx:1:23: unexpected end of file in a comment (opened at 1:6)"),
            ("<gpx>&#0;</gpx>", "t.gpx:1:6: character reference to an invalid character"),
        ])
    func fatal(doc: String, message: String) {
        #expect {
            _ = try readGPX(doc, policy: .fail)
        } throws: { error in
            (error as? TraceReadError)?.description == message
        }
    }

    @Test("billion laughs: declared entities are never expanded")
    func billionLaughs() {
        let doc = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <gpx><wpt lat="1" lon="1"><name>&lol3;</name></wpt></gpx>
            """
        #expect(throws: TraceReadError.self) { _ = try readGPX(doc) }
    }

    @Test("a value given twice in a point: the first is read, on every path, and that is stated")
    func repeatedValues() throws {
        let point = "<time>2024-01-01T00:00:01Z</time><ele>5</ele><time>2024-01-01T00:00:09Z</time><ele>x</ele>"
        for (attributes, comment) in [
            ("lat=\"1\" lon=\"2\"", ""), ("lon='2' lat='1'", "<!-- c -->"), ("lat=\"1\"  lon=\"2\"", "<![CDATA[]]>"),
        ] {
            let (items, d) = try readGPX("<gpx><trk><trkseg><trkpt \(attributes)>\(comment)\(point)</trkpt></trkseg></trk></gpx>")
            let fix = try #require(trackPoints(items).first)
            #expect(fix.time == Timestamp.parseISO8601("2024-01-01T00:00:01Z")?.timestamp && fix.elevation == 5)
            #expect(d.counts.isEmpty)
            #expect(d.assumptions.contains("a point gives its time more than once (first at line 1): the first is read"))
            #expect(d.assumptions.contains("a point gives its elevation more than once (first at line 1): the first is read"))
        }
        // Stated once per field, however many points repeat it.
        let many = String(repeating: "<trkpt lat='1' lon='2'>\(point)</trkpt>\n", count: 50)
        #expect(try readGPX("<gpx><trk><trkseg>\(many)</trkseg></trk></gpx>").diagnostics.assumptions.count == 2)
    }

    @Test("a point inside a point (not GPX) is not read, and that is stated")
    func nestedPoints() throws {
        for inner in ["<wpt lat='3' lon='4'/>", "<trkpt lat='3' lon='4'><ele>1</ele></trkpt>"] {
            let (items, d) = try readGPX("<gpx><trk><trkseg><trkpt lat='1' lon='2'><ele>5</ele>\(inner)</trkpt></trkseg></trk></gpx>")
            #expect(trackPoints(items).map(\.coordinate.latitude) == [1])
            #expect(d.assumptions == ["points inside another point are not read (first at line 1)"])
        }
    }

    @Test("tokens spanning the streaming window's block boundaries read the same")
    func acrossBlocks() throws {
        // A document larger than one 1 MiB block, read from a file through the window.
        var text = "<gpx><trk><trkseg>\n"
        for i in 0..<20_000 {
            text +=
                "<trkpt lat=\"\(Double(i) * 1e-4)\" lon=\"\(-Double(i) * 1e-4)\"><ele>\(i)</ele><time>2020-01-01T00:00:00Z</time><!-- pad \(String(repeating: "x", count: i % 97)) --></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let path = "/tmp/tracekit-blocks-\(text.utf8.count).gpx"
        createFile(path, Array(text.utf8))
        var reader = try openTrace(path)
        var n = 0
        while let item = try reader.next() {
            if case .trackPoint(let f) = item {
                #expect(f.elevation == Double(n) && f.coordinate.latitude == Double(n) * 1e-4)
                n += 1
            }
        }
        #expect(n == 20_000)
        try? Platform.remove(path)
    }
}
