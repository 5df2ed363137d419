import Foundation
import Testing

@testable import TraceIO

/// The track points' lean items (``LeanItem``) of a reader, through its own lean path.
private func leanPoints(_ next: () throws(TraceReadError) -> LeanItem) throws(TraceReadError) -> [LeanItem] {
    var points: [LeanItem] = []
    while true {
        let item = try next()
        switch item.kind {
        case .end: return points
        case .trackPoint: points.append(item)
        case .trackStart, .other: continue
        }
    }
}

private func gpxLean(_ text: String, paths: ReadPaths = .all) throws -> (points: [LeanItem], diagnostics: Diagnostics) {
    var reader = GPXReader(bytes: Array(text.utf8), paths: paths)
    let points = try leanPoints { () throws(TraceReadError) in try reader.nextLean() }
    return (points, reader.diagnostics)
}

private func csvLean(_ text: String, paths: ReadPaths = .all) throws -> (points: [LeanItem], diagnostics: Diagnostics) {
    var reader = CSVReader(bytes: Array(text.utf8), paths: paths)
    let points = try leanPoints { () throws(TraceReadError) in try reader.nextLean() }
    return (points, reader.diagnostics)
}

private func otherLean(_ reader: some TraceReader) throws -> [LeanItem] {
    var r = reader
    var text: String?
    return try leanPoints { () throws(TraceReadError) in try r.nextLean(text: &text) }
}

/// The course of each lean item, with NaN (absent) as nil so that the lists compare.
private func courses(_ points: [LeanItem]) -> [Double?] { points.map { $0.course.isNaN ? nil : $0.course } }

/// `$body*hh` with the right checksum.
private func nmea(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return "$" + body + "*" + String(format: "%02X", sum)
}

/// A lean item carries the fix's reported course (degrees in [0, 360], NaN when absent) on every
/// reader and path, as it carries the speed: what the replay's viewer extrapolates along (issue 19).
@Suite("Lean items: the reported course")
struct LeanCourseTests {
    static let gpxHeader = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
          xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"><trk><trkseg>

        """

    @Test("GPX: a gpxtpx course in extensions and a plain <course> are the lean item's course on every path; none is NaN")
    func gpxCourse() throws {
        let text =
            Self.gpxHeader + """
                <trkpt lat="47.0" lon="8.0"><time>2024-05-01T10:00:00Z</time>\
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>5.5</gpxtpx:speed><gpxtpx:course>123.5</gpxtpx:course>\
                </gpxtpx:TrackPointExtension></extensions></trkpt>
                <trkpt lat="47.00001" lon="8.0"><time>2024-05-01T10:00:01Z</time><speed>5.25</speed><course>7.25</course></trkpt>
                <trkpt lat="47.00002" lon="8.0"><time>2024-05-01T10:00:02Z</time><speed>5</speed></trkpt>
                </trkseg></trk></gpx>

                """
        for paths in [ReadPaths.all, .plain, []] {
            let (points, diagnostics) = try gpxLean(text, paths: paths)
            #expect(courses(points) == [123.5, 7.25, nil], "paths \(paths.rawValue)")
            #expect(points.map(\.speed) == [5.5, 5.25, 5], "paths \(paths.rawValue)")
            #expect(diagnostics.isClean, "\(diagnostics.summaryLines)")
        }
    }

    @Test("GPX: a course of 360 is kept as read; one outside [0, 360] stays the reader's problem and is NaN")
    func gpxCourseBounds() throws {
        let text =
            Self.gpxHeader + """
                <trkpt lat="47.0" lon="8.0"><time>2024-05-01T10:00:00Z</time><course>360</course></trkpt>
                <trkpt lat="47.00001" lon="8.0"><time>2024-05-01T10:00:01Z</time><course>0</course></trkpt>
                <trkpt lat="47.00002" lon="8.0"><time>2024-05-01T10:00:02Z</time><course>361</course></trkpt>
                </trkseg></trk></gpx>

                """
        for paths in [ReadPaths.all, []] {
            let (points, diagnostics) = try gpxLean(text, paths: paths)
            #expect(courses(points) == [360, 0, nil], "paths \(paths.rawValue)")
            #expect(diagnostics.examples.map(\.detail) == ["course 361.0 outside [0, 360]"], "\(diagnostics.summaryLines)")
        }
        // As the fix itself (a converted file writes it back); the replay reads it as 0 (ReplayFix.course).
        var reader = GPXReader(bytes: Array(text.utf8))
        var first: Fix?
        while first == nil, let item = try reader.next() { if case .trackPoint(let f) = item { first = f } }
        #expect(first?.course == 360)
    }

    @Test("CSV: the course column is the lean item's course on the fused and general paths; an empty cell is NaN")
    func csvCourse() throws {
        let text = """
            time,latitude,longitude,speed,course
            2024-05-01T10:00:00Z,47.0,8.0,4.5,270.5
            2024-05-01T10:00:01Z,47.00001,8.0,4.5,
            2024-05-01T10:00:02Z,47.00002,8.0,4.5,360

            """
        for paths in [ReadPaths.all, .plain, []] {
            let (points, diagnostics) = try csvLean(text, paths: paths)
            #expect(courses(points) == [270.5, nil, 360], "paths \(paths.rawValue)")
            #expect(points.map(\.speed) == [4.5, 4.5, 4.5])
            #expect(diagnostics.isClean, "\(diagnostics.summaryLines)")
        }
        let (none, _) = try csvLean("time,latitude,longitude\n2024-05-01T10:00:00Z,47.0,8.0\n")
        #expect(none.count == 1 && none[0].course.isNaN)
    }

    @Test("NMEA: RMC's course is the lean item's course; an RMC with an empty course field is NaN")
    func nmeaCourse() throws {
        let lines = [
            nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,120309,003.1,W,A"),
            nmea("GPRMC,123520.00,A,4807.039,N,01131.001,E,022.4,,120309,003.1,W,A"),
        ]
        let points = try otherLean(NMEAReader(bytes: Array(lines.map { $0 + "\r\n" }.joined().utf8)))
        #expect(courses(points) == [84.4, nil])
        let knots: Double = 22.4 * 1852 / 3600
        #expect(points.map(\.speed) == [knots, knots])
    }

    @Test("NDJSON and REC: `course` and `cog` are the lean item's course; a line without one is NaN")
    func ndjsonAndRECCourse() throws {
        let ndjson = """
            {"lat": 47.0, "lon": 8.0, "time": "2024-05-01T10:00:00Z", "speed": 3, "course": 45.5}
            {"lat": 47.00001, "lon": 8.0, "time": "2024-05-01T10:00:01Z", "speed": 3}

            """
        #expect(courses(try otherLean(NDJSONReader(bytes: Array(ndjson.utf8)))) == [45.5, nil])
        let rec = """
            2024-05-01T10:00:00Z\t*\t{"_type":"location","lat":47.0,"lon":8.0,"tst":1714557600,"vel":18,"cog":180}
            2024-05-01T10:00:01Z\t*\t{"_type":"location","lat":47.00001,"lon":8.0,"tst":1714557601,"vel":18,"cog":-1}

            """
        let points = try otherLean(RECReader(bytes: Array(rec.utf8)))
        #expect(courses(points) == [180, nil] && points.map(\.speed) == [5, 5])
    }
}
