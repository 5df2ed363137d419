import Foundation
import TestSupport
import Testing

/// `tracekit info` on files whose name and content disagree, and on files cut off mid-write.
@Suite("tracekit info: the content before the extension, and files cut off mid-write")
struct ContentFormatCommandTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="t">
        <trk><trkseg>
        <trkpt lat="47.0" lon="8.0"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="47.0001" lon="8.0"><time>2020-01-01T00:00:10Z</time></trkpt>
        <trkpt lat="47.0002" lon="8.0"><time>2020-01-01T00:00:20Z</time></trkpt>
        <trkpt lat="47.0003" lon="8.0"><time>2020-01-01T00:00:30Z</time></trkpt>
        <trkpt lat="47.0004" lon="8.0"><time>2020-01-01T00:00:40Z</time></trkpt>
        </trkseg></trk>
        </gpx>

        """

    @Test("a GPX named .txt is read as GPX, and info says so")
    func gpxAsText() throws {
        let path = try scratchFile("track.txt", Self.gpx)
        let r = try Run(["info", path])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout.contains("format                      gpx"))
        #expect(r.stdout.contains("1 / 1 / 5"))
        #expect(r.stdout.contains("assumed: read as GPX: the content is GPX (root <gpx>), though the name says CSV"))
        // An explicit format is never second-guessed: as CSV, the advice is about columns.
        let csv = try Run(["info", "--input-format", "csv", path])
        #expect(csv.status == 65 && csv.stderr.contains("--column"))
        // Standard input has no name: its content says GPX, and nothing of it is lost.
        let stdin = try Run(["info", "-"], stdin: Self.gpx)
        #expect(stdin.status == 0 && stdin.stdout.contains("1 / 1 / 5"))
        #expect(stdin.stdout.contains("assumed: read as GPX: the content is GPX (root <gpx>), standard input has no name"))
    }

    @Test("XML that is neither GPX nor KML in a .txt: exit 64, advice to name the format with --input-format, not --column")
    func unreadableXML() throws {
        let path = try scratchFile("map.txt", "<?xml version=\"1.0\"?>\n<osm version=\"0.6\"><node id=\"1\" lat=\"47\" lon=\"8\"/></osm>\n")
        let r = try Run(["info", path])
        #expect(r.status == 64)
        #expect(
            r.stderr.split(separator: "\n").first.map(String.init)
                == "tracekit: \(path):2: unknown format: the content is XML whose root element is <osm>, neither GPX (<gpx>) nor KML (<kml>); name it with --input-format (gpx, csv, plt, rec, nmea, kml, geojson, ndjson, json)"
        )
        #expect(!r.stderr.contains("--column"))
        // Text with a name that does not say: the same advice.
        let log = try Run(["info", try scratchFile("notes.log", "hello\n")])
        #expect(log.status == 64 && log.stderr.contains("the name does not say, and the content is not GPX, KML, NMEA or JSON"))
    }

    @Test("NMEA sentences in a .log are read as NMEA, and info says so")
    func nmeaInLog() throws {
        func sentence(_ body: String) -> String {
            "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 }) + "\n"
        }
        let text =
            "# logger v1\n" + sentence("GPRMC,120000.00,A,4700.000,N,00800.000,E,0.0,0.0,010120,,,A")
            + sentence("GPRMC,120001.00,A,4700.001,N,00800.000,E,0.0,0.0,010120,,,A")
        let r = try Run(["info", try scratchFile("gps.log", text)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("format                      nmea"))
        #expect(!r.stdout.contains("0 / 0 / 0"))
        #expect(r.stdout.contains("assumed: read as NMEA: the content is NMEA sentences ($GPRMC), the name does not say"))
    }

    @Test(
        "a GPX cut mid-element: read under filter, report and skip with the problem stated; refused in one line under fail",
        arguments: ["filter", "report", "skip", "fail"])
    func truncatedGPX(policy: String) throws {
        let cut = String(Self.gpx[..<Self.gpx.range(of: "<time>2020-01-01T00:00:3")!.upperBound])
        let path = try scratchFile("cut.gpx", cut)
        let r = try Run(["info", "--on-problem", policy, path])
        guard policy != "fail" else {
            #expect(r.status == 65)
            #expect(r.stderr == "tracekit: \(path):7:56: unexpected end of file: <time> is not closed\n")
            return
        }
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout.contains("1 / 1 / 3"))
        #expect(r.stdout.contains("1 × truncated file, first at line 7 (the file ends inside <trkpt>: 1 incomplete point dropped)"))
        let json = try Run(["info", "--format", "json", "--on-problem", policy, path])
        #expect(json.stdout.contains("\"truncated file\": 1") && json.stdout.contains("\"pointsDropped\": 1"))
    }

    @Test("a KML and a JSON array cut mid-element: the points before the cut")
    func truncatedKMLAndJSON() throws {
        let kml = try scratchFile(
            "cut.kml",
            "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Placemark><LineString><coordinates>\n8.0,47.0 8.0001,47.0 8.000"
        )
        let k = try Run(["info", kml])
        #expect(k.status == 0 && k.stdout.contains("1 / 1 / 2"))
        #expect(k.stdout.contains("1 × truncated file, first at line 3 (the file ends inside <coordinates>: 1 incomplete point dropped)"))
        let json = try scratchFile(
            "cut.json", "[{\"lat\": 47.0, \"lon\": 8.0, \"time\": \"2020-01-01T00:00:00Z\"},\n {\"lat\": 47.0001, \"lon\": 8.0, \"ti")
        let j = try Run(["info", json])
        #expect(j.status == 0 && j.stdout.contains("1 / 1 / 1"))
        #expect(j.stdout.contains("1 × truncated file, first at line 2 (the file ends inside a location: 1 incomplete point dropped)"))
        #expect(try Run(["info", "--on-problem", "fail", json]).status == 65)
    }
}
