import TraceDomain

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
            if a < 1e11 {
                self = .seconds
            } else if a < 1e14 {
                self = .milliseconds
            } else if a < 1e17 {
                self = .microseconds
            } else {
                self = .nanoseconds
            }
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
