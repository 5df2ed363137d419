import Testing
import TraceGeodesy
import TraceIO

/// Reads `text` both ways (item by item and in batches) and checks that they agree.
private func read(_ text: String, options: ReadOptions = ReadOptions()) throws -> ReadResult {
    let one = try readCSV(text, options: options)
    var reader = CSVReader(bytes: Array(text.utf8), options: options)
    var batch = FixBatch()
    var points: [Fix] = []
    while try reader.read(into: &batch, limit: 3) > 0 {
        for case .trackPoint(let f) in batch.items { points.append(f) }
    }
    #expect(points == one.points, "the batch path reads the same fixes")
    #expect(reader.diagnostics == one.diagnostics)
    return one
}

private func position(_ r: ReadResult, _ i: Int = 0) -> (Double, Double)? {
    guard i < r.points.count else { return nil }
    return (r.points[i].coordinate.latitude, r.points[i].coordinate.longitude)
}

@Suite("CSV as loggers and exporters write it: header names")
struct CSVHeaderNameTests {
    @Test(
        "names with units, hemisphere markers and qualifiers",
        arguments: [
            ("Latitude (deg),Longitude (deg)", "47.5,8.25"),
            ("LATITUDE N/S,LONGITUDE E/W", "47.5N,8.25E"),
            ("Latitude N,Longitude E", "47.5,8.25"),
            ("gps_latitude,gps_longitude", "47.5,8.25"),
            ("gpsLatitude,gpsLongitude", "47.5,8.25"),
            ("Location Latitude,Location Longitude", "47.5,8.25"),
            ("pos_lat,pos_lon", "47.5,8.25"),
            ("GNSS Lat [deg],GNSS Lon [deg]", "47.5,8.25"),
        ])
    func names(header: String, row: String) throws {
        let r = try read(header + "\n" + row + "\n")
        #expect(r.points.count == 1)
        #expect(position(r)! == (47.5, 8.25))
        #expect(r.diagnostics.counts.keys.sorted() == [.missingTime])  // no time column: nothing else to report
    }

    @Test("units in names: speed_kmh, Alt (ft), altitude_ft, enhanced_speed (m/s)")
    func unitsInNames() throws {
        let r = try read("lat,lon,speed_kmh,Alt (ft)\n1,2,36,1000\n")
        #expect(abs(r.points[0].speed! - 10) < 1e-12)
        #expect(abs(r.points[0].elevation! - 304.8) < 1e-12)
        let fit = try read("lat,lon,enhanced_speed,enhanced_altitude\n1,2,3.5,120\n")
        #expect(fit.points[0].speed == 3.5 && fit.points[0].elevation == 120)
    }

    @Test("a units row under the header: metres, feet, km/h, degrees")
    func unitsRow() throws {
        let r = try read("lat,lon,alt,speed\ndeg,deg,ft,km/h\n1,2,100,72\n1.1,2,200,36\n")
        #expect(r.points.count == 2)
        #expect(abs(r.points[0].elevation! - 30.48) < 1e-12 && abs(r.points[0].speed! - 20) < 1e-12)
        #expect(r.diagnostics.assumptions.contains("line 2 is a units row"))
        #expect(r.diagnostics.counts.keys.sorted() == [.missingTime])
        // A first row of numbers is data, not units.
        let plain = try read("lat,lon,alt\n1,2,100\n")
        #expect(plain.points.count == 1 && plain.points[0].elevation == 100)
    }

    @Test("# comment and preamble lines before the header; # lines after it")
    func preamble() throws {
        let text =
            "Columbus GPS logger export\nDevice: V-990\n\n# generated 2009-04-20\nlat,lon,time\n1,2,2020-01-01T00:00:00Z\n# paused\n1.0005,2,2020-01-01T00:00:01Z\n"
        let r = try read(text)
        #expect(r.points.count == 2)
        #expect(r.diagnostics.counts.isEmpty)
        #expect(r.diagnostics.assumptions.contains("skipped 3 lines before the header (comments or preamble)"))
        #expect(r.diagnostics.assumptions.contains("skipped 1 comment line (starting with #)"))
        // Positions still name their lines.
        let bad = try readCSV("banner\nlat,lon\n1,2\n95,2\n")
        #expect(bad.diagnostics.examples.first { $0.kind == .invalidCoordinate }?.line == 4)
    }

    @Test("space- and NUL-padded fixed-width fields (Columbus V-990), trailing delimiters")
    func padding() throws {
        let text =
            "INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING,FIX MODE,VALID,PDOP,HDOP,VDOP,VOX\n"
            + "1     ,T,090420,124611,31.222024N,121.485588E,28   ,0   ,0  ,3D,SPS ,2.1  ,1.9  ,1.0  ,         \n"
            + "2\0\0\0\0\0,T,090420,124612,31.222030N,121.485590E,29\0\0\0,36\0\0,12\0,3D,SPS ,2.1  ,1.9  ,1.0  ,\0\0\0,\n"
        let r = try read(text)
        #expect(r.points.count == 2)
        #expect(r.diagnostics.counts.isEmpty, "\(r.diagnostics.summaryLines)")
        #expect(r.points[1].elevation == 29 && r.points[1].speed == 36 && r.points[1].course == 12)
        #expect(r.points[0].time == utc("2009-04-20T12:46:11Z"))
        #expect(r.points[1].hdop == 1.9 && r.points[1].pdop == 2.1)
    }

    @Test("a header that cannot be mapped: one line listing the columns and the mapping that would read them")
    func unmappable() {
        let e = readError { () throws(TraceReadError) in try readCSV("Breite;Länge;Zeit\n47,1;8,2;2020-01-01T00:00:00Z\n") }
        #expect(e?.line == 1)
        #expect(
            e?.message
                == "no latitude or longitude column among the columns found (1 'Breite', 2 'Länge', 3 'Zeit'); map them with the columns option: latitude=NAME,longitude=NAME"
        )
        let guessed = readError { () throws(TraceReadError) in try readCSV("y_wgs,x_wgs,t\n47.1,8.2,5\n") }
        #expect(guessed?.message.hasSuffix("map them with the columns option: latitude=y_wgs,longitude=x_wgs") == true)
        // A preamble longer than the limit: the error is about the first line.
        let long = (0..<70).map { "note \($0)" }.joined(separator: "\n") + "\nlat,lon\n1,2\n"
        let far = readError { () throws(TraceReadError) in try readCSV(long) }
        #expect(far?.line == 1 && far?.message.contains("(1 'note 0')") == true)
    }
}

@Suite("CSV as loggers and exporters write it: coordinates")
struct CSVCoordinateFormTests {
    @Test("NMEA degrees and decimal minutes with hemisphere columns (4807.038,N)")
    func degreesMinutes() throws {
        let r = try read("lat,N/S,lon,E/W\n4807.038,N,01131.000,E\n4807.038,S,01131.500,W\n")
        #expect(r.points.count == 2)
        let (lat, lon) = position(r)!
        #expect(abs(lat - (48 + 7.038 / 60)) < 1e-13 && abs(lon - (11 + 31.0 / 60)) < 1e-13)
        let (lat2, lon2) = position(r, 1)!
        #expect(abs(lat2 + (48 + 7.038 / 60)) < 1e-13 && abs(lon2 + (11 + 31.5 / 60)) < 1e-13)
        #expect(r.diagnostics.assumptions.contains("latitude read as degrees and decimal minutes (ddmm.mmmm, as NMEA writes them)"))
        // Minutes of 60 or more are not degrees and minutes.
        let bad = try readCSV("lat,lon\n4807.038,01131.000\n4875.0,01131.000\n")
        #expect(bad.points.count == 1 && bad.count(.invalidCoordinate) == 1)
    }

    @Test("Garmin FIT semicircles: by the name position_lat, the units row or a transform")
    func semicircles() throws {
        let lat = 47.5, lon = -122.25
        let sl = Int((lat * 2_147_483_648 / 180).rounded()), so = Int((lon * 2_147_483_648 / 180).rounded())
        for text in [
            "position_lat,position_long\n\(sl),\(so)\n",
            "lat,lon\nsemicircles,semicircles\n\(sl),\(so)\n",
        ] {
            let r = try read(text)
            let (a, b) = position(r)!
            #expect(abs(a - lat) < 1e-7 && abs(b - lon) < 1e-7, "\(text)")
            #expect(a == Double(sl) * 180 / 2_147_483_648)
        }
        let mapped = try read("y,x\n\(sl),\(so)\n", options: ReadOptions(columns: ["lat": "y:semicircles", "lon": "x:semicircles"]))
        #expect(abs(position(mapped)!.0 - lat) < 1e-7)
    }

    @Test("E7 integers: latitudeE7 / longitudeE7, lat_e7, or a transform")
    func e7() throws {
        for header in ["latitudeE7,longitudeE7", "lat_e7,lon_e7"] {
            let r = try read("\(header)\n475000000,-1222500000\n")
            #expect(position(r)! == (47.5, -122.25), "\(header)")
        }
        let mapped = try read("a,b\n475000000,82500000\n", options: ReadOptions(columns: ["latitude": "a:e7", "longitude": "b:e7"]))
        #expect(position(mapped)! == (47.5, 8.25))
    }

    @Test("an integer column beyond the degree range without a name that says which: a problem naming the transforms")
    func ambiguousInteger() throws {
        let r = try readCSV("lat,lon\n475000000,82500000\n")
        #expect(r.points.isEmpty)
        #expect(r.diagnostics.examples.first?.detail.contains("latitude=NAME:e7 or latitude=NAME:semicircles") == true)
        // A small integer beyond the range is only out of range.
        let small = try readCSV("lat,lon\n-91,2\n")
        #expect(small.diagnostics.examples.first?.detail == "latitude -91.0 is outside [-90, 90] degrees")
    }
}

@Suite("CSV as loggers and exporters write it: times")
struct CSVTimeFormTests {
    @Test("compact dates and times in separate columns: YYMMDD, DDMMYY, HHMMSS with and without fractions")
    func compact() throws {
        let ymd = try read("lat,lon,date,time\n1,2,090420,124611\n1,2,090420,124611.5\n")
        #expect(ymd.points.map(\.time) == [utc("2009-04-20T12:46:11Z"), utc("2009-04-20T12:46:11.5Z")])
        #expect(ymd.diagnostics.assumptions.contains { $0.hasPrefix("six-digit dates read as YYMMDD") })
        // Only DDMMYY reads as a date (month 03, day 23; YYMMDD would give month 03, day 94).
        let dmy = try read("lat,lon,date,time\n1,2,230394,123519\n")
        #expect(dmy.points[0].time == utc("1994-03-23T12:35:19Z"))
        #expect(dmy.diagnostics.assumptions.contains("six-digit dates read as DDMMYY"))
        // The header or a transform names the order.
        let named = try read(
            "lat,lon,date,time\n1,2,010203,000000\n", options: ReadOptions(columns: ["date": "date:ddmmyy"]))
        #expect(named.points[0].time == utc("2003-02-01T00:00:00Z"))
    }

    @Test("local times with a UTC-offset column: +02:00, -0500, hours, minutes")
    func offsetColumn() throws {
        let r = try read(
            "lat,lon,time,utc_offset\n1,2,2020-06-01 12:00:00,+02:00\n1,2,2020-06-01 12:00:01,-0500\n1,2,2020-06-01 12:00:02,2\n1,2,2020-06-01 12:00:03,120\n"
        )
        #expect(
            r.points.map(\.time) == [
                utc("2020-06-01T10:00:00Z"), utc("2020-06-01T17:00:01Z"), utc("2020-06-01T10:00:02Z"), utc("2020-06-01T10:00:03Z"),
            ])
        #expect(!r.diagnostics.assumptions.contains("CSV times without a zone were read as UTC"))
        // A time with its own zone keeps it.
        let zoned = try read("lat,lon,time,tz\n1,2,2020-06-01T12:00:00Z,+02:00\n")
        #expect(zoned.points[0].time == utc("2020-06-01T12:00:00Z"))
        let bad = try readCSV("lat,lon,time,tz\n1,2,2020-06-01 12:00:00,soon\n")
        #expect(bad.count(.invalidValue) == 1)
    }

    @Test("epochs by name: FIT (from 1989-12-31) and GPS (from 1980-01-06, leap seconds removed)")
    func epochOrigins() throws {
        let fit = try read("lat,lon,timestamp\n1,2,1000000000\n", options: ReadOptions(columns: ["time": "timestamp:fit"]))
        #expect(fit.points[0].time == utc("2021-09-08T01:46:40Z"))
        // GPS second 1,300,000,000 is 2021-03-17T07:06:40 counted without leap seconds, 07:06:22Z
        // in UTC (GPS − UTC = 18 s since 2017).
        let gps = try read("lat,lon,t\n1,2,1300000000\n", options: ReadOptions(columns: ["time": "t:gps"]))
        #expect(gps.points[0].time == utc("2021-03-17T07:06:22Z"))
        // A FIT export (positions in semicircles) counts its timestamps from FIT's origin.
        let export = try read("timestamp,position_lat,position_long\n1000000000,566935683,95443718\n")
        #expect(export.points[0].time == utc("2021-09-08T01:46:40Z"))
    }

    @Test("ISO 8601 as loggers write it: basic format, comma fractions, offsets without colons, lower-case t")
    func iso() throws {
        let r = try read(
            "lat;lon;time\n1;2;20200601T120000Z\n1;2;2020-06-01T12:00:01,5Z\n1;2;2020-06-01T14:00:02+0200\n1;2;2020-06-01t12:00:03z\n")
        #expect(
            r.points.map(\.time) == [
                utc("2020-06-01T12:00:00Z"), utc("2020-06-01T12:00:01.5Z"), utc("2020-06-01T12:00:02Z"), utc("2020-06-01T12:00:03Z"),
            ])
    }

    @Test("elevation and accuracy in feet or metres, speed in mph or knots, from a transform")
    func unitTransforms() throws {
        let r = try read(
            "lat,lon,Alt,acc,v\n1,2,100,10,10\n",
            options: ReadOptions(columns: ["ele": "Alt:ft", "accuracy": "acc:ft", "speed": "v:knots"]))
        #expect(abs(r.points[0].elevation! - 30.48) < 1e-12)
        #expect(abs(r.points[0].horizontalAccuracy! - 3.048) < 1e-12)
        #expect(r.points[0].speed == 10 * 1852.0 / 3600.0)
    }
}

@Suite("Reported accuracy: one rule everywhere")
struct ReportedAccuracyTests {
    @Test("0, negative and non-finite accuracies are none, in the summary as in the gate and the smoother")
    func zeroIsNone() throws {
        #expect(ReportedAccuracy.usable(0) == nil && ReportedAccuracy.usable(-5) == nil && ReportedAccuracy.usable(.infinity) == nil)
        #expect(ReportedAccuracy.usable(nil) == nil && ReportedAccuracy.usable(4.5) == 4.5)
        let r = try readCSV("lat,lon,accuracy\n1,2,0\n1,2.001,12\n1,2.002,0\n")
        var summary = TraceSummary(exact: ReportedAccuracyTests.Flat())
        for item in r.items { summary.add(item) }
        #expect(summary.pointsWithAccuracy == 1)
        #expect(summary.accuracyRange == 12...12)
    }

    /// A solver for the summary's rare long steps (none here).
    struct Flat: GeodesicSolver {
        func inverse(from a: Coordinate, to b: Coordinate) -> GeodesicInverse {
            GeodesicInverse(distance: Haversine.distance(from: a, to: b), initialAzimuth: 0, finalAzimuth: 0)
        }
    }
}

@Suite("CSV forms: the edge cases a review found")
struct CSVFormEdgeTests {
    @Test("a column settled after fused-path rows: the fused path waits for both columns to be degrees")
    func settledLate() throws {
        let text =
            "lat,lon,time\n,,2020-01-01T00:00:00Z\n,,2020-01-01T00:00:01Z\n,,2020-01-01T00:00:02Z\n"
            + "47.5,8.5,2020-01-01T00:00:03Z\n47.6,8.6,2020-01-01T00:00:04Z\n4730.5,00830.2,2020-01-01T00:00:05Z\n"
        let r = try read(text)  // both paths agree
        #expect(r.points.count == 2)
        #expect(r.count(.invalidCoordinate) == 1)
    }

    @Test("a # row after the header is a comment on every path")
    func commentInFusedRun() throws {
        let text =
            "id,lat,lon,time\n1,47.1,8.1,2020-01-01T00:00:00Z\n2,47.2,8.2,2020-01-01T00:00:01Z\n3,47.3,8.3,2020-01-01T00:00:02Z\n"
            + "4,47.4,8.4,2020-01-01T00:00:03Z\n#5,47.5,8.5,2020-01-01T00:00:04Z\n6,47.6,8.6,2020-01-01T00:00:05Z\n"
        let r = try read(text)
        #expect(r.points.count == 5)
        #expect(r.diagnostics.assumptions.contains("skipped 1 comment line (starting with #)"))
    }

    @Test("NMEA coordinates: the other column follows (London's longitude -0007.5)")
    func londonDegreesMinutes() throws {
        let r = try read("lat,lon\n5130.5,-0007.5\n")
        let (lat, lon) = position(r)!
        #expect(abs(lat - (51 + 30.5 / 60)) < 1e-12 && abs(lon + 7.5 / 60) < 1e-12)
    }

    @Test("UTC offsets: four digits are hours and minutes, signed or not; a second sign or hex is unreadable")
    func offsets() throws {
        let r = try read(
            "lat,lon,time,tz\n1,2,2020-06-01 12:00:00,0530\n1,2,2020-06-01 12:00:01,5:30\n1,2,2020-06-01 12:00:02,--5\n1,2,2020-06-01 12:00:03,0x10\n"
        )
        #expect(r.points[0].time == utc("2020-06-01T06:30:00Z") && r.points[1].time == utc("2020-06-01T06:30:01Z"))
        #expect(r.count(.invalidValue) == 2)
    }

    @Test("a header that says UTC wins over an offset column")
    func utcHeaderWins() throws {
        let r = try read("utc_time,lat,lon,tz\n2020-01-01 12:00:00,1,2,+02:00\n")
        #expect(r.points[0].time == utc("2020-01-01T12:00:00Z"))
    }

    @Test("position_lat in degrees keeps Unix epochs; only semicircles mean FIT's")
    func fitNeedsSemicircles() throws {
        let r = try read("position_lat,position_long,timestamp\n47.5,8.5,1700000000\n")
        #expect(r.points[0].time == utc("2023-11-14T22:13:20Z"))
    }

    @Test("six-digit dates: a first value that reads in neither order does not settle it; an ambiguous one is stated")
    func sixDigitFirst() throws {
        let r = try readCSV("lat,lon,date,time\n1,2,000000,000000\n1,2,230394,123519\n")
        #expect(r.points.last?.time == utc("1994-03-23T12:35:19Z"))
        let both = try readCSV("lat,lon,date,time\n1,2,150523,120000\n")
        #expect(
            both.diagnostics.assumptions.contains { $0.hasPrefix("six-digit dates read as YYMMDD (the first, 150523, reads either way") })
    }

    @Test("comments do not count toward the preamble limit; a row of placeholders is data, not units")
    func limitsAndPlaceholders() throws {
        let text = String(repeating: "# note\n", count: 70) + "banner\nlat,lon\n1,2\n"
        #expect(try readCSV(text).points.count == 1)
        let r = try readCSV("lat,lon,ele\n-,-,-\n1,2,3\n")
        #expect(!r.diagnostics.assumptions.contains { $0.contains("units row") })
        #expect(r.points.count == 1 && r.count(.missingCoordinate) == 1)
    }
}
