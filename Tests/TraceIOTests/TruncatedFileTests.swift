import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceDomain

@testable import TraceIO

/// A reader's items and diagnostics read item by item (``TraceReader/next()``), and the same read
/// in batches (``TraceReader/read(into:limit:)``, 3 items at a time): the test checks they agree.
private func bothWays<R: TraceReader>(_ make: () -> R) throws(TraceReadError) -> ReadResult {
    let one = try readTrace(make())
    var batched = make()
    var batch = FixBatch()
    var items: [TraceItem] = []
    while try batched.read(into: &batch, limit: 3) > 0 { items += batch.items }
    #expect(items == one.items, "read(into:) and next() give different items")
    #expect(batched.diagnostics == one.diagnostics, "read(into:) and next() give different diagnostics")
    return one
}

/// The line a prefix of a document ends on (a final line feed ends its line).
private func lastLine(_ bytes: ArraySlice<UInt8>) -> Int {
    1 + bytes.dropLast().filter { $0 == 0x0A }.count
}

/// How many times `needle` occurs in `bytes`.
private func occurrences(_ needle: String, in bytes: ArraySlice<UInt8>) -> Int {
    let n = Array(needle.utf8)
    guard bytes.count >= n.count else { return 0 }
    var count = 0
    var i = bytes.startIndex
    while i + n.count <= bytes.endIndex {
        if bytes[i..<(i + n.count)].elementsEqual(n) { count += 1 }
        i += 1
    }
    return count
}

/// Files cut off mid-write (an app killed while recording): every complete point before the cut
/// is kept, with one ``ProblemKind/truncated`` problem at the line where the file ends, under
/// every policy but `fail`, which refuses the file as before.
@Suite("Truncated files: GPX, KML and JSON cut off mid-write")
struct TruncatedFileTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="t">
        <trk><name>Zürich &amp; back</name><trkseg>
        <trkpt lat="47.0" lon="8.0"><ele>400</ele><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="47.0001" lon="8.0"><ele>401</ele><time>2020-01-01T00:00:10Z</time></trkpt>
        <!-- a comment -->
        <trkpt lat="47.0002" lon="8.0"><time>2020-01-01T00:00:20Z</time><extensions><speed>1.1</speed></extensions></trkpt>
        <trkpt lat="47.0003" lon="8.0"><ele>403</ele><time>2020-01-01T00:00:30Z</time></trkpt>
        <trkpt lat="47.0004" lon="8.0"><ele>404</ele><time>2020-01-01T00:00:40Z</time></trkpt>
        </trkseg></trk>
        </gpx>

        """

    @Test(
        "a GPX cut mid-element keeps the points before the cut under filter, report and skip; fail refuses it",
        arguments: ProblemPolicy.allCases)
    func gpxMidElement(policy: ProblemPolicy) throws {
        // Cut inside the fourth point's <ele>: three points are complete.
        let text = String(Self.gpx[..<Self.gpx.index(Self.gpx.range(of: "<ele>403")!.lowerBound, offsetBy: 7)])
        let read = { () throws(TraceReadError) in
            try bothWays { GPXReader(bytes: Array(text.utf8), name: "t.gpx", options: ReadOptions(policy: policy)) }
        }
        guard policy != .fail else {
            let e = readError(read)
            #expect(e?.description == "t.gpx:8:39: unexpected end of file: <ele> is not closed")
            #expect(e?.category == .truncated)
            return
        }
        let r = try read()
        #expect(r.points.map(\.coordinate.latitude) == [47.0, 47.0001, 47.0002])
        #expect(r.points.last?.speed == 1.1)
        #expect(r.shape == "T(Zürich & back) S P P P")
        #expect(r.diagnostics.counts == [.truncated: 1])
        #expect(
            r.diagnostics.examples == [
                Problem(kind: .truncated, line: 8, detail: "the file ends inside <trkpt>: 1 incomplete point dropped")
            ])
        #expect(r.diagnostics.pointsRead == 4 && r.diagnostics.pointsDropped == 1)
        #expect(
            r.diagnostics.summaryLines == ["1 × truncated file, first at line 8 (the file ends inside <trkpt>: 1 incomplete point dropped)"]
        )
    }

    @Test("a GPX cut between points, in a start tag's attribute, after '<', in a comment: each says where it ends")
    func gpxPlaces() throws {
        func cut(after marker: String, _ extra: Int = 0) throws -> ReadResult {
            let end = Self.gpx.range(of: marker)!.upperBound
            let text = String(Self.gpx[..<Self.gpx.index(end, offsetBy: extra)])
            return try bothWays { GPXReader(bytes: Array(text.utf8), name: "t.gpx") }
        }
        let between = try cut(after: "00:10Z</time></trkpt>\n")
        #expect(between.points.count == 2)
        #expect(between.diagnostics.examples.first?.detail == "the file ends inside <trkseg>")
        #expect(between.diagnostics.examples.first?.line == 5)
        let attribute = try cut(after: "<trkpt lat=\"47.000", 1)
        #expect(attribute.points.count == 1 && attribute.diagnostics.pointsDropped == 1)
        #expect(attribute.diagnostics.examples.first?.detail == "the file ends inside <trkpt>: 1 incomplete point dropped")
        let comment = try cut(after: "<!-- a com")
        #expect(comment.points.count == 2 && comment.diagnostics.examples.first?.line == 6)
        let name = try cut(after: "<name>Z", 1)  // inside the two bytes of 'ü'
        #expect(name.items.isEmpty && name.diagnostics.examples.first?.detail == "the file ends inside <name>")
    }

    @Test("a GPX cut at every byte: the complete points before the cut on every path, one problem at the last line")
    func gpxEveryCut() throws {
        let whole = Array(Self.gpx.utf8)
        let rootStart = Self.gpx.utf8.distance(from: Self.gpx.startIndex, to: Self.gpx.range(of: "creator=\"t\">")!.upperBound)
        let rootEnd = Self.gpx.utf8.distance(from: Self.gpx.startIndex, to: Self.gpx.range(of: "</gpx")!.upperBound)
        for cut in 0..<whole.count {
            let prefix = whole[0..<cut]
            for policy in [ProblemPolicy.filter, .skip, .fail] {
                // Every path (fused, plain, token by token) under filter.
                let paths: [ReadPaths] = policy == .filter ? [.all, [.plain], []] : [.all]
                var results: [ReadResult] = []
                var errors: [TraceReadError] = []
                for p in paths {
                    do {
                        results.append(
                            try bothWays { GPXReader(bytes: Array(prefix), name: "t.gpx", options: ReadOptions(policy: policy), paths: p) })
                    } catch {
                        errors.append(error)
                    }
                }
                // Before the root's start tag is whole: refused; inside the root: read, unless fail.
                if cut < rootStart || (policy == .fail && cut <= rootEnd) {
                    #expect(errors.count == paths.count, "cut \(cut), \(policy): read")
                    if cut >= rootStart { #expect(errors.allSatisfy { $0.category == .truncated }, "cut \(cut): \(errors)") }
                    continue
                }
                #expect(errors.isEmpty, "cut \(cut), \(policy): \(errors)")
                guard let first = results.first else { continue }
                #expect(results.allSatisfy { $0.items == first.items && $0.diagnostics == first.diagnostics }, "cut \(cut): paths differ")
                #expect(first.points.count == occurrences("</trkpt>", in: prefix), "cut \(cut)")
                if cut <= rootEnd {
                    #expect(first.diagnostics.counts[.truncated] == 1, "cut \(cut)")
                    #expect(first.diagnostics.examples.first { $0.kind == .truncated }?.line == lastLine(prefix), "cut \(cut)")
                } else {
                    #expect(first.diagnostics.isClean, "cut \(cut)")
                }
            }
        }
    }

    @Test("a GPX cut after its root element closed is as before: what follows the root is checked")
    func gpxAfterRoot() {
        let e = readError { () throws(TraceReadError) in try readTrace(GPXReader(bytes: Array("<gpx/>".utf8) + [0xE2, 0x82])) }
        #expect(e?.message == "not UTF-8 (the file ends inside a multi-byte character)")
    }

    static let kml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
        <Placemark><name>line</name><LineString><coordinates>
        8.0,47.0,400 8.0001,47.0,401
        8.0002,47.0,402 8.0003,47.0,403
        </coordinates></LineString></Placemark>
        <Placemark><name>track</name><gx:Track>
        <when>2020-01-01T00:00:00Z</when><gx:coord>8.0 47.0 400</gx:coord>
        <when>2020-01-01T00:00:10Z</when><gx:coord>8.0001 47.0 401</gx:coord>
        <when>2020-01-01T00:00:20Z</when><gx:coord>8.0002 47.0 402</gx:coord>
        </gx:Track></Placemark>
        <Placemark><name>stop</name><Point><coordinates>8.1,47.1</coordinates></Point></Placemark>
        </Document></kml>

        """

    /// The KML test document cut after `marker` (plus `extra` bytes), read under `policy`.
    private func kmlCut(after marker: String, _ extra: Int = 0, policy: ProblemPolicy = .filter) throws(TraceReadError) -> ReadResult {
        let end = Self.kml.range(of: marker)!.upperBound
        let text = String(Self.kml[..<Self.kml.index(end, offsetBy: extra)])
        return try bothWays { KMLReader(bytes: Array(text.utf8), name: "t.kml", options: ReadOptions(policy: policy)) }
    }

    @Test("a KML cut mid-number in a LineString keeps its whole tuples before the cut", arguments: ProblemPolicy.allCases)
    func kmlLineString(policy: ProblemPolicy) throws {
        guard policy != .fail else {
            let e = readError { () throws(TraceReadError) in try kmlCut(after: "8.0002,47.0,402 8.000", policy: policy) }
            #expect(e?.description == "t.kml:5:22: unexpected end of file: <coordinates> is not closed")
            return
        }
        // A LineString's points have no time: skip drops them for that (counted), not for the cut.
        let r = try kmlCut(after: "8.0002,47.0,402 8.000", policy: policy)
        #expect(r.points.map(\.coordinate.longitude) == (policy == .skip ? [] : [8.0, 8.0001, 8.0002]))
        #expect(r.points.map(\.elevation) == (policy == .skip ? [] : [400, 401, 402]))
        #expect(r.count(.truncated) == 1 && r.count(.missingTime) == 3)
        #expect(r.diagnostics.pointsRead == 4 && r.diagnostics.pointsDropped == (policy == .skip ? 4 : 1))
        #expect(
            r.diagnostics.examples.first { $0.kind == .truncated }
                == Problem(kind: .truncated, line: 5, detail: "the file ends inside <coordinates>: 1 incomplete point dropped"))
        // A cut just after white space: every tuple before it is whole.
        let whole = try kmlCut(after: "8.0002,47.0,402 ", policy: policy)
        #expect(whole.diagnostics.pointsRead == 3 && whole.count(.truncated) == 1)
        #expect(whole.diagnostics.pointsDropped == (policy == .skip ? 3 : 0))
    }

    @Test("a KML cut inside a gx:Track keeps its matched points; a <when> without its position is dropped")
    func kmlTrack() throws {
        let r = try kmlCut(after: "<when>2020-01-01T00:00:20Z</when><gx:coord>8.00")
        #expect(r.points.count == 4 + 2)  // the LineString's four, the track's first two
        #expect(r.points.last?.time == Timestamp.parseISO8601("2020-01-01T00:00:10Z")?.timestamp)
        #expect(
            r.diagnostics.examples.first { $0.kind == .truncated }?.detail == "the file ends inside <gx:Track>: 1 incomplete point dropped")
        let between = try kmlCut(after: "<gx:coord>8.0001 47.0 401</gx:coord>\n")
        #expect(between.points.count == 6 && between.diagnostics.pointsDropped == 0)
        let point = try kmlCut(after: "<Point><coordinates>8.1")
        #expect(point.items.filter { if case .waypoint = $0 { true } else { false } }.isEmpty && point.points.count == 7)
        #expect(
            point.diagnostics.examples.first { $0.kind == .truncated }?.detail == "the file ends inside <Point>: 1 incomplete point dropped"
        )
    }

    static let locations = """
        [{"lat": 47.0, "lon": 8.0, "time": "2020-01-01T00:00:00Z"},
         {"lat": 47.0001, "lon": 8.0, "time": "2020-01-01T00:00:10Z"},
         {"lat": 47.0002, "lon": 8.0, "time": "2020-01-01T00:00:20Z"}]

        """

    @Test("a JSON array of locations cut mid-object keeps the objects before it", arguments: ProblemPolicy.allCases)
    func jsonArray(policy: ProblemPolicy) throws {
        let text = String(Self.locations[..<Self.locations.range(of: "47.0002, \"lo")!.upperBound])
        let read = { () throws(TraceReadError) in
            try bothWays { JSONTraceReader(bytes: Array(text.utf8), name: "t.json", options: ReadOptions(policy: policy)) }
        }
        guard policy != .fail else {
            #expect(readError(read)?.description == "t.json:3:2: unexpected end of file inside a JSON value")
            return
        }
        let r = try read()
        #expect(r.points.map(\.coordinate.latitude) == [47.0, 47.0001])
        #expect(
            r.diagnostics.examples
                == [Problem(kind: .truncated, line: 3, detail: "the file ends inside a location: 1 incomplete point dropped")])
        #expect(r.diagnostics.pointsDropped == 1)
    }

    @Test("a JSON array cut at every byte: the whole objects before the cut, one problem at the last line")
    func jsonEveryCut() throws {
        let whole = Array(Self.locations.utf8)
        let end = whole.lastIndex(of: UInt8(ascii: "]"))!
        for cut in 0..<whole.count {
            let prefix = whole[0..<cut]
            let r = readError { () throws(TraceReadError) in try bothWays { JSONTraceReader(bytes: Array(prefix), name: "t.json") } }
            if cut == 0 {
                #expect(r != nil)  // nothing: not JSON
                continue
            }
            #expect(r == nil, "cut \(cut): \(String(describing: r))")
            let read = try bothWays { JSONTraceReader(bytes: Array(prefix), name: "t.json") }
            #expect(read.points.count == occurrences("}", in: prefix), "cut \(cut)")
            #expect(read.count(.truncated) == (cut <= end ? 1 : 0), "cut \(cut)")
            if cut <= end { #expect(read.diagnostics.examples.last?.line == lastLine(prefix), "cut \(cut)") }
        }
    }

    @Test("a GeoJSON cut mid-feature keeps the features before it; a Records.json cut mid-record the records before it")
    func geoJSONAndRecords() throws {
        let features = """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.0, 47.0]}, "properties": {"time": "2020-01-01T00:00:00Z"}},
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.0, 47.0001]}, "properties": {"time": "2020-01-01T00:00:10Z"}},
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.0, 47.00
            """
        for format in [TraceFormat.geojson, .json] {
            let r = try bothWays { JSONTraceReader(bytes: Array(features.utf8), name: "t.geojson", format: format) }
            #expect(r.points.map(\.coordinate.latitude) == [47.0, 47.0001])
            #expect(r.diagnostics.examples.first?.detail == "the file ends inside a feature: 1 incomplete feature dropped")
            #expect(r.diagnostics.examples.first?.line == 4)
        }
        let records = """
            {"locations": [
              {"latitudeE7": 470000000, "longitudeE7": 80000000, "timestamp": "2020-01-01T00:00:00Z"},
              {"latitudeE7": 470001000, "longitudeE7": 80000000, "timestamp": "2020-01-01T00:00:10Z"},
              {"latitudeE7": 4700020
            """
        let r = try bothWays { JSONTraceReader(bytes: Array(records.utf8), name: "Records.json") }
        #expect(r.points.count == 2 && r.count(.truncated) == 1 && r.diagnostics.pointsDropped == 1)
        // Before the document's kind is known nothing is read: the cut is an error.
        let early = readError { () throws(TraceReadError) in
            try readTrace(JSONTraceReader(bytes: Array("{\"type\": \"Feature\", \"geometry\": {\"type\": \"Po".utf8)))
        }
        #expect(early?.message == "unexpected end of file inside a JSON value")
    }
}

/// The fuzz targets' seeds (Fuzz/Seeds/TARGET, which `make fuzz` starts from), read here as the
/// targets read them: item by item and in batches, which agree, under every policy, after the
/// format choice's content check. The `cut-*` seeds are files cut off mid-write: one truncation
/// problem, or under `fail` an error.
@Suite("Fuzz seeds: GPX, KML and JSON read to their end or a clean error")
struct FuzzSeedTests {
    static let folder = packageRoot.appendingPathComponent("Fuzz/Seeds")

    @Test("every seed of the GPX, KML and JSON targets", arguments: ["gpx", "kml", "json"])
    func seeds(target: String) throws {
        let folder = Self.folder.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.contains { $0.hasPrefix("cut-") })
        for name in names {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            _ = try? bytes.withUnsafeBufferPointer { b throws(TraceReadError) in
                try TraceFormat.choose(name: "seed.txt", head: UnsafeBufferPointer(rebasing: b.prefix(TraceFormat.sniffLength)), file: name)
            }
            for policy in ProblemPolicy.allCases {
                let options = ReadOptions(policy: policy)
                func read() throws(TraceReadError) -> ReadResult {
                    switch target {
                    case "gpx": try bothWays { GPXReader(bytes: bytes, name: name, options: options) }
                    case "kml": try bothWays { KMLReader(bytes: bytes, name: name, options: options) }
                    default:
                        try bothWays {
                            JSONTraceReader(
                                bytes: bytes, name: name, format: name.hasSuffix(".geojson") ? .geojson : .json, options: options)
                        }
                    }
                }
                let error = readError { () throws(TraceReadError) in try read() }
                guard name.hasPrefix("cut-") else { continue }
                if policy == .fail {
                    #expect(error != nil, "\(name): read under fail")  // the cut, or a per-point problem before it
                } else {
                    #expect(error == nil, "\(name), \(policy): \(String(describing: error))")
                    #expect(try read().count(.truncated) == 1, "\(name), \(policy)")
                }
            }
        }
    }
}
