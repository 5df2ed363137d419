import Testing
import TraceGeodesy
import TraceProj
import TraceDomain

@testable import TraceIO

@Suite("Hostile values: counted, never a crash")
struct HostileInputTests {
    @Test("a time span of centuries is summarised without overflow")
    func longSpan() throws {
        let (items, _) = try readGPX(
            """
            <gpx><trk><trkseg>
            <trkpt lat="1" lon="1"><time>1700-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="1"><time>2250-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="1"><time>1690-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """)
        var summary = TraceSummary(exact: Geodesic())
        for item in items { summary.add(item) }
        #expect(summary.timedPoints == 3)
        #expect(summary.lastTime!.seconds(since: summary.firstTime!) > 500 * 365 * 86400)
    }

    @Test("a UTC offset that pushes a time out of range is an unreadable time, not a trap")
    func offsetOverflow() throws {
        let r = try readCSV("lat,lon,time\n1,1,2262-04-11 23:00:00\n", options: ReadOptions(zonelessUTCOffset: -5 * 3600))
        #expect(r.points.count == 1 && r.points[0].time == nil && r.diagnostics.counts[.invalidTime] == 1)
        let (_, g) = try readGPX("<gpx><trk><trkseg><trkpt lat='1' lon='1'><time>2262-04-11T23:00:00</time></trkpt></trkseg></trk></gpx>")
        #expect(g.assumptions == ["times without a zone were read as UTC"])
    }

    @Test("a unit conversion that overflows is an unreadable value")
    func unitOverflow() throws {
        let r = try readCSV("lat,lon,ele\n1,1,1e308 km\n")
        #expect(r.points.count == 1 && r.points[0].elevation == nil && r.diagnostics.counts[.invalidValue] == 1)
    }

    @Test("a PLT day number far outside 1677–2262 is an unreadable time")
    func pltDay() throws {
        var reader = PLTReader(
            bytes: Array(
                "OziExplorer Track Point File Version 2.1\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,t,0,0,0,0\n0\n47.0,8.0,0,100,1999999,,\n"
                    .utf8), name: "t.plt")
        var times: [Timestamp?] = []
        while let item = try reader.next() { if case .trackPoint(let f) = item { times.append(f.time) } }
        #expect(times == [nil])
        #expect(reader.diagnostics.counts[.invalidTime] == 1)
    }

    @Test("an unreadable coordinate is counted once; a longitude beyond ±360° is invalid")
    func coordinates() throws {
        let (_, d) = try readGPX(
            "<gpx><trk><trkseg><trkpt lat='x' lon='1'/><trkpt lat='1' lon='1e300'/><trkpt lat='1' lon='190'/></trkseg></trk></gpx>")
        #expect(d.counts == [.invalidCoordinate: 2, .missingTime: 1])
        #expect(d.examples.allSatisfy { $0.line > 0 })
    }

    @Test("examples always carry a line")
    func examplesHaveLines() throws {
        let r = try readCSV("lat,lon,ele,speed\n1,1,x,y\n")
        #expect(r.diagnostics.counts[.invalidValue] == 2)
        #expect(r.diagnostics.examples.allSatisfy { $0.line > 0 })
    }

    @Test("placeholders mean no value only in numeric fields")
    func placeholders() throws {
        let r = try readCSV("lat,lon,ele,name,fix\n1,1,-,none,none\n")
        #expect(r.points[0].elevation == nil && r.points[0].name == "none" && r.points[0].fixType == FixType.none)
    }

    @Test("a field named twice in the header: the first column is read, and that is stated")
    func duplicateHeader() throws {
        let r = try readCSV("lat,lon,ele,altitude\n1,1,5,6\n")
        #expect(r.points[0].elevation == 5)
        #expect(r.diagnostics.assumptions.contains("columns 3 and 4 both hold elevation; column 3 ('ele') is read"))
    }

    @Test("a value in a message shows its control characters and bidi overrides escaped (issue 41)")
    func escapedExcerpts() throws {
        let r = try readCSV("lat,lon,time,ele\n1,1,\"\u{1B}]0;t\u{07}\",x\u{9B}2J\u{202E}\n")
        let details = r.diagnostics.examples.map(\.detail)
        #expect(details.contains("'\\u{1b}]0;t\\u{7}'"), "\(details)")
        #expect(details.contains("elevation 'x\\u{9b}2J\\u{202e}' is not a number"), "\(details)")
        // XML has no ESC (not even as a reference), but C1 controls and bidi overrides are characters.
        let (_, g) = try readGPX("<gpx><trk><trkseg><trkpt lat='1' lon='1'><time>x\u{9B}[2J\u{202E}</time></trkpt></trkseg></trk></gpx>")
        #expect(g.examples.map(\.detail) == ["'x\\u{9b}[2J\\u{202e}'"])
    }

    @Test("writers never write a non-finite value")
    func finiteWriters() {
        var f = Fix(coordinate: try! Coordinate(latitude: 1, longitude: 2))
        f.elevation = .infinity
        f.speed = .nan
        #expect(f.finiteValues.elevation == nil && f.finiteValues.speed == nil)
        #expect(!NDJSONWriter.members(f).contains("inf") && !NDJSONWriter.members(f).contains("nan"))
    }
}
