import Foundation
import Testing
import TraceDomain
import TraceGeodesy
import TraceIO

@testable import TraceReplay

/// A GPX cut off mid-write (an app killed while recording) replays the points `info` reads:
/// every path of the replay's reader (the reduced and fused ones over the GPX reader's fast paths,
/// the items, the file stream, the first pass) stops at the same point.
@Suite("Replay of a truncated GPX: the points info reads")
struct TruncatedTraceTests {
    /// A recording of `count` fixes 1 s and 5 m apart, then one 3 km away (pending in the motion
    /// check when the file ends), cut inside the next point's time.
    static func cutRecording(count: Int) -> String {
        var points = line(from: P(north: 0, east: 0, t: 0), count: count, stepNorth: 5, dt: 1)
        points.append(P(north: 3000, east: 0, t: count))
        points.append(P(north: 3005, east: 0, t: count + 1))
        let text = gpx([(nil, points)])
        let last = text.range(of: "<time>\(time(count + 1))")!
        return String(text[..<text.index(last.lowerBound, offsetBy: 15)])
    }

    /// Time and position of each track point, as `info` reads them (``TraceReader/read(into:limit:)``).
    static func infoPoints(_ path: String, _ options: ReadOptions) throws -> [String] {
        var reader = try openTrace(path, options: options)
        var batch = FixBatch(capacity: 64)
        var points: [String] = []
        while try reader.read(into: &batch, limit: 64) > 0 {
            for i in 0..<batch.count where batch.kind(i) == .trackPoint {
                points.append(Self.shown(batch.time(i)?.nanoseconds ?? 0, batch.coordinate(i)))
            }
        }
        #expect(reader.diagnostics.counts[.truncated] == 1)
        return points
    }

    static func shown(_ time: Int64, _ c: Coordinate) -> String { "\(time) \(c.latitude) \(c.longitude)" }

    @Test("every reading path of the replay keeps the points info keeps", arguments: [ProblemPolicy.filter, .report, .skip])
    func samePoints(policy: ProblemPolicy) throws {
        let path = try temp(Self.cutRecording(count: 300))
        let options = ReadOptions(policy: policy)
        let info = try Self.infoPoints(path, options)
        #expect(info.count == 301)  // the fixes and the far one; the cut one is dropped

        var lean = try RoleReader(path: path, format: nil, options: options, defaultRole: .helper)
        var leanPoints: [String] = []
        while let p = try lean.nextPoint() { leanPoints.append(Self.shown(p.fix.time, p.fix.coordinate)) }
        #expect(leanPoints == info)
        #expect(lean.diagnostics.counts[.truncated] == 1)

        var scanned = try RoleReader(path: path, format: nil, options: options, defaultRole: .helper)
        var scannedPoints: [String] = []
        while let s = try scanned.nextScanned() {
            if case .point(let p, _) = s { scannedPoints.append(Self.shown(p.fix.time, p.fix.coordinate)) }
        }
        #expect(scannedPoints == info)

        var items = try RoleReader(path: path, format: nil, options: options, defaultRole: .helper)
        var itemPoints: [String] = []
        while let item = try items.next() {
            if case .point(_, _, let f) = item { itemPoints.append(Self.shown(f.time?.nanoseconds ?? 0, f.coordinate)) }
        }
        #expect(itemPoints == info)

        var stream = try FixStream(
            role: .helper, file: 0, source: .file(try RoleReader(path: path, format: nil, options: options, defaultRole: .helper)))
        var streamed: [String] = []
        while let h = stream.head {
            streamed.append(Self.shown(h.time, h.coordinate))
            try stream.advance()
        }
        #expect(streamed == info)
    }

    @Test("the replay's first pass reads the same fixes and reports the truncation; fail refuses the file")
    func firstPass() throws {
        let path = try temp(Self.cutRecording(count: 50))
        var options = ReplayOptions()
        let pass = try Replay.firstPass([TraceInput(path: path)], options: options)
        let record = try #require(pass.records.first { $0.record.role == .helper }).record
        let buffer = try #require(record.buffer)
        #expect(buffer.count == (try Self.infoPoints(path, ReadOptions())).count)
        options.read.policy = .fail
        #expect(throws: ReplayError.self) { _ = try Replay.firstPass([TraceInput(path: path)], options: options) }
    }
}
