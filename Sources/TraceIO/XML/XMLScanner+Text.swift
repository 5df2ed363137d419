#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Character data: text (captured or checked and skipped), character and entity references,
// Latin-1 and Windows-1252 decoding.
extension XMLScanner {
    /// Character data up to the next '<'. Returns true when it produced a text token (only while
    /// capturing; otherwise the text is checked and skipped).
    mutating func scanText() throws(TraceReadError) -> Bool {
        var keep = position
        var sawNonSpace = false
        while true {
            let limit = source.end
            // Up to the next '<' or '&': a byte loop over the first bytes (most text in GPX is
            // short: values and indentation), then memchr for '<' and the first '&' before it.
            var p = position
            let short = min(limit, position + 32)
            while p < short && base[p] != 0x3C && base[p] != 0x26 { p += 1 }
            if p == short && p < limit {
                p = limit
                if let hit = memchr(base + short, 0x3C, limit - short) {
                    p = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - UnsafePointer(base)
                }
                if p > short, let amp = memchr(base + short, 0x26, p - short) {
                    p = UnsafeRawPointer(amp).assumingMemoryBound(to: UInt8.self) - UnsafePointer(base)
                }
            }
            // Only outside the root element does it matter whether the text is blank.
            if !sawNonSpace && (!rootSeen || rootClosed) {
                for i in position..<p where !XMLScanner.isSpace(base[i]) {
                    sawNonSpace = true
                    break
                }
            }
            if captureText {
                try appendText(position..<p)
            }
            position = p
            if p < limit && base[p] == UInt8(ascii: "<") { break }
            if p < limit {  // '&'
                try scanReference(keeping: &keep)
                sawNonSpace = true
                continue
            }
            keep = position  // text already consumed need not stay in the window
            var k = keep
            guard try ensure(1, keeping: &k) else { break }
            keep = k
        }
        if (!rootSeen || rootClosed) && sawNonSpace {
            throw error(rootSeen ? "text after the root element" : "text before the root element")
        }
        return captureText
    }

    mutating func appendText(_ r: Range<Int>) throws(TraceReadError) {
        guard capturedText.count + r.count <= XMLScanner.maximumText else {
            throw error("text longer than \(XMLScanner.maximumText) bytes")
        }
        if latin1 {
            for i in r { appendLatin1(base[i], to: capturedText) }
        } else {
            capturedText.append(base + r.lowerBound, count: r.count)
        }
    }

    /// Windows-1252's characters for bytes 0x80–0x9F (0 where the code page leaves a byte
    /// undefined: it is then read as ISO-8859-1 reads it).
    static let windows1252High: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// Appends the UTF-8 of an ISO-8859-1 (or windows-1252) byte.
    func appendLatin1(_ b: UInt8, to out: ByteBuffer) {
        if b < 0x80 {
            out.append(b)
            return
        }
        if windows1252 && b < 0xA0, case let u = XMLScanner.windows1252High[Int(b - 0x80)], u != 0 {
            // Every mapped character is in U+0100–U+FFFF: two or three UTF-8 bytes.
            if u < 0x800 {
                out.append(UInt8(0xC0 | (u >> 6)))
                out.append(UInt8(0x80 | (u & 0x3F)))
            } else {
                out.append(UInt8(0xE0 | (u >> 12)))
                out.append(UInt8(0x80 | ((u >> 6) & 0x3F)))
                out.append(UInt8(0x80 | (u & 0x3F)))
            }
            return
        }
        out.append(0xC0 | (b >> 6))
        out.append(0x80 | (b & 0x3F))
    }

    /// A character or entity reference at `position` ('&'); appends its character when capturing.
    private mutating func scanReference(keeping keep: inout Int) throws(TraceReadError) {
        var k = min(keep, position)
        guard let semi = try findSemicolon(keeping: &k) else {
            // No ';' within 12 bytes is a malformed reference; fewer than 12 left, a truncated one.
            throw source.end - position > 12
                ? error("unterminated character reference") : unexpectedEnd(in: "a character reference", openedAt: position)
        }
        keep = k
        let ref = Array(UnsafeBufferPointer(rebasing: source.bytes[(position + 1)..<semi]))
        let scalar = try decodeReference(ref, at: position)
        if captureText { appendScalar(scalar, to: capturedText) }
        position = semi + 1
    }

    private mutating func findSemicolon(keeping keep: inout Int) throws(TraceReadError) -> Int? {
        while true {
            var p = position + 1
            while p < source.end && p - position <= 12 {
                if base[p] == UInt8(ascii: ";") { return p }
                p += 1
            }
            if p - position > 12 { return nil }
            guard try ensure(p - position + 1, keeping: &keep) else { return nil }
        }
    }

    func decodeReference(_ ref: [UInt8], at p: Int) throws(TraceReadError) -> Unicode.Scalar {
        switch ref {
        case Array("lt".utf8): return "<"
        case Array("gt".utf8): return ">"
        case Array("amp".utf8): return "&"
        case Array("apos".utf8): return "'"
        case Array("quot".utf8): return "\""
        default: break
        }
        if ref.first == UInt8(ascii: "#") {
            var value: UInt32 = 0
            let hex = ref.count > 1 && ref[1] == UInt8(ascii: "x")
            let digits = ref.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty, digits.count <= 8 else { throw error("invalid character reference", at: p) }
            for d in digits {
                let v: UInt32
                switch d {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(d - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: v = UInt32(d - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: v = UInt32(d - UInt8(ascii: "A") + 10)
                default: throw error("invalid character reference", at: p)
                }
                value = value * (hex ? 16 : 10) + v
            }
            guard let s = Unicode.Scalar(value), XMLScanner.isXMLChar(value) else {
                throw error("character reference to an invalid character", at: p)
            }
            return s
        }
        throw error(
            "undefined entity '&\(String(decoding: ref, as: UTF8.self));' (only the five predefined entities and character references are read; DTD entities are never expanded)",
            at: p)
    }

    static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
    }

    func appendScalar(_ s: Unicode.Scalar, to out: ByteBuffer) {
        for b in String(Character(s)).utf8 { out.append(b) }
    }
}
