import TraceDomain

// The values KML writes: coordinate tuples (`lon,lat[,alt]` in <coordinates>, `lon lat alt` in
// <gx:coord>) and xsd:dateTime times with their shorter xsd forms (date, year and month, year).
extension KMLReader {
    /// One position as written: longitude, latitude and an optional altitude, or the reason it
    /// cannot be read.
    enum Tuple {
        case position(longitude: Double, latitude: Double, altitude: Double?)
        case problem(String)
    }

    /// Reads the fields of one tuple (the text between separators): two or three numbers,
    /// longitude first.
    static func tuple(_ fields: UnsafeBufferPointer<UInt8>, separator: UInt8) -> Tuple {
        var values: (Double, Double, Double) = (0, 0, 0)
        var count = 0
        var start = 0
        var i = 0
        while i <= fields.count {
            if i == fields.count || fields[i] == separator || (separator == 0x20 && XMLScanner.isSpace(fields[i])) {
                let field = UnsafeBufferPointer(rebasing: fields[start..<i])
                guard count < 3 else { return .problem("'\(TextValue.shown(fields))' has more than three values (lon,lat[,alt])") }
                guard let v = DecimalParser.parseDouble(field), v.isFinite else {
                    let what = count == 0 ? "longitude" : count == 1 ? "latitude" : "altitude"
                    return .problem("\(what) \(TextValue.notANumber(field)) in '\(TextValue.shown(fields))'")
                }
                switch count {
                case 0: values.0 = v
                case 1: values.1 = v
                default: values.2 = v
                }
                count += 1
                start = i + 1
                // White space repeated (`lon  lat`, tabs, in a gx:coord) separates once.
                if separator == 0x20 {
                    while start < fields.count && XMLScanner.isSpace(fields[start]) { start += 1 }
                    i = start
                    if start == fields.count { break }
                    continue
                }
            }
            i += 1
        }
        guard count >= 2 else { return .problem("'\(TextValue.shown(fields))' is not lon,lat[,alt]") }
        return .position(longitude: values.0, latitude: values.1, altitude: count == 3 ? values.2 : nil)
    }

    /// The next tuple of a <coordinates> text from `cursor` (white space separates tuples, commas
    /// the values of one), advancing `cursor` past it and `line` by the line feeds it passes. Nil
    /// when only white space is left.
    static func nextTuple(_ text: UnsafeBufferPointer<UInt8>, cursor: inout Int, line: inout Int) -> (Tuple, line: Int)? {
        var i = cursor
        while i < text.count && XMLScanner.isSpace(text[i]) {
            if text[i] == 0x0A { line += 1 }
            i += 1
        }
        guard i < text.count else {
            cursor = i
            return nil
        }
        let start = i
        while i < text.count && !XMLScanner.isSpace(text[i]) { i += 1 }
        cursor = i
        return (tuple(UnsafeBufferPointer(rebasing: text[start..<i]), separator: UInt8(ascii: ",")), line)
    }

    /// A KML time, read: an xsd:dateTime (``Timestamp/parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)``,
    /// with or without a zone), or the shorter forms KML allows in `<when>`, `<begin>` and `<end>`:
    /// a date (`2014-05-25`), a year and month (`2014-05`) or a year (`2014`), read as the first
    /// instant of that day, month or year, UTC (`coarse`).
    enum TimeValue {
        case time(Timestamp, hadZone: Bool, coarse: Bool)
        case unreadable
    }

    static func time(_ raw: UnsafeBufferPointer<UInt8>) -> TimeValue {
        let text = TextValue.trimmed(raw)
        if text.count >= 19 {
            guard let parsed = Timestamp.parseISO8601(text) else { return .unreadable }
            return .time(parsed.timestamp, hadZone: parsed.hadZone, coarse: false)
        }
        // YYYY, YYYY-MM, YYYY-MM-DD (digits exactly so).
        func digits(_ from: Int, _ n: Int) -> Int? {
            var v = 0
            for k in from..<(from + n) {
                let d = text[k] &- UInt8(ascii: "0")
                guard d <= 9 else { return nil }
                v = v * 10 + Int(d)
            }
            return v
        }
        guard text.count == 4 || text.count == 7 || text.count == 10, let year = digits(0, 4) else { return .unreadable }
        var month = 1, day = 1
        if text.count >= 7 {
            guard text[4] == UInt8(ascii: "-"), let m = digits(5, 2), m >= 1, m <= 12 else { return .unreadable }
            month = m
        }
        if text.count == 10 {
            guard text[7] == UInt8(ascii: "-"), let d = digits(8, 2), d >= 1 else { return .unreadable }
            // The day must exist: the day after it is in the next month.
            let (_, m2, _) = Timestamp.civilFromDays(Timestamp.daysFromCivil(year: year, month: month, day: d))
            guard m2 == month else { return .unreadable }
            day = d
        }
        let days = Int64(Timestamp.daysFromCivil(year: year, month: month, day: day))
        let (ns, overflow) = (days &* 86_400).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .unreadable }
        return .time(Timestamp(nanoseconds: ns), hadZone: true, coarse: true)
    }
}
