import Foundation
import TestSupport
import Testing
import TracePlatform

/// The documented bound (README, "Limits"): `tracekit info` (and `convert`) streams any input in
/// at most 64 MB peak RSS. Each test generates a trace of more than 200 MB on the fly, streams it
/// through a pipe to the built binary, run under `rss-probe` (as the hostile-input catalogue's
/// runs are: ``HostileRun``), which reports its exact peak RSS from `wait4`.
@Suite(
    "peak memory, end to end", .serialized,
    .disabled(if: sanitizer != nil, "a sanitizer's shadow memory and quarantine are not the program's memory"))
struct PeakMemoryTests {
    static let bound = 64 << 20
    static let size = 200 << 20

    /// A block of one hour of 1 Hz points (`point(i)` for i in 0..<3600) repeated until more than
    /// ``size`` bytes have been written, each copy moved on by one hour: the digits of the month,
    /// the day and the hour (written as "MM", "DD" and "HH" by `point`) are patched in place.
    /// Returns the number of points and of bytes written.
    static func stream(to fd: Int32, head: String, tail: String, point: (Int) -> String) -> (points: Int, bytes: Int) {
        var block = Array((0..<3600).map(point).joined().utf8)
        func places(_ c: Character) -> [Int] {
            block.indices.dropLast().filter { block[$0] == UInt8(ascii: c.unicodeScalars.first!) && block[$0 + 1] == block[$0] }
        }
        let months = places("M"), days = places("D"), hours = places("H")
        #expect(months.count == 3600 && days.count == 3600 && hours.count == 3600)
        func put(_ bytes: [UInt8]) -> Bool {
            // False when the child is gone; its status tells why.
            bytes.withUnsafeBytes { (try? Platform.writeAll(fd, $0)) != nil }
        }
        guard put(Array(head.utf8)) else { return (0, 0) }
        var written = 0, hour = 0
        while written <= size {
            // Months of 28 days: a valid date for any hour of the stream.
            let digits = [5 + hour / 24 / 28, 1 + hour / 24 % 28, hour % 24].map { Array(String(format: "%02d", $0).utf8) }
            block.withUnsafeMutableBufferPointer { b in
                for (k, places) in [months, days, hours].enumerated() {
                    for i in places { b[i] = digits[k][0]; b[i + 1] = digits[k][1] }
                }
            }
            guard put(block) else { return (hour * 3600, written) }
            written += block.count
            hour += 1
        }
        _ = put(Array(tail.utf8))
        return (hour * 3600, written)
    }

    /// Runs tracekit with `arguments` under `rss-probe`, its standard input fed by ``stream(to:head:tail:point:)``;
    /// returns its exit status, peak RSS, standard output and the points sent.
    static func run(_ arguments: [String], head: String, tail: String, point: @escaping (Int) -> String) throws
        -> (exited: Int32?, peak: Int, stdout: String, points: Int, bytes: Int)
    {
        Platform.ignore(.brokenPipe)  // a child that fails early must not kill the test
        let input = Child.pipe(), output = Child.pipe()
        let rssPath = scratchFolder.appendingPathComponent("peak-memory-\(UUID().uuidString).rss").path
        defer { try? Platform.remove(rssPath) }
        let child = try Child(
            HostileRun.probe.path, [rssPath, Run.binary.path] + arguments, stdin: input.read, stdout: output.write, stderr: output.write)
        try Platform.close(input.read)
        try Platform.close(output.write)
        let (points, bytes) = stream(to: input.write, head: head, tail: tail, point: point)
        try Platform.close(input.write)
        let r = child.wait()
        let text = Child.readAll(output.read)  // a few lines: the pipe holds them until now
        // ru_maxrss, KiB on Linux; no figure (the probe failed) counts as unbounded.
        let kilobytes = Int(HostileRun.text(rssPath).trimmingCharacters(in: .whitespacesAndNewlines))
        return (r.exited, kilobytes.map { $0 * 1024 } ?? .max, text, points, bytes)
    }

    @Test("info - on a GPX of more than 200 MB through a pipe: under 64 MB peak RSS")
    func gpx() throws {
        let r = try Self.run(
            ["info", "--input-format", "gpx", "-"],
            head: "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\"><trk><name>big</name><trkseg>\n",
            tail: "</trkseg></trk></gpx>\n"
        ) { i in
            "<trkpt lat=\"\(47 + Double(i) * 1e-5)\" lon=\"\(8 + Double(i % 7) * 1e-5)\"><ele>\(400 + i % 50).5</ele><time>2024-MM-DDTHH:\(String(format: "%02d:%02d", i / 60, i % 60))Z</time><hdop>1.2</hdop></trkpt>\n"
        }
        #expect(r.exited == 0, "\(r.stdout)")
        // Every point read; the minutes wrap each hour, a teleport: a new segment under the default.
        #expect(r.stdout.contains("tracks / segments / points  1 / ") && r.stdout.contains(" / \(r.points)\n"), "\(r.stdout)")
        #expect(r.bytes > Self.size && r.peak > 1 << 20 && r.peak < Self.bound, "\(r.bytes >> 20) MB in, peak RSS \(r.peak >> 20) MB")
    }

    @Test("info - on a CSV of more than 200 MB through a pipe: under 64 MB peak RSS")
    func csv() throws {
        // Rows of 440 bytes (a 380-byte note column the reader skips): a debug build reads CSV at
        // about 35,000 rows a second, so 200 MB of short rows would take minutes.
        let note = String(repeating: "n", count: 380)
        let r = try Self.run(["info", "--input-format", "csv", "-"], head: "lat,lon,time,accuracy,note\n", tail: "") { i in
            "\(47 + Double(i) * 1e-5),\(8 + Double(i % 7) * 1e-5),2024-MM-DDTHH:\(String(format: "%02d:%02d", i / 60, i % 60))Z,\(3 + i % 20),\(note)\n"
        }
        #expect(r.exited == 0, "\(r.stdout)")
        // Every point read; the minutes wrap each hour, a teleport: a new segment under the default.
        #expect(r.stdout.contains("tracks / segments / points  1 / ") && r.stdout.contains(" / \(r.points)\n"), "\(r.stdout)")
        #expect(r.bytes > Self.size && r.peak > 1 << 20 && r.peak < Self.bound, "\(r.bytes >> 20) MB in, peak RSS \(r.peak >> 20) MB")
    }
}
