import GPXOracle
import Foundation
import Testing
import TestSupport
import TraceGeodesy
@testable import TraceIO

/// The track points of a GPX document as libxml2's reader sees them: lat, lon, and the text of
/// `ele` and `time`; nil when libxml2 rejects the document.
func libxml2TrackPoints(_ bytes: [UInt8]) -> [(lat: Double, lon: Double, ele: String?, time: String?)]? {
    var points = [oracle_point](repeating: oracle_point(), count: 20_000)
    let n = bytes.withUnsafeBufferPointer { b in
        b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { oracle_track_points($0, b.count, &points, points.count) }
    }
    guard n >= 0 else { return nil }
    precondition(n <= points.count, "oracle capacity")
    func text<T>(_ t: T) -> String {
        withUnsafeBytes(of: t) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    return points.prefix(n).map { p in
        let lat = text(p.lat).trimmingCharacters(in: .whitespacesAndNewlines)
        let lon = text(p.lon).trimmingCharacters(in: .whitespacesAndNewlines)
        return (Double(lat) ?? .nan, Double(lon) ?? .nan, p.has_ele != 0 ? text(p.ele) : nil, p.has_time != 0 ? text(p.time) : nil)
    }
}

/// Compares TraceKit's track points with libxml2's: same count, same coordinates (bit for bit,
/// both parse with strtod semantics), same elevations and times.
func compareWithLibxml2(_ bytes: [UInt8], name: String) throws {
    let reference = libxml2TrackPoints(bytes)
    var reader = GPXReader(bytes: bytes, name: name)
    var ours: [Fix] = []
    do {
        while let item = try reader.next() { if case .trackPoint(let f) = item { ours.append(f) } }
    } catch {
        #expect(reference == nil, "\(name): TraceKit rejects (\(error)) but libxml2 accepts")
        return
    }
    guard let reference else {
        Issue.record("\(name): libxml2 rejects the document but TraceKit accepts it")
        return
    }
    // TraceKit drops points without a usable position: compare only libxml2's usable ones.
    let usable = reference.filter { $0.lat.isFinite && $0.lon.isFinite && abs($0.lat) <= 90 }
    #expect(ours.count == usable.count, "\(name): \(ours.count) points vs libxml2's \(usable.count)")
    for (a, b) in zip(ours, usable) {
        #expect(a.coordinate.latitude == b.lat, "\(name)")
        #expect(a.coordinate.longitude == Coordinate.normalizedLongitude(b.lon), "\(name)")
        let ele = b.ele.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(a.elevation == ele, "\(name): elevation \(String(describing: a.elevation)) vs \(String(describing: b.ele))")
        let time = b.time.flatMap { t in Array(t.trimmingCharacters(in: .whitespacesAndNewlines).utf8).withUnsafeBufferPointer { Timestamp.parseISO8601($0)?.timestamp } }
        #expect(a.time == time, "\(name): time")
    }
}

@Suite("GPX reader against libxml2")
struct DifferentialTests {
    static let corpus: [URL] = {
        let dirs = ["traces/gpx", "traces/malformed"].map { sharedFolder.appendingPathComponent($0) }
        return dirs.flatMap { d in
            ((try? FileManager.default.contentsOfDirectory(at: d, includingPropertiesForKeys: nil)) ?? [])
                .filter { ["gpx", "xml"].contains($0.pathExtension) }
        }.sorted { $0.path < $1.path }
    }()

    @Test("every GPX in ../shared/traces reads the same points as libxml2",
          .enabled(if: !corpus.isEmpty, "../shared/traces not found: corpus differential test skipped"))
    func corpusFiles() throws {
        for url in Self.corpus {
            try compareWithLibxml2(Array(try Data(contentsOf: url)), name: url.lastPathComponent)
        }
    }

    @Test("the bundled recording reads the same points as libxml2 (runs without ../shared)")
    func bundled() throws {
        let url = packageRoot.appendingPathComponent("Traces/georust-garmin-activity.gpx")
        try compareWithLibxml2(Array(try Data(contentsOf: url)), name: url.lastPathComponent)
    }

    @Test("generated documents with every XML feature read the same as libxml2")
    func generated() throws {
        var rng = SplitMix64(seed: 77)
        for doc in 0..<200 {
            var s = doc % 3 == 0 ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : ""
            if doc % 5 == 0 { s += "<!-- generated \(doc) -->\n" }
            let prefix = doc % 4 == 0 ? "g:" : ""
            s += "<\(prefix)gpx\(prefix.isEmpty ? "" : " xmlns:g=\"http://www.topografix.com/GPX/1/1\"")><\(prefix)trk><\(prefix)trkseg>\n"
            for _ in 0..<Int(rng.uniform(0, 40)) {
                let lat = rng.uniform(-90, 90), lon = rng.uniform(-180, 180)
                let q = rng.uniform(0, 1) < 0.5 ? "\"" : "'"
                let latText = String(format: "%.\(Int(rng.uniform(0, 17)))f", lat)
                let attrs = rng.uniform(0, 1) < 0.5 ? "lat=\(q)\(latText)\(q) lon=\(q)\(lon)\(q)" : "lon=\(q)\(lon)\(q)  lat=\(q)\(latText)\(q)"
                var children = ""
                if rng.uniform(0, 1) < 0.7 { children += "<\(prefix)ele>\(rng.uniform(0, 1) < 0.2 ? "<![CDATA[\(rng.uniform(-100, 4000))]]>" : String(rng.uniform(-100, 4000)))</\(prefix)ele>" }
                if rng.uniform(0, 1) < 0.8 {
                    let sec = Int(rng.uniform(0, 59))
                    children += "<\(prefix)time>2024-03-0\(Int(rng.uniform(1, 9)))T12:34:\(sec < 10 ? "0" : "")\(sec)\(rng.uniform(0, 1) < 0.5 ? ".123Z" : "+02:00")</\(prefix)time>"
                }
                if rng.uniform(0, 1) < 0.3 { children += "<\(prefix)name>a &amp; b &#x41;</\(prefix)name><!-- c -->" }
                if rng.uniform(0, 1) < 0.3 { children += "<\(prefix)extensions><x:y xmlns:x=\"u\"><x:speed>1.5</x:speed></x:y></\(prefix)extensions>" }
                s += children.isEmpty && rng.uniform(0, 1) < 0.5 ? "<\(prefix)trkpt \(attrs)/>\n" : "<\(prefix)trkpt \(attrs)>\(children)</\(prefix)trkpt>\n"
            }
            s += "</\(prefix)trkseg></\(prefix)trk></\(prefix)gpx>\n"
            try compareWithLibxml2(Array(s.utf8), name: "generated-\(doc)")
        }
    }

    @Test("malformed documents are rejected by both", arguments: [
        "<gpx><trk></gpx>", "<gpx a='1' a='2'/>", "<gpx></gpx><gpx/>", "<gpx>&bomb;</gpx>", "<xml∂></xml∂>", "<gpx><trk>",
    ])
    func bothReject(doc: String) throws {
        #expect(libxml2TrackPoints(Array(doc.utf8)) == nil)
        #expect(throws: TraceReadError.self) { _ = try readGPX(doc) }
    }
}
