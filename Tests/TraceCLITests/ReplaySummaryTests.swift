import Foundation
import TestSupport
import Testing
import TraceEnergy
import TraceIO
import TraceDomain

@testable import TraceCLI

/// What `replay` says first and how it says it: the summary block, the legend, the reference
/// battery, the date rule for times of day, and expected absences said as such.
@Suite("tracekit replay: the summary, the date rule and expected absences")
struct ReplaySummaryTests {
    static let ride = ["replay", "--network", "ideal", "--viewer", "last", "--scenario", "Traces/trips/ride/ride.scenario.json"]

    func tempDir() throws -> URL {
        let dir = scratchFolder.appendingPathComponent("replay-summary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func json(_ r: Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    /// 2024-05-01T00:00:00Z plus `seconds`.
    func may1(_ seconds: Int64) -> Timestamp { Timestamp(nanoseconds: (1_714_521_600 + seconds) * 1_000_000_000) }

    @Test("the ride's summary comes first: trip, time per state, updates sent, battery in mAh and % of 3,500 mAh, the worst view")
    func rideSummary() throws {
        let r = try Run(Self.ride)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        // Hand checks: the helper's 754.1 J / 13.86 J per mAh = 54.41 mAh = 1.55 % of 3,500 mAh (one
        // decimal from 1 %); the hirer's 747.5 J = 53.93 mAh = 1.54 %. The worst p95s are the table's
        // largest: the helper seen in En Route (24.3 m), the hirer seen in En Route (230.0 s).
        let expected = """
            Replay summary
              trip        Traces/trips/ride/hirer.gpx (hirer), Traces/trips/ride/helper.gpx (helper); ride; 2024-05-01 08:01:37 … 08:21:09 UTC (19.5 min)
              data        clean: no problem in the traces
              states      Accepted 56 s, En Route 8.3 min, At Pickup 2.6 min, In Task 6.5 min, Awaiting Payment 67 s
              sent        helper 148 updates, hirer 16 updates
              battery     helper 54.4 mAh (20.7–43.9 mAh on 6 device profiles), 1.6 % of a 3,500 mAh battery (assumed); hirer 53.9 mAh (20.5–43.6 mAh on 6 device profiles), 1.5 % of a 3,500 mAh battery (assumed)
              worst view  the hirer saw the helper 24.3 m off (p95) in En Route; staleness p95 230.0 s (the helper saw the hirer, En Route)

            Replay: Traces/trips/ride/hirer.gpx (hirer 517 fixes); Traces/trips/ride/helper.gpx (helper 1174 fixes)

            """
        #expect(r.stdout.hasPrefix(expected), "\(r.stdout.prefix(900))")
        // The column headers name the figure and its unit; a legend line under each table.
        #expect(
            r.stdout.contains(
                "Raw fixes  Delivered  Sent  → hirer  Display error m mean/p95/max  Staleness s p95/max  Distance km  Energy J"))
        let legend = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Raw fixes: in the trace · Delivered: to the app") }
        #expect(legend.count == 2)
        #expect(legend.first?.contains("→ hirer: forwarded to the hirer") == true)
        #expect(r.stdout.contains("  helper: 754.1 J = 54.41 mAh, 1.6 % of a 3,500 mAh battery (assumed), 167.04 mAh/h;"))

        let md = try Run(Self.ride + ["--format", "markdown"])
        #expect(
            md.stdout.contains(
                "\n\n- **Trip:** Traces/trips/ride/hirer.gpx (hirer), Traces/trips/ride/helper.gpx (helper); ride; 2024-05-01 08:01:37 … 08:21:09 UTC (19.5 min)\n- **Data:** clean: no problem in the traces\n- **States:** Accepted 56 s"
            ))
        #expect(md.stdout.contains("- **Worst view:** the hirer saw the helper 24.3 m off (p95) in En Route;"))
        #expect(md.stdout.contains("Battery, as % of a 3,500 mAh battery (assumed): helper 754.1 J (54.41 mAh, 1.6 %), hirer 747.5 J (53.93 mAh, 1.5 %)."))
        #expect(!md.stdout.contains("Raw fixes: in the trace"), "the legend is the terminal table's")
    }

    @Test("the JSON gives each phone's reference battery and percentage: mAh / 3,500 × 100")
    func percentInJSON() throws {
        let doc = try json(try Run(Self.ride + ["--format", "json"]))
        let energy = try #require(doc["energy"] as? [[String: Any]])
        #expect(energy.count == 2)
        for phone in energy {
            let e = try #require(phone["estimate"] as? [String: Any])
            let mAh = try #require(e["milliampHours"] as? Double)
            #expect(e["referenceBatteryMilliampHours"] as? Double == 3500)
            let percent = try #require(e["percentOfReferenceBattery"] as? Double)
            #expect(abs(percent - mAh / 3500 * 100) < 1e-12)
            #expect((e["assumed"] as? [String])?.contains("referenceBatteryMilliampHours") == true)
        }
    }

    @Test("a profile file's reference battery replaces the assumed one in every report")
    func profileBattery() throws {
        let dir = try tempDir()
        let profile = dir.appendingPathComponent("big.json").path
        try #"{"format": "tracekit-energy-profile", "version": 1, "referenceBatteryMilliampHours": 5000}"#.write(
            toFile: profile, atomically: true, encoding: .utf8)
        let r = try Run(Self.ride + ["--energy-profile", profile])
        #expect(r.status == 0, "\(r.stderr)")
        // 54.41 mAh / 5,000 mAh = 1.09 %; 53.93 / 5,000 = 1.08 %: one decimal, 1.1 %.
        #expect(r.stdout.contains("  battery     helper 54.4 mAh (20.7–43.9 mAh on 6 device profiles), 1.1 % of a 5,000 mAh battery; hirer 53.9 mAh (20.5–43.6 mAh on 6 device profiles), 1.1 % of a 5,000 mAh battery\n"))
        let bad = dir.appendingPathComponent("zero.json").path
        try #"{"format": "tracekit-energy-profile", "version": 1, "referenceBatteryMilliampHours": -1}"#.write(
            toFile: bad, atomically: true, encoding: .utf8)
        let refused = try Run(Self.ride + ["--energy-profile", bad])
        #expect(refused.status != 0 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("\(bad):1:86: referenceBatteryMilliampHours: must be greater than 0 and at most 100000 mAh, got -1"))
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }

    @Test("percentages: one decimal from 1 %, two below; thousands grouped")
    func numberWords() {
        #expect(ReplaySummary.percent(1.554) == "1.6 %")
        #expect(ReplaySummary.percent(0.4257) == "0.43 %")
        #expect(ReplaySummary.percent(12.04) == "12.0 %")
        #expect(ReplaySummary.grouped(3500) == "3,500")
        #expect(ReplaySummary.grouped(100_000) == "100,000")
        #expect(ReplaySummary.grouped(999) == "999")
        #expect(ReplaySummary.grouped(1_234_567.4) == "1,234,567")
        // The battery's name keeps its decimals, so it agrees with the percentages computed from it.
        var profile = EnergyProfile.lte
        #expect(ReplaySummary.battery(profile) == "a 3,500 mAh battery (assumed)")
        profile.referenceBatteryMilliampHours = 2999.5
        profile.assumed.remove(.referenceBattery)
        #expect(ReplaySummary.battery(profile) == "a 2,999.5 mAh battery")
        profile.referenceBatteryMilliampHours = 0.25
        #expect(ReplaySummary.battery(profile) == "a 0.25 mAh battery")
    }

    @Test("the date rule: times of day carry their date only when the trip's first and last times are on different UTC days")
    func dateRule() {
        let sameDay = ReportClock(start: may1(8 * 3600 + 97), end: may1(8 * 3600 + 1269))
        #expect(!sameDay.dated)
        #expect(sameDay.text(may1(8 * 3600 + 97)) == "08:01:37")
        #expect(sameDay.span(may1(8 * 3600 + 97), may1(8 * 3600 + 1269)) == "2024-05-01 08:01:37 … 08:21:09 UTC")
        // 23:58:10 to 00:03:11 the next day: every time dated.
        let start = may1(86_290), end = may1(86_400 + 191)
        let crossing = ReportClock(start: start, end: end)
        #expect(crossing.dated)
        #expect(crossing.text(start) == "2024-05-01 23:58:10")
        #expect(crossing.text(end) == "2024-05-02 00:03:11")
        #expect(crossing.span(start, end) == "2024-05-01 23:58:10 … 2024-05-02 00:03:11 UTC")
        // The day's bounds: ending at 00:00:00 the next day crosses midnight; a whole day from
        // 00:00:00 to 23:59:59 does not.
        #expect(ReportClock(start: may1(86_399), end: may1(86_400)).dated)
        #expect(!ReportClock(start: may1(0), end: may1(86_399)).dated)
        // Before 1970 the days floor: 1969-12-31T23:59:59Z and 1970-01-01T00:00:00Z are two days.
        #expect(ReportClock.day(Timestamp(nanoseconds: -1_000_000_000)) == -1)
        #expect(ReportClock(start: Timestamp(nanoseconds: -1_000_000_000), end: Timestamp(nanoseconds: 0)).dated)
        // Fractions are cut, not rounded.
        #expect(ReportClock.timeOfDay(Timestamp(nanoseconds: may1(59).nanoseconds + 999_000_000)) == "00:00:59")
    }

    @Test("a trip across midnight UTC, end to end: the timeline, the summary and the Markdown carry dates")
    func acrossMidnight() throws {
        let dir = try tempDir()
        // 31 fixes 50 m apart, 10 s apart, 23:58:10 … 00:03:10 (2024-05-01 → 02).
        var gpx = "<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n"
        for i in 0...30 {
            let t = may1(86_290 + Int64(i) * 10)
            gpx += "<trkpt lat=\"\(47 + Double(i) * 50 / 111_153.0)\" lon=\"8\"><time>\(t.iso8601)</time></trkpt>\n"
        }
        let path = dir.appendingPathComponent("midnight.gpx").path
        try (gpx + "</trkseg></trk></gpx>\n").write(toFile: path, atomically: true, encoding: .utf8)
        let args = [
            "replay", path, "--network", "ideal", "--viewer", "last",
            "--timeline", "accepted@2024-05-01T23:58:10Z,enRoute@2024-05-01T23:59:00Z,atPickup@2024-05-02T00:02:00Z",
        ]
        let r = try Run(args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("; 2024-05-01 23:58:10 … 2024-05-02 00:03:10 UTC (5 min)\n"), "\(r.stdout.prefix(600))")
        #expect(
            r.stdout.contains("  timeline   Accepted 2024-05-01 23:58:10, En Route 2024-05-01 23:59:00, At Pickup 2024-05-02 00:02:00, "),
            "\(r.stdout)")
        let md = try Run(args + ["--format", "markdown"])
        #expect(md.stdout.contains("- **Timeline:** Accepted 2024-05-01 23:58:10 → En Route 2024-05-01 23:59:00 → At Pickup 2024-05-02 00:02:00"))
        // The same trip an hour earlier stays on one day: times of day only (its own file, so the
        // fixes too end before midnight).
        var early = "<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n"
        for i in 0...30 {
            let t = may1(86_290 - 3600 + Int64(i) * 10)
            early += "<trkpt lat=\"\(47 + Double(i) * 50 / 111_153.0)\" lon=\"8\"><time>\(t.iso8601)</time></trkpt>\n"
        }
        let earlyPath = dir.appendingPathComponent("before-midnight.gpx").path
        try (early + "</trkseg></trk></gpx>\n").write(toFile: earlyPath, atomically: true, encoding: .utf8)
        let earlier = try Run([
            "replay", earlyPath, "--network", "ideal", "--viewer", "last", "--timeline",
            "accepted@2024-05-01T22:58:10Z,enRoute@2024-05-01T22:59:00Z,atPickup@2024-05-01T23:02:00Z",
        ])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        #expect(earlier.stdout.contains("; 2024-05-01 22:58:10 … 23:03:10 UTC (5 min)\n"), "\(earlier.stdout.prefix(600))")
        #expect(earlier.stdout.contains("  timeline   Accepted 22:58:10, En Route 22:59:00, At Pickup 23:02:00, "), "\(earlier.stdout)")
        let ride = try Run(Self.ride)
        #expect(ride.stdout.contains("  timeline   Accepted 08:01:37, En Route 08:02:33, At Pickup 08:10:53, "))
    }

    @Test("an expected absence is said as such: the hirer does not see the helper in In Task, so the dropoff arrival is not shown by design")
    func expectedAbsence() throws {
        let r = try Run(Self.ride)
        #expect(
            r.stdout.contains(
                "Arrival at dropoff seen by the hirer: not shown by design: by the policy the hirer does not see the helper from In Task on (in In Task the hirer's map shows Hirer Location, Dropoff Point)\n"
            ), "\(r.stdout.suffix(400))")
        #expect(!r.stdout.contains("never"))
        #expect(r.stdout.contains("Arrival at pickup seen by the hirer: 0.0 s after the helper arrived\n"))
        let doc = try json(try Run(Self.ride + ["--format", "json"]))
        let arrivals = try #require(doc["arrivals"] as? [[String: Any]])
        let dropoff = try #require(arrivals.first { $0["point"] as? String == "dropoff" })
        #expect(dropoff["state"] as? String == "inTask")
        #expect(dropoff["shownByPolicy"] as? Bool == false)
        #expect(dropoff["absence"] as? String == "notShownByDesign")
        #expect((dropoff["reason"] as? String)?.hasPrefix("not shown by design: ") == true)
        let pickup = try #require(arrivals.first { $0["point"] as? String == "pickup" })
        #expect(pickup["state"] as? String == "enRoute" && pickup["shownByPolicy"] as? Bool == true)
        #expect(pickup["absence"] is NSNull && pickup["reason"] is NSNull)
    }

    @Test("a real failure keeps \"never\", worded as a problem: a policy that shows the helper to the hirer in In Task but delivers no fix near the dropoff")
    func realFailure() throws {
        let dir = try tempDir()
        let policy = dir.appendingPathComponent("far.json").path
        // In Task: the hirer's map shows the helper; a 100 km distance filter delivers only the
        // state's first fix, at the pickup, 5 km from the dropoff.
        try #"{"format": "tracekit-policy", "version": 3, "name": "far", "states": {"inTask": {"distanceFilterMetres": 100000, "annotations": {"hirer": ["helperLocation", "dropoffPoint"]}}}}"#
            .write(toFile: policy, atomically: true, encoding: .utf8)
        let r = try Run(Self.ride + ["--policy", policy])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains(
                "Arrival at dropoff seen by the hirer: never, a failure: the hirer's map was to show the helper from In Task on, but no update placed the helper within 50 m\n"
            ), "\(r.stdout.suffix(400))")
        #expect(!r.stdout.contains("by design"))
        let doc = try json(try Run(Self.ride + ["--policy", policy, "--format", "json"]))
        let dropoff = (doc["arrivals"] as? [[String: Any]])?.first { $0["point"] as? String == "dropoff" }
        #expect(dropoff?["absence"] as? String == "neverShown" && dropoff?["shownByPolicy"] as? Bool == true)
    }
}
