import Foundation
import GPXDifferential
import TestSupport
import Testing
import TraceGeodesy

@testable import TraceIO

/// Compares TraceKit's track points with libxml2's (``compareGPXWithLibxml2``): the same
/// points, or both reject.
func compareWithLibxml2(_ bytes: [UInt8], name: String) throws {
    if case .differ(let why) = compareGPXWithLibxml2(bytes, name: name) { Issue.record(Comment(rawValue: why)) }
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

    @Test(
        "every GPX in ../shared/traces reads the same points as libxml2",
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
                let attrs =
                    rng.uniform(0, 1) < 0.5 ? "lat=\(q)\(latText)\(q) lon=\(q)\(lon)\(q)" : "lon=\(q)\(lon)\(q)  lat=\(q)\(latText)\(q)"
                var children = ""
                if rng.uniform(0, 1) < 0.7 {
                    children +=
                        "<\(prefix)ele>\(rng.uniform(0, 1) < 0.2 ? "<![CDATA[\(rng.uniform(-100, 4000))]]>" : String(rng.uniform(-100, 4000)))</\(prefix)ele>"
                }
                if rng.uniform(0, 1) < 0.8 {
                    let sec = Int(rng.uniform(0, 59))
                    children +=
                        "<\(prefix)time>2024-03-0\(Int(rng.uniform(1, 9)))T12:34:\(sec < 10 ? "0" : "")\(sec)\(rng.uniform(0, 1) < 0.5 ? ".123Z" : "+02:00")</\(prefix)time>"
                }
                if rng.uniform(0, 1) < 0.3 { children += "<\(prefix)name>a &amp; b &#x41;</\(prefix)name><!-- c -->" }
                if rng.uniform(0, 1) < 0.3 {
                    children += "<\(prefix)extensions><x:y xmlns:x=\"u\"><x:speed>1.5</x:speed></x:y></\(prefix)extensions>"
                }
                s +=
                    children.isEmpty && rng.uniform(0, 1) < 0.5
                    ? "<\(prefix)trkpt \(attrs)/>\n" : "<\(prefix)trkpt \(attrs)>\(children)</\(prefix)trkpt>\n"
            }
            s += "</\(prefix)trkseg></\(prefix)trk></\(prefix)gpx>\n"
            try compareWithLibxml2(Array(s.utf8), name: "generated-\(doc)")
        }
    }

    @Test(
        "malformed documents are rejected by both (a cut one by TraceKit under the fail policy)",
        arguments: [
            "<gpx><trk></gpx>", "<gpx a='1' a='2'/>", "<gpx></gpx><gpx/>", "<gpx>&bomb;</gpx>", "<xml∂></xml∂>", "<gpx><trk>",
        ])
    func bothReject(doc: String) throws {
        #expect(libxml2TrackPoints(Array(doc.utf8)) == nil)
        #expect(throws: TraceReadError.self) { _ = try readGPX(doc, policy: .fail) }
    }

    @Test(
        "an encoding TraceKit does not read, or a root that is not <gpx>, which libxml2 reads, is declined, not a disagreement",
        arguments: [
            ("<?xml version='1.0' encoding='UTF-7'?><gpx/>", "t.gpx:1:31: unsupported encoding 'UTF-7' (UTF-8 and ISO-8859-1 are read)"),
            ("<kml><trkpt lat='1' lon='2'/></kml>", "t.gpx:1:6: not a GPX document: the root element is <kml>, expected <gpx>"),
        ])
    func declined(doc: String, message: String) {
        guard case .declined(let error) = compareGPXWithLibxml2(Array(doc.utf8), name: "t.gpx") else {
            Issue.record("expected .declined")
            return
        }
        #expect(error.description == message)
    }

    @Test(
        "bytes that are not XML characters, and malformed XML declarations, are rejected by both (found by fuzz-gpx-diff)",
        arguments: [
            Array("<gpx>\n\t".utf8) + [0xFE] + Array("</gpx>".utf8),
            Array("<gpx>".utf8) + [0xC3] + Array("</gpx>".utf8),
            Array("<gpx>".utf8) + [0xED, 0xA0, 0x80] + Array("</gpx>".utf8),
            Array("<gpx>".utf8) + [0xEF, 0xBF, 0xBE] + Array("</gpx>".utf8),
            Array("<gpx/>".utf8) + [0xE2, 0x82],
            Array("<gpx>\u{1}</gpx>".utf8),
            Array("<?xml version='1.0' encoding='ISO-8859-1'?><gpx><wpt ".utf8) + [0xCF, 0x9E] + Array("t='1'/></gpx>".utf8),
            Array("<?xml version 1e.\"\"=0ncoding=\"ISO-8UTF-8\" standalone=\"yes\"?><gpx/>".utf8),
            Array("<?xml vegpxrsion=\"1.0\" encoding=\"UTF-8\"?><gpx/>".utf8),
            Array("<?xml?><gpx/>".utf8),
            Array("<?xml version='1.0' standalone='maybe'?><gpx/>".utf8),
            Array("<gpx><?xml version='1.0'?></gpx>".utf8),
        ])
    func bothRejectBytes(doc: [UInt8]) throws {
        #expect(libxml2TrackPoints(doc) == nil)
        #expect(throws: TraceReadError.self) {
            var reader = GPXReader(bytes: doc, name: "t.gpx")
            while try reader.next() != nil {}
        }
    }
}
