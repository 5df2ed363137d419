import TraceDomain

/// The values of NMEA 0183 fields: times of day, dates, `ddmm.mmmm` coordinates and plain numbers.
/// Each returns nil for an empty field and a `problem` text for one it cannot read.
enum NMEAFields {
    /// Nanoseconds in a day.
    static let day: Int64 = 86_400 * 1_000_000_000

    /// A field's value: absent (empty), read, or unreadable with the reason.
    enum Value<T> {
        case empty
        case value(T)
        case problem(String)

        var value: T? {
            if case .value(let v) = self { return v }
            return nil
        }
    }

    /// `hhmmss` with an optional fraction (`hhmmss.ss`, up to 9 digits): nanoseconds since
    /// midnight. Second 60 (a leap second) is accepted.
    static func timeOfDay(_ f: UnsafeBufferPointer<UInt8>) -> Value<Int64> {
        if f.isEmpty { return .empty }
        guard f.count >= 6, f.count != 7, (0..<6).allSatisfy({ TextValue.isDigit(f[$0]) }) else {
            return .problem("time '\(TextValue.shown(f))' is not hhmmss")
        }
        func two(_ i: Int) -> Int64 { Int64(f[i] - 0x30) * 10 + Int64(f[i + 1] - 0x30) }
        let h = two(0), m = two(2), s = two(4)
        guard h < 24, m < 60, s <= 60 else { return .problem("time '\(TextValue.shown(f))' is out of range") }
        var fraction: Int64 = 0
        if f.count > 6 {
            guard f[6] == 0x2E, f.count - 7 <= 9, (7..<f.count).allSatisfy({ TextValue.isDigit(f[$0]) }) else {
                return .problem("time '\(TextValue.shown(f))' is not hhmmss.ss")
            }
            var scale: Int64 = 100_000_000
            for i in 7..<f.count {
                fraction += Int64(f[i] - 0x30) * scale
                scale /= 10
            }
        }
        return .value(((h * 60 + m) * 60 + s) * 1_000_000_000 + fraction)
    }

    /// `ddmmyy`: days since 1970-01-01. Two-digit years 80-99 are 1980-1999, 00-79 are 2000-2079
    /// (GPS began in 1980).
    static func date(_ f: UnsafeBufferPointer<UInt8>) -> Value<Int> {
        if f.isEmpty { return .empty }
        guard f.count == 6, f.allSatisfy({ TextValue.isDigit($0) }) else { return .problem("date '\(TextValue.shown(f))' is not ddmmyy") }
        func two(_ i: Int) -> Int { Int(f[i] - 0x30) * 10 + Int(f[i + 1] - 0x30) }
        let d = two(0), m = two(2), yy = two(4)
        let y = yy >= 80 ? 1900 + yy : 2000 + yy
        guard m >= 1, m <= 12, d >= 1, d <= 31 else { return .problem("date '\(TextValue.shown(f))' is not a day") }
        let days = Timestamp.daysFromCivil(year: y, month: m, day: d)
        guard Timestamp.civilFromDays(days) == (y, m, d) else { return .problem("date '\(TextValue.shown(f))' is not a day") }
        return .value(days)
    }

    /// ZDA's `dd`, `mm`, `yyyy` fields: days since 1970-01-01; empty when all three are (a ZDA
    /// without a date).
    static func zdaDate(day: UnsafeBufferPointer<UInt8>, month: UnsafeBufferPointer<UInt8>, year: UnsafeBufferPointer<UInt8>) -> Value<Int>
    {
        if day.isEmpty && month.isEmpty && year.isEmpty { return .empty }
        let text = "\(TextValue.shown(day)),\(TextValue.shown(month)),\(TextValue.shown(year))"
        func number(_ f: UnsafeBufferPointer<UInt8>, digits: ClosedRange<Int>) -> Int? {
            guard digits.contains(f.count), f.allSatisfy({ TextValue.isDigit($0) }) else { return nil }
            return f.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let d = number(day, digits: 1...2), let m = number(month, digits: 1...2), let y = number(year, digits: 4...4),
            (1...12).contains(m), (1...31).contains(d)
        else { return .problem("date '\(text)' is not dd,mm,yyyy") }
        guard Timestamp.supportedYears.contains(y) else { return .problem("date '\(text)' is outside \(Timestamp.supportedYears)") }
        let days = Timestamp.daysFromCivil(year: y, month: m, day: d)
        guard Timestamp.civilFromDays(days) == (y, m, d) else { return .problem("date '\(text)' is not a day") }
        return .value(days)
    }

    /// Powers of ten that keep a coordinate's numerator below 2^53.
    private static let tens: [Int64] = (0...11).map { k in (0..<k).reduce(Int64(1)) { a, _ in a * 10 } }

    /// A `ddmm.mmmm` (`dddmm.mmmm`) field and its hemisphere (`N`/`S` for a latitude, `E`/`W` for
    /// a longitude): signed degrees, rounded once. With up to 11 decimals of minutes the value is
    /// the exact quotient `(degrees·60 + minutes)·10^k / (60·10^k)` of two integers below 2^53,
    /// rounded once to the nearest double; with more, degrees + minutes / 60 (minutes by
    /// ``DecimalParser``).
    static func coordinate(_ f: UnsafeBufferPointer<UInt8>, hemisphere h: UnsafeBufferPointer<UInt8>, latitude: Bool)
        -> Value<Double>
    {
        let what = latitude ? "latitude" : "longitude"
        if f.isEmpty && h.isEmpty { return .empty }
        let positive: UInt8 = latitude ? 0x4E : 0x45, negative: UInt8 = latitude ? 0x53 : 0x57  // N S / E W
        guard h.count == 1, h[0] == positive || h[0] == negative else {
            return .problem("\(what) hemisphere '\(TextValue.shown(h))' is not \(latitude ? "N or S" : "E or W")")
        }
        guard !f.isEmpty else { return .problem("\(what) is empty") }
        var dot = 0
        while dot < f.count && f[dot] != 0x2E { dot += 1 }
        let fractionDigits = dot < f.count ? f.count - dot - 1 : 0
        guard dot >= 3, dot <= 5, (0..<f.count).allSatisfy({ $0 == dot || TextValue.isDigit(f[$0]) }) else {
            return .problem("\(what) '\(TextValue.shown(f))' is not \(latitude ? "ddmm.mmmm" : "dddmm.mmmm")")
        }
        var degrees: Int64 = 0
        for i in 0..<(dot - 2) { degrees = degrees * 10 + Int64(f[i] - 0x30) }
        let wholeMinutes = Int64(f[dot - 2] - 0x30) * 10 + Int64(f[dot - 1] - 0x30)
        guard wholeMinutes < 60 else { return .problem("\(what) '\(TextValue.shown(f))' has \(wholeMinutes) minutes") }
        var value: Double
        if fractionDigits < tens.count {
            var numerator = degrees * 60 + wholeMinutes
            for i in (dot + 1)..<max(dot + 1, f.count) { numerator = numerator * 10 + Int64(f[i] - 0x30) }
            value = Double(numerator) / Double(60 * tens[fractionDigits])
        } else {
            guard let minutes = DecimalParser.parseDouble(UnsafeBufferPointer(rebasing: f[(dot - 2)...])) else {
                return .problem("\(what) '\(TextValue.shown(f))' is not a number")
            }
            value = Double(degrees) + minutes / 60
        }
        return .value(h[0] == negative ? -value : value)
    }

    /// A non-negative decimal number (speeds, DOPs, accuracies).
    static func number(_ f: UnsafeBufferPointer<UInt8>, _ what: String, signed: Bool = false) -> Value<Double> {
        if f.isEmpty { return .empty }
        guard let v = DecimalParser.parseDouble(f), v.isFinite, signed || v >= 0 else {
            return .problem("\(what) '\(TextValue.shown(f))' is not \(signed ? "a number" : "a non-negative number")")
        }
        return .value(v)
    }

    /// A non-negative integer (satellites, GGA fix quality).
    static func integer(_ f: UnsafeBufferPointer<UInt8>, _ what: String) -> Value<Int> {
        if f.isEmpty { return .empty }
        guard let v = DecimalParser.parseInt(f), v >= 0 else { return .problem("\(what) '\(TextValue.shown(f))' is not a count") }
        return .value(v)
    }
}
