import TestSupport
import Testing
import TraceDomain
import TracePlatform

@testable import TraceIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
            return
                "2024-05-01T\(s / 3600 < 10 ? "0" : "")\(s / 3600):\(s / 60 % 60 < 10 ? "0" : "")\(s / 60 % 60):\(s % 60 < 10 ? "0" : "")\(s % 60)Z"
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
                case 9:
                    children.append(
                        "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>3.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>"
                    )
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

    /// Reads `reader` to the end; returns what it read and how many points the fused path took.
    static func read(_ reader: GPXReader) throws -> (result: ReadResult, fused: Int) {
        var reader = reader
        var items: [TraceItem] = []
        while let item = try reader.next() { items.append(item) }
        return (ReadResult(items: items, diagnostics: reader.diagnostics), reader.fusedCount)
    }

    /// Reads `bytes` three ways (fused and plain points, plain points only, token by token) and
    /// checks that all three give the same items and diagnostics; returns the first way's reading.
    @discardableResult
    static func expectPathsAgree(_ bytes: [UInt8], options: ReadOptions = ReadOptions(), _ label: String) throws -> (
        result: ReadResult, fused: Int
    ) {
        let fused = GPXReader(bytes: bytes, options: options)
        let plain = GPXReader(bytes: bytes, options: options, paths: .plain)
        let tokens = GPXReader(bytes: bytes, options: options, paths: .fused)
        let a = try read(fused), b = try read(plain), c = try read(tokens)
        #expect(b.fused == 0 && c.fused == 0)
        #expect(a.result.items == c.result.items, "\(label): fused vs tokens")
        #expect(a.result.diagnostics == c.result.diagnostics, "\(label): fused vs tokens")
        #expect(b.result.items == c.result.items, "\(label): plain vs tokens")
        #expect(b.result.diagnostics == c.result.diagnostics, "\(label): plain vs tokens")
        return a
    }

    @Test("plain points read the same whole and token by token")
    func pathsAgree() throws {
        for seed in UInt64(1)...20 {
            let bytes = Array(Self.quirkyGPX(seed: seed).utf8)
            for offset in [nil, 3600] {
                let a = try Self.expectPathsAgree(bytes, options: ReadOptions(zonelessUTCOffset: offset), "seed \(seed)")
                #expect(a.result.points.count > 200)
                #expect(a.fused > 20, "seed \(seed)")
            }
        }
    }

    /// A number's text for the fused path's generator: mostly ordinary, often at the edges of the
    /// number grammar or of what the fused path takes.
    static func numberText(_ value: Double, _ r: inout SplitMix64) -> String {
        switch r.next() % 120 {
        case 0: return " \(value)"
        case 1: return "\(value) "
        case 2: return "\t\(value)\r\n"
        case 3: return "+\(value)"
        case 4: return "\(value)e0"
        case 5: return "\(value * 1000)E-3"
        case 6: return "000\(value)"
        case 7: return "\(value)00000000001"  // 17–20+ digits
        case 8: return "\(Int(value)).1234567890123456789"
        case 9: return "\(value)m"
        case 10: return "\(value)e"
        case 11: return "\(value)e+"
        case 12: return "\(value) 1"
        case 13: return "-\(value)"
        case 14: return "."
        case 15: return "\(Int(value))."
        case 16: return "0x10"
        case 17: return "nan"
        case 18: return "1e999"
        case 19: return "-0"
        case 20: return "&#52;2"
        case 21: return "\(value)&#48;"
        case 22: return ".5"
        case 23: return "\(value)123456789012345678901234567890"
        case 24: return "0.0000000000000000000000\(Int(value))"
        default: return "\(value)"
        }
    }

    /// A seeded GPX of points near the fused path's shape: most are taken by it; the others vary
    /// one thing it must refuse (or take) exactly as the other paths read it.
    static func fusedGPX(seed: UInt64, lineEnd: String = "\n") -> String {
        var rng = SplitMix64(seed: seed)
        var second = 0
        func stamp(_ r: inout SplitMix64) -> String {
            second += Int(r.next() % 3)
            let s = second
            let base =
                "2024-05-01T\(s / 3600 < 10 ? "0" : "")\(s / 3600):\(s / 60 % 60 < 10 ? "0" : "")\(s / 60 % 60):\(s % 60 < 10 ? "0" : "")\(s % 60)"
            switch r.next() % 80 {
            case 0: return base  // no zone
            case 1: return base + ".123456789123Z"
            case 2: return base + ".5+02:00"
            case 3: return base + "-0130"
            case 4: return base + "+05"
            case 5: return " " + base + "Z "
            case 6: return base + " Z"
            case 7: return base.replacingOccurrences(of: "T", with: " ") + "Z"
            case 8: return base.replacingOccurrences(of: "T", with: "t") + "z"
            case 9: return "2024-02-30T00:00:00Z"
            case 10: return "2024-05-01T24:00:00Z"
            case 11: return "2024-05-01T23:59:60.5Z"
            case 12: return "2024-05-01"
            case 13: return base + "Z&#32;"
            case 14: return "2262-04-12T00:00:00Z"
            case 15: return base + ",25Z"
            default: return base + "Z"
            }
        }
        func child(_ r: inout SplitMix64) -> String {
            let v = (r.uniform(0, 500) * 10).rounded() / 10
            switch r.next() % 30 {
            case 0: return "<hdop>\(numberText(v / 100, &r))</hdop>"
            case 1: return "<vdop>\(numberText(v / 100, &r))</vdop>"
            case 2: return "<pdop>\(numberText(v / 100, &r))</pdop>"
            case 3: return "<sat>\(["7", "12", "12.0", "1e1", "-0", "999", "1000", "7.5", " 8 ", "+3"][Int(r.next() % 10)])</sat>"
            case 4: return "<speed>\(numberText(v / 50, &r))</speed>"
            case 5: return "<course>\(["0", "360", "360.0000000001", "359.9", "-0", "-1", "90e0"][Int(r.next() % 7)])</course>"
            case 6: return "<hAcc>\(numberText(v / 20, &r))</hAcc>"
            case 7: return "<vAcc>\(numberText(v / 20, &r))</vAcc>"
            case 8: return "<ele/>"
            case 9: return "<ele></ele>"
            case 10: return "<ele><![CDATA[12]]></ele>"
            case 11: return "<ele>1<!-- c -->2</ele>"
            case 12: return "<ele >5</ele>"
            case 13: return "<ele>5</ele >"
            case 14: return "<elevation>5</elevation>"
            case 15: return "<fix>3d</fix>"
            case 16: return "<hdop>-0.5</hdop>"
            case 17: return "<time>\(stamp(&r))</time>"
            case 18: return "<gpx:ele>4</gpx:ele>"
            case 19: return "<extensions><speed>2</speed></extensions>"
            default: return "<ele>\(numberText(v, &r))</ele>"
            }
        }
        func point(_ tag: String, _ r: inout SplitMix64) -> String {
            let lat = 47 + r.uniform(-1, 1), lon = 8 + r.uniform(-1, 1)
            let q = r.next() % 5 == 0 ? "'" : "\""
            var attributes: String
            switch r.next() % 30 {
            case 0: attributes = "lon=\(q)\(numberText(lon, &r))\(q) lat=\(q)\(numberText(lat, &r))\(q)"
            case 1: attributes = "lat=\(q)\(lat)\(q)\tlon=\(q)\(lon)\(q)\t"
            case 2: attributes = "lat=\"\(lat)\" lon='\(lon)'"
            case 3: attributes = "lat=\"\(lat)\" lon=\"\(lon)\" latitude=\"1\""
            case 4: attributes = "lat = \"\(lat)\" lon=\"\(lon)\""
            case 5: attributes = "lat=\"\(lat)\"\(lineEnd)  lon=\"\(lon)\""
            case 6:
                attributes =
                    "lat=\"\(["90", "-90", "90.0000001", "-0"][Int(r.next() % 4)])\" lon=\"\(["180", "-180", "179.9", "200", "-360.5", "1e3"][Int(r.next() % 6)])\""
            case 7: attributes = "lat=\"\(lat)\" lon=\"\(lon)\" ele=\"5\""
            case 8: attributes = "gpx:lat=\"\(lat)\" lon=\"\(lon)\""
            case 9: attributes = "lat=\"\(lat)\""
            case 10: return "<\(tag) lat=\"\(lat)\" lon=\"\(lon)\"/>" + lineEnd
            default: attributes = "lat=\(q)\(numberText(lat, &r))\(q) lon=\(q)\(numberText(lon, &r))\(q)"
            }
            var children: [String] = []
            if r.next() % 8 != 0 { children.append("<ele>\(numberText((r.uniform(300, 500) * 10).rounded() / 10, &r))</ele>") }
            if r.next() % 8 != 0 { children.append("<time>\(stamp(&r))</time>") }
            for _ in 0..<(r.next() % 4) { children.append(child(&r)) }
            let gap = ["", lineEnd + "  ", " ", "\t", "\r\n\t"][Int(r.next() % 5)]
            let end = r.next() % 50 == 0 ? "</\(tag) >" : "</\(tag)>"
            return "<\(tag) \(attributes)>" + children.map { gap + $0 }.joined() + gap + end + lineEnd
        }
        var text = "<?xml version=\"1.0\"?>" + lineEnd + "<gpx version=\"1.1\">" + lineEnd
        text += "<wpt lat=\"47.1\" lon=\"8.1\"><ele>3</ele></wpt>" + lineEnd
        text += "<trk><name>t</name>" + lineEnd
        for _ in 0..<3 {
            text += "<trkseg>" + lineEnd
            for _ in 0..<150 { text += "  " + point(rng.next() % 15 == 0 ? "wpt" : "trkpt", &rng) }
            text += "</trkseg>" + lineEnd
        }
        text += "<trkpt lat=\"47\" lon=\"8\"><ele>1</ele></trkpt>" + lineEnd + "</trk>" + lineEnd  // outside a segment
        text += "<rte><name>r</name>" + lineEnd
        for _ in 0..<60 { text += point("rtept", &rng) }
        text += "</rte>" + lineEnd + "<trkpt lat=\"1\" lon=\"2\"></trkpt>" + lineEnd + "</gpx>" + lineEnd
        return text
    }

    @Test("points near the fused path's shape read the same on every path")
    func fusedShapesAgree() throws {
        for seed in UInt64(1)...12 {
            for lineEnd in ["\n", "\r\n"] {
                let bytes = Array(Self.fusedGPX(seed: seed, lineEnd: lineEnd).utf8)
                for offset in [nil, 3600, -50_000_000_000] {
                    let a = try Self.expectPathsAgree(bytes, options: ReadOptions(zonelessUTCOffset: offset), "seed \(seed)")
                    #expect(
                        a.fused > 60 && a.fused < a.result.items.count - 100, "seed \(seed): \(a.fused) fused of \(a.result.items.count)")
                }
            }
        }
    }

    @Test("a duplicate attribute is the same error on every path")
    func duplicateAttribute() {
        let bytes = Array("<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\" lat=\"3\"><ele>1</ele></trkpt></trkseg></trk></gpx>".utf8)
        let tokens = GPXReader(bytes: bytes, paths: .fused)
        var messages: [String] = []
        for reader in [GPXReader(bytes: bytes), tokens] {
            do {
                _ = try Self.read(reader)
                Issue.record("read a duplicate attribute")
            } catch {
                messages.append("\(error)")
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1] && messages[0].contains("duplicate attribute"))
    }

    @Test("a fused child's end tag must be its own: any other name, or one byte off, is the same error on every path")
    func fusedChildEndTags() throws {
        let names = ["ele", "time", "hdop", "hAcc", "vdop", "vAcc", "pdop", "sat", "speed", "course"]
        /// A point whose one child `name` ends with `</` and `end` (its name and `>`, or not).
        func text(_ name: String, end: String) -> [UInt8] {
            let value = name == "time" ? "2024-05-01T00:00:01Z" : "7"
            return Array(
                "<gpx><trk><trkseg>\n<trkpt lat=\"47.5\" lon=\"8.25\">\n<\(name)>\(value)</\(end)\n</trkpt>\n</trkseg></trk></gpx>\n".utf8)
        }
        for name in names {
            // Its own end tag: the fused path takes the point.
            let own = try Self.expectPathsAgree(text(name, end: name + ">"), name)
            #expect(own.fused == 1, "\(name)")
            // The other names, every byte of its own name changed, a name one byte longer or
            // shorter, or no '>': malformed, the same error on the fused and token paths.
            var ends = names.filter { $0 != name }.map { $0 + ">" }
            for k in 0..<name.utf8.count {
                var changed = Array(name.utf8)
                changed[k] ^= 0x20
                ends.append(String(decoding: changed, as: UTF8.self) + ">")
            }
            ends += [name + "x>", String(name.dropLast()) + ">", name + "\n", name + "/"]
            for end in ends {
                let tokens = GPXReader(bytes: text(name, end: end), paths: .fused)
                var messages: [String] = []
                var fusedCount = 0
                for reader in [GPXReader(bytes: text(name, end: end)), tokens] {
                    var reader = reader
                    do {
                        while try reader.next() != nil {}
                        Issue.record("<\(name)> closed by </\(end) read")
                    } catch {
                        messages.append("\(error)")
                    }
                    fusedCount += reader.fusedCount
                }
                #expect(fusedCount == 0, "<\(name)> closed by </\(end)")
                #expect(messages.count == 2 && messages[0] == messages[1], "<\(name)> closed by </\(end): \(messages)")
            }
        }
    }

    /// What reading to the end with `reader` gives (items and diagnostics, or the error's text),
    /// and how many points the fused path took.
    static func outcome(_ reader: GPXReader) -> (text: String, fused: Int) {
        var reader = reader
        var items: [TraceItem] = []
        do {
            while let item = try reader.next() { items.append(item) }
        } catch {
            return ("error: \(error)", reader.fusedCount)
        }
        return ("\(items) \(reader.diagnostics)", reader.fusedCount)
    }

    @Test("every byte after a time's 19 bytes, and after a 20th, reads the same on the fused and token paths")
    func fusedTimeEnds() {
        let head = "2024-05-01T00:00:01"
        var fused = 0
        for b in UInt8(1)...0x7F {
            let c = String(decoding: [b], as: UTF8.self)
            for time in [head + c, head + "Z" + c, head + c + "Z", head + c + "<a/>", head + "Z" + c + "<a/>"] {
                let bytes = Array(
                    "<gpx><trk><trkseg>\n<trkpt lat=\"47.5\" lon=\"8.25\"><time>\(time)</time></trkpt>\n</trkseg></trk></gpx>\n".utf8)
                let tokens = GPXReader(bytes: bytes, paths: .fused)
                let a = Self.outcome(GPXReader(bytes: bytes))
                #expect(a.text == Self.outcome(tokens).text, "time \(time.debugDescription)")
                fused += a.fused
            }
        }
        // "Z" or "z" alone, and the time with or without "Z" before white space (tab, LF, CR,
        // space): the others are no time, or not this shape.
        #expect(fused == 10, "\(fused)")
    }

    /// The fused path expects the white space it found last time at each place (before a point,
    /// before its first child, its second, …): runs of 0–20 bytes, repeated and changing, before
    /// points and up to ten children, all read by it, with what the other paths read.
    @Test("white space before points and children that repeats, changes, or is 16 bytes or longer")
    func fusedPredictedSpaces() throws {
        var rng = SplitMix64(seed: 16)
        var text = "<gpx><trk><trkseg>"
        var points = 0, second = 0
        func gap(_ r: inout SplitMix64, _ n: Int) -> String {
            (0..<n).map { _ in [" ", "\t", "\n", "\r"][Int(r.next() % 4)] }.joined()
        }
        for run in 0..<120 {
            let pointGap = run % 21, childGap = (run * 7) % 21, endGap = (run * 5) % 21
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                second += 1
                let children = [
                    "<ele>1.5</ele>",
                    "<time>2024-05-01T00:\(second / 60 < 10 ? "0" : "")\(second / 60):\(second % 60 < 10 ? "0" : "")\(second % 60)Z</time>",
                    "<hdop>1.2</hdop>", "<vdop>2</vdop>", "<pdop>3</pdop>", "<sat>7</sat>", "<speed>1.25</speed>",
                    "<course>90</course>", "<hAcc>4</hAcc>", "<vAcc>5</vAcc>",
                ].prefix(2 + run % 9)
                text += gap(&rng, pointGap) + "<trkpt lat=\"47.5\" lon=\"8.25\">"
                for (k, child) in children.enumerated() { text += gap(&rng, k % 2 == 0 ? childGap : (childGap + k) % 21) + child }
                text += gap(&rng, endGap) + "</trkpt>"
                points += 1
            }
        }
        text += "\n</trkseg></trk></gpx>\n"
        let a = try Self.expectPathsAgree(Array(text.utf8), "gaps")
        #expect(a.result.points.count == points)
        #expect(a.fused == points, "\(a.fused) of \(points)")
    }

    @Test("every child the fused path knows is read by it, with the values the other paths read")
    func fusedTakesItsShape() throws {
        let point = """
              <trkpt lat="47.5" lon="-8.25">
                <ele>442.1</ele><time>2024-05-01T00:00:01.5+01:00</time><hdop>1.6</hdop><vdop>2</vdop><pdop>2.5</pdop>
                <sat>9</sat><speed>3.25</speed><course>271.5</course><hAcc>4.5</hAcc><vAcc>6.5</vAcc>
              </trkpt>

            """
        let text =
            "<gpx><trk><trkseg>\n" + point + point.replacingOccurrences(of: "00:00:01", with: "00:00:02")
            + "</trkseg></trk><rte>\n" + point.replacingOccurrences(of: "trkpt", with: "rtept") + "</rte>\n"
            + point.replacingOccurrences(of: "trkpt", with: "wpt") + "</gpx>\n"
        let a = try Self.expectPathsAgree(Array(text.utf8), "all children")
        for (k, piece) in [point, point.replacingOccurrences(of: "trkpt", with: "wpt")].enumerated() {
            let one = try Self.expectPathsAgree(Array(("<gpx><trk><trkseg>\n" + piece + "</trkseg></trk></gpx>").utf8), "piece \(k)")
            #expect(one.fused == 1, "piece \(k)")
        }
        #expect(a.fused == 3)  // not the route's first point, which states the route
        #expect(a.result.diagnostics.counts.isEmpty)
        guard case .trackPoint(let f) = a.result.items.first(where: { if case .trackPoint = $0 { true } else { false } }) else {
            Issue.record("no track point")
            return
        }
        #expect(f.coordinate.latitude == 47.5 && f.coordinate.longitude == -8.25)
        #expect(f.elevation == 442.1 && f.hdop == 1.6 && f.vdop == 2 && f.pdop == 2.5 && f.satellites == 9)
        #expect(f.speed == 3.25 && f.course == 271.5 && f.horizontalAccuracy == 4.5 && f.verticalAccuracy == 6.5)
        #expect(f.time == Timestamp.parseISO8601("2024-05-01T00:00:01.5+01:00")?.timestamp)
    }

    @Test("points across the streaming window's block boundaries read the same on every path")
    func fusedAcrossBlocks() throws {
        // About 3 MiB read from a file through the 1 MiB window: points of varying length fall
        // across its end at every offset.
        var rng = SplitMix64(seed: 7)
        var text = "<gpx><trk><trkseg>\n"
        var second = 0
        while text.utf8.count < 3 << 20 {
            second += 1
            let pad = String(repeating: " ", count: Int(rng.next() % 23))
            let lat = 47 + rng.uniform(-1, 1), lon = 8 + rng.uniform(-1, 1)
            text +=
                "<trkpt lat=\"\(lat)\" lon=\"\(lon)\">\(pad)<ele>\(rng.uniform(0, 900))</ele>\n<time>2024-05-01T00:00:00.\(second)Z</time><hdop>\(rng.uniform(0, 9))</hdop></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let path = "/tmp/tracekit-fused-blocks-\(getpid()).gpx"
        createFile(path, Array(text.utf8))
        defer { try? Platform.remove(path) }
        func readFile(fused: Bool, plain: Bool) throws -> (result: ReadResult, fused: Int) {
            let reader = GPXReader(source: try ByteSource(path: path), options: ReadOptions(), paths: ReadPaths(plain: plain, fused: fused))
            return try Self.read(reader)
        }
        let a = try readFile(fused: true, plain: true), c = try readFile(fused: false, plain: false)
        let memory = try Self.expectPathsAgree(Array(text.utf8), "in memory")
        #expect(a.result.items == c.result.items)
        #expect(a.result.diagnostics == c.result.diagnostics)
        #expect(a.result.items == memory.result.items)
        #expect(a.fused > a.result.points.count - 10 && a.fused < a.result.points.count)
    }

    @Test("the name-byte bitmap agrees with the name-byte class")
    func nameBytes() {
        for b in UInt8(0)...UInt8(255) {
            #expect(XMLScanner.isASCIINameByte(b) == (b < 0x80 && XMLScanner.isNameByte(b)), "byte \(b)")
        }
    }
}
