import Foundation
import TestSupport
import Testing
import TraceIO
import TraceDomain

private func read(_ text: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(CSVReader(bytes: Array(text.utf8), options: options))
}

private func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Timestamp {
    Timestamp(nanoseconds: (Int64(Timestamp.daysFromCivil(year: y, month: mo, day: d)) * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1_000_000_000)
}

/// Loggers' local date and time columns with a UTC-offset column, and aviation and marine angle
/// columns (TRK, HDG, COG, CRS) that are not track numbers.
@Suite("CSV: local time columns, offsets and angle columns")
struct CSVLocalTimeTests {
    /// A flight logger's export: two `#` preamble lines, local date and time, an offset column,
    /// TRK (ground track) and HDG (heading).
    static let logger = """
        # Flight log export
        # Aircraft: N12345
        Lcl Date,Lcl Time,UTCOfst,Latitude,Longitude,AltMSL,TRK,HDG
        2024-05-01,23:59:58,-05:00,40.6413,-73.7781,13,247,245
        2024-05-01,23:59:59,-05:00,40.6414,-73.7782,13,248,245
        2024-05-02,00:00:00,-05:00,40.6415,-73.7783,14,248,246
        2024-05-02,00:00:01,+05:30,40.6416,-73.7784,14,249,246
        """

    @Test("local date and time with an offset column: UTC computed exactly, and said")
    func localWithOffset() throws {
        let r = try read(Self.logger)
        #expect(r.points.map(\.time) == [utc(2024, 5, 2, 4, 59, 58), utc(2024, 5, 2, 4, 59, 59), utc(2024, 5, 2, 5, 0, 0), utc(2024, 5, 1, 18, 30, 1)])
        #expect(r.diagnostics.assumptions.contains("local times ('Lcl Date' and 'Lcl Time') were read with the UTC offset of each row's 'UTCOfst'"))
        #expect(!r.diagnostics.assumptions.contains("CSV times without a zone were read as UTC"))
    }

    @Test("TRK and HDG are angles: the course, never track numbers; one track")
    func angleColumns() throws {
        let r = try read(Self.logger)
        #expect(r.shape.hasPrefix("T S P P P P"))
        #expect(r.points.map(\.course) == [247, 248, 248, 249])
        #expect(r.diagnostics.assumptions.contains("columns 7 and 8 both hold course; column 7 ('TRK') is read"))
        for name in ["COG", "CRS", "Hdg", "trk"] {
            let one = try read("lat,lon,\(name)\n1,2,90\n1,2.0001,91\n")
            #expect(one.points.map(\.course) == [90, 91], "\(name)")
        }
    }

    @Test("local times without an offset column: --utc-offset gives it; without, read as UTC and said so with the advice")
    func localWithoutOffset() throws {
        let text = "Local Date,Local Time,lat,lon\n2024-05-01,08:00:00,47,8\n"
        var o = ReadOptions()
        o.zonelessUTCOffset = 2 * 3600
        let given = try read(text, options: o)
        #expect(given.points.first?.time == utc(2024, 5, 1, 6, 0, 0))
        #expect(given.diagnostics.assumptions.contains("local times ('Local Date' and 'Local Time') were read as UTC+02:00 (the UTC offset option)"))
        let none = try read(text)
        #expect(none.points.first?.time == utc(2024, 5, 1, 8, 0, 0))
        #expect(none.diagnostics.assumptions.contains { $0.hasPrefix("local times ('Local Date' and 'Local Time') without a UTC offset were read as UTC: give the offset") })
    }

    @Test("a UTC time column beside a local one is the one read")
    func utcBesideLocal() throws {
        let r = try read("LocalTime,UTCTime,lat,lon\n2024-05-01T10:00:00,2024-05-01T08:00:00,47,8\n")
        #expect(r.points.first?.time == utc(2024, 5, 1, 8, 0, 0))
        #expect(r.diagnostics.assumptions.contains { $0.contains("column 2 ('UTCTime') is read, not the local one ('LocalTime')") })
    }

    @Test("a column named just 'track': whole numbers are track numbers, an angle with a fraction is the course; said")
    func bareTrack() throws {
        let numbers = try read("track,lat,lon\n1,47,8\n1,47,8.001\n2,47,8.002\n")
        #expect(numbers.shape == "T(1) S P P T(2) S P")
        #expect(numbers.diagnostics.assumptions.contains { $0.hasPrefix("column 'track' read as track numbers or names (its first value is '1')") })
        let angles = try read("Track,lat,lon\n247.5,47,8\n248.1,47,8.001\n")
        #expect(angles.shape == "T S P P" && angles.points.map(\.course) == [247.5, 248.1])
        #expect(angles.diagnostics.assumptions.contains("column 'Track' read as the course (its first value, 247.5, is an angle), not as track numbers"))
        // Names that say so stay track numbers.
        #expect(try read("track_id,lat,lon\n1.5,47,8\n").shape == "T(1.5) S P")
    }

    @Test("a 'track' column mapped by hand stays as mapped; 'trk' beside 'trkseg' (GPX's names) is the track number")
    func trackMappedAndGPXNames() throws {
        var o = ReadOptions()
        o.columns = ["track": "Track"]
        let mapped = try read("Track,lat,lon\n247.5,47,8\n248.1,47,8.001\n", options: o)
        #expect(mapped.shape == "T(247.5) S P T(248.1) S P")
        let gpxNames = try read("trk,trkseg,lat,lon\n1,1,47,8\n2,1,47,8.001\n")
        #expect(gpxNames.shape == "T(1) S P T(2) S P" && gpxNames.points.allSatisfy { $0.course == nil })
    }
}

