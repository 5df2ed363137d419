import TraceJSON

/// Byte-level value parsing shared by the text readers.
enum TextValue {
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

    /// `bytes` without leading and trailing spaces, tabs, line ends and NUL bytes (the padding
    /// some loggers write in fixed-width fields).
    @inline(__always) static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0, hi = bytes.count
        while lo < hi && (isSpace(bytes[lo]) || bytes[lo] == 0) { lo += 1 }
        while hi > lo && (isSpace(bytes[hi - 1]) || bytes[hi - 1] == 0) { hi -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lo..<hi])
    }

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// Text for messages and string fields: UTF-8 when valid, else each byte read as Latin-1.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        var out = ""
        out.unicodeScalars.reserveCapacity(bytes.count)
        for b in bytes { out.unicodeScalars.append(Unicode.Scalar(b)) }
        return out
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }

    /// A short excerpt of a value for messages: its first 40 characters, control characters and
    /// bidirectional overrides shown as `\u{1b}` (``TraceJSON/ShownText``: a message holds none,
    /// whatever a report does with it).
    static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let s = string(trimmed(bytes))
        return ShownText.escaped(s.count > 40 ? String(s.prefix(40)) + "…" : s)
    }

    /// Why `bytes` gave no number, for a diagnostic: "'1e400' is out of range" for a number too
    /// large for a Double (beyond ±1.8e308: a 400-digit integer, an exponent of 400), else
    /// "'x' is not a number" (NaN and infinities included).
    static func notANumber(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let t = trimmed(bytes)
        if let v = DecimalParser.parseDouble(t), v.isInfinite, t.contains(where: isDigit) {
            return "'\(shown(t))' is out of range (beyond ±1.8e308)"
        }
        return "'\(shown(t))' is not a number"
    }

    /// Case-insensitive ASCII comparison.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let t = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        for i in 0..<bytes.count where lower(bytes[i]) != lower(t[i]) { return false }
        return true
    }

    /// Case-insensitive ASCII prefix test.
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count >= text.utf8CodeUnitCount else { return false }
        return equals(UnsafeBufferPointer(rebasing: bytes[0..<text.utf8CodeUnitCount]), text)
    }

    /// The length of the decimal number at the start of `bytes`: sign, digits, one decimal
    /// point (or comma when `decimalComma`), exponent. 0 when there is no number.
    static func numberPrefix(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Int {
        var i = 0
        let n = bytes.count
        if i < n && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { i += 1 }
        var digits = 0
        while i < n && isDigit(bytes[i]) { i += 1; digits += 1 }
        if i < n && (bytes[i] == UInt8(ascii: ".") || (decimalComma && bytes[i] == UInt8(ascii: ","))) {
            var j = i + 1
            var fraction = 0
            while j < n && isDigit(bytes[j]) { j += 1; fraction += 1 }
            if fraction > 0 || digits > 0 { i = j; digits += fraction }
        }
        guard digits > 0 else { return 0 }
        if i < n && (bytes[i] | 0x20) == UInt8(ascii: "e") {
            var j = i + 1
            if j < n && (bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+")) { j += 1 }
            if j < n && isDigit(bytes[j]) {
                while j < n && isDigit(bytes[j]) { j += 1 }
                i = j
            }
        }
        return i
    }

    /// A decimal number (exact, through ``DecimalParser``); a decimal comma is read when
    /// `decimalComma` is set. Nil unless the whole of `bytes` is one finite number.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool = false) -> Double? {
        guard !bytes.isEmpty else { return nil }
        if decimalComma, let comma = bytes.firstIndex(of: UInt8(ascii: ",")) {
            var copy = Array(bytes)
            copy[comma] = UInt8(ascii: ".")
            return copy.withUnsafeBufferPointer { DecimalParser.parseDouble($0) }.flatMap { $0.isFinite ? $0 : nil }
        }
        guard let v = DecimalParser.parseDouble(bytes), v.isFinite else { return nil }
        return v
    }

    /// A number followed by an optional unit ("374.812 m", "0.865 km/h", "3ft"). Returns the
    /// value and the unit text in lower case without spaces (empty when none); nil when the text
    /// does not start with a number.
    static func numberWithUnit(_ raw: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> (value: Double, unit: String)? {
        let t = trimmed(raw)
        let n = numberPrefix(t, decimalComma: decimalComma)
        guard n > 0, let v = double(UnsafeBufferPointer(rebasing: t[0..<n]), decimalComma: decimalComma) else { return nil }
        var unit = ""
        for b in t[n...] where !isSpace(b) { unit.unicodeScalars.append(Unicode.Scalar(lower(b))) }
        if !unit.isEmpty && unit.utf8.contains(where: { $0 >= 0x80 }) {
            unit = String(decoding: t[n...].filter { !isSpace($0) }, as: UTF8.self).lowercased()
        }
        return (v, unit)
    }

    /// Metres per unit of length, for the unit words CSV files use; nil for an unknown unit.
    static func metres(per unit: String) -> Double? {
        switch unit {
        case "", "m", "meter", "meters", "metre", "metres": 1
        case "ft", "feet", "foot", "'": 0.3048
        case "km": 1000
        default: nil
        }
    }

    /// Metres per second per unit of speed; nil for an unknown unit.
    static func metresPerSecond(per unit: String) -> Double? {
        switch unit {
        case "", "m/s", "mps", "ms", "ms-1", "m/sec": 1
        case "km/h", "kmh", "kph", "km/hr", "kmph": 1 / 3.6
        case "mph", "mi/h": 0.44704
        case "kn", "kt", "kts", "knot", "knots": 1852.0 / 3600.0
        default: nil
        }
    }

    /// A non-negative integer at the start of `bytes`, ignoring what follows a `(` or `/`
    /// ("11(11)", "9/12": the count used). Nil otherwise.
    static func leadingCount(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
        let t = trimmed(raw)
        var i = 0, v = 0
        while i < t.count && isDigit(t[i]) && i < 9 { v = v * 10 + Int(t[i] - 0x30); i += 1 }
        guard i > 0 else { return nil }
        var j = i
        while j < t.count && isSpace(t[j]) { j += 1 }
        if j == t.count { return v }
        if t[j] == UInt8(ascii: "(") || t[j] == UInt8(ascii: "/") { return v }
        if t[j] == UInt8(ascii: ".") {
            // "7.0" is still a count.
            var k = j + 1
            while k < t.count && t[k] == UInt8(ascii: "0") { k += 1 }
            return k == t.count ? v : nil
        }
        return nil
    }
}
