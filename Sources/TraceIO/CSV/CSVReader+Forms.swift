import TraceDomain

// How a column writes its values when the header or the values say more than "a number":
// coordinates as E7 integers, semicircles or NMEA's degrees and decimal minutes, epochs counted
// from GPS's or FIT's origin, six-digit dates, UTC offsets. Each form is settled once per column
// (from the header's unit, a columns option's transform, or the column's first value) and stated
// as an assumption when it was inferred.
extension CSVReader {
    /// How a coordinate column writes degrees.
    enum CoordinateForm: Equatable {
        /// Not settled: the first value decides (decimal degrees when it is within range).
        case undecided
        case degrees
        /// Integers, degrees × 10⁷ (`latitudeE7`).
        case e7
        /// Integers, degrees × 2³¹ / 180 (Garmin FIT).
        case semicircles
        /// NMEA's `dddmm.mmmm`: degrees times 100 plus decimal minutes.
        case degreesMinutes

        /// The form a unit word names (a header's unit or a columns option's transform); nil for
        /// a word that names none (`deg` and no unit leave the column undecided).
        init?(unit: String?) {
            switch unit {
            case "e7": self = .e7
            case "semicircles", "semicircle", "sc": self = .semicircles
            case "ddmm", "nmea", "dm", "degmin": self = .degreesMinutes
            case "deg", "degrees", "°", "dd", "fit-position", nil: return nil
            default: return nil
            }
        }

        /// What the assumption says.
        var words: String {
            switch self {
            case .undecided, .degrees: "decimal degrees"
            case .e7: "E7 integers (degrees × 10⁷)"
            case .semicircles: "semicircles (degrees × 2³¹ / 180, as FIT files write them)"
            case .degreesMinutes: "degrees and decimal minutes (ddmm.mmmm, as NMEA writes them)"
            }
        }
    }

    /// The unit words a columns option may add after a colon (`latitude=position_lat:semicircles`,
    /// `time=timestamp:fit`, `elevation=Alt:ft`).
    static let transforms: Set<String> = [
        "e7", "semicircles", "ddmm", "nmea", "deg", "degrees",
        "fit", "gps", "unix", "s", "ms", "us", "ns", "yymmdd", "ddmmyy", "mmddyy",
        "m", "ft", "feet", "km", "mi", "m/s", "mps", "kmh", "km/h", "kph", "mph", "kn", "knots", "kts",
        "h", "hours", "min", "minutes",
    ]

    /// The latitude or longitude `v` as read from its column in `form`, settling an undecided
    /// column from this value. Nil with a note in ``row`` when `v` fits no form.
    /// `integral`: the text had no decimal point (an integer column's value).
    mutating func coordinateValue(_ v: Double, _ field: CSVField, integral: Bool) -> Double? {
        let limit: Double = field == .latitude ? 90 : 180
        var form = field == .latitude ? latitudeForm : longitudeForm
        if form == .undecided {
            if abs(v) <= limit {
                form = .degrees
            } else if integral && abs(v) >= 100_000 && abs(v) < 1e10 {
                // An integer column far beyond the degree range (0.01° is 100,000 in E7): E7 or
                // semicircles, which only the name can tell.
                guard units[field] == "fit-position" else {
                    row.coordinateProblem = Note(
                        kind: .invalidCoordinate,
                        detail:
                            "\(field.key) \(Int64(v)) is out of range: an integer column (E7 or semicircles?); say which with a transform in the columns option, e.g. \(field.key)=NAME:e7 or \(field.key)=NAME:semicircles"
                    )
                    return nil
                }
                form = .semicircles
            } else if CSVReader.degreesMinutes(v, limit: limit) != nil {
                form = .degreesMinutes
            } else {
                return v  // out of range as decimal degrees: the checks report it
            }
            if form != .degrees { checker.diagnostics.assume("\(field.key) read as \(form.words)") }
            if field == .latitude { latitudeForm = form } else { longitudeForm = form }
            // NMEA writes both coordinates as degrees and minutes: the other column follows
            // (London's longitude -0007.5 is within ±180 as degrees too).
            if form == .degreesMinutes {
                let other: CSVField = field == .latitude ? .longitude : .latitude
                if (other == .longitude ? longitudeForm : latitudeForm) == .undecided {
                    if other == .longitude { longitudeForm = .degreesMinutes } else { latitudeForm = .degreesMinutes }
                    checker.diagnostics.assume("\(other.key) read as \(form.words), as the \(field.key)")
                }
            }
            // FIT writes semicircles, and counts its timestamps from its own epoch.
            if form == .semicircles && epochOrigin == .unix && units[.time] != "unix" {
                epochOrigin = .fit
                checker.diagnostics.assume("epoch times counted from FIT's 1989-12-31")
            }
            fusedColumns = fusedLayout()  // taken once both columns are decimal degrees
        }
        switch form {
        case .undecided, .degrees: return v
        case .e7: return v / 10_000_000
        case .semicircles: return v * 180 / 2_147_483_648  // exact: a product of integers, then a power of two
        case .degreesMinutes:
            guard let d = CSVReader.degreesMinutes(v, limit: limit) else {
                row.coordinateProblem = Note(
                    kind: .invalidCoordinate, detail: "\(field.key) \(v) is not degrees and decimal minutes (minutes 60 or more)")
                return nil
            }
            return d
        }
    }

    /// NMEA's `dddmm.mmmm` as degrees; nil when the minutes are 60 or more or the degrees exceed
    /// `limit`. The minutes are `|v|` less the whole degrees × 100, exact in binary.
    static func degreesMinutes(_ v: Double, limit: Double) -> Double? {
        let a = abs(v)
        let degrees = (a / 100).rounded(.down)
        let minutes = a - degrees * 100
        guard minutes < 60, degrees <= limit else { return nil }
        let d = degrees + minutes / 60
        guard d <= limit else { return nil }
        return v < 0 ? -d : d
    }

    // MARK: Times

    /// An ASCII digit.
    private func isDigitCharacter(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// Where an epoch column counts from, when its header or a transform names it.
    enum EpochOrigin: Equatable {
        case unix
        /// GPS time: from 1980-01-06T00:00:00Z, without leap seconds (ahead of UTC by 18 s since 2017).
        case gps
        /// FIT: from 1989-12-31T00:00:00Z, in UTC seconds.
        case fit

        init(unit: String?) {
            switch unit {
            case "gps": self = .gps
            case "fit": self = .fit
            default: self = .unix
            }
        }

        /// `t`, counted from this origin, as a Unix time; nil when it overflows.
        func unixTime(_ t: Timestamp) -> Timestamp? {
            switch self {
            case .unix: return t
            case .fit: return t.adding(seconds: 631_065_600)
            case .gps:
                guard let utc = t.adding(seconds: 315_964_800) else { return nil }
                return utc.adding(seconds: -EpochOrigin.gpsLeapSeconds(at: utc))
            }
        }

        /// GPS − UTC in seconds at GPS time `t` (read as if UTC): the leap seconds since 1980.
        static func gpsLeapSeconds(at t: Timestamp) -> Int {
            let s = t.nanoseconds / 1_000_000_000
            var leap = 0
            for (k, start) in leapSecondStarts.enumerated() where s >= start + Int64(k + 1) { leap = k + 1 }
            return leap
        }

        /// Unix times (UTC) at which each leap second since 1980 took effect, in order.
        static let leapSecondStarts: [Int64] = [
            362_793_600, 394_329_600, 425_865_600, 489_024_000, 567_993_600, 631_152_000, 662_688_000, 709_948_800,
            741_484_800, 773_020_800, 820_454_400, 867_715_200, 915_148_800, 1_136_073_600, 1_230_768_000, 1_341_100_800,
            1_435_708_800, 1_483_228_800,
        ]
    }

    /// The order of a six-digit date column's digits.
    enum SixDigitDate: Equatable {
        case undecided, yymmdd, ddmmyy, mmddyy

        init(unit: String?) {
            switch unit {
            case "yymmdd": self = .yymmdd
            case "ddmmyy": self = .ddmmyy
            case "mmddyy": self = .mmddyy
            default: self = .undecided
            }
        }
    }

    /// `d` as `YYYY-MM-DD` when it is six digits, settling the column's order from its first
    /// value when the header did not name it: YYMMDD (as loggers such as Columbus write it)
    /// unless only DDMMYY (NMEA's order) reads as a date. Two-digit years are 1980…2079. Nil when
    /// `d` is not six digits or not a date in the column's order.
    mutating func sixDigitDate(_ d: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard d.count == 6, d.allSatisfy(TextValue.isDigit) else { return nil }
        let a = Int(d[0] - 0x30) * 10 + Int(d[1] - 0x30), b = Int(d[2] - 0x30) * 10 + Int(d[3] - 0x30)
        let c = Int(d[4] - 0x30) * 10 + Int(d[5] - 0x30)
        func valid(_ m: Int, _ day: Int) -> Bool { (1...12).contains(m) && (1...31).contains(day) }
        if sixDigitDates == .undecided {
            // Settled by the first value that reads in either order (a logger's 000000 does not).
            guard valid(b, c) || valid(b, a) else { return nil }
            sixDigitDates = !valid(b, c) ? .ddmmyy : .yymmdd
            let both = valid(b, c) && valid(b, a)
            checker.diagnostics.assume(
                "six-digit dates read as \(sixDigitDates == .ddmmyy ? "DDMMYY" : "YYMMDD")"
                    + (both
                        ? " (the first, \(TextValue.string(d)), reads either way: name the order with the transform :ddmmyy or :yymmdd)"
                        : ""))
        }
        let (yy, m, day): (Int, Int, Int) =
            switch sixDigitDates {
            case .ddmmyy: (c, b, a)
            case .mmddyy: (c, a, b)
            case .yymmdd, .undecided: (a, b, c)
            }
        guard valid(m, day) else { return nil }
        let year = yy < 80 ? 2000 + yy : 1900 + yy
        return Array("\(year)-\(m < 10 ? "0" : "")\(m)-\(day < 10 ? "0" : "")\(day)".utf8)
    }

    /// "UTC+02:00", "UTC−05:30" of an offset in seconds east of UTC (messages).
    static func offsetText(_ seconds: Int) -> String {
        let a = abs(seconds)
        let m = a / 60 % 60
        return "UTC\(seconds < 0 ? "−" : "+")\(a / 3600 < 10 ? "0" : "")\(a / 3600):\(m < 10 ? "0" : "")\(m)"
    }

    /// A UTC offset column's value in seconds east of UTC: `+02:00`, `5:30`, `+0200`, `0530`
    /// (four digits are hours and minutes), `-5`, `UTC+2`, `GMT-05:30`, or a number of hours (up
    /// to 14), minutes (multiples of 15, up to 840) or seconds, as the header's unit says or,
    /// without one, by magnitude. Nil when unreadable (a second sign, other characters).
    func utcOffsetSeconds(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
        var t = TextValue.string(raw).uppercased()
        for prefix in ["UTC", "GMT"] where t.hasPrefix(prefix) { t.removeFirst(prefix.count) }
        t = TextValue.trimmed(t)
        if t.isEmpty || t == "Z" { return 0 }
        var sign = 1
        var body = Substring(t)
        let signed = body.first == "+" || body.first == "-"
        if signed {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        if let colon = body.firstIndex(of: ":") {
            // [±]H:MM or [±]HH:MM.
            let h = body[..<colon], m = body[body.index(after: colon)...]
            guard (1...2).contains(h.count), m.count == 2, h.allSatisfy(isDigitCharacter), m.allSatisfy(isDigitCharacter),
                let hours = Int(h), let minutes = Int(m), hours <= 14, minutes < 60
            else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
        guard !body.isEmpty, body.allSatisfy({ isDigitCharacter($0) || $0 == "." }) else { return nil }
        if body.count == 4 && body.allSatisfy(isDigitCharacter) {
            // [±]HHMM.
            let v = Int(body)!
            guard v / 100 <= 14, v % 100 < 60 else { return nil }
            return sign * (v / 100 * 3600 + v % 100 * 60)
        }
        guard let v = Double(String(body)), v.isFinite else { return nil }
        let scale: Double
        switch units[.utcOffset] {
        case "h", "hours", "hour": scale = 3600
        case "min", "minutes", "m": scale = 60
        case "s", "sec", "seconds": scale = 1
        default:
            if abs(v) <= 14 {
                scale = 3600
            } else if abs(v) <= 840 && v.truncatingRemainder(dividingBy: 15) == 0 {
                scale = 60
            } else {
                scale = 1
            }
        }
        let seconds = Double(sign) * v * scale
        guard abs(seconds) <= 14 * 3600, seconds == seconds.rounded() else { return nil }
        return Int(seconds)
    }
}
