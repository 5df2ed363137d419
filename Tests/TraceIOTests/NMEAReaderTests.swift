import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceIO
import TraceDomain

/// `$body*hh` with the right checksum.
private func nmea(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return "$" + body + "*" + String(format: "%02X", sum)
}

private func readNMEA(_ lines: [String], eol: String = "\r\n", options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(NMEAReader(bytes: Array(lines.map { $0 + eol }.joined().utf8), options: options))
}

/// Degrees of a `ddmm.mmmm` text as the exact quotient of integers, rounded once.
private func degrees(_ whole: Int64, _ minutesDigits: Int64, decimals: Int) -> Double {
    var ten: Int64 = 1
    for _ in 0..<decimals { ten *= 10 }
    return Double(whole * 60 * ten + minutesDigits) / Double(60 * ten)
}

private let day20090312 = Int64(Timestamp.daysFromCivil(year: 2009, month: 3, day: 12)) * 86_400

private func at(_ days: Int64, _ h: Int64, _ m: Int64, _ s: Int64, ms: Int64 = 0) -> Timestamp {
    Timestamp(nanoseconds: ((days + h * 3600 + m * 60 + s) * 1000 + ms) * 1_000_000)
}

private let rmc1 = nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,120309,003.1,W,A")
private let gga1 = nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
private let rmc2 = nmea("GPRMC,123520.00,A,4807.039,N,01131.001,E,022.5,084.5,120309,003.1,W,A")
private let gga2 = nmea("GPGGA,123520.00,4807.039,N,01131.001,E,1,08,1.0,545.6,M,46.9,M,,")

@Suite("NMEA reader")
struct NMEAReaderTests {
    @Test("RMC + GGA of one epoch are one fix: position, RMC date and time, knots to m/s, course, altitude, satellites, HDOP")
    func rmcAndGGA() throws {
        let r = try readNMEA([rmc1, gga1, rmc2, gga2])
        #expect(r.shape == "T S P P")
        let a = r.points[0]
        #expect(a.coordinate.latitude == degrees(48, 7038, decimals: 3))
        #expect(a.coordinate.longitude == degrees(11, 31000, decimals: 3))
        #expect(a.time == at(day20090312, 12, 35, 19))
        #expect(a.speed == 22.4 * 1852 / 3600 && a.course == 84.4)
        #expect(a.elevation == 545.4 && a.satellites == 8 && a.hdop == 0.9)
        #expect(a.fixType == nil && a.pdop == nil)
        #expect(r.points[1].time == at(day20090312, 12, 35, 20))
        #expect(r.diagnostics.isClean, "\(r.diagnostics.summaryLines)")
    }

    @Test("any talker: GN, GL, GA, BD, QZ sentences are read like GP")
    func talkers() throws {
        let r = try readNMEA([
            nmea("GNRMC,000001,A,0100.000,S,00200.000,W,0,0,010120,,,A"), nmea("BDGGA,000001,0100.000,S,00200.000,W,1,05,1.1,10,M,,M,,"),
            nmea("GLRMC,000002,A,0100.000,S,00200.000,W,0,0,010120,,,A"), nmea("QZGGA,000002,0100.000,S,00200.000,W,1,05,1.1,10,M,,M,,"),
            nmea("GARMC,000003,A,0100.000,S,00200.000,W,0,0,010120,,,A"),
        ])
        #expect(r.points.count == 3)
        #expect(r.points[0].coordinate.latitude == -1 && r.points[0].coordinate.longitude == -2)
        #expect(r.points[1].satellites == 5 && r.points[2].elevation == nil)
    }

    @Test("GGA before RMC in an epoch (Android forwarder order) is the same fix")
    func ggaFirst() throws {
        let r = try readNMEA([gga1, rmc1, gga2, rmc2])
        #expect(r.points.count == 2 && r.points[0].elevation == 545.4 && r.points[0].speed != nil)
        #expect(r.points[1].time == at(day20090312, 12, 35, 20))
    }

    @Test("ddmm.mmmm with 6 decimals of minutes is rounded once (an exact quotient), hemispheres sign it")
    func coordinates() throws {
        let r = try readNMEA([
            nmea("GPRMC,110124,A,5505.330990,N,03858.587325,E,152.6,86.2,310317,8.9,E,D"),
            nmea("GPRMC,110125,A,4404.126998,S,12118.844143,W,0,,310317,,,A"),
        ])
        let a = r.points[0].coordinate, b = r.points[1].coordinate
        #expect(a.latitude == Double(3_305_330_990) / 60_000_000)
        #expect(a.longitude == Double(2_338_587_325) / 60_000_000)
        #expect(abs(a.latitude - (55 + 5.33099 / 60)) < 1e-12)
        #expect(b.latitude == -degrees(44, 4_126_998, decimals: 6) && b.longitude == -degrees(121, 18_844_143, decimals: 6))
    }

    @Test("unreadable coordinates: minutes ≥ 60 and a wrong hemisphere are invalid coordinates (dropped)")
    func badCoordinates() throws {
        let r = try readNMEA([
            rmc1, nmea("GPRMC,123520,A,4861.000,N,01131.000,E,0,0,120309,,,A"),
            nmea("GPRMC,123521,A,4807.000,X,01131.000,E,0,0,120309,,,A"),
        ])
        #expect(r.points.count == 1 && r.count(.invalidCoordinate) == 2 && r.diagnostics.pointsDropped == 2)
        #expect(r.diagnostics.examples.first { $0.kind == .invalidCoordinate }?.line == 2)
    }

    @Test("GSA after the epoch's RMC/GGA (u-blox order) gives PDOP, VDOP and the 3-D mode of that epoch")
    func gsaTrailing() throws {
        let r = try readNMEA([
            rmc1, gga1, nmea("GPGSA,A,3,26,32,11,14,,,,,,,,,6.25,2.72,5.62"), rmc2, gga2, nmea("GPGSA,A,2,26,32,11,,,,,,,,,,3.1,1.5,2.5"),
        ])
        #expect(r.points[0].pdop == 6.25 && r.points[0].vdop == 5.62 && r.points[0].hdop == 0.9 && r.points[0].fixType == .threeD)
        #expect(r.points[1].pdop == 3.1 && r.points[1].fixType == .twoD)
        #expect(r.diagnostics.assumptions.contains { $0.contains("epoch in progress") })
    }

    @Test("GSA before the epoch's RMC (first GSA before any timed sentence) goes to the next epoch")
    func gsaLeading() throws {
        let r = try readNMEA([
            nmea("GPGSA,A,3,05,07,,,,,,,,,,,1.2,0.9,0.8"), rmc1, gga1, nmea("GPGSA,A,3,05,07,,,,,,,,,,,1.4,1.1,0.9"), rmc2, gga2,
        ])
        #expect(r.points[0].pdop == 1.2 && r.points[1].pdop == 1.4)
        #expect(r.diagnostics.assumptions.contains { $0.contains("epoch after it") })
    }

    @Test("HDOP from GSA when GGA has none; GST gives horizontal and vertical accuracy")
    func gst() throws {
        let r = try readNMEA([
            nmea("GPRMC,010203.5,A,4807.038,N,01131.000,E,0,0,120309,,,A"),
            nmea("GPGGA,010203.5,4807.038,N,01131.000,E,4,12,,100.0,M,,M,,"),
            nmea("GPGSA,A,3,01,,,,,,,,,,,,2.0,1.5,1.2"), nmea("GPGST,010203.5,0.006,0.023,0.020,273.6,3.0,4.0,0.031"),
        ])
        let p = r.points[0]
        #expect(p.hdop == 1.5 && p.horizontalAccuracy == 5 && p.verticalAccuracy == 0.031)
        #expect(p.time == at(day20090312 - 0, 1, 2, 3, ms: 500))
    }

    @Test("a bad checksum is a counted problem and its sentence is ignored; the epoch's GGA still gives the fix")
    func badChecksum() throws {
        var bad = rmc2
        bad.removeLast(2)
        bad += "00"
        let r = try readNMEA([rmc1, gga1, bad, gga2, "$PGLOR,4,PWR,*00"])
        #expect(r.points.count == 2 && r.count(.badChecksum) == 2)
        #expect(r.points[1].speed == nil && r.points[1].elevation == 545.6 && r.points[1].time == at(day20090312, 12, 35, 20))
        #expect(r.diagnostics.examples.first { $0.kind == .badChecksum }?.line == 3)
        #expect(throws: TraceReadError.self) { try readNMEA([rmc1, bad], options: ReadOptions(policy: .fail)) }
    }

    @Test("sentences without a checksum are accepted and stated once")
    func noChecksum() throws {
        let r = try readNMEA([
            "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,120309,003.1,W", "$GPRMC,123520,A,4807.038,N,01131.000,E,,,120309,,",
        ])
        #expect(r.points.count == 2)
        #expect(r.diagnostics.assumptions == ["2 sentences without a checksum were read unchecked"])
    }

    @Test("void epochs (RMC V with empty fields, GGA quality 0) are not fixes and counted in one assumption")
    func voidEpochs() throws {
        let r = try readNMEA([
            rmc1, gga1, nmea("GPRMC,,V,,,,,,,,,,N"), nmea("GPGGA,,,,,,0,,,,,,,,"), nmea("GPRMC,,V,,,,,,,,,,N"),
            nmea("GPGGA,,,,,,0,,,,,,,,"),
            nmea("GPGGA,123522.00,4807.039,N,01131.001,E,0,00,99.9,,,,,,"), rmc2,
        ])
        #expect(r.points.count == 2)
        #expect(r.diagnostics.assumptions.contains("3 epochs without a fix (RMC or GLL status V, GGA quality 0 or 6-8) were not read as points"))
        #expect(r.diagnostics.counts.isEmpty)
    }

    @Test("other sentence types are skipped and counted in one bounded line")
    func skipped() throws {
        var lines = [rmc1]
        for _ in 0..<3 { lines.append(nmea("GPGSV,1,1,00")) }
        lines += [
            nmea("GPVTG,,T,,M,0.253,N,0.469,K,A"), nmea("GPZZZ,152505.00,09,12,2009,00,00"), nmea("PGLOR,1,SPS,2"),
            nmea("GPTXT,01,01,02,x"),
        ]
        lines += ["AAA", "BBB", "CCC", "DDD", "EEE", "FFF"].map { nmea("GP\($0),1") }
        let r = try readNMEA(lines)
        let line = r.diagnostics.assumptions.first { $0.hasPrefix("skipped") }
        #expect(line == "skipped 13 other sentences (3 GPGSV, 1 GPVTG, 1 GPZZZ, 1 PGLOR, 1 GPTXT, 1 GPAAA, 5 of other types)")
    }

    @Test("comments, blank lines, mixed CRLF/LF and junk before '$' are handled")
    func lines() throws {
        let text = "# header\r\n\r\n  \n" + rmc1 + "\n# marker\n\r\n" + "\u{0}\u{7}xx" + gga1 + "\r\n" + rmc2 + "\n"
        let r = try readTrace(NMEAReader(bytes: Array(text.utf8)))
        #expect(r.points.count == 2 && r.points[0].elevation == 545.4)
        #expect(r.diagnostics.assumptions == ["ignored the bytes before '$' on 1 line"])
    }

    @Test("a file whose first content is not NMEA is a TraceReadError with its line")
    func notNMEA() throws {
        for first in ["time,lat,lon", "price,$5", "<gpx>"] {
            let error = #expect(throws: TraceReadError.self) { try readNMEA(["# comment", first, rmc1]) }
            #expect(error?.line == 2 && error?.message.hasPrefix("not an NMEA 0183 file") == true)
        }
    }

    @Test("later unreadable lines (no '$', truncated sentence) are skipped and counted; fatal under fail")
    func unreadable() throws {
        let r = try readNMEA([rmc1, "garbage line", "$GPRMC,123520,A,4807", gga1])
        #expect(r.points.count == 1)
        #expect(r.diagnostics.assumptions.contains("skipped 2 unreadable lines (first: line 2: no '$' sentence)"))
        #expect(throws: TraceReadError.self) { try readNMEA([rmc1, "garbage line"], options: ReadOptions(policy: .fail)) }
    }

    @Test("GGA-only epochs after an RMC take its date, rolling over midnight")
    func rollover() throws {
        let r = try readNMEA([
            nmea("GPRMC,235959,A,4807.038,N,01131.000,E,0,0,120309,,,A"), nmea("GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,1,M,,M,,"),
            nmea("GPGGA,000001,4807.038,N,01131.000,E,1,08,0.9,1,M,,M,,"),
        ])
        #expect(
            r.points.map(\.time) == [at(day20090312, 23, 59, 59), at(day20090312 + 86_400, 0, 0, 0), at(day20090312 + 86_400, 0, 0, 1)])
        #expect(r.diagnostics.assumptions.contains { $0.contains("1 midnight rollover") })
    }

    @Test("GGA epochs before the first RMC wait for its date (the day before when they were before midnight)")
    func heldUntilDate() throws {
        let r = try readNMEA([
            nmea("GPGGA,235958,4807.038,N,01131.000,E,1,08,0.9,1,M,,M,,"), nmea("GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,1,M,,M,,"),
            nmea("GPRMC,000000,A,4807.038,N,01131.000,E,0,0,130309,,,A"),
        ])
        #expect(r.points.map(\.time) == [at(day20090312, 23, 59, 58), at(day20090312, 23, 59, 59), at(day20090312 + 86_400, 0, 0, 0)])
        #expect(r.diagnostics.counts.isEmpty)
        #expect(r.diagnostics.assumptions == ["2 fixes before the first date (2009-03-13, line 3) were dated back from it, across 1 UTC midnight"])
    }

    @Test("a GGA-only log has no dates: its fixes have no time, each a counted problem, and it is stated")
    func ggaOnly() throws {
        let r = try readNMEA([gga1, gga2])
        #expect(r.points.count == 2 && r.points.allSatisfy { $0.time == nil })
        #expect(r.count(.invalidTime) == 2 && r.count(.missingTime) == 0)
        #expect(r.diagnostics.examples.first { $0.kind == .invalidTime }?.detail == "time of day 12:35:19 without a date (no RMC or ZDA date)")
        #expect(
            r.diagnostics.assumptions.contains(
                "2 fixes have no time: no RMC or ZDA gave a date for their times of day; give their date with --date YYYY-MM-DD"))
    }

    @Test("more undated epochs than the bound: the waiting ones get no time; later ones are dated once RMC comes")
    func undatedBound() throws {
        var lines: [String] = []
        for i in 0..<(NMEAReader.maximumUndatedEpochs + 2) {
            let s = i % 60, m = i / 60 % 60
            lines.append(nmea(String(format: "GPGGA,10%02d%02d,4807.038,N,01131.000,E,1,08,0.9,1,M,,M,,", m, s)))
        }
        lines.append(nmea("GPRMC,120000,A,4807.038,N,01131.000,E,0,0,120309,,,A"))
        let r = try readNMEA(lines)
        #expect(r.points.count == NMEAReader.maximumUndatedEpochs + 3)
        #expect(r.count(.invalidTime) == NMEAReader.maximumUndatedEpochs + 2)
        #expect(r.points.last?.time == at(day20090312, 12, 0, 0))
    }

    @Test("times going backwards go through the shared order checks")
    func backwards() throws {
        let r = try readNMEA([rmc2, rmc1])
        #expect(r.points.count == 2 && r.count(.timeWentBackwards) == 1)
    }

    @Test("unreadable values are counted and the fix kept without them")
    func badValues() throws {
        let r = try readNMEA([
            nmea("GPRMC,123519,A,4807.038,N,01131.000,E,fast,400,120309,,,A"),
            nmea("GPGGA,123519,4807.038,N,01131.000,E,1,xx,0.9,545.4,F,,M,,"),
        ])
        #expect(r.points.count == 1 && r.count(.invalidValue) == 4)
        let p = r.points[0]
        #expect(p.speed == nil && p.course == nil && p.satellites == nil && p.elevation == nil && p.hdop == 0.9)
    }

    @Test("an unreadable time keeps the fix without a time: one invalid time problem, no missing time")
    func badTime() throws {
        let r = try readNMEA([rmc1, nmea("GPRMC,12352x,A,4807.038,N,01131.000,E,0,0,120309,,,A")])
        #expect(r.points.count == 2 && r.points[1].time == nil)
        #expect(r.count(.invalidTime) == 1 && r.count(.missingTime) == 0)
        #expect(r.diagnostics.examples.first { $0.kind == .invalidTime }?.detail == "time '12352x' is not hhmmss")
    }

    @Test("a second talker's copy of the same epoch is ignored (the first wins)")
    func duplicateTalkers() throws {
        let r = try readNMEA([rmc1, nmea("GNRMC,123519.00,A,4000.000,N,01000.000,E,0,0,120309,,,A"), gga1])
        #expect(r.points.count == 1 && r.points[0].coordinate.latitude == degrees(48, 7038, decimals: 3))
    }

    @Test("the extensions .nmea and .nma name the format; .log does not")
    func extensions() {
        #expect(TraceFormat(pathExtension: "a/b.nmea") == .nmea && TraceFormat(pathExtension: "x.NMA") == .nmea)
        #expect(TraceFormat(pathExtension: "x.log") == nil)
    }

    @Test("read(into:limit:) gives the same fixes as next()")
    func batches() throws {
        let bytes = Array(([rmc1, gga1, rmc2, gga2].joined(separator: "\n") + "\n").utf8)
        var reader = NMEAReader(bytes: bytes)
        var batch = FixBatch()
        var n = 0
        while try reader.read(into: &batch, limit: 3) > 0 { n += batch.count }
        #expect(n == 4)
    }
}

@Suite(
    "NMEA corpus (../shared/traces/nmea)",
    .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
struct NMEACorpusTests {
    @Test("AeroRust skydive log: 993 fixes, 314 void epochs, 6-decimal minutes, CRLF")
    func aerorust() throws {
        let r = try readTrace(try openTrace(corpus("nmea/aerorust-nmea1_skydive_fixloss.nmea")))
        #expect(r.points.count == 993 && r.tracks == 1 && r.segments == 1)
        let day = Int64(Timestamp.daysFromCivil(year: 2017, month: 3, day: 31)) * 86_400
        let first = r.points[0], last = r.points[992]
        #expect(first.time == at(day, 11, 1, 24) && last.time == at(day, 11, 19, 7))
        #expect(first.coordinate.latitude == degrees(55, 5_330_990, decimals: 6))
        #expect(first.coordinate.longitude == degrees(38, 58_587_325, decimals: 6))
        #expect(first.elevation == 2177 && first.speed == 152.6 * 1852 / 3600 && first.fixType == .dgps && first.satellites == 9)
        #expect(first.pdop == 1.2 && first.hdop == 0.9 && first.vdop == 0.8 && r.points[1].pdop == 1.3)
        #expect(last.coordinate.latitude == degrees(55, 5_398_228, decimals: 6) && last.elevation == 115)
        #expect(r.diagnostics.counts.isEmpty, "\(r.diagnostics.summaryLines)")
        #expect(r.diagnostics.assumptions.contains("314 epochs without a fix (RMC or GLL status V, GGA quality 0 or 6-8) were not read as points"))
        #expect(r.diagnostics.assumptions.contains { $0.hasPrefix("skipped 10334 other sentences (5178 GPGSV, 3849 GLGSV, 1307 GPVTG") })
    }

    /// PROVENANCE.md counts 13 fixes: the RMC epochs. The "Stationary" capture starts with a GLL
    /// and a ZDA (15:25:04.50, status A) whose RMC and GGA were cut off, and the "Moving in car"
    /// capture with a GGA (14:33:06.00, quality 1, 8 satellites) whose RMC was: each a fix of its
    /// own here (the GLL's dated by its ZDA, the GGA's from the last date), so 15 fixes, 13 of them
    /// with RMC's speed.
    @Test("gpsd BT-451: 13 RMC fixes + 1 GGA-only + 1 GLL-only, 4 void epochs, # comments, mixed EOLs, time jumps back 52 min")
    func bt451() throws {
        let r = try readTrace(try openTrace(corpus("nmea/gpsd-bt451_phases_backwards.nmea")))
        #expect(r.points.count == 15 && r.points.filter { $0.speed != nil }.count == 13)
        let day = Int64(Timestamp.daysFromCivil(year: 2009, month: 12, day: 9)) * 86_400
        #expect(r.points[0].time == at(day, 15, 25, 4, ms: 500) && r.points[0].coordinate.latitude == degrees(55, 4_782_107, decimals: 5))
        #expect(r.points[1].time == at(day, 15, 25, 5) && r.points[8].time == at(day, 15, 25, 8, ms: 500))
        #expect(r.points[9].time == at(day, 14, 33, 6) && r.points[9].speed == nil && r.points[9].elevation == 129.9)
        #expect(r.points[10].time == at(day, 14, 33, 6, ms: 500) && r.points[14].time == at(day, 14, 33, 8, ms: 500))
        #expect(r.points[1].coordinate.latitude == degrees(55, 4_782_113, decimals: 5))
        #expect(r.points[1].pdop == 6.25 && r.points[1].hdop == 2.72 && r.points[1].course == nil)
        #expect(r.points[14].coordinate.longitude == degrees(23, 3_470_079, decimals: 5) && r.points[14].elevation == nil)
        #expect(r.count(.timeWentBackwards) == 1 && r.diagnostics.counts.count == 1)
        #expect(r.diagnostics.examples.first { $0.kind == .timeWentBackwards }?.line == 112)
        #expect(r.diagnostics.assumptions.contains("4 epochs without a fix (RMC or GLL status V, GGA quality 0 or 6-8) were not read as points"))
    }

    @Test("gpsd Android forwarder: 51 fixes, 46 bad checksums on $PGLOR lines, blank lines, GGA before RMC")
    func android() throws {
        let r = try readTrace(try openTrace(corpus("nmea/gpsd-gpsdf_android_badchecksums.nmea")))
        #expect(r.points.count == 51)
        let day = Int64(Timestamp.daysFromCivil(year: 2020, month: 2, day: 2)) * 86_400
        #expect(r.points[0].time == at(day, 0, 1, 45) && r.points[50].time == at(day, 0, 2, 35))
        #expect(r.points[0].coordinate.latitude == degrees(44, 4_126_998, decimals: 6))
        #expect(r.points[0].coordinate.longitude == -degrees(121, 18_844_143, decimals: 6))
        #expect(r.points[0].elevation == 1133.4 && r.points[0].pdop == 1.7 && r.points[1].pdop == 1.6)
        #expect(r.count(.badChecksum) == 46 && r.diagnostics.counts.count == 1)
        #expect(r.diagnostics.examples.first { $0.kind == .badChecksum }?.detail.hasPrefix("PGLOR *00") == true)
    }
}
