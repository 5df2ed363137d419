import Foundation
import Testing
import TraceDomain
import TraceGeodesy
import TraceIO

@testable import TraceReplay

/// A fix's fields as plain values, NaN (absent) as nil, so that fixes compare with `==`.
private struct Fields: Equatable, CustomStringConvertible {
    var time: Int64
    var latitude: Double, longitude: Double
    var accuracy: Double?, speed: Double?, course: Double?

    init(_ f: ReplayFix) {
        time = f.time
        latitude = f.coordinate.latitude
        longitude = f.coordinate.longitude
        accuracy = f.accuracy.isNaN ? nil : f.accuracy
        speed = f.speed.isNaN ? nil : f.speed
        course = f.course.isNaN ? nil : f.course
    }

    var description: String { "\(time) \(latitude),\(longitude) acc \(accuracy as Any) speed \(speed as Any) course \(course as Any)" }
}

/// The timed track points of `path` as the second pass streams them (``RoleReader/nextPoint()``).
private func streamed(_ path: String) throws -> [ReplayFix] {
    var reader = try RoleReader(path: path, format: nil, options: ReadOptions(), defaultRole: .helper)
    var fixes: [ReplayFix] = []
    while let p = try reader.nextPoint() {
        if p.timed { fixes.append(p.fix) }
    }
    return fixes
}

/// The helper's fixes of `path` through a file stream (the windowed read of a larger file).
private func fileStream(_ path: String) throws -> [ReplayFix] {
    let reader = try RoleReader(path: path, format: nil, options: ReadOptions(), defaultRole: .helper)
    var stream = try FixStream(role: .helper, file: 0, source: .file(reader))
    var fixes: [ReplayFix] = []
    while let h = stream.head {
        fixes.append(h)
        try stream.advance()
    }
    return fixes
}

/// The first pass's in-memory buffer of the helper's fixes of `path` (sorted when unordered).
private func firstPassBuffer(_ path: String) throws -> (buffer: FixColumns, unordered: Bool) {
    let pass = try Replay.firstPass([TraceInput(path: path)], options: ReplayOptions())
    let record = try #require(pass.records.first { $0.record.role == .helper }).record
    return (try #require(record.buffer), record.unordered)
}

private func courses(_ fixes: [ReplayFix]) -> [Double?] { fixes.map { Fields($0).course } }

/// `$body*hh` with the right checksum.
private func nmea(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return "$" + body + "*" + String(format: "%02X", sum)
}

/// A replay fix carries the reported course (degrees in [0, 360), NaN when absent) from every
/// reader, on the streamed path and in the first pass's buffer alike: what the viewer's
/// extrapolation along the reported speed and course needs (issue 19).
@Suite("Replay: the fix's reported course")
struct ReplayCourseTests {
    @Test("a replay fix is 48 bytes: time, position, accuracy, speed, course")
    func size() {
        #expect(MemoryLayout<ReplayFix>.size == 48 && MemoryLayout<ReplayFix>.stride == 48)
    }

    @Test("GPX: a gpxtpx course (and a plain <course>) is the replay fix's course; a point without one is NaN")
    func gpx() throws {
        let path = try temp(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
              xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"><trk><trkseg>
            <trkpt lat="47.0" lon="8.0"><time>2024-05-01T10:00:00Z</time>\
            <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>2.5</gpxtpx:speed><gpxtpx:course>91.5</gpxtpx:course>\
            </gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="47.0" lon="8.00003"><time>2024-05-01T10:00:01Z</time><speed>2.5</speed><course>90.25</course></trkpt>
            <trkpt lat="47.0" lon="8.00006"><time>2024-05-01T10:00:02Z</time></trkpt>
            </trkseg></trk></gpx>

            """)
        let fixes = try streamed(path)
        #expect(courses(fixes) == [91.5, 90.25, nil])
        #expect(fixes.map { Fields($0).speed } == [2.5, 2.5, nil])
        #expect(try fileStream(path).map(Fields.init) == fixes.map(Fields.init))
    }

    @Test("CSV: the course column is the replay fix's course; an empty cell is NaN; 360 is 0")
    func csv() throws {
        let path = try temp(
            """
            time,latitude,longitude,accuracy,speed,course
            2024-05-01T10:00:00Z,47.0,8.0,5,1.5,180.5
            2024-05-01T10:00:01Z,46.99999,8.0,5,1.5,
            2024-05-01T10:00:02Z,46.99998,8.0,5,1.5,360

            """, ext: "csv")
        let fixes = try streamed(path)
        #expect(courses(fixes) == [180.5, nil, 0])
        #expect(fixes.map { Fields($0).accuracy } == [5, 5, 5])
        #expect(try fileStream(path).map(Fields.init) == fixes.map(Fields.init))
    }

    @Test("NMEA: RMC's course is the replay fix's course; an empty course field is NaN")
    func nmeaRMC() throws {
        let lines = [
            nmea("GPRMC,100000.00,A,4700.000,N,00800.000,E,010.0,045.0,010524,,,A"),
            nmea("GPRMC,100001.00,A,4700.004,N,00800.005,E,010.0,,010524,,,A"),
        ]
        let fixes = try streamed(try temp(lines.map { $0 + "\r\n" }.joined(), ext: "nmea"))
        #expect(courses(fixes) == [45, nil])
        #expect(fixes.map(\.time) == [1_714_557_600_000_000_000, 1_714_557_601_000_000_000])
    }

    @Test("NDJSON: `course` is the replay fix's course; a line without one is NaN")
    func ndjson() throws {
        let path = try temp(
            """
            {"lat": 47.0, "lon": 8.0, "time": "2024-05-01T10:00:00Z", "speed": 1, "course": 300.75}
            {"lat": 47.00001, "lon": 8.0, "time": "2024-05-01T10:00:01Z", "speed": 1}

            """, ext: "ndjson")
        #expect(courses(try streamed(path)) == [300.75, nil])
    }

    @Test("an unordered file: the first pass's sorted buffer holds the streamed fixes in time order, every field alike")
    func unorderedBufferMatchesStream() throws {
        // Times 0, 1, 3, 2, 4 (one step back), courses with one absent and a 360.
        let rows = [
            (0, "47.0", "5", "1.5", "10"), (1, "47.00001", "6", "1.5", ""), (3, "47.00003", "", "", "360"),
            (2, "47.00002", "8", "1.25", "20.5"), (4, "47.00004", "9", "1.5", "359.5"),
        ]
        let csv =
            "time,latitude,longitude,accuracy,speed,course\n"
            + rows.map { "2024-05-01T10:00:0\($0.0)Z,\($0.1),8.0,\($0.2),\($0.3),\($0.4)\n" }.joined()
        let gpx =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
            + rows.map { r in
                "<trkpt lat=\"\(r.1)\" lon=\"8.0\"><time>2024-05-01T10:00:0\(r.0)Z</time>"
                    + (r.2.isEmpty ? "" : "<hAcc>\(r.2)</hAcc>") + (r.3.isEmpty ? "" : "<speed>\(r.3)</speed>")
                    + (r.4.isEmpty ? "" : "<course>\(r.4)</course>") + "</trkpt>\n"
            }.joined() + "</trkseg></trk></gpx>\n"
        for path in [try temp(csv, ext: "csv"), try temp(gpx)] {
            let (buffer, unordered) = try firstPassBuffer(path)
            #expect(unordered)
            let stream = try streamed(path)
            let sorted = stream.indices.sorted { (stream[$0].time, $0) < (stream[$1].time, $1) }.map { Fields(stream[$0]) }
            #expect((0..<buffer.count).map { Fields(buffer[$0]) } == sorted, "\(path)")
            #expect(sorted.map(\.course) == [10, nil, 20.5, 0, 359.5] && sorted.map(\.time) == (0..<5).map { 1_714_557_600_000_000_000 + Int64($0) * 1_000_000_000 })
            #expect(sorted.map(\.speed) == [1.5, 1.5, 1.25, nil, 1.5] && sorted.map(\.accuracy) == [5, 6, 8, nil, 9])
        }
    }

    @Test("an ordered file: the first pass's buffer and the file stream give the same fixes, course included")
    func orderedBufferMatchesFileStream() throws {
        let n = FixStream.windowSize + 5  // across a refill of the stream's window
        var text = "time,latitude,longitude,speed,course\n"
        for i in 0..<n {
            text += "\(time(i)),\(47 + Double(i) * 1e-5),8.0,1.1,\(i % 7 == 0 ? "" : String(Double(i % 360) + 0.5))\n"
        }
        let path = try temp(text, ext: "csv")
        let (buffer, unordered) = try firstPassBuffer(path)
        #expect(!unordered && buffer.count == n)
        let stream = try fileStream(path)
        #expect((0..<buffer.count).map { Fields(buffer[$0]) } == stream.map(Fields.init))
        #expect(stream.filter { $0.course.isNaN }.count == (n + 6) / 7 && stream[1].course == 1.5)
    }

    @Test("the columns keep the course through append, subscript, sortByTime and removeAll")
    func columns() throws {
        var c = FixColumns()
        for (t, course) in [(Int64(3), 30.0), (1, .nan), (2, 20)] {
            c.append(ReplayFix(time: t, coordinate: try Coordinate(latitude: 47, longitude: 8), accuracy: nil, speed: nil, course: course))
        }
        c.sortByTime()
        #expect(c.times == [1, 2, 3] && c.courses.count == 3 && c[0].course.isNaN && c[1].course == 20 && c[2].course == 30)
        c.removeAll()
        #expect(c.count == 0 && c.courses.isEmpty)
        #expect(ReplayFix(time: 0, coordinate: try Coordinate(latitude: 47, longitude: 8), accuracy: nil, speed: nil).course.isNaN)
        #expect(ReplayFix(time: 0, coordinate: try Coordinate(latitude: 47, longitude: 8), accuracy: nil, speed: nil, course: 360).course == 0)
    }
}
