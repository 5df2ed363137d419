// Names and white space: the byte classes, name validation, quote tracking.
extension XMLScanner {
    @inline(__always) static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// ``ByteMasks/skipSpaces(_:from:limit:)`` for bytes of the window from ``elementWindow()``,
    /// which passed the character check (``validateWindow()``): there the only bytes below 0x21
    /// are the four white-space characters (XML allows no other control character, and the bytes
    /// past the check, a multi-byte character cut by the window's end, are all 0x80 or above),
    /// so a byte is white space exactly when it is at most 0x20 (two SSE2 operations per 16
    /// bytes instead of seven).
    @inline(__always) static func skipCheckedSpaces(_ base: UnsafePointer<UInt8>, from: Int, limit: Int) -> Int {
        ByteMasks.skipAtMost(0x20, base, from: from, limit: limit)
    }

    @inline(__always) static func isNameByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    /// Checks a name: ASCII names by byte class; others by XML 1.0's NameStartChar/NameChar.
    func validateName(_ r: Range<Int>) throws(TraceReadError) {
        guard !r.isEmpty else { throw error("expected a name", at: r.lowerBound) }
        guard r.count <= XMLScanner.maximumNameLength else {
            throw error("a name longer than \(XMLScanner.maximumNameLength) bytes", at: r.lowerBound)
        }
        let first = byte(r.lowerBound)
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39) {
            throw error("invalid name", at: r.lowerBound)
        }
        var ascii = true
        for i in r where byte(i) >= 0x80 { ascii = false; break }
        if ascii { return }
        // The name's characters: UTF-8, or one per byte in ISO-8859-1 (windows-1252 above 0x7F).
        var scalars: [UInt32] = []
        if latin1 {
            scalars = r.map { i in
                let b = byte(i)
                if windows1252 && b >= 0x80 && b < 0xA0, case let u = XMLScanner.windows1252High[Int(b - 0x80)], u != 0 { return UInt32(u) }
                return UInt32(b)
            }
        } else {
            guard let s = String(validating: UnsafeBufferPointer(rebasing: source.bytes[r]), as: UTF8.self) else {
                throw error("name is not valid UTF-8", at: r.lowerBound)
            }
            scalars = s.unicodeScalars.map(\.value)
        }
        for (i, v) in scalars.enumerated() where v >= 0x80 {
            var ok =
                (0xC0...0xD6).contains(v) || (0xD8...0xF6).contains(v) || (0xF8...0x2FF).contains(v) || (0x370...0x37D).contains(v)
                || (0x37F...0x1FFF).contains(v) || (0x200C...0x200D).contains(v) || (0x2070...0x218F).contains(v)
                || (0x2C00...0x2FEF).contains(v) || (0x3001...0xD7FF).contains(v) || (0xF900...0xFDCF).contains(v)
                || (0xFDF0...0xFFFD).contains(v) || (0x10000...0xEFFFF).contains(v)
            if i > 0 { ok = ok || v == 0xB7 || (0x300...0x36F).contains(v) || (0x203F...0x2040).contains(v) }
            if !ok { throw error("invalid character U+\(String(v, radix: 16, uppercase: true)) in a name", at: r.lowerBound) }
        }
    }

    /// Follows attribute quoting through `r` of a start tag: `quote` is the open quote (0 when
    /// none). A '<' is an error inside or outside quotes.
    func trackQuotes(_ r: Range<Int>, _ quote: inout UInt8) throws(TraceReadError) {
        for i in r {
            let b = base[i]
            if quote != 0 {
                if b == quote { quote = 0 } else if b == 0x3C { throw error("'<' in an attribute value", at: i) }
            } else if b == 0x22 || b == 0x27 {
                quote = b
            } else if b == 0x3C {
                throw error("'<' inside a start tag", at: i)
            }
        }
    }

    /// An ASCII byte that may start a name (the general path's rule: a name byte, but not '-',
    /// '.' or a digit).
    @inline(__always) static func isASCIINameStart(_ b: UInt8) -> Bool {
        b < 0x80 && isNameByte(b) && b != UInt8(ascii: "-") && b != UInt8(ascii: ".") && !(b >= 0x30 && b <= 0x39)
    }

    /// The end of the ASCII name bytes from `i` (at most `limit`), looking at most
    /// ``maximumNameLength`` bytes: a longer name ends on a name byte, so the fast paths refuse it
    /// and the general path reports it.
    @inline(__always) func asciiNameEnd(from i: Int, limit: Int) -> Int {
        var i = i
        let limit = min(limit, i + XMLScanner.maximumNameLength)
        while i < limit && XMLScanner.isASCIINameByte(base[i]) { i += 1 }
        return i
    }

    // The ASCII name bytes (letters, digits, '_', ':', '-', '.') as a bitmap, two words.
    private static let nameBytesLow: UInt64 = (1 << 0x2D) | (1 << 0x2E) | (0x3FF << 0x30) | (1 << 0x3A)
    private static let nameBytesHigh: UInt64 = (0x3FF_FFFF << 1) | (1 << (0x5F - 64)) | (0x3FF_FFFF << (0x61 - 64))

    /// ``isNameByte(_:)`` for ASCII bytes (false for the others), from a bitmap.
    @inline(__always) static func isASCIINameByte(_ b: UInt8) -> Bool {
        let word = b < 64 ? nameBytesLow : b < 128 ? nameBytesHigh : 0
        return (word >> UInt64(b & 63)) & 1 != 0
    }
}
