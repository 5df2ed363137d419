import TestSupport
import Testing
import TraceDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private let second: Int64 = 1_000_000_000

@Suite("Timestamp")
struct TimestampTests {
    @Test(
        "known instants",
        arguments: [
            ("1970-01-01T00:00:00Z", 0, true),
            ("1970-01-01T00:00:00", 0, false),
            ("1969-12-31T23:59:59Z", -second, true),
            ("1969-12-31T23:59:59.999999999Z", -1, true),
            ("2000-02-29T12:34:56.789Z", 951_827_696 * second + 789_000_000, true),
            ("2019-12-15T20:19:55+01:00", 1_576_437_595 * second, true),
            ("2019-12-15T20:19:55+0100", 1_576_437_595 * second, true),
            ("2019-12-15T20:19:55+01", 1_576_437_595 * second, true),
            ("2019-12-15T14:49:55-04:30", 1_576_437_595 * second, true),
            ("2019-12-15T19:19:55-00:00", 1_576_437_595 * second, true),
            ("2019-12-16T04:19:55+09:00", 1_576_437_595 * second, true),
            ("1901-12-13T20:45:52Z", -2_147_483_648 * second, true),
            ("2019-05-01T04:31:11.1234567Z", 1_556_685_071 * second + 123_456_700, true),
            ("2019-05-01T04:31:11,5Z", 1_556_685_071 * second + 500_000_000, true),
            ("2019-05-01 04:31:11.000z", 1_556_685_071 * second, true),
            ("2019-05-01t04:31:11", 1_556_685_071 * second, false),
            ("2019-05-01T04:31:11.123456789", 1_556_685_071 * second + 123_456_789, false),
            ("2019-05-01T04:31:11.1234567894Z", 1_556_685_071 * second + 123_456_789, true),  // rounds down
            ("2019-05-01T04:31:11.1234567895Z", 1_556_685_071 * second + 123_456_790, true),  // half up
            ("2019-05-01T04:31:11.99999999950000Z", 1_556_685_072 * second, true),  // carries into the second
            ("2019-05-01T04:31:11.000000000000000000001Z", 1_556_685_071 * second, true),
            ("2016-12-31T23:59:60Z", 1_483_228_800 * second, true),  // leap second = next minute's :00
            ("2016-12-31T23:59:60.5Z", 1_483_228_800 * second + 500_000_000, true),
            ("2016-12-31T24:00:00Z", 1_483_228_800 * second, true),  // end of day = next midnight
            ("2016-12-31T24:00:00.000Z", 1_483_228_800 * second, true),
            ("1677-09-21T00:12:43.145224192Z", Int64.min, true),  // the Int64 range
            ("2262-04-11T23:47:16.854775807Z", Int64.max, true),
            ("2262-04-12T01:47:16.854775807+02:00", Int64.max, true),
        ] as [(String, Int64, Bool)])
    func known(text: String, nanoseconds: Int64, hadZone: Bool) throws {
        let parsed = try #require(Timestamp.parseISO8601(text))
        #expect(parsed.timestamp.nanoseconds == nanoseconds)
        #expect(parsed.hadZone == hadZone)
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "!"))  // the buffer form must stop at its end, not at a NUL
        let viaBytes = bytes.withUnsafeBufferPointer { Timestamp.parseISO8601(UnsafeBufferPointer(rebasing: $0.dropLast())) }
        #expect(viaBytes?.timestamp == parsed.timestamp)
    }

    @Test(
        "rejects invalid text and impossible dates",
        arguments: [
            "", "2019-05-01", "2019-05-01T04:31", "2019-5-1T04:31:11Z", "2019-05-1T04:31:11Z", "19-05-01T04:31:11Z",
            "2019-02-30T00:00:00Z", "2019-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2019-04-31T00:00:00Z",
            "2019-13-01T00:00:00Z", "2019-00-01T00:00:00Z", "2019-01-00T00:00:00Z", "2019-01-32T00:00:00Z",
            "2019-05-01T25:00:00Z", "2019-05-01T04:60:00Z", "2019-05-01T04:31:61Z", "2019-05-01T24:00:01Z",
            "2019-05-01T24:01:00Z", "2019-05-01T24:00:00.5Z", "2019-05-01T24:00:00.0000000001Z",
            "2019-05-01X04:31:11Z", "2019-05-01T04:31:11.Z", "2019-05-01T04:31:11.", "2019-05-01T04:31:11,",
            "2019-05-01T04:31:11ZZ", "2019-05-01T04:31:11Z ", " 2019-05-01T04:31:11Z", "2019-05-01T04:31:11 Z",
            "2019-05-01T04:31:11+1", "2019-05-01T04:31:11+01:", "2019-05-01T04:31:11+01:0", "2019-05-01T04:31:11+010",
            "2019-05-01T04:31:11+0100Z", "2019-05-01T04:31:11+24:00", "2019-05-01T04:31:11+01:60",
            "2019-05-01T04:31:11+01::00", "2019-05-01T04:31:11UTC", "2019/05/01T04:31:11Z", "2019-05-01T04-31-11Z",
            "2019-05-01T4:31:11Z", "+2019-05-01T04:31:11Z", "2019-05-01T04:31:11.1.2Z", "2019-05-01T04:31:11.-1Z",
            "２０１９-05-01T04:31:11Z",
            // Valid dates outside the Int64 nanosecond range (1677-09-21 … 2262-04-11).
            "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
            "1677-09-21T00:12:43.145224191Z", "2262-04-11T23:47:16.854775808Z", "2262-04-11T23:47:16.8547758075Z",
        ])
    func rejects(text: String) {
        #expect(Timestamp.parseISO8601(text) == nil)
    }

    @Test("calendar arithmetic matches a day-by-day count over 0000…9999")
    func calendar() {
        #expect(Timestamp.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(Timestamp.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
        #expect(Timestamp.daysFromCivil(year: 1, month: 1, day: 1) == -719_162)
        #expect(Timestamp.daysFromCivil(year: 9999, month: 12, day: 31) == 2_932_896)
        #expect(Timestamp.daysFromCivil(year: 9999, month: 12, day: 31) * 86_400 + 86_399 == 253_402_300_799)
        #expect(Timestamp.daysFromCivil(year: 1, month: 1, day: 1) * 86_400 == -62_135_596_800)
        var (y, m, d) = (0, 1, 1)
        var days = Timestamp.daysFromCivil(year: 0, month: 1, day: 1)
        #expect(days == -719_528)
        var failures = 0
        while y <= 9999 {
            if Timestamp.daysFromCivil(year: y, month: m, day: d) != days { failures += 1 }
            let back = Timestamp.civilFromDays(days)
            if back.year != y || back.month != m || back.day != d { failures += 1 }
            days += 1
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
            let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
            d += 1
            if d > length {
                d = 1
                m += 1
                if m > 12 {
                    m = 1
                    y += 1
                }
            }
        }
        #expect(failures == 0)
        #expect(Timestamp.civilFromDays(-719_529) == (-1, 12, 31))
    }

    @Test("parsing agrees with timegm, formatting with gmtime_r")
    func againstLibc() throws {
        var rng = SplitMix64(seed: 1970)
        for _ in 0..<20_000 {
            let year = 1678 + Int(rng.next() % 584), month = 1 + Int(rng.next() % 12)
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let day = 1 + Int(rng.next() % UInt64([31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]))
            let hour = Int(rng.next() % 24), minute = Int(rng.next() % 60), sec = Int(rng.next() % 60)
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            let text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(sec))Z"
            var t = tm()
            (t.tm_year, t.tm_mon, t.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
            (t.tm_hour, t.tm_min, t.tm_sec) = (Int32(hour), Int32(minute), Int32(sec))
            let expected = Int64(timegm(&t))
            let parsed = try #require(Timestamp.parseISO8601(text))
            #expect(parsed.timestamp.nanoseconds == expected * second, "\(text)")
            #expect(parsed.timestamp.iso8601 == text)

            var back = tm()
            var s = time_t(expected)
            _ = gmtime_r(&s, &back)
            #expect(back.tm_year == t.tm_year && back.tm_mon == t.tm_mon && back.tm_mday == t.tm_mday)
        }
    }

    @Test("iso8601 round trips 100,000 seeded random instants")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 2019)
        var failures: [String] = []
        for k in 0..<100_000 {
            var ns = Int64(bitPattern: rng.next())
            switch k % 4 {  // all four shortest forms: whole seconds, ms, µs, ns
            case 0: ns -= ns % second
            case 1: ns -= ns % 1_000_000
            case 2: ns -= ns % 1_000
            default: break
            }
            let t = Timestamp(nanoseconds: ns)
            let shortest = t.iso8601
            let subsecond = (ns % second + second) % second
            let expectedLength = subsecond == 0 ? 20 : subsecond % 1_000_000 == 0 ? 24 : subsecond % 1_000 == 0 ? 27 : 30
            let full = t.iso8601(fractionDigits: 9)
            let digits = Int(rng.next() % 10)
            let truncated = t.iso8601(fractionDigits: digits)
            var unit: Int64 = 1
            for _ in digits..<9 { unit *= 10 }
            let floored = ns - ((ns % unit) + unit) % unit
            if Timestamp.parseISO8601(shortest)?.timestamp != t || shortest.utf8.count != expectedLength
                || Timestamp.parseISO8601(full)?.timestamp != t
                || Timestamp.parseISO8601(truncated)?.timestamp.nanoseconds != floored
            {
                if failures.count < 10 { failures.append("\(ns): \(shortest) \(full) \(truncated)") }
            }
        }
        #expect(failures == [])
    }

    @Test("formatting")
    func formatting() {
        let t = Timestamp(nanoseconds: 951_827_696 * second + 789_000_000)
        #expect(t.iso8601 == "2000-02-29T12:34:56.789Z")
        #expect(t.description == "2000-02-29T12:34:56.789Z")
        #expect(t.iso8601(fractionDigits: 0) == "2000-02-29T12:34:56Z")
        #expect(t.iso8601(fractionDigits: 1) == "2000-02-29T12:34:56.7Z")
        #expect(t.iso8601(fractionDigits: 9) == "2000-02-29T12:34:56.789000000Z")
        #expect(t.iso8601(fractionDigits: 42) == "2000-02-29T12:34:56.789000000Z")
        #expect(t.iso8601(fractionDigits: -1) == "2000-02-29T12:34:56Z")
        #expect(Timestamp(nanoseconds: -1).iso8601 == "1969-12-31T23:59:59.999999999Z")
        #expect(Timestamp(nanoseconds: -1).iso8601(fractionDigits: 3) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp(nanoseconds: 1_000).iso8601 == "1970-01-01T00:00:00.000001Z")
        #expect(Timestamp(nanoseconds: .min).iso8601 == "1677-09-21T00:12:43.145224192Z")
        #expect(Timestamp(nanoseconds: .max).iso8601 == "2262-04-11T23:47:16.854775807Z")
    }

    @Test("seconds conversions and ordering")
    func seconds() {
        #expect(Timestamp(seconds: 0).nanoseconds == 0)
        #expect(Timestamp(seconds: 1.5).nanoseconds == 1_500_000_000)
        #expect(Timestamp(seconds: -1.5).nanoseconds == -1_500_000_000)
        #expect(Timestamp(seconds: 1e-9).nanoseconds == 1)
        #expect(Timestamp(seconds: 0.4e-9).nanoseconds == 0)
        #expect(Timestamp(seconds: 0.6e-9).nanoseconds == 1)
        #expect(Timestamp(seconds: -0.6e-9).nanoseconds == -1)
        #expect(Timestamp(seconds: 1_556_685_071.123).nanoseconds == 1_556_685_071_122_999_907)  // the double is ….1229999065…
        #expect(Timestamp(seconds: 1_556_685_071).seconds == 1_556_685_071)
        #expect(Timestamp(nanoseconds: -1_500_000_000).seconds == -1.5)
        #expect(Timestamp(nanoseconds: 1).seconds == 1e-9)
        var rng = SplitMix64(seed: 9)
        for _ in 0..<10_000 {
            let s = rng.uniform(-2e9, 4e9).rounded() + Double(rng.next() % 1_000_000) / 1e6  // µs steps
            let t = Timestamp(seconds: s)
            #expect(abs(t.seconds - s) <= s.ulp)
        }
        #expect(Timestamp(nanoseconds: 1) < Timestamp(nanoseconds: 2))
        #expect(Timestamp(nanoseconds: -5) < Timestamp(nanoseconds: 0))
        #expect(Set([Timestamp(nanoseconds: 3), Timestamp(nanoseconds: 3)]).count == 1)
    }

    @Test("seconds(since:) is exact to the nanosecond between today's epochs, and does not overflow between the extremes")
    func secondsSince() {
        // 2024-05-01T08:10:53.997Z since 08:01:37Z: each epoch as a double is 256 ns coarse.
        let a = Timestamp(nanoseconds: 1_714_551_053_997_000_000), b = Timestamp(nanoseconds: 1_714_550_497_000_000_000)
        #expect(a.seconds(since: b) == 556.997)
        #expect(b.seconds(since: a) == -556.997)
        #expect(a.seconds(since: a) == 0 && a.seconds(since: a).sign == .plus)
        var rng = SplitMix64(seed: 11)
        for _ in 0..<10_000 {
            let base = Int64(bitPattern: rng.next() % 4_000_000_000_000_000_000)
            let d = Int64(bitPattern: rng.next() % 100_000_000_000_000)  // up to 27.8 hours
            let x = Timestamp(nanoseconds: base + d).seconds(since: Timestamp(nanoseconds: base))
            #expect(x == Double(d) / 1e9, "\(base) + \(d) ns")
        }
        let extremes = Timestamp(nanoseconds: .max).seconds(since: Timestamp(nanoseconds: .min))
        #expect(abs(extremes - 18_446_744_073.709_551_615) < 1e-5)
    }
}
