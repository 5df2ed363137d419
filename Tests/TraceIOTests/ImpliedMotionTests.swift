import Foundation
import TestSupport
import Testing
import TraceGeodesy

@testable import TraceIO

/// A CSV trace of hand-placed fixes: each row a latitude, longitude, seconds after
/// 2024-05-01T10:00:00Z and optionally an accuracy and a role; the header is line 1, row `i` line
/// `i + 2`.
private typealias Row = (lat: Double, lon: Double, t: Double, acc: Double?, role: String?)

/// A row of ``motionCSV(_:)``.
private func row(_ lat: Double, _ t: Double, lon: Double = 8, acc: Double? = nil, role: String? = nil) -> Row {
    (lat: lat, lon: lon, t: t, acc: acc, role: role)
}

private func motionCSV(_ rows: [Row]) -> [UInt8] {
    func time(_ s: Double) -> String {
        let us = Int((s * 1_000_000).rounded())
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let whole = us / 1_000_000, frac = us % 1_000_000
        let f = frac == 0 ? "" : "." + String(1_000_000 + frac).dropFirst()
        return "2024-05-01T\(two(10 + whole / 3600)):\(two(whole / 60 % 60)):\(two(whole % 60))\(f)Z"
    }
    var text = "lat,lon,time,accuracy,role\n"
    for r in rows { text += "\(r.lat),\(r.lon),\(time(r.t)),\(r.acc.map { "\($0)" } ?? ""),\(r.role ?? "")\n" }
    return Array(text.utf8)
}

/// Fixes 1 s apart moving north at 11 m/s from 47° N 8° E, with `change` applied to each (index,
/// fix).
private func walk(_ n: Int, _ change: (Int, inout Row) -> Void = { _, _ in }) -> [Row] {
    (0..<n).map { i in
        var r = row(47 + Double(i) * 0.0001, Double(i))
        change(i, &r)
        return r
    }
}

/// A GPX track of `segments`, each a list of latitudes at 8° E, one point a second from
/// 2024-05-01T10:00:00Z: line 1 opens the first segment, each point is a line, and a line closes
/// one segment and opens the next.
private func motionGPX(_ segments: [[Double]]) -> [UInt8] {
    var text = #"<gpx version="1.1"><trk><trkseg>"#, t = 0
    for (k, segment) in segments.enumerated() {
        if k > 0 { text += "\n</trkseg><trkseg>" }
        for lat in segment {
            text += "\n" + #"<trkpt lat="\#(lat)" lon="8"><time>2024-05-01T10:00:\#(t < 10 ? "0" : "")\#(t)Z</time></trkpt>"#
            t += 1
        }
    }
    return Array((text + "\n</trkseg></trk></gpx>\n").utf8)
}

/// Reads `bytes` as ``openTrace(_:format:options:)`` hands the reader out (under the motion stage
/// for `skip`).
private func read(_ bytes: [UInt8], _ options: ReadOptions = ReadOptions()) throws(TraceReadError) -> ReadResult {
    let reader = staged(CSVReader(bytes: bytes, name: "motion.csv", options: options))
    return try readTrace(reader)
}

private func failure(_ bytes: [UInt8], _ options: ReadOptions = ReadOptions(policy: .fail)) -> TraceReadError? {
    readError { () throws(TraceReadError) in try read(bytes, options) }
}

@Suite("Implied motion: speed spikes and teleports")
struct ImpliedMotionTests {
    @Test("a fix that jumps away and back is a speed spike: kept and counted under report, dropped under skip, the error under fail")
    func spike() throws {
        // Row 5 (line 7) is 1.11 km north of its neighbours, 1 s from each.
        let bytes = motionCSV(walk(10) { i, r in if i == 5 { r.lat += 0.01 } })
        let report = try read(bytes, ReadOptions(policy: .report))
        #expect(report.points.count == 10)
        #expect(report.diagnostics.counts == [.speedSpike: 1])
        #expect(
            report.diagnostics.examples.map(\.description) == [
                "line 7: speed spike: 1.12 km in 1 s and 1.1 km back in 1 s, beyond the 100 m allowed at 100 m/s"
            ])
        let skip = try read(bytes, ReadOptions(policy: .skip))
        #expect(skip.points.count == 9 && !skip.points.contains { $0.coordinate.latitude > 47.005 })
        #expect(skip.shape == "T S P P P P P P P P P")
        #expect(skip.diagnostics.counts == [.speedSpike: 1] && skip.diagnostics.pointsDropped == 1)
        // The default, filter, drops the spike as skip does (the file has no other problem).
        let filter = try read(bytes)
        #expect(ReadOptions().policy == .filter)
        #expect(filter.points == skip.points && filter.shape == skip.shape && filter.diagnostics == skip.diagnostics)
        let e = failure(bytes)
        #expect(e?.description == "motion.csv:7: speed spike: 1.12 km in 1 s and 1.1 km back in 1 s, beyond the 100 m allowed at 100 m/s")
    }

    @Test("a jump that does not come back is a teleport: kept; under skip a new segment starts at it and every fix after it is kept")
    func teleport() throws {
        // From row 4 (line 6) on, the track is 5.56 km further north.
        let bytes = motionCSV(walk(10) { i, r in if i >= 4 { r.lat += 0.05 } })
        let report = try read(bytes, ReadOptions(policy: .report))
        #expect(report.points.count == 10 && report.shape == "T S P P P P P P P P P P")
        #expect(report.diagnostics.counts == [.teleport: 1])
        #expect(report.diagnostics.examples.map(\.description) == ["line 6: teleport: 5.57 km in 1 s, beyond the 100 m allowed at 100 m/s"])
        let skip = try read(bytes, ReadOptions(policy: .skip))
        #expect(skip.points == report.points)
        #expect(skip.shape == "T S P P P P S P P P P P P")
        #expect(skip.diagnostics.counts == [.teleport: 1] && skip.diagnostics.pointsDropped == 0)
        let filter = try read(bytes)  // the default: a new segment at the teleport, as skip
        #expect(filter.points == report.points && filter.shape == skip.shape && filter.diagnostics == skip.diagnostics)
        #expect(failure(bytes)?.description == "motion.csv:6: teleport: 5.57 km in 1 s, beyond the 100 m allowed at 100 m/s")
        // Two fixes away that do not fit each other either: both are teleports.
        let twice = motionCSV(walk(10) { i, r in if i >= 4 { r.lat += 0.05 * Double(min(i - 3, 2)) } })
        #expect(try read(twice).diagnostics.counts == [.teleport: 2])
        // The last fix of the file, away: a teleport (nothing comes back).
        let last = motionCSV(walk(6) { i, r in if i == 5 { r.lat += 0.05 } })
        #expect(try read(last).diagnostics.counts == [.teleport: 1])
        #expect(failure(last)?.description == "motion.csv:7: teleport: 5.57 km in 1 s, beyond the 100 m allowed at 100 m/s")
    }

    @Test("two fixes in one second a few metres apart fit: a time step under 1 s (none, or under a millisecond) counts as 1 s")
    func shortSteps() throws {
        // A 1 Hz logger's second fix in the same second, 8 m on; one 0.4 ms after, 9 m on.
        let bytes = motionCSV(
            walk(8) { i, r in
                if i == 3 { r.t = 2 }
                if i == 5 { r.t = 4.0004 }
            })
        let r = try read(bytes)
        #expect(r.diagnostics.counts == [.duplicateTime: 1])
        // 90 m in 0 s fits (100 m/s × 1 s); 120 m does not.
        #expect(
            try read(motionCSV(walk(4) { i, r in if i == 2 { r.t = 1; r.lat = 47.0001 + 0.0008 } })).diagnostics.counts[.teleport] == nil)
        #expect(
            try read(motionCSV(walk(4) { i, r in if i == 2 { r.t = 1; r.lat = 47.0001 + 0.00108 } })).diagnostics.counts[.teleport] == 1)
    }

    @Test("fixes stamped within one second cannot add up: each is also compared with the window's first fix")
    func window() throws {
        // 300 fixes 10 m apart, all stamped in the same 5 seconds (the seconds-for-milliseconds
        // epoch bug): each step fits its neighbour, but they cover 3 km.
        let bytes = motionCSV((0..<300).map { i in row(47 + Double(i) * 0.00009, Double(i / 60)) })
        let r = try read(bytes)
        let teleports: Int = r.diagnostics.counts[ProblemKind.teleport] ?? 0
        let found = teleports + (r.diagnostics.counts[ProblemKind.speedSpike] ?? 0)
        #expect(found >= 25, "\(r.diagnostics.counts)")  // at least one per 100 m (the limit × 1 s) beyond the first
        // The same fixes 1 s apart are an 11 m/s walk.
        let spaced = motionCSV((0..<300).map { i in row(47 + Double(i) * 0.00009, Double(i)) })
        #expect(try read(spaced).diagnostics.isClean)
    }

    @Test("a jump within the fixes' reported accuracies is not motion")
    func accuracy() throws {
        // 333 m away and back in 1 s: with accuracies of 150 m it fits (100 + 150 + 150 m).
        let loose = motionCSV(
            walk(8) { i, r in
                r.acc = 150
                if i == 4 { r.lat += 0.003 }
            })
        #expect(try read(loose).diagnostics.isClean)
        let tight = motionCSV(
            walk(8) { i, r in
                r.acc = 50
                if i == 4 { r.lat += 0.003 }
            })
        #expect(try read(tight).diagnostics.counts == [.speedSpike: 1])
        // An accuracy of 0 is none (ReportedAccuracy).
        let zero = motionCSV(
            walk(8) { i, r in
                r.acc = 0
                if i == 4 { r.lat += 0.003 }
            })
        #expect(try read(zero).diagnostics.counts == [.speedSpike: 1])
    }

    @Test("the check keys on the role label: interleaved helper and hirer rows are each compared with their own")
    func interleavedRoles() throws {
        // A helper and a hirer 2.2 km apart, both walking, their rows interleaved in one segment
        // (the hirer's half a second after the helper's).
        var rows: [Row] = []
        for i in 0..<20 {
            rows.append(row(47 + Double(i) * 0.0001, Double(i), role: "helper"))
            rows.append(row(47.02 - Double(i) * 0.0001, Double(i) + 0.5, role: "hirer"))
        }
        let r = try read(motionCSV(rows))
        #expect(r.points.count == 40 && r.diagnostics.isClean)
        // Without the role column the same rows jump 2 km every row: each hirer row is a spike
        // (away and back to the helper's), the last a teleport.
        let unlabelled = motionCSV(rows.map { row($0.lat, $0.t) })
        #expect(try read(unlabelled).diagnostics.counts == [.speedSpike: 19, .teleport: 1])
        // A helper spike is found across the hirer row between it and the helper's next.
        var spiked = rows
        spiked[10].lat += 0.01  // the helper's sixth fix, line 12
        let s = try read(motionCSV(spiked))
        #expect(s.diagnostics.counts == [.speedSpike: 1] && s.diagnostics.examples.first?.line == 12)
        let skipped = try read(motionCSV(spiked), ReadOptions(policy: .skip))
        #expect(skipped.points.count == 39 && skipped.points.map(\.role) == (rows.indices.filter { $0 != 10 }.map { rows[$0].role }))
    }

    @Test("the check keys on the segment: a jump between segments is none; a fix pending when its segment ends is a teleport")
    func segments() throws {
        // 111 km between the first segments; 11 km from line 6 to line 7, the segment's last.
        let gpx = motionGPX([[47, 47.0001], [48, 48.0001, 48.1], [48.1001]])
        let r = try readTrace(GPXReader(bytes: gpx))
        #expect(r.diagnostics.counts == [.teleport: 1] && r.diagnostics.examples.first?.line == 7)
        let skip = try readTrace(staged(GPXReader(bytes: gpx, options: ReadOptions(policy: .skip))))
        #expect(skip.shape == "T S P P S P P S P S P")
    }

    @Test("a pending fix waits for its own next fix through at most 64 other track points, then is a teleport")
    func lookahead() throws {
        func rows(hirerRows: Int) -> [UInt8] {
            var rows: [Row] = []
            for i in 0..<4 { rows.append(row(47 + Double(i) * 0.0001, Double(i), role: "helper")) }
            rows.append(row(47.05, 4, role: "helper"))  // away
            for i in 0..<hirerRows { rows.append(row(46, 4 + Double(i + 1) * 0.01, role: "hirer")) }
            rows.append(row(47.0005, 4.9, role: "helper"))  // back
            return motionCSV(rows)
        }
        #expect(try read(rows(hirerRows: 63)).diagnostics.counts == [.speedSpike: 1])
        // After 64 the fix is a teleport, and the helper's next, 5.5 km from it in 0.9 s, one too.
        #expect(try read(rows(hirerRows: 64)).diagnostics.counts == [.teleport: 2])
        // Under skip the stage held the 63 rows behind the pending fix and hands them all on.
        let skip = try read(rows(hirerRows: 63), ReadOptions(policy: .skip))
        #expect(skip.points.count == 4 + 63 + 1 && skip.diagnostics.pointsDropped == 1)
    }

    @Test("the limit is ReadOptions.maximumSpeed (100 m/s unless set); nil turns the check off")
    func limit() throws {
        // 30 m/s for one second and back.
        let bytes = motionCSV(walk(8) { i, r in if i == 4 { r.lat += 0.0003 } })
        #expect(try read(bytes).diagnostics.isClean)
        #expect(try read(bytes, ReadOptions(maximumSpeed: 20)).diagnostics.counts == [.speedSpike: 1])
        let far = motionCSV(walk(8) { i, r in if i == 4 { r.lat += 1 } })
        #expect(try read(far, ReadOptions(maximumSpeed: nil)).diagnostics.isClean)
        #expect(try read(far, ReadOptions(policy: .skip, maximumSpeed: nil)).points.count == 8)
        #expect(ReadOptions().maximumSpeed == ImpliedMotion.defaultMaximumSpeed && ImpliedMotion.defaultMaximumSpeed == 100)
    }

    @Test("points without a time are not checked; a route point or waypoint ends a pending fix's wait")
    func untimed() throws {
        var text = "lat,lon\n"
        for i in 0..<6 { text += "\(47 + (i == 3 ? 1 : 0.0001 * Double(i))),8\n" }
        #expect(try readCSV(text).diagnostics.counts == [.missingTime: 6])
        let gpx = """
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="47" lon="8"><time>2024-05-01T10:00:00Z</time></trkpt>
            <trkpt lat="47.0001" lon="8"><time>2024-05-01T10:00:01Z</time></trkpt>
            <trkpt lat="47.1" lon="8"><time>2024-05-01T10:00:02Z</time></trkpt>
            <wpt lat="1" lon="1"/>
            <trkpt lat="47.0003" lon="8"><time>2024-05-01T10:00:03Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        // Without the waypoint the fix at line 4 would be a spike; the waypoint makes it a
        // teleport, and the fix after it, 11 km from it, one too (the file ends).
        let r = try readTrace(GPXReader(bytes: Array(gpx.utf8)))
        #expect(r.diagnostics.counts == [.teleport: 2])
    }

    @Test("every path of a reader finds the same: GPX fused, plain and general points; CSV fused and general rows")
    func paths() throws {
        var gpx = #"<gpx version="1.1"><trk><trkseg>"# + "\n"
        for i in 0..<400 {
            let lat = 47 + Double(i) * 0.0001 + (i % 37 == 5 ? 0.02 : 0) + (i >= 200 ? 0.3 : 0)
            let s = i % 60, m = i / 60
            gpx +=
                #"  <trkpt lat="\#(lat)" lon="8.5"><time>2024-05-01T10:\#(m < 10 ? "0" : "")\#(m):\#(s < 10 ? "0" : "")\#(s)Z</time></trkpt>"#
                + "\n"
        }
        gpx += "</trkseg></trk></gpx>\n"
        let bytes = Array(gpx.utf8)
        let all = try readTrace(GPXReader(bytes: bytes))
        #expect(all.diagnostics.counts == [.speedSpike: 11, .teleport: 1], "\(all.diagnostics.counts)")
        for paths in [ReadPaths.plain, []] {
            let other = try readTrace(GPXReader(bytes: bytes, paths: paths))
            #expect(other.items == all.items && other.diagnostics == all.diagnostics)
        }
        var csv = "lat,lon,time\n"
        for i in 0..<400 {
            let lat = 47 + Double(i) * 0.0001 + (i % 37 == 5 ? 0.02 : 0) + (i >= 200 ? 0.3 : 0)
            csv += "\(lat),8.5,\(1_714_557_600 + i)\n"
        }
        let rows = Array(csv.utf8)
        let fused = try readTrace(CSVReader(bytes: rows))
        #expect(fused.diagnostics.counts == [.speedSpike: 11, .teleport: 1])
        let general = try readTrace(CSVReader(bytes: rows, paths: []))
        #expect(general.items == fused.items && general.diagnostics == fused.diagnostics)
        // And under skip, in batches of every size, through the stage.
        for policy in ProblemPolicy.allCases {
            FixBatchTests.expectAgree("GPX, \(policy)") { MotionStage(GPXReader(bytes: bytes, options: ReadOptions(policy: policy))) }
            FixBatchTests.expectAgree("CSV, \(policy)") { MotionStage(CSVReader(bytes: rows, options: ReadOptions(policy: policy))) }
        }
    }

    @Test("under fail the first spike or teleport stops the read with one line naming the file, the line and the jump")
    func fail() throws {
        let gpx = motionGPX([[47, 47.0001, 47.01, 47.0003]])
        let e = readError { () throws(TraceReadError) in
            try readTrace(GPXReader(bytes: gpx, name: "ride.gpx", options: ReadOptions(policy: .fail)))
        }
        #expect(e?.description == "ride.gpx:4: speed spike: 1.1 km in 1 s and 1.08 km back in 1 s, beyond the 100 m allowed at 100 m/s")
        #expect(e?.category == .data && e?.description.contains("\n") == false)
    }
}

/// The motion stage's reduced paths (``MotionStage/nextLean(text:)``, GPX's
/// ``MotionStage/nextFusedLean()``), which the replay reads, against its items reduced.
@Suite("Implied motion: the stage's reduced paths")
struct MotionStageLeanTests {
    /// Every item's reduction, with its text, read through `next`.
    static func reduced(_ next: () throws -> (LeanItem, String?)) throws -> [String] {
        var out: [String] = []
        while true {
            let (item, text) = try next()
            if case .end = item.kind { return out }
            out.append(
                "\(item.kind) \(item.hasTime ? item.time : -1) \(item.coordinate.latitude) \(item.coordinate.longitude) \(item.horizontalAccuracy) \(item.hasRole ? text ?? "?" : "-")"
            )
        }
    }

    @Test(
        "spikes dropped and teleports split on the reduced paths as on next(): CSV with roles, GPX fused, under filter and report",
        arguments: [ProblemPolicy.filter, .report])
    func samePoints(policy: ProblemPolicy) throws {
        // A spike at row 5 and a teleport from row 12 on, in a role column (the keys).
        let csv = motionCSV(
            walk(20) { i, r in
                if i == 5 { r.lat += 0.01 }
                if i >= 12 { r.lat += 0.05 }
                r.role = i % 2 == 0 ? "helper" : nil
            })
        let options = ReadOptions(policy: policy)
        var items = MotionStage(CSVReader(bytes: csv, name: "m.csv", options: options))
        let expected = try Self.reduced {
            var text: String?
            let item = LeanItem(try items.next(), text: &text)
            return (item, text)
        }
        var lean = MotionStage(CSVReader(bytes: csv, name: "m.csv", options: options))
        let got = try Self.reduced {
            var text: String?
            let item = try lean.nextLean(text: &text)
            return (item, text)
        }
        #expect(got == expected)
        #expect(lean.diagnostics == items.diagnostics)
        let points = expected.filter { $0.hasPrefix("trackPoint") }.count
        #expect(points == (policy == .filter ? 19 : 20))  // the spike dropped under filter

        // GPX of the fused path's shape: a spike at point 4, a teleport from point 9 on.
        let lats: [Double] = (0..<16).map { (i: Int) -> Double in
            let spike: Double = i == 4 ? 0.01 : 0
            let jump: Double = i >= 9 ? 0.05 : 0
            return 47 + Double(i) * 0.0001 + spike + jump
        }
        let gpx = motionGPX([lats])
        var gItems = MotionStage(GPXReader(bytes: gpx, name: "m.gpx", options: options))
        let gExpected = try Self.reduced {
            var text: String?
            let item = LeanItem(try gItems.next(), text: &text)
            return (item, text)
        }
        var gLean = MotionStage(GPXReader(bytes: gpx, name: "m.gpx", options: options))
        var fused = 0
        let gGot = try Self.reduced {
            if let item = try gLean.nextFusedLean() {
                fused += 1
                return (item, nil)
            }
            var text: String?
            let item = try gLean.nextLean(text: &text)
            return (item, text)
        }
        #expect(gGot == gExpected && fused > 0)
        #expect(gGot.filter { $0.hasPrefix("trackPoint") }.count == (policy == .filter ? 15 : 16))
    }
}
