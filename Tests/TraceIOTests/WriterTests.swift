import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceJSON
import TraceDomain
import TracePlatform

@testable import TraceIO

/// Writes `items` in `format` to a temporary file and returns its path.
func writeTemporary(_ items: [TraceItem], _ format: TraceFormat) throws -> String {
    let path = scratchFolder.appendingPathComponent("tracekit-\(UUID().uuidString).\(format.rawValue)").path
    let fd = try Platform.createOrTruncate(path, permissions: 0o644)
    defer { try? Platform.close(fd) }
    var writer = try makeTraceWriter(format, to: ByteSink(fd: fd, name: path))
    for item in items { try writer.write(item) }
    try writer.finish()
    return path
}

/// Creates (or empties) the file `path` with `bytes` as its content; a failure shows when it is read.
func createFile(_ path: String, _ bytes: [UInt8]) {
    guard let fd = try? Platform.createOrTruncate(path, permissions: 0o644) else { return }
    bytes.withUnsafeBytes { _ = try? Platform.writeAll(fd, $0) }
    try? Platform.close(fd)
}

func readAll(_ path: String) throws -> [TraceItem] {
    var reader = try openTrace(path, options: ReadOptions(policy: .report))  // every item as written
    var items: [TraceItem] = []
    while let item = try reader.next() { items.append(item) }
    return items
}

@Suite("Writers")
struct WriterTests {
    /// A document exercising every field.
    static let sample: [TraceItem] = {
        var a = Fix(
            coordinate: try! Coordinate(latitude: 47.376887123456789, longitude: 8.541694),
            time: Timestamp(nanoseconds: 1_700_000_000_123_456_789))
        a.elevation = 408.25; a.horizontalAccuracy = 4.5; a.verticalAccuracy = 3; a.hdop = 0.9; a.vdop = 1.1; a.pdop = 1.4
        a.satellites = 9; a.fixType = .threeD; a.speed = 12.75; a.course = 271.5; a.name = "A <&> \"B\""; a.role = "helper";
        a.state = "En Route"
        var b = Fix(
            coordinate: try! Coordinate(latitude: -0.000001, longitude: -179.9999999),
            time: Timestamp(nanoseconds: 1_700_000_001_000_000_000))
        b.elevation = -12
        var w = Fix(coordinate: try! Coordinate(latitude: 1, longitude: 2))
        w.name = "pickup"
        return [
            .waypoint(w), .trackStart(name: "Ride, \"one\""), .segmentStart, .trackPoint(a), .trackPoint(b), .segmentStart, .trackPoint(a),
        ]
    }()

    @Test("GPX: read → write → read gives the same items, every field exact")
    func gpxRoundTrip() throws {
        let path = try writeTemporary(Self.sample, .gpx)
        defer { try? Platform.remove(path) }
        #expect(try readAll(path) == Self.sample)
    }

    @Test(
        "the corpus survives a GPX round trip unchanged",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedFolder.appendingPathComponent("traces/gpx").path),
            "../shared/traces not found: skipped"))
    func corpusRoundTrip() throws {
        let dir = sharedFolder.appendingPathComponent("traces/gpx")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".gpx") {
            let original = try readAll(dir.appendingPathComponent(name).path)
            let path = try writeTemporary(original, .gpx)
            defer { try? Platform.remove(path) }
            #expect(try readAll(path) == original, "\(name)")
        }
    }

    @Test("CSV: read → write → read keeps every track point's values (track names become numbers)")
    func csvRoundTrip() throws {
        let path = try writeTemporary(Self.sample, .csv)
        defer { try? Platform.remove(path) }
        let back = try readAll(path)
        let original = Self.sample.compactMap { if case .trackPoint(let f) = $0 { f } else { nil } }
        let read = back.compactMap { if case .trackPoint(let f) = $0 { f } else { nil } }
        #expect(read == original)
        #expect(back.filter { $0 == .segmentStart }.count == 2)
    }

    @Test("what a format cannot hold is counted: empty segments and tracks, track names, control characters")
    func notWritten() throws {
        let p = Fix(coordinate: try Coordinate(latitude: 1, longitude: 2))
        var bad = p
        bad.name = "a\u{1}b\rc"
        let items: [TraceItem] = [.trackStart(name: "T"), .segmentStart, .segmentStart, .trackPoint(bad), .trackStart(name: nil)]
        func written(_ format: TraceFormat) throws -> [String: Int] {
            let path = scratchFolder.appendingPathComponent("nw-\(UUID().uuidString).\(format.rawValue)").path
            let fd = try Platform.createOrTruncate(path, permissions: 0o644)
            defer {
                try? Platform.close(fd)
                try? Platform.remove(path)
            }
            var writer = try makeTraceWriter(format, to: ByteSink(fd: fd, name: path))
            for item in items { try writer.write(item) }
            try writer.finish()
            if format == .gpx {
                // The CR survives as a reference; the control character is left out, and counted.
                let back = try readAll(path)
                #expect(back.contains { if case .trackPoint(let f) = $0 { f.name == "ab\rc" } else { false } })
            }
            return writer.notWritten
        }
        #expect(try written(.csv) == ["track name": 1, "empty segment": 1, "empty track": 1])
        #expect(try written(.geojson) == ["empty segment": 1, "empty track": 1])
        #expect(try written(.ndjson) == ["track name": 1, "empty segment": 1, "empty track": 1])
        #expect(try written(.gpx) == ["character XML cannot hold": 1])
    }

    @Test("NDJSON: one valid object per point")
    func ndjson() throws {
        let path = try writeTemporary(Self.sample, .ndjson)
        defer { try? Platform.remove(path) }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        let first = try JSONParser.parse(String(lines[1]))
        #expect(first["type"]?.kind == .string("trackpoint") && first["track"]?.kind == .number(1) && first["segment"]?.kind == .number(1))
        #expect(first["lat"]?.kind == .number(47.376887123456789) && first["time"]?.kind == .string("2023-11-14T22:13:20.123456789Z"))
        #expect(first["name"]?.kind == .string("A <&> \"B\""))
        #expect(try JSONParser.parse(String(lines[3]))["segment"]?.kind == .number(2))
    }

    @Test("GeoJSON: a FeatureCollection with a LineString per segment and times beside the coordinates")
    func geojson() throws {
        let path = try writeTemporary(Self.sample, .geojson)
        defer { try? Platform.remove(path) }
        let doc = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(doc["type"]?.kind == .string("FeatureCollection"))
        guard case .array(let features)? = doc["features"]?.kind else { Issue.record("no features"); return }
        #expect(features.count == 3)
        #expect(features[0]["geometry"]?["type"]?.kind == .string("Point"))
        let line = features[1]
        #expect(line["geometry"]?["type"]?.kind == .string("LineString"))
        guard case .array(let coords)? = line["geometry"]?["coordinates"]?.kind,
            case .array(let times)? = line["properties"]?["times"]?.kind
        else {
            Issue.record("no coordinates or times"); return
        }
        #expect(coords.count == 2 && times.count == 2)
        #expect(coords[0] == .array([.number(8.541694), .number(47.376887123456789), .number(408.25)]))
        #expect(times[1].kind == .string("2023-11-14T22:13:21Z"))
        #expect(line["properties"]?["name"]?.kind == .string("Ride, \"one\"") && line["properties"]?["segment"]?.kind == .number(1))
        // The one-point second segment is a Point feature with its time; an empty segment is counted.
        #expect(features[2]["geometry"]?["type"]?.kind == .string("Point"))
        #expect(features[2]["properties"]?["times"] == .array([.string("2023-11-14T22:13:20.123456789Z")]))
    }

    @Test("CSV: track points with every column; waypoints counted as not written")
    func csv() throws {
        let path = scratchFolder.appendingPathComponent("tracekit-\(UUID().uuidString).csv").path
        let fd = try Platform.createOrTruncate(path, permissions: 0o644)
        var writer = try makeTraceWriter(.csv, to: ByteSink(fd: fd, name: path))
        for item in Self.sample { try writer.write(item) }
        try writer.finish()
        try Platform.close(fd)
        defer { try? Platform.remove(path) }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.count == 4
                && lines[0]
                    == "track,segment,time,latitude,longitude,elevation,hAcc,vAcc,hdop,vdop,pdop,satellites,fix,speed,course,name,role,state"
        )
        #expect(
            lines[1]
                == "1,1,2023-11-14T22:13:20.123456789Z,47.37688712345679,8.541694,408.25,4.5,3,0.9,1.1,1.4,9,3d,12.75,271.5,\"A <&> \"\"B\"\"\",helper,En Route"
        )
        #expect(lines[3].hasPrefix("1,2,"))
        #expect(writer.notWritten == ["waypoint": 1, "track name": 1])
    }
}
