import Foundation
import TestSupport
import Testing

@testable import TraceCLI

/// What the remaining loggers write, end to end: NMEA logs with a late date or none (`--date`),
/// and a logger CSV with local time columns.
@Suite("tracekit: NMEA dates and local-time CSV end to end")
struct LoggerFormatTests {
    func scratch() throws -> URL {
        let dir = scratchFolder.appendingPathComponent("logger-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("a GLL log without a date: replay refuses in one line naming the problem and --date (exit 65); --date replays it")
    func gllWithoutDate() throws {
        let path = packageRoot.appendingPathComponent("Fuzz/Seeds/nmea/gll-zda-without-date.nmea").path
        let refused = try Run(["replay", path])
        #expect(refused.status == 65 && refused.stdout.isEmpty)
        #expect(
            refused.stderr.hasPrefix(
                "tracekit: \(path): no timed track points to replay: 11 points have no usable time (first: line 1: time of day 23:59:50 without a date (no RMC or ZDA date)); give their date with --date YYYY-MM-DD"
            ), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let dated = try Run(["replay", path, "--date", "2024-05-01"])
        #expect(dated.status == 0, "\(dated.stderr)")
        let info = try Run(["info", path, "--date", "2024-05-01"])
        #expect(info.stdout.contains("  read from                   positions from GLL (11 fixes); dates from --date (11), the first (2024-05-01) given with --date, 12 ZDA without a date; times of day from the position sentences\n"), "\(info.stdout)")
        #expect(info.stdout.contains("2024-05-01T23:59:50Z … 2024-05-02T00:00:01Z"))
        let bad = try Run(["info", path, "--date", "2024-02-30"])
        #expect(bad.status == 64 && bad.stderr.contains("'--date' takes a date YYYY-MM-DD that exists, not '2024-02-30'"))
        let far = try Run(["info", path, "--date", "9999-01-01"])
        #expect(far.status == 64 && far.stderr.contains("'--date' takes a date YYYY-MM-DD in the years 1678–2261, not '9999-01-01'"), "\(far.stderr)")
    }

    @Test("GGA with a late ZDA: info says where the dates came from and that the first fixes were dated back")
    func lateZDA() throws {
        let path = packageRoot.appendingPathComponent("Fuzz/Seeds/nmea/gga-late-zda.nmea").path
        let info = try Run(["info", path, "--format", "json"])
        let top = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let doc = try #require((top["files"] as? [[String: Any]])?.first)
        #expect(doc["firstTime"] as? String == "2024-05-01T23:59:50Z" && doc["timedPoints"] as? Double == 20)
        #expect((doc["sources"] as? String)?.hasPrefix("positions from GGA (20 fixes); dates from ZDA (20), the first (2024-05-02) at line 21") == true)
        #expect((doc["assumptions"] as? [String])?.contains("20 fixes before the first date (2024-05-02, line 21) were dated back from it, across 1 UTC midnight") == true)
    }

    @Test("the logger CSV: local times with their offset column, TRK as the course, one track")
    func loggerCSV() throws {
        let path = packageRoot.appendingPathComponent("Fuzz/Seeds/csv/local-time-logger.csv").path
        let info = try Run(["info", path])
        #expect(info.status == 0)
        #expect(info.stdout.contains("  tracks / segments / points  1 / 1 / 3\n"))
        #expect(info.stdout.contains("  time                        2024-05-02T04:59:58Z … 2024-05-02T05:00:00Z (2 s)\n"), "\(info.stdout)")
        #expect(info.stdout.contains("assumed: local times ('Lcl Date' and 'Lcl Time') were read with the UTC offset of each row's 'UTCOfst'"))
    }

    @Test("a CSV without a time column: replay says so and names --column time=NAME (exit 65)")
    func csvWithoutTimes() throws {
        let dir = try scratch()
        let path = dir.appendingPathComponent("notime.csv").path
        try "lat,lon,ele\n47,8,400\n47.001,8,401\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Run(["replay", path])
        #expect(r.status == 65)
        #expect(r.stderr == "tracekit: \(path): no timed track points to replay: 2 points have no usable time (first: line 2: no time); no column holds times: map one with --column time=NAME\n", "\(r.stderr)")
    }
}
