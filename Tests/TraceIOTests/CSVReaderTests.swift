import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceIO
import TraceDomain

// MARK: Shared helpers (used by the PLT and REC tests too)

/// Everything a reader produced.
struct ReadResult {
    var items: [TraceItem]
    var diagnostics: Diagnostics

    var points: [Fix] { items.compactMap { if case .trackPoint(let f) = $0 { f } else { nil } } }
    var tracks: Int { items.filter { if case .trackStart = $0 { true } else { false } }.count }
    var segments: Int { items.filter { $0 == .segmentStart }.count }
    func count(_ kind: ProblemKind) -> Int { diagnostics.counts[kind] ?? 0 }
    /// The items as a short string: T(name) S P P …
    var shape: String {
        items.map {
            switch $0 {
            case .trackStart(let n): "T" + (n.map { "(\($0))" } ?? "")
            case .segmentStart: "S"
            case .trackPoint: "P"
            default: "?"
            }
        }.joined(separator: " ")
    }
}

func readTrace(_ reader: some TraceReader) throws(TraceReadError) -> ReadResult {
    var r = reader
    var items: [TraceItem] = []
    while let item = try r.next() { items.append(item) }
    return ReadResult(items: items, diagnostics: r.diagnostics)
}

func readCSV(_ text: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    try readTrace(CSVReader(bytes: Array(text.utf8), options: options))
}

/// The error reading `body` threw, or nil.
func readError(_ body: () throws(TraceReadError) -> ReadResult) -> TraceReadError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// A UTC time from ISO 8601 text `YYYY-MM-DDTHH:MM:SS[.fff]Z` (whole seconds through Foundation,
/// the fraction in integers: independent of the reader's parser).
func utc(_ text: String) -> Timestamp {
    var whole = text, fraction: Int64 = 0
    if let dot = text.firstIndex(of: ".") {
        let digits = text[text.index(after: dot)...].prefix { $0.isNumber }
        fraction = Int64(digits.padding(toLength: 9, withPad: "0", startingAt: 0))!
        whole = String(text[..<dot]) + "Z"
    }
    let d = ISO8601DateFormatter().date(from: whole)!
    return Timestamp(nanoseconds: Int64(d.timeIntervalSince1970) * 1_000_000_000 + fraction)
}

let traces = sharedFolder.appendingPathComponent("traces")
let corpusAvailable = FileManager.default.fileExists(atPath: traces.appendingPathComponent("PROVENANCE.md").path)

func corpus(_ path: String) -> String { traces.appendingPathComponent(path).path }

/// A temporary file with `bytes`; removed by the caller.
func temporaryFile(_ bytes: [UInt8], ext: String) throws -> String {
    let url = scratchFolder.appendingPathComponent("traceio-\(UUID().uuidString).\(ext)")
    try Data(bytes).write(to: url)
    return url.path
}

// MARK: Dialect

@Suite("CSV dialect")
struct CSVDialectTests {
    @Test("delimiter detected from the header: comma, semicolon, tab", arguments: [",", ";", "\t"])
    func delimiter(_ d: String) throws {
        let text = ["lat", "lon", "time"].joined(separator: d) + "\n" + ["1.5", "2.5", "2020-01-01T00:00:00Z"].joined(separator: d) + "\n"
        let r = try readCSV(text)
        #expect(r.points.count == 1)
        #expect(r.points[0].coordinate.latitude == 1.5)
        #expect(r.points[0].coordinate.longitude == 2.5)
        #expect(r.points[0].time == utc("2020-01-01T00:00:00Z"))
        #expect(r.diagnostics.isClean)
    }

    @Test("delimiters inside quoted header names are ignored")
    func quotedHeaderDelimiter() throws {
        let r = try readCSV("\"a;b;c;d\",lat,lon\nx,1,2\n")
        #expect(r.points.map(\.coordinate) == [try Coordinate(latitude: 1, longitude: 2)])
    }

    @Test("quoted fields: \"\" escapes, delimiters and line breaks inside quotes; line numbers stay right")
    func quoting() throws {
        let text = "lat,lon,name\n\"1\",\"2\",\"say \"\"hi\"\", ok\"\n3,4,\"two\nlines\"\n91,5,x\n"
        let r = try readCSV(text)
        #expect(r.points.map(\.name) == ["say \"hi\", ok", "two\nlines"])
        #expect(r.count(.invalidCoordinate) == 1)
        #expect(r.diagnostics.examples.first { $0.kind == .invalidCoordinate }?.line == 5)
    }

    @Test("a quote inside an unquoted field is text")
    func strayQuote() throws {
        let r = try readCSV("lat,lon,name\n1,2,5\" screen\n3,4,b\n")
        #expect(r.points.map(\.name) == ["5\" screen", "b"])
    }

    @Test("CRLF, a UTF-8 byte order mark, trailing delimiters, blank and empty rows")
    func framing() throws {
        let text = "\u{FEFF}Lat,Lon,Ele,\r\n\r\n1,2,3,\r\n  \r\n,,,\r\n4,5,6,\r\n"
        let r = try readCSV(text)
        #expect(r.points.map(\.elevation) == [3, 6])
        #expect(r.diagnostics.pointsRead == 2)
        #expect(r.shape == "T S P P")
    }

    @Test("the last row may lack a line end")
    func noFinalNewline() throws {
        #expect(try readCSV("lat,lon\n1,2\n3,4").points.count == 2)
    }

    @Test(
        "header synonyms, any case, spaces and underscores ignored",
        arguments: [
            "lat,lon", "Latitude,Longitude", "LAT,LNG", "latitude,long", " Lat , Lon ", "lat_itude,lon_gitude",
        ])
    func positionSynonyms(_ header: String) throws {
        let r = try readCSV(header + "\n10,20\n")
        #expect(r.points.first?.coordinate == (try Coordinate(latitude: 10, longitude: 20)))
    }

    @Test("value synonyms: accuracy, vertical accuracy, course, elevation, DOPs, satellites, fix, name, role, state")
    func valueSynonyms() throws {
        let headers = [
            "lat,lon,accuracy,vAcc,bearing,alt,hdop,vdop,pdop,sats,fix,name,role,state",
            "latitude,longitude,hAcc,vertical_accuracy,heading,altitude,HDOP,VDOP,PDOP,satellites,fix,Name,Role,State",
            "lat,lon,horizontal_accuracy,accuracy_vertical,course,height,hdop,vdop,pdop,nsat,fix,name,role,state",
            "lat,lon,accuracy_horizontal,vacc,cog,ele,hdop,vdop,pdop,sat,FIX,name,role,state",
        ]
        for h in headers {
            let r = try readCSV(h + "\n1,2,5.5,7,90,100,0.9,1.1,1.4,8,3d,P1,helper,enRoute\n")
            let f = try #require(r.points.first, "\(h)")
            #expect(f.horizontalAccuracy == 5.5, "\(h)")
            #expect(f.verticalAccuracy == 7)
            #expect(f.course == 90)
            #expect(f.elevation == 100)
            #expect(f.hdop == 0.9 && f.vdop == 1.1 && f.pdop == 1.4)
            #expect(f.satellites == 8)
            #expect(f.fixType == .threeD)
            #expect(f.name == "P1" && f.role == "helper" && f.state == "enRoute")
            #expect(r.diagnostics.counts.keys.sorted() == [.missingTime])  // no time column
        }
    }

    @Test("units inside values are converted to SI")
    func valueUnits() throws {
        let r = try readCSV(
            """
            lat,lon,speed,ele,accuracy
            1,2,12.6 km/h,374.8 m,3 ft
            1,2,5 mph,3 ft,10m
            1,2,4 kn,10 feet,2
            1,2,3.5,7,1
            1,2,3.5 m/s,7 m,1 m
            1,2,3 furlongs,7,1
            """)
        let p = r.points
        #expect(p.count == 6)
        #expect(abs(p[0].speed! - 3.5) < 1e-12)
        #expect(p[0].elevation == 374.8)
        #expect(abs(p[0].horizontalAccuracy! - 0.9144) < 1e-12)
        #expect(abs(p[1].speed! - 2.2352) < 1e-12)
        #expect(abs(p[1].elevation! - 0.9144) < 1e-12)
        #expect(p[1].horizontalAccuracy == 10)
        #expect(abs(p[2].speed! - 4 * 1852 / 3600.0) < 1e-12)
        #expect(abs(p[2].elevation! - 3.048) < 1e-12)
        #expect(p[3].speed == 3.5 && p[4].speed == 3.5 && p[4].elevation == 7)
        #expect(p[5].speed == nil)
        #expect(r.count(.invalidValue) == 1)
        #expect(r.diagnostics.examples.first { $0.kind == .invalidValue }?.detail.contains("furlongs") == true)
    }

    @Test(
        "units in the header",
        arguments: [
            ("speed (km/h),altitude (ft)", 36.0 / 3.6, 100 * 0.3048),
            ("speed_kmh,altitude_ft", 36.0 / 3.6, 100 * 0.3048),
            ("Speed [mph],Height [m]", 36 * 0.44704, 100.0),
            ("speed,ele", 36.0, 100.0),
        ])
    func headerUnits(_ header: String, _ speed: Double, _ elevation: Double) throws {
        let r = try readCSV("lat,lon,\(header)\n1,2,36,100\n")
        #expect(abs(r.points[0].speed! - speed) < 1e-12)
        #expect(abs(r.points[0].elevation! - elevation) < 1e-12)
    }

    @Test("a unit in the value wins over the header's")
    func valueUnitWins() throws {
        let r = try readCSV("lat,lon,speed (km/h)\n1,2,3 m/s\n")
        #expect(r.points[0].speed == 3)
    }

    @Test("hemispheres: N/S and E/W columns, letters before or after the value")
    func hemispheres() throws {
        let r = try readCSV(
            """
            LATITUDE,N/S,LONGITUDE,E/W
            41.8,N,12.6,E
            33.9,S,18.4,W
            """)
        #expect(
            r.points.map(\.coordinate) == [
                try Coordinate(latitude: 41.8, longitude: 12.6), try Coordinate(latitude: -33.9, longitude: -18.4),
            ])
        let s = try readCSV("lat,lon\n31.77N,35.21E\nN31.77,E35.21\n33.9S,122.4W\nS 33.9,W 122.4\n12.5°,-3.25°\n")
        #expect(
            s.points.map(\.coordinate) == [
                try Coordinate(latitude: 31.77, longitude: 35.21), try Coordinate(latitude: 31.77, longitude: 35.21),
                try Coordinate(latitude: -33.9, longitude: -122.4), try Coordinate(latitude: -33.9, longitude: -122.4),
                try Coordinate(latitude: 12.5, longitude: -3.25),
            ])
        #expect(s.diagnostics.counts.keys.sorted() == [.missingTime])  // no time column
    }

    @Test("a wrong hemisphere letter is an invalid coordinate")
    func wrongHemisphere() throws {
        let r = try readCSV("lat,N/S,lon\n31.77E,,35\n1,X,2\n1,N,2\n")
        #expect(r.points.count == 1)
        #expect(r.count(.invalidCoordinate) == 2)
        #expect(r.diagnostics.pointsDropped == 2)
    }

    @Test("satellites: NSAT (USED/VIEW) takes the used count")
    func satellites() throws {
        let r = try readCSV("lat,lon,NSAT (USED/VIEW)\n1,2,11(11)\n1,2,9/12\n1,2,7\n1,2,x\n")
        #expect(r.points.map(\.satellites) == [11, 9, 7, nil])
        #expect(r.count(.invalidValue) == 1)
    }

    @Test("decimal commas in semicolon files")
    func decimalComma() throws {
        let r = try readCSV("lat;lon;ele\n47,3766;8,5484;412,5\n")
        #expect(r.points[0].coordinate == (try Coordinate(latitude: 47.3766, longitude: 8.5484)))
        #expect(r.points[0].elevation == 412.5)
    }

    @Test("placeholders (-, NaN, null, N/A) are no value")
    func placeholders() throws {
        let r = try readCSV("lat,lon,ele,speed\n1,2,-,NaN\n1,2,null,N/A\nNaN,2,,\n")
        #expect(r.points.count == 2)
        #expect(r.points.allSatisfy { $0.elevation == nil && $0.speed == nil })
        #expect(r.count(.missingCoordinate) == 1)
        #expect(r.count(.invalidValue) == 0)
    }

    @Test("negative accuracy and out-of-range course are unreadable values; the point stays")
    func badValues() throws {
        let r = try readCSV("lat,lon,accuracy,course,hdop\n1,2,-3,400,abc\n")
        #expect(r.points.count == 1)
        #expect(r.points[0].horizontalAccuracy == nil && r.points[0].course == nil && r.points[0].hdop == nil)
        #expect(r.count(.invalidValue) == 3)
    }
}

// MARK: Times

@Suite("CSV times")
struct CSVTimeTests {
    @Test("ISO 8601 with Z, T or space, slashes in the date")
    func iso() throws {
        let r = try readCSV("lat,lon,time\n1,2,2013-04-30T19:23:57Z\n1,2,2013-04-30 19:23:58Z\n1,2,2013/04/30 19:23:59Z\n")
        #expect(r.points.map(\.time) == [utc("2013-04-30T19:23:57Z"), utc("2013-04-30T19:23:58Z"), utc("2013-04-30T19:23:59Z")])
        #expect(r.diagnostics.isClean)
    }

    @Test("numeric offsets")
    func offsets() throws {
        let r = try readCSV("lat,lon,time\n1,2,2020-02-02T03:02:02+01:00\n1,2,2020-02-02T02:02:03Z\n1,2,2020-02-02T00:02:04-0200\n")
        #expect(r.points.map(\.time) == [utc("2020-02-02T02:02:02Z"), utc("2020-02-02T02:02:03Z"), utc("2020-02-02T02:02:04Z")])
        #expect(r.diagnostics.isClean)
    }

    @Test("zone-less times: read as UTC and stated, or shifted by zonelessUTCOffset")
    func zoneless() throws {
        let text = "lat,lon,time\n1,2,2013-04-30T14:23:57\n"
        let r = try readCSV(text)
        #expect(r.points[0].time == utc("2013-04-30T14:23:57Z"))
        #expect(r.diagnostics.assumptions == ["CSV times without a zone were read as UTC"])
        let shifted = try readCSV(text, options: ReadOptions(zonelessUTCOffset: -5 * 3600))
        #expect(shifted.points[0].time == utc("2013-04-30T19:23:57Z"))
        #expect(shifted.diagnostics.assumptions.isEmpty)
    }

    @Test("a header that says UTC makes zone-less times UTC without an assumption or offset")
    func utcHeader() throws {
        for header in ["UTC DATE,UTC TIME", "date,time_utc", "Date (UTC),Time"] {
            let r = try readCSV("lat,lon,\(header)\n1,2,2008/05/04,12:52:47\n", options: ReadOptions(zonelessUTCOffset: 3600))
            #expect(r.points[0].time == utc("2008-05-04T12:52:47Z"), "\(header)")
            #expect(r.diagnostics.assumptions.isEmpty, "\(header)")
        }
    }

    @Test(
        "epoch numbers: unit by magnitude, stated once",
        arguments: [
            ("1440395361", "seconds"), ("1440395361000", "milliseconds"), ("1440395361000000", "microseconds"),
            ("1440395361000000000", "nanoseconds"), ("1440395361.5", "seconds"),
        ])
    func epoch(_ value: String, _ unit: String) throws {
        let r = try readCSV("lat,lon,timestamp\n1,2,\(value)\n1,2,\(value)\n")
        let expected = value.contains(".") ? 1_440_395_361_500_000_000 : Int64(1_440_395_361) * 1_000_000_000
        #expect(r.points.map(\.time?.nanoseconds) == [expected, expected])
        #expect(r.diagnostics.assumptions == ["epoch times in \(unit)"])
    }

    @Test("an epoch unit in the header wins over magnitude")
    func epochHeaderUnit() throws {
        let r = try readCSV("lat,lon,time_ms\n1,2,5000\n")
        #expect(r.points[0].time == Timestamp(nanoseconds: 5_000_000_000))
        #expect(r.diagnostics.assumptions == ["epoch times in milliseconds"])
    }

    @Test("date and time columns combined", arguments: ["2008/05/04", "2008-05-04", "20080504", "04.05.2008", "2008-5-4"])
    func dateAndTime(_ date: String) throws {
        let r = try readCSV("lat,lon,UTC DATE,UTC TIME\n1,2,\(date),7:05:00Z\n1,2,\(date),12:52:47Z\n")
        #expect(r.points.map(\.time) == [utc("2008-05-04T07:05:00Z"), utc("2008-05-04T12:52:47Z")])
        #expect(r.diagnostics.isClean)
    }

    @Test("fractional seconds in a time-of-day column")
    func fractions() throws {
        let r = try readCSV("lat,lon,date,time\n1,2,2008/05/04,12:52:47.250Z\n")
        #expect(r.points[0].time == utc("2008-05-04T12:52:47.250Z"))
    }

    @Test("unreadable times: the point is kept without a time")
    func unreadable() throws {
        let r = try readCSV("lat,lon,date,time\n1,2,2008/13/04,12:00:00\n1,2,,12:00:00\n1,2,2008/05/04,noon\n1,2,,\n")
        #expect(r.points.count == 4)
        #expect(r.points.allSatisfy { $0.time == nil })
        #expect(r.count(.invalidTime) == 3)
        #expect(r.count(.missingTime) == 1)
    }

    @Test("newest-first rows: stated once, not reported as going backwards")
    func newestFirst() throws {
        var text = "user_id;tracked_at;latitude;longitude\n"
        for i in stride(from: 10, through: 1, by: -1) { text += "1;2012-12-18T21:\(String(format: "%02d", i)):00Z;47;8\n" }
        let r = try readCSV(text)
        #expect(r.points.count == 10)
        #expect(r.diagnostics.assumptions == ["rows are newest first"])
        #expect(r.count(.timeWentBackwards) == 0)
        #expect(r.points.first?.time == utc("2012-12-18T21:10:00Z"))  // file order is kept
    }

    @Test("in a newest-first file a row later than the one before is what goes backwards; duplicates still count")
    func newestFirstBackwards() throws {
        let r = try readCSV(
            "lat,lon,time\n1,2,2020-01-01T00:05:00Z\n1,2,2020-01-01T00:04:00Z\n1,2,2020-01-01T00:03:00Z\n1,2,2020-01-01T00:03:30Z\n1,2,2020-01-01T00:02:00Z\n1,2,2020-01-01T00:02:00Z\n1,2,\n"
        )
        #expect(r.diagnostics.assumptions == ["rows are newest first"])
        #expect(r.count(.timeWentBackwards) == 1)
        #expect(r.diagnostics.examples.first { $0.kind == .timeWentBackwards }?.line == 5)
        #expect(r.count(.duplicateTime) == 1)
        #expect(r.count(.missingTime) == 1)
    }

    @Test("one early glitch does not make a file newest first")
    func glitch() throws {
        let r = try readCSV(
            "lat,lon,time\n1,2,2020-01-01T00:05:00Z\n1,2,2020-01-01T00:04:00Z\n1,2,2020-01-01T00:06:00Z\n1,2,2020-01-01T00:07:00Z\n")
        #expect(r.diagnostics.assumptions.isEmpty)
        #expect(r.count(.timeWentBackwards) == 1)
    }

    @Test("oldest-first files report time going backwards and duplicates through the shared checks")
    func oldestFirst() throws {
        let r = try readCSV(
            "lat,lon,time\n1,2,2020-01-01T00:00:00Z\n1,2,2020-01-01T00:01:00Z\n1,2,2020-01-01T00:02:00Z\n1,2,2020-01-01T00:02:00Z\n1,2,2020-01-01T00:01:30Z\n1,2,1960-01-01T00:00:00Z\n"
        )
        #expect(r.count(.duplicateTime) == 1)
        #expect(r.count(.timeWentBackwards) == 2)
        #expect(r.count(.implausibleTime) == 1)
        #expect(r.diagnostics.assumptions.isEmpty)
    }
}

// MARK: Structure, columns, errors

@Suite("CSV structure and errors")
struct CSVStructureTests {
    @Test("track and segment columns start tracks and segments when their value changes")
    func trackSegment() throws {
        let r = try readCSV(
            """
            track,segment,lat,lon
            a,1,1,1
            a,1,1,2
            a,2,1,3
            b,2,1,4
            b,3,1,5
            """)
        #expect(r.shape == "T(a) S P P S P T(b) S P S P")
    }

    @Test("without track or segment columns: one track and one segment before the first point")
    func oneTrack() throws {
        #expect(try readCSV("lat,lon\n1,2\n3,4\n").shape == "T S P P")
        #expect(try readCSV("lat,lon\n").items.isEmpty)
    }

    @Test("the header TraceKit's CSV writer uses reads back: numbered tracks and segments, every column")
    func writerHeader() throws {
        let r = try readCSV(
            """
            track,segment,time,latitude,longitude,elevation,hAcc,vAcc,hdop,vdop,pdop,satellites,fix,speed,course,name,role,state
            1,1,2020-01-01T00:00:00Z,1.5,2.5,10,3,4,0.8,0.9,1.2,7,3d,1.5,270,"a, b",helper,enRoute
            1,2,2020-01-01T00:00:01Z,1.5,2.5,,,,,,,,,,,,,
            2,1,2020-01-01T00:00:02Z,1.5,2.5,,,,,,,,,,,,,
            """)
        #expect(r.shape == "T(1) S P S P T(2) S P")
        let f = r.points[0]
        #expect(f.time == utc("2020-01-01T00:00:00Z") && f.elevation == 10 && f.horizontalAccuracy == 3 && f.verticalAccuracy == 4)
        #expect(f.hdop == 0.8 && f.vdop == 0.9 && f.pdop == 1.2 && f.satellites == 7 && f.fixType == .threeD)
        #expect(f.speed == 1.5 && f.course == 270 && f.name == "a, b" && f.role == "helper" && f.state == "enRoute")
        #expect(r.diagnostics.isClean)
    }

    @Test("OpenTracks marker rows: TRACKPOINT rows are points, SEGMENT_START rows start segments")
    func markers() throws {
        let r = try readCSV(
            """
            #time,trackpoint_type,latitude,longitude
            "2020-02-02T03:02:02Z","SEGMENT_START_MANUAL",,
            "2020-02-02T03:02:03Z","TRACKPOINT",3.1,14.0
            "2020-02-02T03:02:04Z","TRACKPOINT",,
            "2020-02-02T03:02:18Z","SEGMENT_END_MANUAL",,
            "2020-02-02T03:03:20Z","SEGMENT_START_MANUAL",,
            "2020-02-02T03:03:21Z","TRACKPOINT",3.1,14.1
            "2020-02-02T03:03:30Z","IDLE",,
            """)
        #expect(r.shape == "T S P S P")
        #expect(r.count(.missingCoordinate) == 1)
        #expect(r.diagnostics.pointsRead == 3)
        #expect(r.diagnostics.assumptions == ["skipped 4 marker rows that are not points (SEGMENT_START_MANUAL, SEGMENT_END_MANUAL, IDLE)"])
    }

    @Test("rows without coordinates are missing coordinates (dropped); bad numbers are invalid coordinates")
    func missing() throws {
        let r = try readCSV(
            "lat,lon,time\n,,2020-01-01T00:00:00Z\n1,,2020-01-01T00:00:01Z\nabc,2,2020-01-01T00:00:02Z\n100,2,2020-01-01T00:00:03Z\n1,2,2020-01-01T00:00:04Z\n"
        )
        #expect(r.points.count == 1)
        #expect(r.count(.missingCoordinate) == 2)
        #expect(r.count(.invalidCoordinate) == 2)
        #expect(r.diagnostics.pointsRead == 5)
        #expect(r.diagnostics.pointsDropped == 4)
    }

    @Test("policies: skip drops any point with a problem; fail stops at the first with its line")
    func policies() throws {
        let text = "lat,lon,ele,time\n1,2,3,1600000000\n1,2,x,1600000001\n,,,\n1,2,4,1600000002\n,2,5,1600000003\n1,2,6,\n"
        let skip = try readCSV(text, options: ReadOptions(policy: .skip))
        #expect(skip.points.map(\.elevation) == [3, 4])
        let error = readError { () throws(TraceReadError) in try readCSV(text, options: ReadOptions(policy: .fail)) }
        #expect(error?.line == 3)
        #expect(error?.message.contains("unreadable value") == true)
    }

    @Test("the columns option: by header name or 1-based number, overriding detection")
    func columnOptions() throws {
        let text = "a,b,c,d\n2020-01-01T00:00:00Z,10,20,5\n"
        let r = try readCSV(text, options: ReadOptions(columns: ["latitude": "B", "longitude": "3", "time": "a", "elevation": "4"]))
        #expect(r.points.first?.coordinate == (try Coordinate(latitude: 10, longitude: 20)))
        #expect(r.points.first?.time == utc("2020-01-01T00:00:00Z"))
        #expect(r.points.first?.elevation == 5)
        // Swapping detected columns.
        let swapped = try readCSV("lat,lon\n10,20\n", options: ReadOptions(columns: ["latitude": "lon", "longitude": "lat"]))
        #expect(swapped.points.first?.coordinate == (try Coordinate(latitude: 20, longitude: 10)))
    }

    @Test("the columns option: unknown fields and missing columns are errors naming them")
    func columnOptionErrors() {
        let unknown = readError { () throws(TraceReadError) in
            try readCSV("lat,lon\n1,2\n", options: ReadOptions(columns: ["lattitude": "lat", "colour": "1"]))
        }
        #expect(unknown?.line == 1)
        #expect(unknown?.message.contains("'colour', 'lattitude'") == true)
        let missing = readError { () throws(TraceReadError) in
            try readCSV("lat,lon\n1,2\n", options: ReadOptions(columns: ["time": "when", "speed": "9"]))
        }
        #expect(missing?.message.contains("no column 'when' for time") == true)
        #expect(missing?.message.contains("column 9 for speed does not exist (the header has 2 columns)") == true)
    }

    @Test("no latitude/longitude column: an error at line 1 naming the header and what was expected")
    func noPosition() {
        let e = readError { () throws(TraceReadError) in try readCSV("x;y;when\n1;2;3\n", options: ReadOptions()) }
        #expect(e?.file == "<memory>")
        #expect(e?.line == 1)
        #expect(
            e?.message
                == "no latitude or longitude column among the columns found (1 'x', 2 'y', 3 'when'); map them with the columns option: latitude=NAME,longitude=NAME"
        )
        let onlyLat = readError { () throws(TraceReadError) in try readCSV("lat,y\n1,2\n") }
        #expect(onlyLat?.message.hasPrefix("no longitude column") == true)
    }

    @Test("an empty file is an error")
    func empty() {
        #expect(readError { () throws(TraceReadError) in try readCSV("") }?.message.contains("empty file") == true)
        #expect(readError { () throws(TraceReadError) in try readCSV("\n\n") }?.message.contains("empty file") == true)
    }

    @Test("an unterminated quoted field is an error at the line it opens")
    func unterminated() {
        let e = readError { () throws(TraceReadError) in try readCSV("lat,lon,name\n1,2,a\n3,4,\"open\n5,6,x\n") }
        #expect(e?.line == 3)
        #expect(e?.message == "unterminated quoted field")
    }

    @Test("a row longer than the limit is an error, not unbounded growth")
    func longRow() throws {
        let long = "lat,lon,name\n1,2," + String(repeating: "x", count: (1 << 20) + 10) + "\n"
        let e = readError { () throws(TraceReadError) in try readCSV(long) }
        #expect(e?.line == 2)
        #expect(e?.message.contains("longer than") == true)
        // The same through a file: the window stops growing at the limit.
        let path = try temporaryFile(Array(("lat,lon,name\n1,2,\"" + String(repeating: "y", count: 3 << 20) + "\"\n").utf8), ext: "csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fileError = readError { () throws(TraceReadError) in try readTrace(try openTrace(path)) }
        #expect(fileError?.line == 2)
        #expect(fileError?.message.contains("longer than") == true)
    }

    @Test("streams a file larger than the window: rows and quoted line breaks across refills")
    func streaming() throws {
        var text = "lat,lon,time,name\r\n"
        let n = 60_000
        for i in 0..<n {
            let t = 1_600_000_000 + i
            text +=
                "\(Double(i % 90) + 0.123456),\(Double(i % 180) - 0.5),\(t),\(i % 1000 == 0 ? "\"multi\nline \"\"\(i)\"\"\"" : "p\(i)")\r\n"
        }
        let path = try temporaryFile(Array(text.utf8), ext: "csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The rows jump a degree a second; this test is about streaming, so the motion check
        // (ImpliedMotionTests) is off.
        let options = ReadOptions(maximumSpeed: nil)
        let r = try readTrace(try openTrace(path, options: options))
        #expect(r.points.count == n)
        #expect(r.points[1000].name == "multi\nline \"1000\"")
        #expect(r.points[n - 1].name == "p\(n - 1)")
        #expect(r.points[n - 1].time == Timestamp(nanoseconds: Int64(1_600_000_000 + n - 1) * 1_000_000_000))
        #expect(r.points[n - 1].coordinate.latitude == Double((n - 1) % 90) + 0.123456)
        #expect(r.diagnostics.assumptions == ["epoch times in seconds"])
        #expect(r.diagnostics.counts.isEmpty)
        // Line numbers stay exact after the quoted line breaks: a bad row at the end.
        let bad = try temporaryFile(Array((text + "x,1,1,z\r\n").utf8), ext: "csv")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let b = try readTrace(try openTrace(bad, options: options))
        #expect(b.diagnostics.examples.first { $0.kind == .invalidCoordinate }?.line == 1 + n + n / 1000 + 1)
    }

    @Test("openTrace picks the reader by extension")
    func dispatch() throws {
        let path = try temporaryFile(Array("lat,lon\n1,2\n".utf8), ext: "csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try openTrace(path)
        #expect(reader.format == .csv)
        #expect(try readTrace(reader).points.count == 1)
    }
}

// MARK: Corpus

@Suite(
    "CSV corpus",
    .enabled(if: corpusAvailable, "shared corpus not found (../shared/traces beside the checkout, or $TRACEKIT_SHARED/traces)"))
struct CSVCorpusTests {
    @Test("MTK/BT747 logger CSV: 1,199 fixes, units in values, N/S E/W columns, UTC date and time columns")
    func mtk() throws {
        let r = try readTrace(try openTrace(corpus("csv/gpsbabel-mtk_logger_m241_bt747.csv")))
        #expect(r.points.count == 1199)
        #expect(r.shape.hasPrefix("T S P"))
        #expect(r.tracks == 1 && r.segments == 1)
        #expect(r.diagnostics.pointsDropped == 0)
        #expect(r.count(.duplicateTime) == 78)
        #expect(r.diagnostics.counts.keys.sorted() == [.duplicateTime])
        let f = r.points[0]
        #expect(f.coordinate == (try Coordinate(latitude: 41.805592, longitude: 12.679832)))
        #expect(f.time == utc("2008-05-04T12:52:47Z"))
        #expect(f.elevation == 374.812)
        #expect(abs(f.speed! - 0.865 / 3.6) < 1e-12)
        #expect(f.pdop == 1.13 && f.hdop == 0.85 && f.vdop == 0.74)
        #expect(f.satellites == 11)
        #expect(r.points[1].satellites == 9)
    }

    @Test("GPX and CSV of the MTK logger hold the same 1,199 fixes")
    func mtkParity() throws {
        let gpx = try readTrace(try openTrace(corpus("gpx/gpsbabel-mtk_logger_m241.gpx"))).points
        let csv = try readTrace(try openTrace(corpus("csv/gpsbabel-mtk_logger_m241_bt747.csv"))).points
        #expect(gpx.count == 1199)
        #expect(csv.count == gpx.count)
        var worst = 0.0
        for (g, c) in zip(gpx, csv) {
            // The CSV writes 6 decimals, the GPX 9: the CSV is the GPX rounded, to 1e-9°.
            worst = max(worst, abs(g.coordinate.latitude - c.coordinate.latitude), abs(g.coordinate.longitude - c.coordinate.longitude))
            #expect(g.time == c.time)
            #expect(abs(g.elevation! - c.elevation!) <= 0.001 + 1e-9)
            #expect(abs(g.speed! - c.speed!) < 1e-3)
            #expect(g.satellites == c.satellites)
            // The GPX went through 32-bit floats (17.809999 for 17.81).
            #expect(abs(g.hdop! - c.hdop!) < 1e-5 && abs(g.vdop! - c.vdop!) < 1e-5 && abs(g.pdop! - c.pdop!) < 1e-5)
        }
        #expect(worst <= 5e-7 + 1e-9)
    }

    @Test("iBlue 747 CSV: 747 fixes, header with a trailing comma, speed in km/h")
    func iblue() throws {
        let r = try readTrace(try openTrace(corpus("csv/gpsbabel-iblue747.csv")))
        #expect(r.points.count == 747)
        #expect(r.diagnostics.counts.isEmpty)
        #expect(r.diagnostics.assumptions.contains("BT747 logger CSV: SPEED read as km/h"))
        #expect(r.points[0].time == utc("2005-05-01T10:12:47Z"))
        #expect(r.points[1].speed.map { abs($0 - 4.2 / 3.6) < 1e-12 } == true)
        #expect(r.points[0].elevation == 146)
        #expect(r.points.last?.coordinate == (try Coordinate(latitude: 50.857783, longitude: 12.417961)))
    }

    @Test("GPSBabel unicsv: 1,812 fixes with zone-less times 5 h behind the GPX")
    func bike() throws {
        let plain = try readTrace(try openTrace(corpus("csv/gpsbabel-bike_unicsv.csv")))
        #expect(plain.points.count == 1812)
        #expect(plain.diagnostics.assumptions == ["CSV times without a zone were read as UTC"])
        #expect(plain.diagnostics.counts.isEmpty)
        let csv = try readTrace(try openTrace(corpus("csv/gpsbabel-bike_unicsv.csv"), options: ReadOptions(zonelessUTCOffset: -5 * 3600)))
        #expect(csv.diagnostics.isClean)
        let gpx = try readTrace(try openTrace(corpus("gpx/gpsbabel-bike_from_tcx.gpx"))).points
        #expect(gpx.count == 1812)
        #expect(csv.points.count == gpx.count)
        var worst = 0.0
        for (g, c) in zip(gpx, csv.points) {
            worst = max(worst, abs(g.coordinate.latitude - c.coordinate.latitude), abs(g.coordinate.longitude - c.coordinate.longitude))
            #expect(g.time == c.time)
            #expect(g.elevation == c.elevation)
            #expect(abs(g.speed! - c.speed!) <= 1e-3 + 1e-9)
        }
        #expect(worst <= 5e-7 + 1e-9)
        #expect(zip(plain.points, csv.points).allSatisfy { $1.time!.nanoseconds - $0.time!.nanoseconds == 5 * 3600 * 1_000_000_000 })
    }

    @Test("Google Location History: 416 rows, semicolons, newest first")
    func google() throws {
        let r = try readTrace(try openTrace(corpus("csv/trackintel-google_location_history.csv")))
        #expect(r.points.count == 416)
        #expect(r.diagnostics.assumptions == ["rows are newest first"])
        #expect(r.diagnostics.counts.isEmpty)
        #expect(r.points.first?.time == utc("2012-12-18T21:30:35Z"))
        #expect(r.points.last?.time == utc("2012-12-18T11:53:30Z"))
        let accuracies = r.points.compactMap(\.horizontalAccuracy)
        #expect(accuracies.count == 416 && accuracies.min() == 14 && accuracies.max() == 1001)
    }

    @Test("OpenTracks export: 12 rows, 6 TRACKPOINT rows of which 4 have coordinates")
    func opentracks() throws {
        let r = try readTrace(try openTrace(corpus("malformed/opentracks-csv_export.csv")))
        #expect(r.points.count == 4)
        #expect(r.diagnostics.pointsRead == 6)
        #expect(r.count(.missingCoordinate) == 2)
        #expect(r.diagnostics.pointsDropped == 2)
        #expect(r.shape == "T S P P S P S P")
        #expect(
            r.diagnostics.assumptions.contains(
                "skipped 6 marker rows that are not points (SEGMENT_START_MANUAL, SEGMENT_END_MANUAL, SEGMENT_START_AUTOMATIC, IDLE)"))
        #expect(r.points.map(\.horizontalAccuracy) == [10, 10, 10, 10])
        #expect(r.points[0].elevation == 1020.2)
        #expect(r.points[0].time == utc("2020-02-02T02:02:03Z"))
        #expect(!r.diagnostics.assumptions.contains("CSV times without a zone were read as UTC"))
    }

    @Test("Posmo epoch bug: 2,404 rows, times collapsed into 6 seconds of 1970")
    func posmo() throws {
        let r = try readTrace(try openTrace(corpus("malformed/trackintel-posmo_epoch_bug.csv"), options: ReadOptions(policy: .report)))  // as written
        #expect(r.points.count == 2404)
        #expect(r.count(.duplicateTime) == 2398)
        #expect(r.count(.timeWentBackwards) == 0)
        #expect(r.diagnostics.assumptions.isEmpty)
        #expect(r.points[0].coordinate == (try Coordinate(latitude: 47.3779192, longitude: 8.5386245)))
        #expect(r.points.allSatisfy { $0.horizontalAccuracy == 0 })
    }
}
