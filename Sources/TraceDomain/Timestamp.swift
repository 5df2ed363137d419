/// An instant, as nanoseconds since 1970-01-01T00:00:00Z (UTC, leap seconds not counted, like
/// POSIX time).
///
/// The `Int64` range spans 1677-09-21T00:12:43.145224192Z … 2262-04-11T23:47:16.854775807Z;
/// parsing an instant outside it returns `nil`. Dates use the proleptic Gregorian calendar.
/// No Foundation: parsing and formatting are plain integer arithmetic.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Nanoseconds since 1970-01-01T00:00:00Z (negative before).
    public var nanoseconds: Int64

    /// The years every day of which is representable: a date outside them is refused where one
    /// is read on its own (an NMEA ZDA, `--date`).
    public static let supportedYears: ClosedRange<Int> = 1678...2261

    /// The instant `nanoseconds` after (or before, when negative) 1970-01-01T00:00:00Z.
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The instant `seconds` after 1970-01-01T00:00:00Z, rounded to the nearest nanosecond
    /// (ties toward the later instant).
    ///
    /// - Precondition: `seconds` is finite and within the representable range (about ±292 years
    ///   around 1970); otherwise this traps, like `Int64(_: Double)`.
    public init(seconds: Double) {
        precondition(seconds.isFinite, "Timestamp(seconds:) needs a finite value")
        let whole = seconds.rounded(.down)
        // Exact: `seconds - whole` is in [0, 1) and representable.
        let fraction = ((seconds - whole) * 1e9).rounded(.toNearestOrAwayFromZero)
        guard let wholeSeconds = Int64(exactly: whole) else { preconditionFailure("Timestamp(seconds:) out of range") }
        let (scaled, o1) = wholeSeconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, o2) = scaled.addingReportingOverflow(Int64(fraction))
        precondition(!o1 && !o2, "Timestamp(seconds:) out of range")
        nanoseconds = total
    }

    /// Seconds since 1970-01-01T00:00:00Z as a double: whole seconds exact, the fraction rounded
    /// twice at most (a double near 1.6e9 s resolves about 0.24 µs).
    public var seconds: Double {
        let (s, ns) = Self.floorDivide(nanoseconds, 1_000_000_000)
        return Double(s) + Double(ns) / 1e9
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.nanoseconds < b.nanoseconds }

    /// This instant moved by `seconds`, or nil when the result leaves the representable range
    /// (1677–2262).
    public func adding(seconds: Int) -> Timestamp? {
        let (ns, o1) = Int64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, o2) = nanoseconds.addingReportingOverflow(ns)
        return o1 || o2 ? nil : Timestamp(nanoseconds: sum)
    }

    /// Seconds from `other` to this instant: the difference in nanoseconds, exact while it is
    /// under 2⁵³ ns (104 days), then divided once (correctly rounded, so 556,997,000,000 ns is
    /// 556.997); a difference too large for 64 bits is computed in floating point instead.
    public func seconds(since other: Timestamp) -> Double {
        let (difference, overflow) = nanoseconds.subtractingReportingOverflow(other.nanoseconds)
        if !overflow { return Double(difference) / 1e9 }
        return (Double(nanoseconds) - Double(other.nanoseconds)) / 1e9
    }

    // MARK: - Parsing

    /// Parses an ISO 8601 / RFC 3339 date and time that must fill `bytes` exactly:
    ///
    ///     YYYY-MM-DD ( "T" | "t" | " " ) hh:mm:ss [ ( "." | "," ) 1*DIGIT ] [ zone ]
    ///     zone = "Z" | "z" | ( "+" | "-" ) hh [ [ ":" ] mm ]
    ///
    /// - Fields have exactly the digits shown (`2019-5-1` is rejected). Year 0000…9999, month
    ///   1…12, day within the month (Gregorian leap years), hour 0…23, minute 0…59, second 0…60;
    ///   zone offset hours 0…23 and minutes 0…59.
    /// - `24:00:00` (with no fraction, or an all-zero one) is accepted as midnight at the end of
    ///   that day, i.e. 00:00:00 of the next day.
    /// - Second `60` (a leap second) is accepted in any minute and counted as second 0 of the next
    ///   minute (POSIX time has no leap seconds): `23:59:60.5Z` is `00:00:00.5Z` of the next day.
    /// - The fraction keeps 9 digits (nanoseconds) exactly; longer fractions are rounded to the
    ///   nearest nanosecond, half up (`.1234567895` → 123 456 790 ns).
    /// - Without a zone the time is read as UTC and `hadZone` is `false`, so the caller can report
    ///   that assumption.
    ///
    /// - Returns: the instant and whether the text had a zone, or `nil` when the text is not in
    ///   this form, names an impossible date or time, or falls outside the `Int64` nanosecond
    ///   range (before 1677-09-21 or after 2262-04-11).
    /// - Complexity: O(n) in the fraction's length, no allocation.
    public static func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> (timestamp: Timestamp, hadZone: Bool)? {
        let n = bytes.count
        guard n >= 19 else { return nil }
        let century = twoDigits(bytes, 0), yy = twoDigits(bytes, 2)
        let month = twoDigits(bytes, 5), day = twoDigits(bytes, 8)
        let hour = twoDigits(bytes, 11), minute = twoDigits(bytes, 14), second = twoDigits(bytes, 17)
        guard century >= 0, yy >= 0, month >= 1, month <= 12, day >= 1, hour >= 0, hour <= 24,
            minute >= 0, minute <= 59, second >= 0, second <= 60,
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        switch bytes[10] {
        case UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " "): break
        default: return nil
        }
        let year = century * 100 + yy
        guard day <= daysInMonth(month, year: year) else { return nil }

        // Fraction: 9 digits kept, the 10th rounds half up, the rest are ignored.
        var i = 19
        var fraction: Int64 = 0
        var fractionNonzero = false
        if i < n && (bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",")) {
            i &+= 1
            let start = i
            var kept = 0
            while i < n {
                let d = bytes[i] &- UInt8(ascii: "0")
                if d > 9 { break }
                if d != 0 { fractionNonzero = true }
                if kept < 9 {
                    fraction = fraction &* 10 &+ Int64(d)
                    kept &+= 1
                } else if i == start &+ 9 && d >= 5 {
                    fraction &+= 1  // may reach 1_000_000_000: carries into the seconds below
                }
                i &+= 1
            }
            guard i > start else { return nil }
            fraction &*= scaleToNanoseconds(digits: kept)
        }
        if hour == 24 { guard minute == 0, second == 0, !fractionNonzero else { return nil } }

        // Zone.
        var offsetSeconds = 0
        var hadZone = false
        if i < n {
            hadZone = true
            switch bytes[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i &+= 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
                guard i + 3 <= n else { return nil }
                let offsetHours = twoDigits(bytes, i &+ 1)
                guard offsetHours >= 0, offsetHours <= 23 else { return nil }
                i &+= 3
                var offsetMinutes = 0
                if i < n {
                    if bytes[i] == UInt8(ascii: ":") { i &+= 1 }
                    guard i + 2 <= n else { return nil }
                    offsetMinutes = twoDigits(bytes, i)
                    guard offsetMinutes >= 0, offsetMinutes <= 59 else { return nil }
                    i &+= 2
                }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            default:
                return nil
            }
            guard i == n else { return nil }
        }

        let days = Int64(daysFromCivil(year: year, month: month, day: day))
        let secondOfDay = Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        var seconds = days &* 86_400 &+ secondOfDay  // |seconds| < 4e11: no overflow
        if seconds < 0 && fraction > 0 {
            // Same signs for both terms, so 1677-09-21T00:12:43.145224192Z (Int64.min) does not
            // overflow on the way.
            seconds &+= 1
            fraction &-= 1_000_000_000
        }
        let (scaled, o1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, o2) = scaled.addingReportingOverflow(fraction)
        if o1 || o2 { return nil }
        return (Timestamp(nanoseconds: total), hadZone)
    }

    /// Parses ISO 8601 text that must be the whole of `text` (see
    /// ``parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)``).
    public static func parseISO8601(_ text: Substring) -> (timestamp: Timestamp, hadZone: Bool)? {
        var text = text
        return text.withUTF8 { parseISO8601($0) }
    }

    /// Parses ISO 8601 text that must be the whole of `text` (see
    /// ``parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)``).
    public static func parseISO8601(_ text: String) -> (timestamp: Timestamp, hadZone: Bool)? {
        var text = text
        return text.withUTF8 { parseISO8601($0) }
    }

    // MARK: - Formatting

    /// The instant in UTC as `YYYY-MM-DDThh:mm:ss[.f…]Z` with exactly `fractionDigits` fraction
    /// digits (clamped to 0…9; no `.` for 0).
    ///
    /// Extra precision is truncated toward the past, never rounded, so the printed instant never
    /// lies after the value and the date and time fields never roll over: `23:59:59.999999999`
    /// prints as `23:59:59.999` with 3 digits. With 9 digits the text parses back to exactly this
    /// value.
    public func iso8601(fractionDigits: Int) -> String {
        let digits = min(max(fractionDigits, 0), 9)
        let (secondsSinceEpoch, nanos) = Self.floorDivide(nanoseconds, 1_000_000_000)
        let (days, secondOfDay) = Self.floorDivide(secondsSinceEpoch, 86_400)
        let date = Self.civilFromDays(Int(days))
        let sod = Int(secondOfDay)
        let length = 20 + (digits > 0 ? digits + 1 : 0)
        return String(unsafeUninitializedCapacity: length) { out in
            // The Int64 range keeps the year within 1677…2262: always four digits.
            func put2(_ value: Int, _ at: Int) {
                out[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
                out[at + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            }
            put2(date.year / 100, 0)
            put2(date.year % 100, 2)
            out[4] = UInt8(ascii: "-")
            put2(date.month, 5)
            out[7] = UInt8(ascii: "-")
            put2(date.day, 8)
            out[10] = UInt8(ascii: "T")
            put2(sod / 3600, 11)
            out[13] = UInt8(ascii: ":")
            put2(sod / 60 % 60, 14)
            out[16] = UInt8(ascii: ":")
            put2(sod % 60, 17)
            var at = 19
            if digits > 0 {
                out[at] = UInt8(ascii: ".")
                var rest = Int(nanos)
                var divisor = 100_000_000
                for _ in 0..<digits {
                    out[at + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor)
                    rest %= divisor
                    divisor /= 10
                    at += 1
                }
                at += 1
            }
            out[at] = UInt8(ascii: "Z")
            return at + 1
        }
    }

    /// The shortest exact UTC form: `YYYY-MM-DDThh:mm:ssZ` for whole seconds, else 3, 6 or 9
    /// fraction digits, whichever is the fewest that represent the value exactly. Parses back to
    /// exactly this value.
    public var iso8601: String {
        let nanos = Self.floorDivide(nanoseconds, 1_000_000_000).remainder
        let digits = nanos == 0 ? 0 : nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9
        return iso8601(fractionDigits: digits)
    }

    // MARK: - Calendar arithmetic

    /// Days from 1970-01-01 to the given proleptic Gregorian date (negative before it).
    ///
    /// The year is shifted to start on 1 March so the leap day is the last day of the year, then
    /// split into 400-year eras of 146 097 days; within an era the day is
    /// `365·y + y/4 − y/100 + (day of the March-based year)`, where the day of the year comes from
    /// the linear fit `(153·m + 2) / 5` over the March-based month `m` (Hinnant's `days_from_civil`
    /// construction). Month must be 1…12; the day is not validated (0 or 32 extrapolate). O(1).
    @inline(__always)
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400  // floor division by 400
        let yearOfEra = y - era * 400  // 0…399
        let marchMonth = month > 2 ? month - 3 : month + 9  // March = 0 … February = 11
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1  // 0…365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // 0…146096
        return era * 146_097 + dayOfEra - 719_468  // 719 468 days from 0000-03-01 to 1970-01-01
    }

    /// The proleptic Gregorian date `days` after 1970-01-01: the inverse of
    /// ``daysFromCivil(year:month:day:)``. O(1).
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468  // days since 0000-03-01
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097  // 0…146096
        // Undo the leap-day counts (every 4th year, not every 100th, but every 400th = the last
        // day of the era) to get the year of the era.
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0…365
        let marchMonth = (5 * dayOfYear + 2) / 153  // inverse of the linear fit
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    // MARK: - Internals

    /// Two ASCII digits at `i` and `i + 1` as 0…99, or −1.
    @inline(__always)
    private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let hi = bytes[i] &- UInt8(ascii: "0"), lo = bytes[i &+ 1] &- UInt8(ascii: "0")
        return hi > 9 || lo > 9 ? -1 : Int(hi) &* 10 &+ Int(lo)
    }

    /// 10^(9 − digits) for 1 ≤ digits ≤ 9 (a lookup table once compiled).
    @inline(__always)
    private static func scaleToNanoseconds(digits: Int) -> Int64 {
        switch digits {
        case 1: 100_000_000
        case 2: 10_000_000
        case 3: 1_000_000
        case 4: 100_000
        case 5: 10_000
        case 6: 1_000
        case 7: 100
        case 8: 10
        default: 1
        }
    }

    @inline(__always)
    package static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Floor division: the remainder is in 0..<divisor.
    @inline(__always)
    private static func floorDivide(_ a: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = a / divisor, r = a % divisor
        if r < 0 {
            q -= 1
            r += divisor
        }
        return (q, r)
    }
}

extension Timestamp: CustomStringConvertible {
    /// The shortest exact ISO 8601 form, ``iso8601``.
    public var description: String { iso8601 }
}
