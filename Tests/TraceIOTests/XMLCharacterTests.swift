import Foundation
import TestSupport
import Testing

@testable import TraceIO

/// The reference: XML 1.0's Char production over a decoded string.
private func isXMLDocumentText(_ bytes: [UInt8]) -> Bool {
    guard let s = String(validating: bytes, as: UTF8.self) else { return false }
    return s.unicodeScalars.allSatisfy { u in
        let v = u.value
        return v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
            || (0x10000...0x10FFFF).contains(v)
    }
}

@Suite("XML characters")
struct XMLCharacterTests {
    /// Random bytes biased towards the interesting ones: ASCII, controls, lead and continuation bytes.
    static func sample(_ rng: inout SplitMix64) -> [UInt8] {
        let alphabet: [UInt8] = [
            0x41, 0x20, 0x0A, 0x09, 0x0D, 0x00, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0x9F, 0xA0, 0x8F, 0x90,
            0xC2, 0xC0, 0xDF, 0xE0, 0xED, 0xEF, 0xBE, 0xF0, 0xF4, 0xF5, 0xFF, 0x3C,
        ]
        return (0..<Int(rng.uniform(0, 48))).map { _ in
            rng.uniform(0, 1) < 0.3 ? UInt8(rng.uniform(0, 256)) : alphabet[Int(rng.uniform(0, Double(alphabet.count)))]
        }
    }

    @Test("the block check agrees with decoding and XML's Char production, whole or split anywhere")
    func againstReference() {
        var rng = SplitMix64(seed: 2026)
        for _ in 0..<50_000 {
            let bytes = Self.sample(&rng)
            let expected = isXMLDocumentText(bytes)
            bytes.withUnsafeBufferPointer { b in
                let base = b.baseAddress ?? UnsafePointer(bitPattern: 1)!
                let whole = XMLCharacters.scan(base, from: 0, to: b.count, latin1: false)
                #expect((whole.problem == nil) == expected, "\(bytes)")
                if whole.problem == nil { #expect(whole.valid == b.count) }
                // Streaming: a block ends at `cut`; a character cut there is checked with the next block.
                let cut = bytes.isEmpty ? 0 : Int(rng.uniform(0, Double(bytes.count)))
                let first = XMLCharacters.scan(base, from: 0, to: cut, latin1: false)
                var verdict = first.problem
                if verdict == nil || verdict == .truncated {
                    verdict = XMLCharacters.scan(base, from: first.valid, to: b.count, latin1: false).problem
                }
                #expect((verdict == nil) == expected, "\(bytes) cut at \(cut)")
            }
        }
    }

    @Test("sixteen-byte blocks: a bad byte is found in every lane")
    func everyLane() {
        for lane in 0..<40 {
            for bad: UInt8 in [0x00, 0x08, 0x0B, 0x1F, 0x80, 0xFF] {
                var bytes = [UInt8](repeating: 0x61, count: 40)
                bytes[lane] = bad
                let scan = bytes.withUnsafeBufferPointer { XMLCharacters.scan($0.baseAddress!, from: 0, to: 40, latin1: false) }
                #expect(scan.valid == lane && scan.problem != nil, "lane \(lane), byte \(bad)")
            }
        }
    }

    @Test("the 64- and 16-byte ASCII blocks give what the byte loop gives, on long runs with a bad byte anywhere")
    func blocksAgainstByteLoop() {
        var rng = SplitMix64(seed: 64)
        // Mostly printable ASCII, tab, LF and CR (so the block paths run long), with now and then
        // any byte: controls, DEL, bytes whose value with bit 2 set is CR (0x09, 0x0D, and the
        // near misses 0x05, 0x0B, 0x0C), lead and continuation bytes.
        let rare: [UInt8] = [
            0x00, 0x01, 0x05, 0x08, 0x0B, 0x0C, 0x0E, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xEF, 0xBF, 0xBE, 0xF0, 0xFF,
        ]
        for round in 0..<20_000 {
            let length = Int(rng.uniform(0, 300))
            let density = [0.0, 0.001, 0.01, 0.1][round % 4]
            let bytes: [UInt8] = (0..<length).map { _ in
                if rng.uniform(0, 1) < density {
                    return rng.uniform(0, 1) < 0.5 ? rare[Int(rng.uniform(0, Double(rare.count)))] : UInt8(rng.uniform(0, 256))
                }
                let r = rng.uniform(0, 1)
                return r < 0.05 ? [0x09, 0x0A, 0x0D][Int(rng.uniform(0, 3))] : UInt8(rng.uniform(0x20, 0x80))
            }
            let from = length == 0 ? 0 : Int(rng.uniform(0, Double(min(length, 20))))
            bytes.withUnsafeBufferPointer { b in
                let base = b.baseAddress ?? UnsafePointer(bitPattern: 1)!
                for latin1 in [false, true] {
                    let fast = XMLCharacters.scan(base, from: from, to: b.count, latin1: latin1)
                    let slow = XMLCharacters.scan(base, from: from, to: b.count, latin1: latin1, blocks: false)
                    #expect(fast == slow, "\(bytes) from \(from), latin1 \(latin1)")
                }
                // The line feeds counted on the way are those before `valid`.
                let scan = XMLCharacters.scan(base, from: from, to: b.count, latin1: false)
                #expect(scan.lines == b[from..<scan.valid].count(where: { $0 == 0x0A }), "\(bytes) from \(from)")
                // Every byte before the block prefix is an allowed ASCII character, and its line feeds are counted.
                var lines = 0
                let prefix = XMLCharacters.asciiPrefix(base, from: from, to: b.count, lines: &lines)
                #expect(prefix >= from && prefix <= b.count && (prefix - from) % 16 == 0)
                #expect(b[from..<prefix].allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 < 0x80) })
                #expect(lines == b[from..<prefix].count(where: { $0 == 0x0A }))
                var wordLines = 0
                let words = XMLCharacters.asciiPrefixWords(base, from: from, to: b.count, lines: &wordLines)
                #expect(wordLines == b[from..<words].count(where: { $0 == 0x0A }))
            }
        }
        // Each byte value in each of 64 lanes of an otherwise printable run.
        for value in 0...255 {
            for lane in stride(from: 0, to: 80, by: 7) {
                var bytes = [UInt8](repeating: 0x61, count: 80)
                bytes[lane] = UInt8(value)
                let fast = bytes.withUnsafeBufferPointer { XMLCharacters.scan($0.baseAddress!, from: 0, to: 80, latin1: false) }
                let slow = bytes.withUnsafeBufferPointer {
                    XMLCharacters.scan($0.baseAddress!, from: 0, to: 80, latin1: false, blocks: false)
                }
                #expect(fast == slow, "byte \(value) in lane \(lane)")
                let allowed = value == 0x09 || value == 0x0A || value == 0x0D || (value >= 0x20 && value < 0x80)
                #expect((fast.problem == nil) == allowed, "byte \(value) in lane \(lane)")
            }
        }
    }

    @Test("the portable 8-byte words: every byte value in every lane is classified as the byte rule says")
    func portableWords() {
        func allowed(_ b: UInt8) -> Bool { (b >= 0x20 && b < 0x80) || b == 0x09 || b == 0x0A || b == 0x0D }
        var rng = SplitMix64(seed: 8)
        let fillers: [UInt8] = [0x61, 0x20, 0x09, 0x0A, 0x0D, 0x7F, 0x3C]
        for lane in 0..<24 {
            for value in 0...255 {
                var bytes = (0..<24).map { _ in fillers[Int(rng.uniform(0, Double(fillers.count)))] }
                bytes[lane] = UInt8(value)
                var lines = 0
                let end = bytes.withUnsafeBufferPointer { XMLCharacters.asciiPrefixWords($0.baseAddress!, from: 0, to: 24, lines: &lines) }
                // The words before the one holding the lane are clean; that word is clean only if the byte is allowed.
                let expected = allowed(UInt8(value)) ? 24 : lane / 8 * 8
                #expect(end == expected, "lane \(lane), byte \(value)")
                #expect(lines == bytes[..<end].count(where: { $0 == 0x0A }), "lane \(lane), byte \(value)")
            }
        }
        // Whole blocks only: a tail shorter than a word is left to the byte loop.
        let short: [UInt8] = Array(repeating: 0x61, count: 13)
        var lines = 0
        #expect(short.withUnsafeBufferPointer { XMLCharacters.asciiPrefixWords($0.baseAddress!, from: 0, to: 13, lines: &lines) } == 8)
        #expect(lines == 0)
    }

    @Test("line feeds are counted exactly over long runs (byte counters summed before they wrap)")
    func longRunsOfLineFeeds() {
        var rng = SplitMix64(seed: 10)
        for length in [0, 15, 16, 63, 64, 65, 3968, 3969, 4096, 10_000, 70_001] {
            for density in [1.0, 0.5, 0.03] {
                var bytes = (0..<length).map { _ in rng.uniform(0, 1) < density ? UInt8(0x0A) : UInt8(0x61) }
                let expected = bytes.count(where: { $0 == 0x0A })
                let scan = bytes.withUnsafeBufferPointer {
                    XMLCharacters.scan($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: 0, to: $0.count, latin1: false)
                }
                #expect(scan == XMLCharacters.Scan(valid: length, problem: nil, lines: expected), "length \(length), density \(density)")
                // A bad byte near the end: the line feeds before it.
                if length > 10 {
                    bytes[length - 7] = 0x01
                    let cut = bytes.withUnsafeBufferPointer { XMLCharacters.scan($0.baseAddress!, from: 0, to: $0.count, latin1: false) }
                    #expect(
                        cut
                            == XMLCharacters.Scan(
                                valid: length - 7, problem: .forbidden(1), lines: bytes[..<(length - 7)].count(where: { $0 == 0x0A })))
                }
            }
        }
    }

    @Test("ISO-8859-1: every byte from 0x20 up is a character, controls are not")
    func latin1() {
        let ok: [UInt8] = Array(0x20...0xFF) + [0x09, 0x0A, 0x0D]
        #expect(
            ok.withUnsafeBufferPointer { XMLCharacters.scan($0.baseAddress!, from: 0, to: $0.count, latin1: true) }
                == XMLCharacters.Scan(valid: ok.count, problem: nil, lines: 1))
        let bad: [UInt8] = [0x41, 0xE9, 0x01]
        #expect(
            bad.withUnsafeBufferPointer { XMLCharacters.scan($0.baseAddress!, from: 0, to: 3, latin1: true) }
                == XMLCharacters.Scan(valid: 2, problem: .forbidden(1), lines: 0))
    }

    /// Documents as byte strings: each scalar of `text` (all ≤ U+00FF) is one byte.
    static func raw(_ text: String) -> [UInt8] { text.unicodeScalars.map { UInt8($0.value) } }

    static let readerCases: [(doc: [UInt8], message: String)] = [
        (raw("<gpx>\na\u{FE}</gpx>"), "t.gpx:2:2: not UTF-8 (byte 0xFE): declare the document's encoding if it is ISO-8859-1"),
        (raw("<gpx>\u{1}</gpx>"), "t.gpx:1:6: character U+0001 is not allowed in XML"),
        (raw("<gpx>\u{EF}\u{BF}\u{BE}</gpx>"), "t.gpx:1:6: character U+FFFE is not allowed in XML"),
        (raw("<gpx/>\u{E2}\u{82}"), "t.gpx:1:7: not UTF-8 (the file ends inside a multi-byte character)"),
        (
            raw("<?xml version='1.0' encoding='ISO-8859-1'?><gpx><wpt \u{CF}\u{9E}t='1'/></gpx>"),
            "t.gpx:1:54: invalid character U+9E in a name"
        ),
        (raw("<?xml version='1.0' encoding='ISO-8859-1'?>\n<gpx>\u{7}</gpx>"), "t.gpx:2:6: character U+0007 is not allowed in XML"),
        (raw("<?xml encoding='UTF-8'?><gpx/>"), "t.gpx:1:6: the XML declaration has no version"),
        (raw("<?xml version 1.0?><gpx/>"), "t.gpx:1:15: expected '=' after 'version' in the XML declaration"),
        (raw("<?xml version='2.0'?><gpx/>"), "t.gpx:1:16: unsupported XML version '2.0'"),
        (raw("<?xml version='1.0' encoding='8bit'?><gpx/>"), "t.gpx:1:31: invalid encoding name '8bit' in the XML declaration"),
        (raw("<?xml version='1.0' standalone='maybe'?><gpx/>"), "t.gpx:1:33: standalone must be 'yes' or 'no' in the XML declaration"),
        (raw("<?xml version='1.0' standalone='yes' encoding='UTF-8'?><gpx/>"), "t.gpx:1:38: unexpected characters in the XML declaration"),
        (raw("<?xml version='1.0'encoding='UTF-8'?><gpx/>"), "t.gpx:1:20: unexpected characters in the XML declaration"),
        (raw(" <?xml version='1.0'?><gpx/>"), "t.gpx:1:2: the XML declaration is allowed only at the start of the document"),
        (raw("<gpx><?XML x?></gpx>"), "t.gpx:1:6: the XML declaration is allowed only at the start of the document"),
        (raw("<gpx><? x?></gpx>"), "t.gpx:1:8: expected a processing instruction's target after '<?'"),
        (raw("<?xmx11compou=\"1.0\"?><gpx/>"), "t.gpx:1:14: expected white space after the processing instruction's target"),
    ]

    @Test("the reader: a bad character or malformed XML declaration is an error naming where", arguments: readerCases)
    func readerErrors(doc: [UInt8], message: String) {
        #expect {
            var reader = GPXReader(bytes: doc, name: "t.gpx")
            while try reader.next() != nil {}
        } throws: { error in
            let description = (error as? TraceReadError)?.description
            return description == message
        }
    }

    @Test("a character cut by the window's block boundary reads; a bad byte past the first block names its line")
    func acrossBlocks() throws {
        // "é" (C3 A9) straddles every block boundary in turn, then a control character on the last line.
        for tail in [false, true] {
            var text = "<gpx>\n"
            var lines = 1
            while text.utf8.count < 3 << 20 {
                text += "<wpt lat=\"1\" lon=\"2\"><name>\(String(repeating: "é", count: lines % 300))</name></wpt>\n"
                lines += 1
            }
            text += tail ? "<wpt lat=\"1\" lon=\"2\"><name>a\u{8}</name></wpt>\n</gpx>\n" : "</gpx>\n"
            let url = scratchFolder.appendingPathComponent("blocks-\(tail).gpx")
            try Data(text.utf8).write(to: url)
            var reader = try openTrace(url.path)
            if tail {
                #expect {
                    while try reader.next() != nil {}
                } throws: { error in
                    (error as? TraceReadError)?.description == "\(url.path):\(lines + 1):29: character U+0008 is not allowed in XML"
                }
            } else {
                var n = 0
                while let item = try reader.next() { if case .waypoint = item { n += 1 } }
                #expect(n == lines - 1)
            }
        }
    }
}
