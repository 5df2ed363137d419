import Foundation
import TestSupport
import Testing
import TraceIO
import TraceDomain

/// `$body*hh` with the right checksum.
private func sentence(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return "$" + body + "*" + String(format: "%02X", sum)
}

private func read(_ lines: [String], options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(NMEAReader(bytes: Array(lines.map { $0 + "\r\n" }.joined().utf8), options: options))
}

/// `hhmmss.00` of seconds since midnight.
private func clock(_ s: Int) -> String {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(two(s / 3600 % 24))\(two(s / 60 % 60))\(two(s % 60)).00"
}

private func day(_ y: Int, _ m: Int, _ d: Int) -> Int64 { Int64(Timestamp.daysFromCivil(year: y, month: m, day: d)) }

private func at(_ days: Int64, seconds: Int) -> Timestamp { Timestamp(nanoseconds: (days * 86_400 + Int64(seconds)) * 1_000_000_000) }

/// NMEA logs whose date comes late, from ZDA, or never: GGA-only and GLL-only logs, `--date`.
@Suite("NMEA dates: late and missing dates, ZDA, GLL, --date")
struct NMEADateTests {
    /// GGA fixes each second from 23:58:00 for 4 min (crossing UTC midnight), then one ZDA.
    static func ggaThenZDA(zda: String) -> [String] {
        var lines: [String] = []
        for i in 0..<240 {
            lines.append(sentence("GPGGA,\(clock(86_280 + i)),4722.\(String(format: "%03d", i)),N,00832.418,E,1,08,0.9,410.0,M,48.0,M,,"))
        }
        lines.append(sentence(zda))
        return lines
    }

    @Test("GGA and a late ZDA across midnight: the fixes before it are dated back, the first on the day before")
    func lateZDA() throws {
        let r = try read(Self.ggaThenZDA(zda: "GPZDA,000000.00,02,05,2024,00,00"))
        #expect(r.points.count == 240 && r.diagnostics.counts.isEmpty)
        #expect(r.points.first?.time == at(day(2024, 5, 1), seconds: 86_280))
        #expect(r.points[119].time == at(day(2024, 5, 1), seconds: 86_399))
        #expect(r.points[120].time == at(day(2024, 5, 2), seconds: 0))
        #expect(r.points.last?.time == at(day(2024, 5, 2), seconds: 119))
        #expect(r.diagnostics.sources == "positions from GGA (240 fixes); dates from ZDA (240), the first (2024-05-02) at line 241; times of day from the position sentences")
        #expect(r.diagnostics.assumptions.contains("240 fixes before the first date (2024-05-02, line 241) were dated back from it, across 1 UTC midnight"))
    }

    @Test("a ZDA of an epoch's own time dates that epoch; a later date moves forward across midnight too")
    func zdaInEpoch() throws {
        let lines = [
            sentence("GPGGA,235959.00,4722.000,N,00832.418,E,1,08,0.9,410.0,M,48.0,M,,"),
            sentence("GPZDA,235959.00,30,04,2024,00,00"),
            sentence("GPGGA,000001.00,4722.001,N,00832.418,E,1,08,0.9,410.0,M,48.0,M,,"),
        ]
        let r = try read(lines)
        #expect(r.points.map(\.time) == [at(day(2024, 4, 30), seconds: 86_399), at(day(2024, 5, 1), seconds: 1)])
        #expect(!r.diagnostics.assumptions.contains { $0.contains("dated back") })
    }

    @Test("GLL-only, with a date from ZDA: GLL sentences are fixes; status V is no fix and counted")
    func gllWithDate() throws {
        var lines: [String] = [sentence("GPZDA,120000.00,01,05,2024,00,00")]
        for i in 0..<5 {
            let status = i == 2 ? "V" : "A"
            lines.append(sentence("GPGLL,4722.\(String(format: "%03d", i)),N,00832.418,E,\(clock(43_200 + i)),\(status),A"))
        }
        let r = try read(lines)
        #expect(r.points.count == 4)
        #expect(r.points.first?.time == at(day(2024, 5, 1), seconds: 43_200))
        #expect(r.points.first?.coordinate.latitude == (47.0 * 60 + 22.0) / 60)
        #expect(r.diagnostics.assumptions.contains("1 epoch without a fix (RMC or GLL status V, GGA quality 0 or 6-8) was not read as points"))
        #expect(r.diagnostics.sources?.hasPrefix("positions from GLL (4 fixes); dates from ZDA (4)") == true)
    }

    /// A marine log: GLL fixes, ZDAs without a date.
    static let marine: [String] = (0..<6).flatMap { i in
        [sentence("GPGLL,4722.\(String(format: "%03d", i)),N,00832.418,E,\(clock(3_600 + i)),A,A"), sentence("GPZDA,\(clock(3_600 + i)),,,,,")]
    }

    @Test("GLL-only without a date: no time, each point said, with the advice to give --date; --date gives it")
    func gllWithoutDate() throws {
        let r = try read(Self.marine)
        #expect(r.points.count == 6 && r.points.allSatisfy { $0.time == nil })
        #expect(r.diagnostics.counts[.invalidTime] == 6)
        #expect(r.diagnostics.timeAdvice == "give their date with --date YYYY-MM-DD")
        #expect(r.diagnostics.sources == "positions from GLL (6 fixes); no date in the file (no RMC date, no ZDA date), 6 ZDA without a date; times of day from the position sentences")

        var o = ReadOptions()
        o.date = Int(day(2024, 5, 1))
        let dated = try read(Self.marine, options: o)
        #expect(dated.points.map(\.time) == (0..<6).map { at(day(2024, 5, 1), seconds: 3_600 + $0) })
        #expect(dated.diagnostics.counts.isEmpty && dated.diagnostics.timeAdvice == nil)
        #expect(dated.diagnostics.sources?.contains("dates from --date (6), the first (2024-05-01) given with --date") == true)
    }

    @Test("--date rolls over at midnight, and a date in the file takes over where it appears")
    func dateOptionThenFile() throws {
        var o = ReadOptions()
        o.date = Int(day(2024, 5, 1))
        let lines = [
            sentence("GPGGA,235959.00,4722.000,N,00832.418,E,1,08,0.9,410.0,M,48.0,M,,"),
            sentence("GPGGA,000001.00,4722.001,N,00832.418,E,1,08,0.9,410.0,M,48.0,M,,"),
            sentence("GPRMC,000002.00,A,4722.002,N,00832.418,E,0.0,0.0,070624,,,A"),
        ]
        let r = try read(lines, options: o)
        #expect(r.points.map(\.time) == [at(day(2024, 5, 1), seconds: 86_399), at(day(2024, 5, 2), seconds: 1), at(day(2024, 6, 7), seconds: 2)])
    }

    @Test("a ZDA with a malformed date is an unreadable line, not a date")
    func badZDA() throws {
        let r = try read(Self.ggaThenZDA(zda: "GPZDA,000000.00,31,02,2024,00,00"))
        #expect(r.points.allSatisfy { $0.time == nil })
        #expect(r.diagnostics.assumptions.contains { $0.contains("ZDA: date '31,02,2024' is not a day") })
    }

    @Test("a ZDA year beyond what a timestamp holds is an unreadable line; rollovers past 2262 leave fixes untimed, never a crash")
    func outOfRange() throws {
        let far = try read(Self.ggaThenZDA(zda: "GPZDA,000000.00,01,01,9999,00,00"))
        #expect(far.points.count == 240 && far.points.allSatisfy { $0.time == nil })
        #expect(far.diagnostics.assumptions.contains { $0.contains("ZDA: date '01,01,9999' is outside 1678...2261") })
        // From the last day of 2261, one midnight every two epochs: the fixes past 2262-04-11 get no time.
        var lines = [sentence("GPZDA,230000.00,31,12,2261,00,00")]
        for i in 0..<240 { lines.append(sentence("GPGGA,\(i % 2 == 0 ? "230000.00" : "010000.00"),4722.000,N,00832.418,E,1,08,0.9,410.0,M,48.0,M,,")) }
        let late = try read(lines)
        #expect(late.points.count == 240)
        #expect(late.points.contains { $0.time == nil } && late.points.first?.time != nil)
        #expect(late.diagnostics.examples.contains { $0.kind == .invalidTime && $0.detail.hasSuffix("is beyond 2262") })
    }

    @Test("an RMC without a date keeps its epoch's ZDA date; a ZDA in an epoch without a fix still dates the fixes")
    func zdaKept() throws {
        let lines = [
            sentence("GPZDA,120000.00,01,05,2024,00,00"), sentence("GPRMC,120000.00,A,4722.000,N,00832.418,E,0.0,0.0,,,,A"),
            sentence("GPRMC,120001.00,V,,,,,,,,,,N"), sentence("GPZDA,120001.00,02,05,2024,00,00"),
            sentence("GPGGA,120002.00,4722.001,N,00832.418,E,1,08,0.9,410.0,M,48.0,M,,"),
        ]
        let r = try read(lines)
        #expect(r.points.map(\.time) == [at(day(2024, 5, 1), seconds: 43_200), at(day(2024, 5, 2), seconds: 43_202)])
    }
}

