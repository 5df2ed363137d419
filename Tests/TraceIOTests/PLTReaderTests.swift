import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceIO
import TraceDomain

/// An OziExplorer header with `name` (bytes, so Latin-1 can be tested) and `count`.
private func ozi(name: [UInt8] = Array("Walk".utf8), count: Int, datum: String = "WGS 84", rows: [String], lineEnd: String = "\r\n")
    -> [UInt8]
{
    var b = Array(
        "OziExplorer Track Point File Version 2.1\(lineEnd)\(datum)\(lineEnd)Altitude is in Feet\(lineEnd)Reserved 3\(lineEnd)0,2,255,".utf8
    )
    b += name
    b += Array(",1,0,2,8421376,0\(lineEnd)\(count)\(lineEnd)".utf8)
    for r in rows { b += Array((r + lineEnd).utf8) }
    return b
}

private func readPLT(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(PLTReader(bytes: bytes, options: options))
}

@Suite("PLT reader")
struct PLTReaderTests {
    @Test("points: space-padded fields, feet to metres, -777 is no altitude, OLE day numbers to UTC")
    func points() throws {
        // The third row's longitude is negated to read the sign: a 560 km jump in 10 s, which the
        // motion check (off here; its own tests are ImpliedMotionTests) would call a teleport.
        let r = try readPLT(
            ozi(
                count: 3,
                rows: [
                    "  47.466222,   3.747318,0, 1258.8,39307.3279977, 13-ao\u{FB}t-07, 07:52:19",
                    "  47.466150,   3.747233,0, -777,39307.3281134, 13-ao\u{FB}t-07, 07:52:29",
                    "  47.466130,  -3.747113,0, 0,39307.3282292, 13-ao\u{FB}t-07, 07:52:39",
                ]), options: ReadOptions(maximumSpeed: nil))
        #expect(r.shape == "T(Walk) S P P P")
        let p = r.points
        #expect(p[0].coordinate == (try Coordinate(latitude: 47.466222, longitude: 3.747318)))
        #expect(p[2].coordinate.longitude == -3.747113)
        #expect(abs(p[0].elevation! - 1258.8 * 0.3048) < 1e-9)
        #expect(p[1].elevation == nil)
        #expect(p[2].elevation == 0)
        #expect(p.map(\.time) == [utc("2007-08-13T07:52:19Z"), utc("2007-08-13T07:52:29Z"), utc("2007-08-13T07:52:39Z")])
        #expect(r.diagnostics.assumptions == ["PLT times (no zone) were read as UTC"])
        #expect(r.diagnostics.counts.isEmpty)
    }

    @Test("day numbers snap to the whole second only within their written precision")
    func dayPrecision() throws {
        let r = try readPLT(
            ozi(
                count: 3,
                rows: [
                    "1,2,0,0,39744.1201851852,2008-10-23,02:53:04",  // GeoLife: 10 decimals
                    "1,2,0,0,39744.5000058,x,y",  // 0.501 s after noon: not a whole second at 7 decimals
                    "1,2,0,0,25569,x,y",  // the Unix epoch, no fraction
                ]))
        #expect(r.points[0].time == utc("2008-10-23T02:53:04Z"))
        let t = r.points[1].time!.nanoseconds - utc("2008-10-23T12:00:00Z").nanoseconds
        #expect(abs(t - 501_120_000) < 1_000)
        #expect(r.points[2].time == Timestamp(nanoseconds: 0))
    }

    @Test("break flag 1 starts a new segment (not on the first point)")
    func segments() throws {
        let r = try readPLT(
            ozi(
                count: 5,
                rows: [
                    "1,2,1,0,39307.1,,", "1,2,0,0,39307.2,,", "1,2,1,0,39307.3,,", "1,2,0,0,39307.4,,", "1,2,1,0,39307.5,,",
                ]))
        #expect(r.shape == "T(Walk) S P P S P P S P")
        #expect(r.count(.timeWentBackwards) == 0)
    }

    @Test("a Latin-1 track name is read as Latin-1; UTF-8 stays UTF-8")
    func latin1() throws {
        let latin1: [UInt8] = Array("V".utf8) + [0xE9] + Array("zelay / Cuncy-l".utf8) + [0xE8] + Array("s-Varzy          ".utf8)
        let r = try readPLT(ozi(name: latin1, count: 1, rows: ["1,2,0,0,39307.1,,"]))
        #expect(r.items.first == .trackStart(name: "Vézelay / Cuncy-lès-Varzy"))
        let u = try readPLT(ozi(name: Array("Zürich".utf8), count: 1, rows: ["1,2,0,0,39307.1,,"]))
        #expect(u.items.first == .trackStart(name: "Zürich"))
    }

    @Test("a header count that differs from the rows is stated; 0 means not given")
    func count() throws {
        let r = try readPLT(ozi(count: 2390, rows: ["1,2,0,0,39307.1,,", "1,2,0,0,39307.2,,"]))
        #expect(r.points.count == 2)
        #expect(r.diagnostics.assumptions.contains("the header says 2390 points but the file has 2"))
        let zero = try readPLT(ozi(count: 0, rows: ["1,2,0,0,39307.1,,"]))
        #expect(zero.diagnostics.assumptions == ["PLT times (no zone) were read as UTC"])
    }

    @Test("GeoLife header, LF line ends; the date and time columns stand in for a missing day number")
    func geolife() throws {
        let text =
            "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"
            + "39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\n"
            + "39.984683,116.31845,0,492,,2008-10-23,02:53:10\n"
        let r = try readPLT(Array(text.utf8))
        #expect(r.shape == "T(My Track) S P P")
        #expect(r.points.map(\.time) == [utc("2008-10-23T02:53:04Z"), utc("2008-10-23T02:53:10Z")])
        #expect(abs(r.points[0].elevation! - 149.9616) < 1e-9)
    }

    @Test("zonelessUTCOffset applies to PLT times")
    func offset() throws {
        let r = try readPLT(ozi(count: 1, rows: ["1,2,0,0,39307.3279977,,"]), options: ReadOptions(zonelessUTCOffset: 2 * 3600))
        #expect(r.points[0].time == utc("2007-08-13T05:52:19Z"))
        #expect(r.diagnostics.assumptions.isEmpty)
    }

    @Test("another datum is read as WGS 84 and stated")
    func datum() throws {
        let r = try readPLT(ozi(count: 1, datum: "European 1950", rows: ["1,2,0,0,39307.1,,"]))
        #expect(r.diagnostics.assumptions.first == "datum 'European 1950' was read as WGS 84 (coordinates not converted)")
    }

    @Test("bad rows: unreadable or missing coordinates are dropped; bad altitude and day number are reported")
    func badRows() throws {
        let r = try readPLT(
            ozi(count: 6, rows: ["x,2,0,0,39307.1,,", "1,,0,0,39307.2,,", "1", "1,2,0,high,39307.3,,", "1,2,0,0,soon,,", "1,2,0,0,,,"]))
        #expect(r.points.count == 3)
        #expect(r.count(.invalidCoordinate) == 1)
        #expect(r.count(.missingCoordinate) == 2)
        #expect(r.count(.invalidValue) == 1)
        #expect(r.count(.invalidTime) == 1)
        #expect(r.count(.missingTime) == 1)
        #expect(r.diagnostics.examples.first { $0.kind == .invalidValue }?.line == 10)
    }

    @Test("not a PLT file, a truncated header, an empty file: errors with the line")
    func errors() {
        let notPLT = readError { () throws(TraceReadError) in try readPLT(Array("lat,lon\n1,2\n".utf8)) }
        #expect(notPLT?.line == 1)
        // The line of a file that is not a track is not quoted: it may be any file.
        #expect(notPLT?.message == "not an OziExplorer track file: line 1 is not 'OziExplorer Track Point File Version 2.x'")
        let truncated = readError { () throws(TraceReadError) in
            try readPLT(Array("OziExplorer Track Point File Version 2.1\r\nWGS 84\r\n".utf8))
        }
        #expect(truncated?.message == "truncated header: expected 6 header lines, found 2")
        #expect(readError { () throws(TraceReadError) in try readPLT([]) }?.message.contains("empty file") == true)
    }

    @Test("policy fail stops at the first problem")
    func fail() {
        let e = readError { () throws(TraceReadError) in
            try readPLT(ozi(count: 2, rows: ["1,2,0,0,39307.1,,", "1,2,0,0,39307.0,,"]), options: ReadOptions(policy: .fail))
        }
        #expect(e?.line == 8)
        #expect(e?.message.hasPrefix("time goes backwards") == true)
    }

    @Test(
        "the OziExplorer sample: 44 points, feet, Latin-1 name, header count 2390",
        .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
    func corpusFile() throws {
        let path = corpus("plt/gpsbabel-ozi_20070813_short.plt")
        let reader = try openTrace(path)
        #expect(reader.format == .plt)
        let r = try readTrace(reader)
        #expect(r.points.count == 44)
        #expect(r.shape.hasPrefix("T(Vézelay / Cuncy-lès-Varzy) S P"))
        #expect(r.tracks == 1 && r.segments == 1)
        #expect(r.diagnostics.counts.isEmpty)
        #expect(
            r.diagnostics.assumptions.sorted() == [
                "PLT times (no zone) were read as UTC", "the header says 2390 points but the file has 44",
            ])
        #expect(r.points[0].time == utc("2007-08-13T07:52:19Z"))
        #expect(r.points[43].time == utc("2007-08-13T07:57:02Z"))  // written "07:57:01", day number 39307.3312731
        #expect(abs(r.points[0].elevation! - 1258.8 * 0.3048) < 1e-9)
        // The written time of day (column 7) is the day number rounded to the millisecond and
        // truncated (as Delphi formats it); every day number is within its precision (±4.32 ms)
        // of a whole second, which the reader keeps. So the text is that second, or 1 s behind
        // it where the 7-decimal number fell just below the second (16 of the 44 rows).
        let lines = try String(contentsOfFile: path, encoding: .isoLatin1).components(separatedBy: "\r\n").dropFirst(6).filter {
            !$0.isEmpty
        }
        #expect(lines.count == 44)
        var behind = 0
        for (line, fix) in zip(lines, r.points) {
            let fields = line.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let written = utc("2007-08-13T\(fields[6])Z")
            let exact = (Double(fields[4])! - 25569) * 86400
            let t = fix.time!.nanoseconds
            #expect(t % 1_000_000_000 == 0)
            #expect(abs(Double(t) / 1e9 - exact) <= 0.00432)
            #expect(written.nanoseconds == Int64(floor((exact * 1000).rounded() / 1000)) * 1_000_000_000, "\(line)")
            if t != written.nanoseconds {
                #expect(t - written.nanoseconds == 1_000_000_000, "\(line)")
                behind += 1
            }
        }
        #expect(behind == 16)
    }
}
