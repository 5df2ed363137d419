import TestSupport
import Testing
import TraceDomain
import TraceGeodesy

@testable import TraceReplay

@Suite("Replay: fix streams and their merge in time order")
struct FixStreamTests {
    func columns(_ times: [Int64]) throws -> FixColumns {
        var c = FixColumns()
        for t in times {
            c.append(
                ReplayFix(time: t, coordinate: try Coordinate(latitude: 47, longitude: 8 + Double(t) * 1e-6), accuracy: nil, speed: nil))
        }
        return c
    }

    func drain(_ merged: inout MergedFixes) throws -> [(Int64, Role, Int)] {
        var out: [(Int64, Role, Int)] = []
        while let (fix, role, file) = try merged.next() { out.append((fix.time, role, file)) }
        return out
    }

    @Test("a memory stream gives its fixes in order, then nil")
    func memory() throws {
        var s = try FixStream(role: .helper, file: 0, source: .memory(try columns([1, 2, 5])))
        var times: [Int64] = []
        while let h = s.head {
            times.append(h.time)
            try s.advance()
        }
        #expect(times == [1, 2, 5] && !s.abandoned && s.live == nil)
    }

    @Test("at equal times: helper, hirer, delegate, then file order, whatever order the streams come in")
    func tieBreak() throws {
        let streams = [
            try FixStream(role: .delegate, file: 0, source: .memory(try columns([0, 10]))),
            try FixStream(role: .hirer, file: 2, source: .memory(try columns([0, 10]))),
            try FixStream(role: .hirer, file: 1, source: .memory(try columns([0, 5]))),
            try FixStream(role: .helper, file: 3, source: .memory(try columns([0, 10]))),
        ]
        var merged = MergedFixes(streams)
        #expect(merged.earliest == 0)
        let out = try drain(&merged)
        #expect(out.map(\.0) == [0, 0, 0, 0, 5, 10, 10, 10])
        #expect(out.prefix(4).map(\.1) == [.helper, .hirer, .hirer, .delegate] && out.prefix(4).map(\.2) == [3, 1, 2, 0])
        #expect(out.suffix(3).map(\.1) == [.helper, .hirer, .delegate])
        #expect(!merged.abandoned)
    }

    @Test("a file stream reads its role's timed points across refills of its window")
    func fileWindows() throws {
        let n = FixStream.windowSize * 2 + 7
        let helper = line(from: P(north: 0, east: 0, t: 0), count: n, stepNorth: 1, dt: 1)
        let hirer = stay(at: P(north: 0, east: 0, t: 0), count: 3, dt: 1)
        let path = try temp(gpx([(nil, helper), ("hirer", hirer)]))
        let reader = try RoleReader(path: path, format: nil, options: .init(), defaultRole: .helper)
        var merged = MergedFixes([try FixStream(role: .helper, file: 0, source: .file(reader))])
        let out = try drain(&merged)
        #expect(out.count == n && out.allSatisfy { $0.1 == .helper })
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.0 < $1.0 })
    }

    @Test("a live stream tallies what the first pass would record, and is abandoned at another role's point")
    func live() throws {
        let helper = line(from: P(north: 0, east: 0, t: 0), count: 5, stepNorth: 10, dt: 1)
        let path = try temp(gpx([(nil, helper)]))
        var s = try FixStream(
            role: .helper, file: 0,
            source: .live(try RoleReader(path: path, format: nil, options: .init(), defaultRole: .helper), LiveTally()))
        while s.head != nil { try s.advance() }
        let live = try #require(s.live)
        #expect(live.tally.fixes == 5 && live.tally.untimed == 0 && !live.tally.named && !s.abandoned)

        let mixed = try temp(gpx([(nil, helper), ("hirer", helper)]))
        let reader = try RoleReader(path: mixed, format: nil, options: .init(), defaultRole: .helper)
        var merged = MergedFixes([try FixStream(role: .helper, file: 0, source: .live(reader, LiveTally()))])
        let out = try drain(&merged)
        #expect(out.count == 4 && merged.abandoned)  // the fifth is never taken: the next point is the hirer's
    }
}
