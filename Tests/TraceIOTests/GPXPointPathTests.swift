import TestSupport
import Testing
@testable import TraceIO

/// The GPX reader reads a plain point whole and anything else token by token; both paths must
/// give the same items and diagnostics (problems with the same lines) on every input.
@Suite("GPX point paths")
struct GPXPointPathTests {
    /// A seeded GPX mixing plain points with every shape that must leave the plain path:
    /// unreadable and negative values, missing or bad coordinates, zone-less and unreadable times,
    /// backwards and duplicate times, prefixes, extensions, comments, references, empty and
    /// self-closing children, unknown children, attributes in either quote, route points and
    /// waypoints.
    static func quirkyGPX(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        var second = 0
        func time(_ r: inout SplitMix64) -> String {
            switch r.next() % 12 {
            case 0: return "2024-05-01T00:00:00"  // no zone
            case 1: return "yesterday"
            case 2: second -= 5; return stamp()  // backwards
            case 3: return stamp()  // duplicate
            default: second += 1; return stamp()
            }
        }
        func stamp() -> String {
            let s = max(0, second)
            return "2024-05-01T\(s / 3600 < 10 ? "0" : "")\(s / 3600):\(s / 60 % 60 < 10 ? "0" : "")\(s / 60 % 60):\(s % 60 < 10 ? "0" : "")\(s % 60)Z"
        }
        func point(_ tag: String, _ r: inout SplitMix64) -> String {
            let lat = 47 + r.uniform(-0.01, 0.01), lon = 8 + r.uniform(-0.01, 0.01)
            var attributes: String
            switch r.next() % 14 {
            case 0: attributes = "lon='\(lon)' lat='\(lat)'"
            case 1: attributes = "lat=\"\(lat)\""  // no lon
            case 2: attributes = "lat=\"north\" lon=\"\(lon)\""
            case 3: attributes = "lat=\"95\" lon=\"\(lon)\""
            case 4: attributes = "lat=\" \(lat) \" lon=\"\(lon)\" extra=\"x\""
            default: attributes = "lat=\"\(lat)\" lon=\"\(lon)\""
            }
            var children: [String] = []
            for _ in 0..<(r.next() % 6) {
                switch r.next() % 20 {
                case 0: children.append("<ele>high</ele>")
                case 1: children.append("<hdop>-1</hdop>")
                case 2: children.append("<ele></ele>")
                case 3: children.append("<sat/>")
                case 4: children.append("<course>400</course>")
                case 5: children.append("<sat>7.5</sat>")
                case 6: children.append("<fix>3d</fix>")
                case 7: children.append("<name>a &amp; b</name>")
                case 8: children.append("<!-- note --><ele>1</ele>")
                case 9: children.append("<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>3.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>")
                case 10: children.append("<desc>unknown child</desc>")
                case 11: children.append("<gpx:ele>12.5</gpx:ele>")
                case 12: children.append("<speed>2.5</speed><course>90</course>")
                case 13: children.append("<hAcc>4.5</hAcc><vAcc>6</vAcc>")
                case 14: children.append("<ele> 440.5 </ele>")
                default: children.append("<ele>\((r.uniform(300, 500) * 10).rounded() / 10)</ele><time>\(time(&r))</time>")
                }
            }
            if r.next() % 3 != 0 { children.append("<time>\(time(&r))</time>") }
            let gap = ["", "\n  ", " "][Int(r.next() % 3)]
            return "<\(tag) \(attributes)>" + children.map { gap + $0 }.joined() + gap + "</\(tag)>\n"
        }
        text += "<wpt lat=\"47.1\" lon=\"8.1\"><name>start</name></wpt>\n"
        for t in 0..<2 {
            text += "<trk><name>track \(t)</name>\n"
            for _ in 0..<3 {
                text += "<trkseg>\n"
                for _ in 0..<60 { text += point(rng.next() % 9 == 0 ? "wpt" : "trkpt", &rng) }
                text += "</trkseg>\n"
            }
            text += "<trkpt lat=\"47\" lon=\"8\"><ele>1</ele></trkpt>\n</trk>\n"  // a point outside a segment
        }
        text += "<rte><name>route</name>\n"
        for _ in 0..<30 { text += point("rtept", &rng) }
        text += "</rte>\n</gpx>\n"
        return text
    }

    @Test("plain points read the same whole and token by token")
    func pathsAgree() throws {
        for seed in UInt64(1)...20 {
            let bytes = Array(Self.quirkyGPX(seed: seed).utf8)
            for offset in [nil, 3600] {
                let options = ReadOptions(zonelessUTCOffset: offset)
                let whole = GPXReader(bytes: bytes, options: options)
                var tokens = GPXReader(bytes: bytes, options: options)
                tokens.plainPoints = false
                let a = try readTrace(whole), b = try readTrace(tokens)
                #expect(a.points.count > 200)
                #expect(a.items == b.items, "seed \(seed)")
                #expect(a.diagnostics == b.diagnostics, "seed \(seed)")
            }
        }
    }

    @Test("the name-byte bitmap agrees with the name-byte class")
    func nameBytes() {
        for b in UInt8(0)...UInt8(255) {
            #expect(XMLScanner.isASCIINameByte(b) == (b < 0x80 && XMLScanner.isNameByte(b)), "byte \(b)")
        }
    }
}
