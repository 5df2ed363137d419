import Foundation
import TestSupport
import Testing
import TraceGeodesy
import TraceIO
import TraceSimulation
import TraceDomain

@Suite("tracekit smooth, end to end")
struct SmoothCommandTests {
    /// A simulated 10-minute walk at 1 Hz observed with 5 m of white noise per axis (accuracy
    /// 7.07 m, iOS) and one 100 m spike, as CSV; returns the truth in the origin's plane.
    static func walk(in dir: URL) throws -> (path: String, truth: SimulatedTrack, spike: Int) {
        var generator = TrajectoryGenerator(profile: .walk, origin: Coordinate(uncheckedLatitude: 51.5, longitude: -0.12), seed: 3)
        let truth = generator.generate(duration: 599)
        var noise = WhiteNoise(sigma: 5, seed: 4)
        var observed = truth.observe(noise: &noise)
        let spike = 300
        observed.east[spike] += 100
        let frame = LocalFrame(origin: truth.origin)
        var csv = "lat,lon,time,accuracy\n"
        for i in 0..<truth.count {
            let c = frame.coordinate(at: EastNorth(east: observed.east[i], north: observed.north[i]))!
            csv += "\(c.latitude),\(c.longitude),\(Timestamp(seconds: 1_700_000_000 + truth.times[i]).iso8601),\(5 * 2.0.squareRoot())\n"
        }
        let path = dir.appendingPathComponent("walk.csv").path
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, truth, spike)
    }

    /// RMS error in metres of a written trace's points against the truth, and the error at `i`.
    static func errors(_ path: String, _ truth: SimulatedTrack, at i: Int) throws -> (rms: Double, at: Double) {
        var reader = try openTrace(path)
        let frame = LocalFrame(origin: truth.origin)
        var k = 0, sum = 0.0, at = 0.0
        while let item = try reader.next() {
            guard case .trackPoint(let f) = item else { continue }
            let p = frame.eastNorth(of: f.coordinate)
            let e2 = (p.east - truth.east[k]) * (p.east - truth.east[k]) + (p.north - truth.north[k]) * (p.north - truth.north[k])
            if k == i { at = e2.squareRoot() }
            sum += e2
            k += 1
        }
        #expect(k == truth.count)
        return ((sum / Double(k)).squareRoot(), at)
    }

    @Test("--rts: fewer metres of error than the fixes, the spike rejected and replaced, a one-line summary")
    func smoothRTS() throws {
        let dir = scratchFolder.appendingPathComponent("smooth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let (input, truth, spike) = try Self.walk(in: dir)
        let out = dir.appendingPathComponent("out.gpx").path
        let r = try Run(["smooth", "--rts", "--mode", "walk", "--tier", "best", input, out])
        #expect(r.status == 0 && r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(
            lines.first?.hasPrefix(
                "tracekit: \(input): smoothed 600 points (RTS smoother; walk, best, ios accuracy, gate 13.8): 1 rejected, 0 restarts, mean correction "
            ) == true, "\(r.stderr)")
        let raw = try Self.errors(input, truth, at: spike), smoothed = try Self.errors(out, truth, at: spike)
        #expect(raw.at > 90 && smoothed.at < 10, "spike: \(raw.at) m in, \(smoothed.at) m out")
        #expect(smoothed.rms < 0.6 * raw.rms, "RMS error \(smoothed.rms) m against \(raw.rms) m")
        // The forward filter: online estimates, smaller gain; a tight gate rejects more.
        let forward = try Run(["smooth", "--gate", "6", input, dir.appendingPathComponent("f.csv").path])
        #expect(forward.status == 0 && forward.stderr.contains("(forward filter; walk, best, ios accuracy, gate 6)"))
        let filtered = try Self.errors(dir.appendingPathComponent("f.csv").path, truth, at: spike)
        #expect(filtered.rms < raw.rms && filtered.rms > smoothed.rms)
        // Standard output, and the help.
        let piped = try Run(["smooth", "--to", "geojson", input, "-"])
        #expect(piped.status == 0 && piped.stdout.hasPrefix("{\"type\":\"FeatureCollection\""))
        let help = try Run(["smooth", "--help"])
        #expect(help.stdout.contains("USAGE: tracekit smooth [--mode MODE] [--tier TIER] [--convention PLATFORM] [--rts] [--gate CHI2]"))
        #expect(try Run(["--help"]).stdout.contains("  smooth "))
    }

    @Test(
        "far outliers ((0, 0) and 4,000 km off) in a 40 km drive: rejected, the estimates unharmed; accuracy 0 read as none; --gate inf runs"
    )
    func farOutliers() throws {
        let dir = scratchFolder.appendingPathComponent("smooth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var generator = TrajectoryGenerator(profile: .drive, origin: Coordinate(uncheckedLatitude: 47.37, longitude: 8.54), seed: 11)
        let truth = generator.generate(duration: 2999)
        var noise = WhiteNoise(sigma: 5, seed: 12)
        let observed = truth.observe(noise: &noise)
        let frame = LocalFrame(origin: truth.origin)
        let spikes = [1000: "0,0", 2000: "20,40"]
        var csv = "lat,lon,time,accuracy\n"
        for i in 0..<truth.count {
            let c = frame.coordinate(at: EastNorth(east: observed.east[i], north: observed.north[i]))!
            // Every tenth accuracy is 0: missing, as a CSV export writes it.
            let accuracy = i % 10 == 0 ? "0" : "\(5 * 2.0.squareRoot())"
            csv +=
                "\(spikes[i] ?? "\(c.latitude),\(c.longitude)"),\(Timestamp(seconds: 1_700_000_000 + truth.times[i]).iso8601),\(accuracy)\n"
        }
        let input = dir.appendingPathComponent("drive.csv").path
        try csv.write(toFile: input, atomically: true, encoding: .utf8)
        for options in [["--rts"], []] {
            let out = dir.appendingPathComponent("out.csv").path
            // Read raw (--on-problem report): under the default, filter, the reader drops the
            // spikes before the filter could reject them.
            let r = try Run(["smooth", "--mode", "drive", "--tier", "best", "--on-problem", "report"] + options + [input, out])
            #expect(r.status == 0, "\(r.stderr)")
            // The two spikes and one real fix of a turn (χ² at 0.999 over 3,000 fixes).
            #expect(r.stderr.contains("): 3 rejected, 0 restarts, mean correction "), "\(r.stderr)")
            // Every point is written near the truth (σ 5 m per axis; measured: largest 10.6 m with
            // --rts, 15.4 m forward), the spikes at their estimates.
            var reader = try openTrace(out, options: ReadOptions(policy: .report))
            var k = 0, worst = 0.0, atSpikes = 0.0
            while let item = try reader.next() {
                guard case .trackPoint(let f) = item else { continue }
                let p = frame.eastNorth(of: f.coordinate)
                let e = ((p.east - truth.east[k]) * (p.east - truth.east[k]) + (p.north - truth.north[k]) * (p.north - truth.north[k]))
                    .squareRoot()
                worst = max(worst, e)
                if spikes[k] != nil { atSpikes = max(atSpikes, e) }
                k += 1
            }
            #expect(k == truth.count && worst < 20 && atSpikes < 10, "\(options): largest error \(worst) m, \(atSpikes) m at the spikes")
        }
        // No gating: the spikes are taken in, and the command still completes.
        let open = try Run(["smooth", "--gate", "inf", "--on-problem", "report", input, dir.appendingPathComponent("inf.csv").path])
        #expect(open.status == 0 && open.stderr.contains("gate inf): 0 rejected, 0 restarts"), "\(open.stderr)")
    }

    @Test(
        "usage errors: one line, status 64",
        arguments: [
            (["--gate", "x"], "tracekit: '--gate' takes a positive χ² threshold or 'inf', not 'x'"),
            (["--gate", "-1"], "tracekit: '--gate' takes a positive χ² threshold or 'inf', not '-1'"),
            (["--gate", "nan"], "tracekit: '--gate' takes a positive χ² threshold or 'inf', not 'nan'"),
            (
                ["--tier", "off"],
                "tracekit: 'off' is not a valid value for '--tier'; choose one of bestForNavigation, best, nearestTenMeters, hundredMeters, kilometer, threeKilometers"
            ),
            (["--mode", "fly"], "tracekit: 'fly' is not a valid value for '--mode'; choose one of walk, bike, drive"),
        ])
    func usage(options: [String], message: String) throws {
        let r = try Run(["smooth"] + options + ["Traces/georust-garmin-activity.gpx", "/tmp/never-written.gpx"])
        #expect(r.status == 64)
        #expect(r.stderr == message + "\nSee 'tracekit --help'.\n")
    }

    @Test("points without a time are written unchanged and counted; a missing input is 66")
    func untimed() throws {
        let dir = scratchFolder.appendingPathComponent("smooth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let input = dir.appendingPathComponent("in.gpx").path
        try """
        <gpx><trk><trkseg>
        <trkpt lat="1" lon="1"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="1.5" lon="1.5"></trkpt>
        <trkpt lat="1.00001" lon="1"><time>2020-01-01T00:00:01Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try Run(["smooth", "--rts", input, "-", "--to", "csv"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("tracekit: \(input): 1 points without a time were written unchanged\n"))
        #expect(r.stdout.contains(",1.5,1.5,"))
        #expect(try Run(["smooth", "/nonexistent.gpx", "x.gpx"]).status == 66)
    }
}
