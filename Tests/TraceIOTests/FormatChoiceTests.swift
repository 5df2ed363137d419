import Foundation
import TestSupport
import Testing

@testable import TraceIO

/// ``TraceFormat/choose(name:head:file:)`` on `content` as if named `name` (nil: standard input).
private func choose(_ name: String?, _ content: String) throws(TraceReadError) -> (format: TraceFormat, assumption: String?) {
    let bytes = Array(content.utf8)
    return try bytes.withUnsafeBufferPointer { b throws(TraceReadError) in
        try TraceFormat.choose(name: name, head: UnsafeBufferPointer(rebasing: b.prefix(TraceFormat.sniffLength)), file: name ?? "<stdin>")
    }
}

/// A file's content before its extension: GPX, KML, NMEA and JSON are read as what they are, and
/// it is stated; text is read as the extension says.
@Suite("Format choice: the content before the extension")
struct FormatChoiceTests {
    static let gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"47\" lon=\"8\"/></trkseg></trk></gpx>\n"
    static let kml = "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>\n"
    static let nmea = "# logger banner\n# 2020-01-01\n\n$GPRMC,120000.00,A,4700.000,N,00800.000,E,0.0,0.0,010120,,,A*6B\n"

    @Test(
        "content and name: which format, and the assumption stated when the content decided",
        arguments: [
            ("t.txt", gpx, TraceFormat.gpx, "read as GPX: the content is GPX (root <gpx>), though the name says CSV"),
            ("t.xml", gpx, .gpx, nil),
            ("t.xml", kml, .kml, "read as KML: the content is KML (root <kml>), though the name says GPX"),
            ("t.log", nmea, .nmea, "read as NMEA: the content is NMEA sentences ($GPRMC), the name does not say"),
            ("t.txt", "[{\"lat\": 47, \"lon\": 8}]", .json, "read as JSON: the content is JSON, though the name says CSV"),
            ("t.gpx", "{\"type\": \"FeatureCollection\"}", .json, "read as JSON: the content is JSON, though the name says GPX"),
            ("t.geojson", " {\"type\": \"FeatureCollection\"}", .geojson, nil),
            ("t.jsonl", "{\"lat\": 47, \"lon\": 8}\n", .ndjson, nil),
            ("t.csv", "lat,lon\n47,8\n", .csv, nil),
            ("t.txt", "[lat],[lon]\n47,8\n", .csv, nil),
            ("t.txt", "#time,lat,lon\n2020-01-01T00:00:00Z,47,8\n", .csv, nil),
            ("t.plt", "OziExplorer Track Point File Version 2.1\n", .plt, nil),
            ("t.nmea", "$GPGGA,120000,4700.000,N,00800.000,E,1,08,0.9,400,M,,M,,*47\n", .nmea, nil),
            (
                "t.gpx",
                "\u{FEFF} \n<?xml version='1.0'?>\n<!-- c --><!DOCTYPE gpx [ <!ENTITY x \"y\"> ]>\n<?pi x?>\n<g:gpx xmlns:g=\"u\"/>", .gpx,
                nil
            ),
            (nil, gpx, .gpx, "read as GPX: the content is GPX (root <gpx>), standard input has no name"),
            (nil, "{\"locations\": []}", .json, "read as JSON: the content is JSON, standard input has no name"),
        ] as [(String?, String, TraceFormat, String?)])
    func chosen(name: String?, content: String, format: TraceFormat, assumption: String?) throws {
        let c = try choose(name, content)
        #expect(c.format == format)
        #expect(c.assumption == assumption)
    }

    @Test(
        "neither the name nor the content tells: unknownFormat, naming what the content is, ending in the format advice",
        arguments: [
            (
                "t.txt", "<?xml version=\"1.0\"?>\n<osm version=\"0.6\"/>", 2,
                "the content is XML whose root element is <osm>, neither GPX (<gpx>) nor KML (<kml>)"
            ),
            ("t.log", "hello\n", 0, "the name does not say, and the content is not GPX, KML, NMEA or JSON"),
            (nil, "lat,lon\n47,8\n", 0, "standard input has no name, and the content is not GPX, KML, NMEA or JSON"),
            (
                "t.txt", "<?xml version=\"1.0\"?><!--" + String(repeating: "x", count: 600) + "--><gpx/>", 0,
                "the content is XML whose root element is not within its first 512 bytes"
            ),
        ] as [(String?, String, Int, String)])
    func unknown(name: String?, content: String, line: Int, reason: String) {
        #expect {
            _ = try choose(name, content)
        } throws: { error in
            guard let e = error as? TraceReadError else { return false }
            return e.category == .unknownFormat && e.line == line && e.message == "unknown format: \(reason); \(TraceFormat.namingAdvice)"
        }
    }

    @Test("the sniffed content: a few odd heads")
    func sniffed() {
        func sniff(_ s: String) -> SniffedContent {
            Array(s.utf8).withUnsafeBufferPointer { SniffedContent($0) }
        }
        #expect(sniff("") == .other)
        #expect(sniff("\u{FEFF}") == .other)
        #expect(sniff("<") == .xml(root: nil, line: 1))
        #expect(sniff("< 5") == .other)
        #expect(sniff("\n\n<gpx") == .xml(root: nil, line: 3))  // the name may go on past the bytes looked at
        #expect(sniff("\n\n<gpx ") == .xml(root: "gpx", line: 3))
        #expect(sniff("$GPGG") == .other)
        #expect(sniff("$gpgga,") == .other)
        #expect(sniff("$PGRMZ,1") == .nmea("$PGRMZ"))
        #expect(sniff("{") == .json && sniff("[ ") == .json && sniff("[-1]") == .json)
        #expect(sniff("{x") == .other && sniff("[lat]") == .other)
    }

    @Test("openTrace reads a GPX named .txt as GPX and says so; an explicit format is never second-guessed")
    func openTraceSniffs() throws {
        let path = try scratchFile("track.txt", Self.gpx)
        var reader = try openTrace(path)
        #expect(reader.format == .gpx)
        var points = 0
        while let item = try reader.next() { if case .trackPoint = item { points += 1 } }
        #expect(points == 1)
        #expect(reader.diagnostics.assumptions.first == "read as GPX: the content is GPX (root <gpx>), though the name says CSV")
        #expect(try TraceFormat(file: path) == .gpx)
        // Named: read as CSV, whose header error says how to map columns.
        let csv = try openTrace(path, format: .csv)
        #expect(csv.format == .csv)
        let e = readError { () throws(TraceReadError) in try readTrace(csv) }
        #expect(e?.message.contains(CSVReader.columnsAdvice) == true)
        // NMEA in a .log.
        let log = try scratchFile("gps.log", Self.nmea)
        #expect(try openTrace(log).format == .nmea)
        // Unknown content and name: the error names the file.
        let text = try scratchFile("notes.log", "hello\n")
        #expect {
            _ = try openTrace(text)
        } throws: { error in
            (error as? TraceReadError)?.file == text && (error as? TraceReadError)?.category == .unknownFormat
        }
    }

    @Test("ByteSource.head reads the first bytes without consuming them: the reader still gets every byte")
    func headKeepsBytes() throws {
        let long = Self.gpx.replacingOccurrences(
            of: "<trkpt lat=\"47\" lon=\"8\"/>",
            with: (0..<2000).map { "<trkpt lat=\"47.\($0)\" lon=\"8\"><time>2020-01-01T00:00:00Z</time></trkpt>\n" }.joined())
        let path = try scratchFile("long.txt", long)
        let source = try ByteSource(path: path)
        let head = try source.head(TraceFormat.sniffLength)
        #expect(head.count == TraceFormat.sniffLength && Array(head) == Array(long.utf8.prefix(TraceFormat.sniffLength)))
        let r = try readTrace(GPXReader(source: source, options: ReadOptions(policy: .report)))
        #expect(r.points.count == 2000)
    }
}
