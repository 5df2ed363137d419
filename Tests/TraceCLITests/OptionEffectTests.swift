import Foundation
import TestSupport
import Testing

/// Each command-line option's effect on the figures, with the built binary: hand-built traces
/// written from literal metres and seconds, and the expected figures derived here from the
/// README's rules (the delivery models' table, the relay's who-sees-whom, the energy model's
/// constants), not recorded from a run. Each test fails when its option is ignored (the mutation
/// that checked it is named on the test).
@Suite("options change the figures, end to end")
struct OptionEffectTests {
    // MARK: Hand-built traces

    /// A point `east` and `north` metres from 47° N 8° E, `t` seconds after `hour`:00:00.
    struct Point {
        var east = 0.0, north = 0.0
        var t: Int
    }

    /// Metres per degree at 47° N: latitude 111,153 m; longitude 111,320 × cos 47° (the sphere's;
    /// the ellipsoid's is 0.2 % more). The margins below (a step of 35 m against a 30 m filter)
    /// are far larger than these approximations' error.
    static func latitude(_ p: Point) -> Double { 47 + p.north / 111_153 }
    static func longitude(_ p: Point) -> Double { 8 + p.east / (111_320 * cos(47 * Double.pi / 180)) }

    /// 2024-05-01 at `hour`:00:00 plus `t` seconds, with `zone` ("Z", or "" for a local time).
    static func time(_ t: Int, hour: Int = 10, zone: String = "Z") -> String {
        let s = hour * 3600 + t
        return String(format: "2024-05-01T%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) + zone
    }

    static func gpx(_ points: [Point], _ path: String) throws {
        var s = "<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n"
        for p in points { s += "<trkpt lat=\"\(latitude(p))\" lon=\"\(longitude(p))\"><time>\(time(p.t))</time></trkpt>\n" }
        try (s + "</trkseg></trk></gpx>\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func csv(_ points: [Point], _ path: String, accuracy: Double? = nil, hour: Int = 10, zone: String = "Z") throws {
        var s = "lat,lon,time" + (accuracy == nil ? "" : ",accuracy") + "\n"
        for p in points {
            s += "\(latitude(p)),\(longitude(p)),\(time(p.t, hour: hour, zone: zone))" + (accuracy.map { ",\($0)" } ?? "") + "\n"
        }
        try s.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A scratch folder, removed at the end.
    static func scratch(_ body: (String) throws -> Void) throws {
        let dir = scratchFolder.appendingPathComponent("options-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir)
    }

    // MARK: Reading the JSON report

    static func json(_ r: Run) throws -> [String: Any] {
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    /// A replay's JSON under the ideal network (the figures these tests count by hand: every update
    /// received at once); NetworkOptionTests covers the realistic one.
    static func replay(_ arguments: [String]) throws -> [String: Any] {
        try json(try Run(["replay", "--network", "ideal", "--format", "json"] + arguments))
    }

    static func state(_ doc: [String: Any], _ key: String) -> [String: Any]? {
        (doc["states"] as? [[String: Any]])?.first { $0["state"] as? String == key }
    }

    /// The ROLE object of `role` in state `key`.
    static func cell(_ doc: [String: Any], _ key: String, _ role: String) throws -> [String: Any] {
        try #require((state(doc, key)?["roles"] as? [[String: Any]])?.first { $0["role"] as? String == role }, "\(key) \(role)")
    }

    /// `role`'s phone's whole energy estimate.
    static func estimate(_ doc: [String: Any], _ role: String) throws -> [String: Any] {
        try #require(
            ((doc["energy"] as? [[String: Any]])?.first { $0["role"] as? String == role })?["estimate"] as? [String: Any],
            "\(role)'s estimate")
    }

    static func radioJoules(_ doc: [String: Any], _ role: String) throws -> Double {
        try #require((try estimate(doc, role)["radioJoules"] as? [String: Any])?["total"] as? Double, "\(role)'s radio joules")
    }

    /// (delivered, sent, forwarded to hirer, helper, delegate) of a ROLE object.
    static func counts(_ m: [String: Any]) -> [Int] {
        let f = m["forwarded"] as? [String: Int] ?? [:]
        return [
            m["deliveredFixes"] as? Int ?? -1, m["sentUpdates"] as? Int ?? -1, f["hirer"] ?? -1, f["helper"] ?? -1, f["delegate"] ?? -1,
        ]
    }

    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { a.map { abs($0 - b) <= tolerance } ?? false }

    /// The seed's En Route: NearestTenMeters (P_loc 145 mW), a 30 m filter; the helper shares
    /// with the hirer. Fixes at `t` from 10:00:00Z are all in En Route with this timeline, and
    /// a pickup 100 km north never brings a geofence into it.
    static let enRoute = ["--timeline", "enRoute@2024-05-01T10:00:00Z", "--pickup", "48,8", "--dropoff", "48.1,8"]

    // MARK: --delivery

    /// Which of `points` (in order) a delivery rule passes: the first, then each whose (Δt, metres)
    /// from the last delivered one the rule accepts. Metres are the hand-built north offsets.
    static func delivered(_ points: [Point], _ rule: (Int, Double) -> Bool) -> Int {
        var last: Point?
        var n = 0
        for p in points where last.map({ rule(p.t - $0.t, abs(p.north - $0.north)) }) ?? true {
            last = p
            n += 1
        }
        return n
    }

    @Test(
        "--delivery androidFused:N replaces Core Location's rule: the count follows README's table, minimum interval less min(0.1 × interval, 30 s), not the distance alone (mutation: ReplayCommand.phone ignores --delivery)"
    )
    func androidFused() throws {
        try Self.scratch { dir in
            // 55 fixes, one a second (t = 0…54), 7 m apart northwards: 7 m/s.
            let points = (0..<55).map { Point(north: 7 * Double($0), t: $0) }
            let path = "\(dir)/drive.gpx"
            try Self.gpx(points, path)
            // Core Location: distance ≥ 30 m → every 5th fix (35 m): t = 0, 5, …, 50 → 11.
            let core = Self.delivered(points) { _, d in d >= 30 }
            #expect(core == 11)
            // androidFused(interval: I), minimum update interval implicit = I: dropped when
            // Δt < I − min(0.1 I, 30 s), or when distance ≤ 30 m.
            func android(_ interval: Double) -> Int {
                Self.delivered(points) { dt, d in !(Double(dt) < interval - min(0.1 * interval, 30)) && !(d <= 30) }
            }
            // I = 10: Δt ≥ 9 s (63 m) → t = 0, 9, …, 54 → 7 (a plain Δt ≥ 10 would give 6).
            // I = 20: Δt ≥ 18 s → t = 0, 18, 36, 54 → 4 (Δt ≥ 20 would give 3).
            #expect(android(10) == 7 && android(20) == 4)
            for (flag, expected) in [(nil, core), ("androidFused:10", android(10)), ("androidFused:20", android(20))] {
                let doc = try Self.replay([path] + Self.enRoute + (flag.map { ["--delivery", $0] } ?? []))
                let helper = try Self.cell(doc, "enRoute", "helper")
                #expect(helper["rawFixes"] as? Int == 55)
                // Delivered, sent and forwarded to the hirer: each delivered fix is shared in En Route.
                #expect(Self.counts(helper) == [expected, expected, expected, 0, 0], "\(flag ?? "default")")
                let e = try #require(helper["energyJoules"] as? [String: Double])
                #expect(Self.close(e["fixes"], 0.05 * Double(expected)), "\(flag ?? "default"): 50 mJ per delivered fix")
            }
        }
    }

    // MARK: --handed-off on a ride

    @Test(
        "--handed-off on a ride: the delegate's phone becomes the hirer location's source and sees the helper; the hirer's own phone sends nothing; without it, the opposite (mutation: ReplayCommand.flags ignores --handed-off)"
    )
    func handedOffRide() throws {
        try Self.scratch { dir in
            // All three in En Route (t = 0…90 s): the helper 10 fixes 50 m apart, the hirer 7 fixes
            // 40 m apart, the delegate 4 fixes 35 m apart: every fix clears the 30 m filter, so a
            // phone that uses location delivers all of its fixes.
            try Self.gpx((0..<10).map { Point(north: 50 * Double($0), t: 10 * $0) }, "\(dir)/helper.gpx")
            try Self.gpx((0..<7).map { Point(east: 40 * Double($0), north: 1000, t: 10 * $0) }, "\(dir)/hirer.gpx")
            try Self.gpx((0..<4).map { Point(east: -35 * Double($0), north: 2000, t: 20 * $0) }, "\(dir)/delegate.gpx")
            let arguments =
                ["\(dir)/helper.gpx", "--hirer", "\(dir)/hirer.gpx", "--delegate", "\(dir)/delegate.gpx", "--category", "ride"]
                + Self.enRoute
            // The user's document (docs/domain.md), En Route: both maps show "Helper Location, Hirer Location"
            // (the hirer's only for rides). After a hand-off "the map locations get handed off to
            // the 3rd party": the hirer location comes from the delegate's phone and the delegate
            // has the hirer's map. So, (delivered, sent, → hirer, → helper, → delegate):
            // handed off: helper → hirer and delegate; delegate → hirer and helper; the hirer's
            // phone is no one's source (and shows no own location): location off.
            // not handed off: helper → hirer; hirer → helper; the delegate has no map and is no
            // source: location off.
            let expected: [Bool: [String: [Int]]] = [
                true: ["helper": [10, 10, 10, 0, 10], "hirer": [0, 0, 0, 0, 0], "delegate": [4, 4, 4, 4, 0]],
                false: ["helper": [10, 10, 10, 0, 0], "hirer": [7, 7, 0, 7, 0], "delegate": [0, 0, 0, 0, 0]],
            ]
            for handedOff in [true, false] {
                let doc = try Self.replay(arguments + (handedOff ? ["--handed-off"] : []))
                let scenario = try #require(doc["scenario"] as? [String: Any])
                #expect((scenario["pickupHandedOff"] as? [String: Any])?["value"] as? Bool == handedOff)
                #expect(Self.state(doc, "enRoute")?["seconds"] as? Double == 90)
                var raw: [String: Int] = [:]
                for role in ["helper", "hirer", "delegate"] {
                    let m = try Self.cell(doc, "enRoute", role)
                    raw[role] = m["rawFixes"] as? Int
                    #expect(Self.counts(m) == expected[handedOff]![role]!, "handed off \(handedOff): \(role)")
                    // A phone that uses location pays NearestTenMeters' 145 mW for the 90 s; one that
                    // does not pays nothing.
                    let uses = expected[handedOff]![role]![0] > 0
                    let e = try #require(m["energyJoules"] as? [String: Double])
                    #expect(Self.close(e["location"], uses ? 0.145 * 90 : 0), "handed off \(handedOff): \(role) location J")
                }
                #expect(raw == ["helper": 10, "hirer": 7, "delegate": 4])
                // What each phone received: the sum of what was forwarded to it.
                let received = try ["helper", "hirer", "delegate"].map { try Self.estimate(doc, $0)["received"] as? Int }
                #expect(received == (handedOff ? [4, 14, 10] : [7, 10, 0]), "handed off \(handedOff)")
                // View samples at the helper's fixes: one per fix for each viewer entitled to see it
                // (the hirer; and the delegate once handed off). Every update is the fix itself: 0 m.
                let view = try #require(try Self.cell(doc, "enRoute", "helper")["view"] as? [String: Any])
                #expect(view["samples"] as? Int == (handedOff ? 20 : 10))
                #expect((view["displayErrorMetres"] as? [String: Any])?["max"] as? Double == 0)
                // The arrival is watched for the delegate too once handed off.
                let viewers = Set((doc["arrivals"] as? [[String: Any]] ?? []).compactMap { $0["viewer"] as? String })
                #expect(viewers == (handedOff ? ["hirer", "delegate"] : ["hirer"]))
            }
        }
    }

    // MARK: A sidecar's cancelledAt

    @Test(
        "a sidecar's cancelledAt ends the state's seconds there, later fixes are counted as not replayed, and no location energy is charged after it (mutation: ReplayCommand.Job drops the sidecar's cancellation)"
    )
    func cancellation() throws {
        try Self.scratch { dir in
            // Ten fixes 50 m apart, 10 s apart (t = 0…90 s); En Route from t = 0; cancelled at t = 45 s.
            try Self.gpx((0..<10).map { Point(north: 50 * Double($0), t: 10 * $0) }, "\(dir)/helper.gpx")
            let sidecar = "\(dir)/trip.scenario.json"
            func write(cancelledAt: String) throws {
                try """
                {"schema": "tracekit-scenario/1", "category": "ride", "traces": {"helper": "helper.gpx"},
                 "pickup": {"lat": 48, "lon": 8}, "dropoff": {"lat": 48.1, "lon": 8},
                 "timeline": [{"state": "enRoute", "at": "2024-05-01T10:00:00Z"}], "cancelledAt": \(cancelledAt)}
                """.write(toFile: sidecar, atomically: true, encoding: .utf8)
            }
            try write(cancelledAt: "\"2024-05-01T10:00:45Z\"")
            let doc = try Self.replay(["--scenario", sidecar])
            #expect(
                (doc["scenario"] as? [String: Any]).flatMap { $0["cancelledAt"] as? [String: Any] }?["at"] as? String
                    == "2024-05-01T10:00:45Z")
            // Fixes at 0, 10, 20, 30, 40 s are replayed; 50…90 s (five) come after the cancellation.
            #expect(doc["notes"] as? [String] == ["5 fixes after the cancellation were not replayed"])
            #expect(Self.state(doc, "enRoute")?["seconds"] as? Double == 45)
            for s in ["findingVillager", "accepted", "atPickup", "inTask", "awaitingPayment", "completed"] {
                #expect(Self.state(doc, s)?["seconds"] as? Double == 0, "\(s)")
            }
            let helper = try Self.cell(doc, "enRoute", "helper")
            #expect(helper["rawFixes"] as? Int == 5 && Self.counts(helper) == [5, 5, 5, 0, 0])
            // Location: 145 mW for the 45 s of En Route, nothing in the 45 s after; the hirer (a ride:
            // its phone shares in En Route) the same. MetricKit's buckets: 45 s at NearestTenMeters.
            for role in ["helper", "hirer"] {
                let e = try Self.estimate(doc, role)
                #expect(Self.close(e["locationJoules"] as? Double, 0.145 * 45), "\(role)")
                let tiers = try #require(e["tierSeconds"] as? [String: Double])
                #expect(tiers["cumulativeNearestTenMetersAccuracyTime"] == 45, "\(role)")
            }
            // Radio (LTE): five sends 10 s apart, each inside the previous tail (10.12 s after the
            // transmission): one promotion 1.21 W × 0.26 s, five transmissions 1.2 W × 0.1 s, tails
            // 9.64 s (0.36 → 10), 3 × 9.9 s, and the last one's 10.12 s in full, at 1.06 W.
            let radio = 1.21 * 0.26 + 5 * 1.2 * 0.1 + 1.06 * (9.64 + 3 * 9.9 + 10.12)
            #expect(Self.close(try Self.radioJoules(doc, "helper"), radio, 1e-6))
            #expect(try Self.estimate(doc, "helper")["sent"] as? Int == 5)
            // Without the cancellation all ten are replayed in 90 s of En Route.
            try write(cancelledAt: "null")
            let whole = try Self.replay(["--scenario", sidecar])
            // The timeline (En Route alone) is now partial: the states after it are inferred, and
            // none fires (the helper never comes within 50 m of the pickup, 48° N), so a note says so.
            #expect(
                whole["notes"] as? [String] == [
                    "timeline given through En Route (2024-05-01T10:00:00Z): the states after it are inferred from the helper's fixes from then on (labelled inferred)"
                ])
            #expect(Self.state(whole, "enRoute")?["seconds"] as? Double == 90)
            #expect(Self.counts(try Self.cell(whole, "enRoute", "helper")) == [10, 10, 10, 0, 0])
        }
    }

    // MARK: --energy-profile and --receiver-radio

    /// Three fixes 100 m and 60 s apart in En Route: three sends, each far beyond the previous
    /// one's tail (LTE 0.26 + 0.1 + 10.12 s; 3G 2 + 0.1 + 4 + 10 s), so each is an isolated update.
    static func isolatedUpdates(_ dir: String) throws -> String {
        let path = "\(dir)/three.gpx"
        try gpx((0..<3).map { Point(north: 100 * Double($0), t: 60 * $0) }, path)
        return path
    }

    @Test(
        "--energy-profile 3g and a profile file: the radio's joules are three isolated updates' closed form from the constants (mutation: Job.options ignores --energy-profile)"
    )
    func energyProfile() throws {
        try Self.scratch { dir in
            let trip = [try Self.isolatedUpdates(dir)] + Self.enRoute
            // One isolated update: promotion + transmission + the whole tail.
            let lte = 1.210 * 0.26 + 1.2 * 0.1 + 1.06 * 10.12  // 11.1618 J
            let threeG = 0.650 * 2 + 1.3 * 0.1 + 1.3 * 4 + 0.3 * 10  // 9.63 J: DCH tail, then FACH
            // A file based on 3g with the (first, DCH) tail at 800 mW: 0.5 W less for 4 s, 2 J per update.
            let file = "\(dir)/quiet-3g.json"
            try #"{"format": "tracekit-energy-profile", "version": 1, "name": "quiet-3g", "base": "3g", "radio": {"tailMilliwatts": 800}}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            let quiet = threeG - (1.3 - 0.8) * 4
            var parts: [String: [String: Double]] = [:]
            for (profile, name, update) in [(nil, "lte", lte), ("3g", "3g", threeG), (file, "quiet-3g", quiet)] {
                let doc = try Self.replay(trip + (profile.map { ["--energy-profile", $0] } ?? []))
                #expect((doc["energyModel"] as? [String: Any])?["label"] as? String == "tracekit-energy 1, profile \(name)")
                let helper = try Self.estimate(doc, "helper")
                #expect(helper["sent"] as? Int == 3 && helper["radioPromotions"] as? Int == 3, "\(name)")
                let radio = try Self.radioJoules(doc, "helper")
                #expect(Self.close(radio, 3 * update, 1e-9), "\(name): \(radio) J")
                // The hirer receives the same three (the receiver pays what a sender does).
                #expect(Self.close(try Self.radioJoules(doc, "hirer"), 3 * update, 1e-9), "\(name) hirer")
                // Location and fixes do not depend on the radio: 145 mW × 120 s, 3 × 50 mJ.
                #expect(Self.close(helper["locationJoules"] as? Double, 0.145 * 120) && Self.close(helper["fixesJoules"] as? Double, 0.15))
                parts[name] = helper["radioJoules"] as? [String: Double]
            }
            // The file changes the tail only: 3 × 0.5 W × 4 s = 6 J less, promotion and transmission as 3g's
            // (3 × 0.65 W × 2 s = 3.9 J; 3 × 1.3 W × 0.1 s = 0.39 J).
            let g = try #require(parts["3g"]), q = try #require(parts["quiet-3g"])
            #expect(Self.close(g["tail"], 3 * (1.3 * 4 + 0.3 * 10)) && Self.close(q["tail"], 3 * (0.8 * 4 + 0.3 * 10)))
            #expect(Self.close((g["total"] ?? 0) - (q["total"] ?? 0), 6))
            #expect(
                Self.close(g["promotion"], 3.9) && q["promotion"] == g["promotion"] && Self.close(g["transmit"], 0.39)
                    && q["transmit"] == g["transmit"])
        }
    }

    @Test(
        "--receiver-radio off: the receiving phone's radio costs 0 J and the sender's is unchanged; on, the receiver pays its receptions (mutation: Job.options ignores --receiver-radio)"
    )
    func receiverRadio() throws {
        try Self.scratch { dir in
            let trip = [try Self.isolatedUpdates(dir)] + Self.enRoute
            let update = 1.210 * 0.26 + 1.2 * 0.1 + 1.06 * 10.12  // LTE, one isolated update
            let on = try Self.replay(trip), off = try Self.replay(trip + ["--receiver-radio", "off"])
            #expect((on["energyModel"] as? [String: Any])?["receiverRadio"] as? Bool == true)
            #expect((off["energyModel"] as? [String: Any])?["receiverRadio"] as? Bool == false)
            for doc in [on, off] { #expect(Self.close(try Self.radioJoules(doc, "helper"), 3 * update)) }
            // The hirer (no trace) receives the helper's three updates: three isolated receptions, or nothing.
            #expect(Self.close(try Self.radioJoules(on, "hirer"), 3 * update))
            #expect(try Self.radioJoules(off, "hirer") == 0)
            #expect(try Self.estimate(on, "hirer")["received"] as? Int == 3)
            // Per state too: En Route's radio part of the hirer.
            let hirerOff = try #require(try Self.cell(off, "enRoute", "hirer")["energyJoules"] as? [String: Double])
            #expect(hirerOff["radio"] == 0)
        }
    }

    // MARK: --utc-offset

    /// Ten CSV rows 50 m apart, 10 s apart, at local times 12:00:00…12:01:30 without a zone; a
    /// sidecar whose UTC timeline enters En Route at 10:00:00Z and At Pickup at 11:00:00Z.
    static func localTimes(_ dir: String) throws -> (csv: String, sidecar: String) {
        let csv = "\(dir)/fixes.csv"
        try Self.csv((0..<10).map { Point(north: 50 * Double($0), t: 10 * $0) }, csv, hour: 12, zone: "")
        let sidecar = "\(dir)/local.scenario.json"
        try """
        {"schema": "tracekit-scenario/1", "category": "ride", "traces": {"helper": "fixes.csv"},
         "pickup": {"lat": 48, "lon": 8}, "dropoff": {"lat": 48.1, "lon": 8},
         "timeline": [{"state": "enRoute", "at": "2024-05-01T10:00:00Z"}, {"state": "atPickup", "at": "2024-05-01T11:00:00Z"}]}
        """.write(toFile: sidecar, atomically: true, encoding: .utf8)
        return (csv, sidecar)
    }

    /// Where the ten fixes fall with the timeline above: 12:00 local read as UTC is after 11:00Z,
    /// the given timeline's last entry (At Pickup), so In Task is inferred at the first of them (it
    /// is farther than 50 m from the given pickup, 48° N); read as UTC+2 it is 10:00Z…10:01:30Z
    /// (En Route), before the last entry, so nothing is inferred.
    static func expectPlacement(_ doc: [String: Any], offset: Bool) throws {
        let inEnRoute = try cell(doc, "enRoute", "helper"), inTask = try cell(doc, "inTask", "helper")
        #expect(inEnRoute["rawFixes"] as? Int == (offset ? 10 : 0) && inTask["rawFixes"] as? Int == (offset ? 0 : 10))
        #expect(try cell(doc, "atPickup", "helper")["rawFixes"] as? Int == 0)
        // 50 m steps clear En Route's 30 m filter: every fix is delivered.
        if offset { #expect(inEnRoute["deliveredFixes"] as? Int == 10) }
        // The clock ends at the latest fix or entry: 11:00:00Z (the At Pickup entry) or 12:01:30Z.
        #expect(doc["end"] as? String == (offset ? "2024-05-01T11:00:00Z" : "2024-05-01T12:01:30Z"))
        #expect(state(doc, "atPickup")?["seconds"] as? Double == (offset ? 0 : 3600))
        #expect(state(doc, "inTask")?["seconds"] as? Double == (offset ? 0 : 90))
    }

    @Test(
        "replay --utc-offset 2: CSV times without a zone move 2 h earlier: start and end, and which state the fixes fall in (mutation: ReplayCommand.run drops the offset)"
    )
    func utcOffsetReplay() throws {
        try Self.scratch { dir in
            let (csv, sidecar) = try Self.localTimes(dir)
            // The trace alone: the clock is its first and last fix.
            let utc = try Self.replay([csv]), local = try Self.replay([csv, "--utc-offset", "2"])
            #expect(utc["start"] as? String == "2024-05-01T12:00:00Z" && utc["end"] as? String == "2024-05-01T12:01:30Z")
            #expect(local["start"] as? String == "2024-05-01T10:00:00Z" && local["end"] as? String == "2024-05-01T10:01:30Z")
            #expect(utc["durationSeconds"] as? Double == 90 && local["durationSeconds"] as? Double == 90)
            // Against the sidecar's UTC timeline.
            try Self.expectPlacement(try Self.replay(["--scenario", sidecar]), offset: false)
            try Self.expectPlacement(try Self.replay(["--scenario", sidecar, "--utc-offset", "2"]), offset: true)
        }
    }

    @Test("batch --utc-offset 2: the same shift in every trip's replay (--jsonl) (mutation: BatchCommand.run drops the offset)")
    func utcOffsetBatch() throws {
        try Self.scratch { dir in
            _ = try Self.localTimes(dir)
            for offset in [false, true] {
                let r = try Run(["batch", dir, "--jsonl", "--jobs", "1"] + (offset ? ["--utc-offset", "2"] : []))
                #expect(r.status == 0, "\(r.stderr)")
                let lines = r.stdout.split(separator: "\n")
                #expect(lines.count == 1)
                let line = try #require(
                    try JSONSerialization.jsonObject(with: Data(lines.first.map(String.init)?.utf8 ?? "".utf8)) as? [String: Any])
                #expect(line["trip"] as? String == "local.scenario.json" && line["status"] as? String == "replayed")
                try Self.expectPlacement(try #require(line["replay"] as? [String: Any]), offset: offset)
            }
        }
    }

    // MARK: --max-speed and --on-problem for implied motion

    /// Ten fixes 10 m and 1 s apart going north; the sixth `jump` metres further.
    static func jumped(_ jump: Double) -> [Point] { (0..<10).map { Point(north: 10 * Double($0) + ($0 == 5 ? jump : 0), t: $0) } }

    static func problems(_ r: Run) -> String {
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.components(separatedBy: "problems").last ?? ""
    }

    @Test(
        "info --max-speed: the limit of implied motion, in m/s or with a unit, or off; a value that is not a speed is refused (mutation: ReadingOptions.readOptions drops maxSpeed)"
    )
    func maxSpeed() throws {
        try Self.scratch { dir in
            // 60 m away in 1 s and 40 m back: fits 100 m/s both ways, not 20 m/s.
            let path = "\(dir)/jump.gpx"
            try Self.gpx(Self.jumped(50), path)
            #expect(Self.problems(try Run(["info", path])).contains("none"))
            for limit in ["20", "72km/h", "44.7mph", "38.9kn", "20m/s"] {
                #expect(
                    Self.problems(try Run(["info", "--max-speed", limit, path])).contains("1 × speed spike, first at line 7"), "\(limit)")
            }
            // 1.1 km away and back: a spike at the default, nothing when off.
            try Self.gpx(Self.jumped(1100), path)
            #expect(Self.problems(try Run(["info", path])).contains("1 × speed spike"))
            #expect(Self.problems(try Run(["info", "--max-speed", "off", path])).contains("none"))
            for bad in ["0", "-3", "fast", "10 km"] {
                let r = try Run(["info", "--max-speed", bad, path])
                #expect(r.status == 64 && r.stderr.contains("--max-speed"), "\(bad): \(r.stderr)")
            }
        }
    }

    @Test(
        "convert --on-problem skip: a speed spike is dropped, a teleport starts a new segment, every fix after it is kept; report keeps both (mutation: openTrace does not put the stage over the reader)"
    )
    func convertSkip() throws {
        try Self.scratch { dir in
            // A spike at the sixth fix; from the ninth on the track is 50 km further north.
            var points = Self.jumped(1100)
            for i in 8..<10 { points[i].north += 50_000 }
            points += (10..<14).map { Point(north: 50_000 + 10 * Double($0), t: $0) }
            let path = "\(dir)/in.gpx"
            try Self.gpx(points, path)
            let report = try Run(["convert", "--on-problem", "report", path, "\(dir)/report.gpx"])
            #expect(
                report.status == 0 && report.stderr.contains("1 × speed spike") && report.stderr.contains("1 × teleport"),
                "\(report.stderr)")
            let kept = try String(contentsOfFile: "\(dir)/report.gpx", encoding: .utf8)
            #expect(kept.components(separatedBy: "<trkpt").count - 1 == 14 && kept.components(separatedBy: "<trkseg>").count - 1 == 1)
            let skip = try Run(["convert", "--on-problem", "skip", path, "\(dir)/skip.gpx"])
            #expect(skip.status == 0, "\(skip.stderr)")
            let out = try String(contentsOfFile: "\(dir)/skip.gpx", encoding: .utf8)
            #expect(out.components(separatedBy: "<trkpt").count - 1 == 13 && out.components(separatedBy: "<trkseg>").count - 1 == 2)
            // The default, filter, does the same with them (the file has no other problem).
            let filter = try Run(["convert", path, "\(dir)/filter.gpx"])
            #expect(filter.status == 0 && filter.stderr.contains("1 × speed spike"), "\(filter.stderr)")
            #expect(try String(contentsOfFile: "\(dir)/filter.gpx", encoding: .utf8) == out)
            let fail = try Run(["convert", "--on-problem", "fail", path, "\(dir)/fail.gpx"])
            #expect(fail.status == 65 && fail.stderr.hasPrefix("tracekit: \(path):7: speed spike: "), "\(fail.stderr)")
        }
    }

    @Test(
        "replay reads the role column's helper and hirer rows each against its own: 2 km apart, interleaved, no problem; a helper spike is one, dropped under --on-problem skip (mutation: the motion check ignores the role)"
    )
    func replayRoles() throws {
        try Self.scratch { dir in
            func write(spike: Bool) throws -> String {
                var s = "lat,lon,time,role\n"
                for i in 0..<20 {
                    let helper = Point(north: 10 * Double(i) + (spike && i == 5 ? 1100 : 0), t: i)
                    let hirer = Point(north: 2000 - 10 * Double(i), t: i)
                    s += "\(Self.latitude(helper)),8,\(Self.time(i)),helper\n\(Self.latitude(hirer)),8,\(Self.time(i)).5Z,hirer\n"
                        .replacingOccurrences(of: "Z.5Z", with: ".5Z")
                }
                let path = "\(dir)/both\(spike ? "-spike" : "").csv"
                try s.write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
            func file(_ doc: [String: Any]) throws -> [String: Any] { try #require((doc["files"] as? [[String: Any]])?.first) }
            let clean = try file(try Self.replay([try write(spike: false)] + Self.enRoute))
            #expect(clean["pointsRead"] as? Int == 40 && (clean["problems"] as? [String: Any])?.isEmpty == true, "\(clean)")
            let spiked = try write(spike: true)
            let report = try file(try Self.replay([spiked, "--on-problem", "report"] + Self.enRoute))
            #expect(report["problems"] as? [String: Int] == ["speed spike": 1] && report["pointsDropped"] as? Int == 0, "\(report)")
            let skipped = try file(try Self.replay([spiked, "--on-problem", "skip"] + Self.enRoute))
            #expect(skipped["problems"] as? [String: Int] == ["speed spike": 1] && skipped["pointsDropped"] as? Int == 1, "\(skipped)")
            let filtered = try file(try Self.replay([spiked] + Self.enRoute))  // the default drops the spike too
            #expect(filtered["problems"] as? [String: Int] == ["speed spike": 1] && filtered["pointsDropped"] as? Int == 1, "\(filtered)")
        }
    }

    // MARK: --smooth in replay

    @Test(
        "--smooth walk: a still phone's ±20 m jitter, which leaks every fix through En Route's 30 m filter, is averaged away: at most 3 updates, the display error the jitter's, and the mode named (mutation: ReplayCommand.phone ignores --smooth)"
    )
    func smoothReplay() throws {
        try Self.scratch { dir in
            // A still phone whose fixes alternate 20 m west and 20 m east of it, one a second for
            // 60 s, each reporting 30 m (iOS: σ = 30/√2 = 21.2 m per axis, so no fix is gated:
            // an innovation of 40 m is at most 40² / 450 = 3.6 < 13.8).
            let points = (0..<60).map { Point(east: $0 % 2 == 0 ? -20 : 20, t: $0) }
            let path = "\(dir)/still.csv"
            try Self.csv(points, path, accuracy: 30)
            // Without smoothing each step is 40 m ≥ 30 m: all 60 delivered, sent and forwarded, and
            // the hirer always holds the fix itself: display error 0, staleness 0.
            let raw = try Self.replay([path] + Self.enRoute)
            #expect(raw["phone"] == nil)
            let r = try Self.cell(raw, "enRoute", "helper")
            #expect(Self.counts(r) == [60, 60, 60, 0, 0])
            let rawView = try #require(r["view"] as? [String: Any])
            #expect((rawView["displayErrorMetres"] as? [String: Any])?["max"] as? Double == 0)
            #expect((rawView["stalenessSeconds"] as? [String: Any])?["max"] as? Double == 0)
            // With the walker's filter the estimate averages the two sides: after the second fix it
            // is near the midpoint (gain ≈ ½ with equal variances), and the gains only shrink after
            // that, so the estimate stays well inside ±10 m and no later estimate is 30 m from the
            // first fix (−20 m). Measured: only the first fix is delivered. Asserted: at most 3.
            let doc = try Self.replay([path, "--smooth", "walk"] + Self.enRoute)
            let m = try Self.cell(doc, "enRoute", "helper")
            let delivered = try #require(m["deliveredFixes"] as? Int)
            #expect(delivered >= 1 && delivered <= 3 && Self.counts(m) == [delivered, delivered, delivered, 0, 0], "\(Self.counts(m))")
            // Display error from the raw fixes: each (west, east) pair of consecutive fixes seen with
            // the same last update p is |p − w| + |p − e| ≥ 40 m away in sum. An update at an east
            // fix can split its pair (at most delivered − 1 of the 30 pairs, the first fix being a
            // west one), so the mean is at least 40 × (31 − delivered) / 60 m: 20 m for one update.
            let view = try #require(m["view"] as? [String: Any])
            let mean = try #require((view["displayErrorMetres"] as? [String: Any])?["mean"] as? Double)
            #expect(mean >= 40 * Double(31 - delivered) / 60 * 0.999, "\(mean)")
            #expect(view["samples"] as? Int == 60)
            // The JSON and the header name the mode.
            #expect(((doc["phone"] as? [String: Any])?["smoothing"] as? [String: Any])?["mode"] as? String == "walk")
            let table = try Run(["replay", path, "--smooth", "walk"] + Self.enRoute)
            #expect(
                table.stdout.contains(
                    "  phones     accuracy emulation off; smoothing walk (gate 13.8); accuracy convention ios; delivery per state\n"),
                "\(table.stdout)")
        }
    }

    // MARK: smooth --convention

    @Test(
        "smooth --convention: σ = accuracy / √2, / 1.51 or / 2.45; the second fix's pull on the forward estimate is the Kalman gain those σ give (mutation: SmoothCommand.run ignores --convention)"
    )
    func smoothConvention() throws {
        try Self.scratch { dir in
            // Two fixes 1 s apart at tier HundredMeters (σ floor 25 m): the first at (0, 0) m reporting
            // 10 m, so its σ (7.1, 6.6 or 4.1 m) is floored to 25 m under every convention; the second
            // 100 m east reporting 200 m, σ = 200 / d. The forward filter writes the first fix as
            // itself and the second at (first) + K × 100 m, K = P / (P + σ²) with P = 25² + c, c the
            // prediction's added variance over 1 s (initial velocity and process noise), taken here
            // as under 1 % of 625 m²: 0 ≤ c ≤ 6.25.
            let input = "\(dir)/two.csv"
            let first = Point(t: 0), second = Point(east: 100, t: 1)
            try """
            lat,lon,time,accuracy
            \(Self.latitude(first)),\(Self.longitude(first)),\(Self.time(0)),10
            \(Self.latitude(second)),\(Self.longitude(second)),\(Self.time(1)),200

            """.write(toFile: input, atomically: true, encoding: .utf8)
            var gains: [String: Double] = [:]
            for (convention, divisor) in [("ios", 2.0.squareRoot()), ("android", 1.51), ("w3c", 2.45)] {
                let out = "\(dir)/\(convention).csv"
                let r = try Run(["smooth", "--tier", "hundredMeters", "--mode", "walk", "--convention", convention, input, out])
                #expect(
                    r.status == 0
                        && r.stderr.contains("(forward filter; walk, hundredMeters, \(convention) accuracy, gate 13.8): 0 rejected"),
                    "\(r.stderr)")
                let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").dropFirst().map {
                    $0.split(separator: ",", omittingEmptySubsequences: false)
                }
                #expect(rows.count == 2)
                // Columns: track, segment, time, latitude, longitude, …
                let lon0 = try #require(Double(rows[0][4])), lon1 = try #require(Double(rows[1][4]))
                #expect(lon0 == Self.longitude(first))
                let k = (lon1 - lon0) / (Self.longitude(second) - Self.longitude(first))
                gains[convention] = k
                let r1 = (200 / divisor) * (200 / divisor)
                let low = 625 / (625 + r1), high = (625 + 6.25) / (625 + 6.25 + r1)
                #expect(k >= low && k <= high, "\(convention): gain \(k), expected \(low)…\(high)")
            }
            // The documented direction: a smaller σ for the same accuracy (iOS > Android > W3C) pulls
            // harder. W3C against iOS: (625 + 20,000) / (625 + 6,664) = 2.830, whatever c is to 0.1 %.
            let ios = try #require(gains["ios"]), android = try #require(gains["android"]), w3c = try #require(gains["w3c"])
            #expect(ios < android && android < w3c)
            let iosVariance: Double = 200 * 200 / 2, w3cVariance: Double = (200 / 2.45) * (200 / 2.45)
            let ratio = (625 + iosVariance) / (625 + w3cVariance)
            #expect(abs(w3c / ios - ratio) < 0.002 * ratio, "\(w3c / ios) against \(ratio)")
        }
    }
}
