import TestSupport
import Testing
import TraceDomain

@testable import TraceIO

@Suite("Timestamp common form")
struct TimestampCommonFormTests {
    /// `parseCommonUTC` on `text` (20 bytes) agrees with `parseISO8601` whenever it answers.
    private static func agrees(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { b -> Bool in
            guard let quick = Timestamp.parseCommonUTC(b.baseAddress!) else { return true }
            guard let full = Timestamp.parseISO8601(b) else { return false }
            return full.hadZone && full.timestamp == quick
        }
    }

    @Test("every byte at every position agrees with the general parser, and common times are taken")
    func everyByte() {
        var mismatches: [String] = []
        var taken = 0
        for base in [
            "2024-02-29T23:59:59Z", "2023-02-28T00:00:00Z", "1970-01-01T00:00:00Z", "2261-12-31T12:34:56Z", "2000-12-31T09:05:07Z",
        ] {
            let original = Array(base.utf8)
            if original.withUnsafeBufferPointer({ Timestamp.parseCommonUTC($0.baseAddress!) }) != nil { taken += 1 }
            for position in original.indices {
                for byte in UInt8.min...UInt8.max {
                    var text = original
                    text[position] = byte
                    if !Self.agrees(text) && mismatches.count < 10 { mismatches.append(String(decoding: text, as: UTF8.self)) }
                }
            }
        }
        #expect(mismatches == [])
        #expect(taken == 5)
    }

    @Test("every two-digit hour, minute and second: taken exactly when in range, with the general parser's instant")
    func everyTimeOfDay() {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let edges = [0, 1, 9, 10, 23, 24, 58, 59, 60, 99]
        var wrong: [String] = []
        func check(_ hour: Int, _ minute: Int, _ second: Int) {
            let bytes = Array("2024-05-01T\(two(hour)):\(two(minute)):\(two(second))Z".utf8)
            let quick = bytes.withUnsafeBufferPointer { Timestamp.parseCommonUTC($0.baseAddress!) }
            let inRange = hour <= 23 && minute <= 59 && second <= 59
            let expected = inRange ? bytes.withUnsafeBufferPointer { Timestamp.parseISO8601($0)?.timestamp } : nil
            if quick != expected || (inRange && quick == nil), wrong.count < 10 { wrong.append(String(decoding: bytes, as: UTF8.self)) }
        }
        for a in 0..<100 {
            for b in 0..<100 {
                for e in edges {
                    check(a, b, e)
                    check(a, e, b)
                    check(e, a, b)
                }
            }
        }
        #expect(wrong == [])
    }

    @Test("random dates and times agree with the general parser")
    func randomTimes() {
        var rng = SplitMix64(seed: 11)
        var mismatches: [String] = []
        var taken = 0
        for _ in 0..<200_000 {
            func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let year = 1960 + rng.next() % 320
            let text =
                "\(year)-\(two(rng.next() % 14))-\(two(rng.next() % 33))T\(two(rng.next() % 26)):\(two(rng.next() % 62)):\(two(rng.next() % 62))Z"
            let bytes = Array(text.utf8)
            if bytes.withUnsafeBufferPointer({ Timestamp.parseCommonUTC($0.baseAddress!) }) != nil { taken += 1 }
            if !Self.agrees(bytes) && mismatches.count < 10 { mismatches.append(text) }
        }
        #expect(mismatches == [])
        #expect(taken > 50_000)
    }

    @Test("the date cache gives what the uncached parser gives, over runs of times sharing a date")
    func dateCacheAgrees() {
        var rng = SplitMix64(seed: 12)
        var day = Timestamp.CommonUTCDay()
        var mismatches: [String] = []
        var hits = 0
        var text = Array("2024-05-01T00:00:00Z".utf8)
        for _ in 0..<300_000 {
            // Mostly a new time of day on the same date; sometimes a new date, a broken byte
            // anywhere, or a date that does not exist.
            switch rng.next() % 20 {
            case 0:
                text.replaceSubrange(
                    0..<10,
                    with: Array("\(1960 + rng.next() % 320)-\(rng.next() % 2)\(rng.next() % 10)-\(rng.next() % 4)\(rng.next() % 10)".utf8))
            case 1: text[Int(rng.next() % 20)] = UInt8(truncatingIfNeeded: rng.next())
            case 2: text = Array("2024-05-01T00:00:00Z".utf8)
            default:
                let t = Array(
                    "\(rng.next() % 3)\(rng.next() % 10):\(rng.next() % 7)\(rng.next() % 10):\(rng.next() % 7)\(rng.next() % 10)".utf8)
                text.replaceSubrange(11..<19, with: t)
            }
            guard text.count == 20 else { text = Array("2024-05-01T00:00:00Z".utf8); continue }
            let (plain, cached) = text.withUnsafeBufferPointer { b in
                (Timestamp.parseCommonUTC(b.baseAddress!), Timestamp.parseCommonUTC(b.baseAddress!, day: &day))
            }
            if plain != cached && mismatches.count < 10 { mismatches.append(String(decoding: text, as: UTF8.self)) }
            if cached != nil { hits += 1 }
        }
        #expect(mismatches == [])
        #expect(hits > 50_000)
    }
}
