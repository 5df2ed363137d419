/// The fields a CSV column can hold, the header names that select them, and the parsers for
/// their values (numbers with units and hemisphere letters, dates, times of day, epoch numbers).
/// Shared by ``CSVReader`` and ``PLTReader``.
enum CSVField: Int, CaseIterable, Hashable, Sendable {
    case latitude, longitude, latitudeHemisphere, longitudeHemisphere
    case time, date
    case elevation, accuracy, verticalAccuracy, speed, course
    case hdop, vdop, pdop, satellites, fixType
    case name, role, state, track, segment, pointType

    /// Whether the field's values are words, not numbers or times (placeholders are values there).
    var holdsText: Bool {
        switch self {
        case .name, .role, .state, .track, .segment, .pointType, .fixType, .latitudeHemisphere, .longitudeHemisphere: true
        case .latitude, .longitude, .time, .date, .elevation, .accuracy, .verticalAccuracy, .speed, .course,
             .hdop, .vdop, .pdop, .satellites: false
        }
    }

    /// The field's name in ``ReadOptions/columns`` ("latitude", "verticalAccuracy", …).
    var key: String {
        switch self {
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .latitudeHemisphere: "latitudeHemisphere"
        case .longitudeHemisphere: "longitudeHemisphere"
        case .time: "time"
        case .date: "date"
        case .elevation: "elevation"
        case .accuracy: "accuracy"
        case .verticalAccuracy: "verticalAccuracy"
        case .speed: "speed"
        case .course: "course"
        case .hdop: "hdop"
        case .vdop: "vdop"
        case .pdop: "pdop"
        case .satellites: "satellites"
        case .fixType: "fixType"
        case .name: "name"
        case .role: "role"
        case .state: "state"
        case .track: "track"
        case .segment: "segment"
        case .pointType: "pointType"
        }
    }

    /// The human name used in messages.
    var label: String {
        switch self {
        case .latitudeHemisphere: "latitude hemisphere"
        case .longitudeHemisphere: "longitude hemisphere"
        case .verticalAccuracy: "vertical accuracy"
        case .fixType: "fix"
        case .pointType: "point type"
        default: key
        }
    }

    /// Header names (normalised: lower case, no spaces, underscores, hyphens or dots) per field.
    static let synonyms: [String: CSVField] = {
        var table: [String: CSVField] = [:]
        func add(_ f: CSVField, _ names: [String]) { for n in names { table[n] = f } }
        add(.latitude, ["lat", "latitude"])
        add(.longitude, ["lon", "lng", "long", "longitude"])
        add(.latitudeHemisphere, ["n/s", "ns", "latref", "latituderef", "lathemisphere", "latitudehemisphere"])
        add(.longitudeHemisphere, ["e/w", "ew", "lonref", "longituderef", "lonhemisphere", "longitudehemisphere"])
        add(.time, ["time", "timestamp", "datetime", "utctime", "timeutc", "utc", "gpstime", "trackedat", "recordedat", "isotime"])
        add(.date, ["date", "utcdate", "dateutc", "gpsdate"])
        add(.elevation, ["ele", "elevation", "alt", "altitude", "height"])
        add(.accuracy, ["accuracy", "hacc", "horizontalaccuracy", "accuracyhorizontal", "acc", "haccuracy"])
        add(.verticalAccuracy, ["vacc", "verticalaccuracy", "accuracyvertical", "vaccuracy"])
        add(.speed, ["speed", "spd", "velocity"])
        add(.course, ["course", "bearing", "heading", "cog"])
        add(.hdop, ["hdop"])
        add(.vdop, ["vdop"])
        add(.pdop, ["pdop"])
        add(.satellites, ["sat", "sats", "satellites", "nsat", "numsat", "numsats", "satellitesused"])
        add(.fixType, ["fix", "fixtype"])
        add(.name, ["name"])
        add(.role, ["role"])
        add(.state, ["state"])
        add(.track, ["track", "trackid", "trackname", "trk"])
        add(.segment, ["segment", "seg", "segmentid", "trkseg"])
        add(.pointType, ["trackpointtype", "pointtype"])
        return table
    }()

    /// Unit words accepted as a suffix of a header name ("altitude_ft", "speed_kmh", "time_ms").
    static let unitSuffixes = ["kmh", "kph", "mph", "knots", "kts", "kn", "mps", "ms", "feet", "ft", "meters", "metres", "m", "deg", "degrees", "us", "ns", "s"]

    /// The field a header names, with the unit the header states (in parentheses or brackets,
    /// or as a suffix), normalised to lower case without spaces. Nil for an unknown header.
    static func recognise(header raw: String) -> (field: CSVField, unit: String?)? {
        var base = ""
        var unit: String?
        var depth = 0
        var inside = ""
        for ch in raw.lowercased() {
            if ch == "(" || ch == "[" { depth += 1; continue }
            if ch == ")" || ch == "]" {
                depth = max(depth - 1, 0)
                if depth == 0 { unit = inside; inside = "" }
                continue
            }
            if ch == " " || ch == "_" || ch == "-" || ch == "." || ch == "\t" { continue }
            if depth > 0 { inside.append(ch) } else { base.append(ch) }
        }
        if base.hasPrefix("#") { base.removeFirst() }
        if let f = synonyms[base] { return (f, unit) }
        for suffix in unitSuffixes where base.count > suffix.count && base.hasSuffix(suffix) {
            if let f = synonyms[String(base.dropLast(suffix.count))] { return (f, unit ?? suffix) }
        }
        return nil
    }

    /// The field an option key names ("latitude", "vertical_accuracy", "verticalAccuracy", …).
    static func option(_ key: String) -> CSVField? {
        let k = key.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" }
        return allCases.first { $0.key.lowercased() == k }
    }
}

/// Byte-level value parsing shared by the text readers.
enum TextValue {
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

    /// `bytes` without leading and trailing spaces, tabs and line ends.
    @inline(__always) static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0, hi = bytes.count
        while lo < hi && isSpace(bytes[lo]) { lo += 1 }
        while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
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

    /// A short excerpt of a value for messages.
    static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let s = string(trimmed(bytes))
        return s.count > 40 ? String(s.prefix(40)) + "…" : s
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

/// Dates, times of day and epoch numbers as CSV and PLT files write them, turned into the ISO 8601
/// text that ``Timestamp/parseISO8601(_:)`` reads (which parses fractions and zones).
enum TextTime {
    /// Units of epoch numbers.
    enum EpochUnit: String, Sendable {
        case seconds, milliseconds, microseconds, nanoseconds

        var nanosecondsPerUnit: Int64 {
            switch self {
            case .seconds: 1_000_000_000
            case .milliseconds: 1_000_000
            case .microseconds: 1_000
            case .nanoseconds: 1
            }
        }

        /// The unit a header suffix names ("time_ms", "timestamp (s)").
        init?(hint: String?) {
            switch hint {
            case "s", "sec", "secs", "seconds": self = .seconds
            case "ms", "millis", "milliseconds": self = .milliseconds
            case "us", "µs", "micros", "microseconds": self = .microseconds
            case "ns", "nanos", "nanoseconds": self = .nanoseconds
            default: return nil
            }
        }

        /// The unit of an epoch number by its magnitude: below 1e11 seconds (1e11 s is the year
        /// 5138), below 1e14 milliseconds (1e11 ms is 1973-03-03), below 1e17 microseconds, else
        /// nanoseconds. So milliseconds before March 1973 would be misread as seconds.
        init(magnitude v: Double) {
            let a = abs(v)
            if a < 1e11 { self = .seconds }
            else if a < 1e14 { self = .milliseconds }
            else if a < 1e17 { self = .microseconds }
            else { self = .nanoseconds }
        }
    }

    /// Whether `bytes` is an epoch number: an optional sign, digits, an optional fraction.
    static func isEpochNumber(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !t.isEmpty else { return false }
        var i = 0
        if t[0] == UInt8(ascii: "-") || t[0] == UInt8(ascii: "+") { i = 1 }
        var digits = 0, dots = 0
        while i < t.count {
            if TextValue.isDigit(t[i]) { digits += 1 } else if t[i] == UInt8(ascii: ".") { dots += 1 } else { return false }
            i += 1
        }
        return digits > 0 && dots <= 1
    }

    /// An epoch number in `unit` (nil: by magnitude). Returns the timestamp and the unit used;
    /// nil when the value overflows.
    static func epoch(_ t: UnsafeBufferPointer<UInt8>, unit: EpochUnit?) -> (Timestamp, EpochUnit)? {
        if !t.contains(UInt8(ascii: ".")) && t.count <= 19 {
            var i = 0
            var negative = false
            if t[0] == UInt8(ascii: "-") || t[0] == UInt8(ascii: "+") { negative = t[0] == UInt8(ascii: "-"); i = 1 }
            var v: Int64 = 0
            while i < t.count {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int64(t[i] - 0x30))
                if o1 || o2 { return nil }
                v = s
                i += 1
            }
            if negative { v = -v }
            let u = unit ?? EpochUnit(magnitude: Double(v))
            let (ns, o) = v.multipliedReportingOverflow(by: u.nanosecondsPerUnit)
            return o ? nil : (Timestamp(nanoseconds: ns), u)
        }
        guard let v = TextValue.double(t) else { return nil }
        let u = unit ?? EpochUnit(magnitude: v)
        let ns = (v * Double(u.nanosecondsPerUnit)).rounded()
        guard abs(ns) < 9.2e18 else { return nil }
        return (Timestamp(nanoseconds: Int64(ns)), u)
    }

    /// Appends `v` (not negative) with at least `width` digits, most significant first.
    private static func append(_ v: Int, width: Int, to out: inout [UInt8]) {
        var scale = 1, count = 1
        while count < width || v / scale >= 10 { scale *= 10; count += 1 }
        while scale > 0 {
            out.append(UInt8(0x30 + v / scale % 10))
            scale /= 10
        }
    }

    /// Reads 1…`max` digits at `i`; advances `i`.
    private static func digits(_ t: UnsafeBufferPointer<UInt8>, _ i: inout Int, max: Int) -> (value: Int, count: Int)? {
        var v = 0, n = 0
        while i < t.count && n < max && TextValue.isDigit(t[i]) { v = v * 10 + Int(t[i] - 0x30); i += 1; n += 1 }
        return n > 0 ? (v, n) : nil
    }

    /// A calendar date: `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD` (one-digit months and days
    /// allowed), `YYYYMMDD`, or `DD.MM.YYYY`. Appends `YYYY-MM-DD` to `out`; false when unreadable.
    static func appendDate(_ t: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        var y = 0, m = 0, d = 0
        var i = 0
        if t.count == 8 && t.allSatisfy(TextValue.isDigit) {
            guard let a = digits(t, &i, max: 4), let b = digits(t, &i, max: 2), let c = digits(t, &i, max: 2) else { return false }
            (y, m, d) = (a.value, b.value, c.value)
        } else {
            guard let a = digits(t, &i, max: 4), i < t.count else { return false }
            let sep = t[i]
            guard sep == UInt8(ascii: "-") || sep == UInt8(ascii: "/") || sep == UInt8(ascii: ".") else { return false }
            i += 1
            guard let b = digits(t, &i, max: 2), i < t.count, t[i] == sep else { return false }
            i += 1
            guard let c = digits(t, &i, max: 4), i == t.count else { return false }
            if a.count == 4 && c.count <= 2 {
                (y, m, d) = (a.value, b.value, c.value)
            } else if a.count <= 2 && c.count == 4 && sep == UInt8(ascii: ".") {
                (y, m, d) = (c.value, b.value, a.value)
            } else {
                return false
            }
        }
        guard (1...12).contains(m), (1...31).contains(d) else { return false }
        append(y, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        append(m, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        append(d, width: 2, to: &out)
        return true
    }

    /// A time of day: `H:MM`, `H:MM:SS`, `HHMMSS`, with an optional fraction (`.` or `,`) and an
    /// optional zone (`Z`, `UTC`, `GMT`, `±HH:MM`, `±HHMM`, `±HH`). Appends `HH:MM:SS[.fff][zone]`.
    static func appendTimeOfDay(_ t: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        var i = 0
        let h: Int, mi: Int
        var s = 0
        if t.count >= 6 && t[0..<6].allSatisfy(TextValue.isDigit) && (t.count == 6 || !TextValue.isDigit(t[6])) {
            h = Int(t[0] - 0x30) * 10 + Int(t[1] - 0x30)
            mi = Int(t[2] - 0x30) * 10 + Int(t[3] - 0x30)
            s = Int(t[4] - 0x30) * 10 + Int(t[5] - 0x30)
            i = 6
        } else {
            guard let a = digits(t, &i, max: 2), i < t.count, t[i] == UInt8(ascii: ":") else { return false }
            i += 1
            guard let b = digits(t, &i, max: 2), b.count == 2 else { return false }
            h = a.value
            mi = b.value
            if i < t.count && t[i] == UInt8(ascii: ":") {
                i += 1
                guard let c = digits(t, &i, max: 2), c.count == 2 else { return false }
                s = c.value
            }
        }
        guard h <= 24, mi <= 59, s <= 60 else { return false }
        append(h, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(mi, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(s, width: 2, to: &out)
        if i < t.count && (t[i] == UInt8(ascii: ".") || t[i] == UInt8(ascii: ",")) {
            i += 1
            let start = i
            while i < t.count && TextValue.isDigit(t[i]) { i += 1 }
            guard i > start else { return false }
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: t[start..<i])
        }
        while i < t.count && t[i] == 0x20 { i += 1 }
        let zone = UnsafeBufferPointer(rebasing: t[i...])
        if zone.isEmpty { return true }
        if TextValue.equals(zone, "Z") || TextValue.equals(zone, "UTC") || TextValue.equals(zone, "GMT") {
            out.append(UInt8(ascii: "Z"))
            return true
        }
        guard zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"), zone.count >= 3 else { return false }
        for (k, b) in zone.enumerated().dropFirst() where !(TextValue.isDigit(b) || (b == UInt8(ascii: ":") && k == 3)) { return false }
        out.append(contentsOf: zone)
        return true
    }

    /// A date and time in one value: a date, then `T` or spaces, then a time of day.
    static func appendDateTime(_ t: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        var i = 0
        while i < t.count && t[i] != UInt8(ascii: "T") && t[i] != UInt8(ascii: "t") && t[i] != 0x20 { i += 1 }
        guard i < t.count else { return false }
        guard appendDate(UnsafeBufferPointer(rebasing: t[0..<i]), to: &out) else { return false }
        out.append(UInt8(ascii: "T"))
        var j = i + 1
        while j < t.count && t[j] == 0x20 { j += 1 }
        return appendTimeOfDay(UnsafeBufferPointer(rebasing: t[j...]), to: &out)
    }

    /// Parses canonical ISO 8601 text built by the functions above.
    static func parse(_ iso: [UInt8]) -> (timestamp: Timestamp, hadZone: Bool)? {
        iso.withUnsafeBufferPointer { Timestamp.parseISO8601($0) }
    }
}
