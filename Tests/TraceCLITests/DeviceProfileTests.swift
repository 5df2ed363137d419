import Foundation
import TestSupport
import Testing
import TraceEnergy

@testable import TraceCLI

/// `--energy-profile` with a shipped device or an Android `power_profile.xml`, and the spread
/// across the shipped device profiles in every report.
@Suite("tracekit: device energy profiles and the spread across them")
struct DeviceProfileTests {
    static let ride = ["replay", "--network", "ideal", "--viewer", "last", "--scenario", "Traces/trips/ride/ride.scenario.json"]

    static func json(_ r: Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    static func milliampHours(_ doc: [String: Any]) throws -> [Double] {
        let energy = try #require(doc["energy"] as? [[String: Any]])
        return try energy.map { try #require(($0["estimate"] as? [String: Any])?["milliampHours"] as? Double) }
    }

    @Test("a shipped device by name and its file in the repository give the same figures; the report says how they were derived")
    func byNameAndFile() throws {
        let named = try Run(Self.ride + ["--energy-profile", "pixel-4-xl", "--format", "json"])
        let file = try Run(Self.ride + ["--energy-profile", "Energy/power-profiles/google-coral.xml", "--format", "json"])
        #expect(named.status == 0 && file.status == 0, "\(named.stderr) \(file.stderr)")
        #expect(try Self.milliampHours(try Self.json(named)) == (try Self.milliampHours(try Self.json(file))))
        let table = try Run(Self.ride + ["--energy-profile", "pixel-4-xl"])
        #expect(table.stdout.contains("profile pixel-4-xl from an Android power profile: GNSS 15 mA (the mean of gps.signalqualitybased"))
        // The battery is the device's, not assumed.
        #expect(table.stdout.contains("of a 3,700 mAh battery;") || table.stdout.contains("of a 3,700 mAh battery,"))
        #expect(!table.stdout.contains("3,700 mAh battery (assumed)"))
    }

    @Test("the spread: each device profile's figure in the JSON is that profile's own replay, and the summary gives the range")
    func spread() throws {
        let doc = try Self.json(try Run(Self.ride + ["--format", "json"]))
        let across = try #require(doc["energyAcrossDevices"] as? [String: Any])
        let helper = try #require(across["helper"] as? [String: Any])
        let profiles = try #require(helper["profiles"] as? [String])
        let mAh = try #require(helper["milliampHours"] as? [Double])
        #expect(profiles == EnergyProfile.devices.map(\.name))
        for (name, value) in zip(profiles, mAh) {
            let own = try Self.json(try Run(Self.ride + ["--energy-profile", name, "--format", "json"]))
            #expect(abs(try Self.milliampHours(own)[0] - value) < 1e-9, "\(name)")
        }
        let lo = try #require(mAh.min()), hi = try #require(mAh.max())
        let summary = try Run(Self.ride).stdout
        #expect(summary.contains("helper 54.4 mAh (\(DecimalTextProbe.one(lo))–\(DecimalTextProbe.one(hi)) mAh on 6 device profiles)"), "\(summary.prefix(700))")
        #expect(summary.contains("What the policy controls, per phone and state"))
        #expect(summary.contains("helper, En Route: ") && summary.contains("one more update +"))
    }

    @Test("the part a policy controls and the cost of one more update, per phone and state, in the JSON")
    func control() throws {
        let doc = try Self.json(try Run(Self.ride + ["--format", "json"]))
        let states = try #require(doc["states"] as? [[String: Any]])
        let enRoute = try #require(states.first { $0["state"] as? String == "enRoute" })
        let helper = try #require((enRoute["roles"] as? [[String: Any]])?.first { $0["role"] as? String == "helper" })
        let energy = try #require(helper["energyJoules"] as? [String: Double])
        let control = try #require(helper["energyControl"] as? [String: Any])
        let policy = try #require(control["policyJoules"] as? Double), tier = try #require(control["tierJoules"] as? Double)
        #expect(abs(policy - (energy["fixes"]! + energy["radio"]!)) < 1e-9 && abs(tier - energy["location"]!) < 1e-9)
        // Updates every few seconds share the tail: one more costs far less than an isolated one.
        let more = try #require(control["marginalUpdateJoules"] as? Double)
        #expect(more > 0 && more < EnergyProfile.lte.radio.isolatedUpdateJoules / 10)
    }

    @Test(
        "a power profile that cannot be used fails in one line naming the file, and exits 65",
        arguments: [
            ("<device><item name=\"gps.on\">5</item><item name=\"battery.capacity\">x</item></device>", ":1: item 'battery.capacity': 'x' is not a number"),
            ("<device><item name=\"gps.on\">5</item><item name=\"battery.capacity\">3000</item></device>", ": no radio.active or modem.controller.rx"),
            ("<device>\n<item name=\"gps.on\">5</item>\n<array name=\"x\">", ":3: array 'x' is not closed"),
        ])
    func broken(xml: String, message: String) throws {
        let dir = scratchFolder.appendingPathComponent("device-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("phone.xml").path
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Run(Self.ride + ["--energy-profile", path])
        #expect(r.status == 65 && r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("tracekit: \(path)\(message)"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test("a misspelt profile name is a usage error listing the names")
    func misspelt() throws {
        let r = try Run(Self.ride + ["--energy-profile", "pixel-4"])
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("tracekit: --energy-profile 'pixel-4': no such file, nor a built-in profile (lte, lte-modern, 3g, wifi, pixel-4-xl,"), "\(r.stderr)")
    }

    @Test("batch: a device-profile range per trip and over the corpus; merge gives the same report from the lines")
    func batch() throws {
        let table = try Run(["batch", "Traces/trips"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("Device profiles mAh"))
        #expect(table.stdout.contains("Energy of every phone over the 3 trips: ") && table.stdout.contains("across 6 device profiles (galaxy-s5 … nexus-5)"))
        let lines = try Run(["batch", "Traces/trips", "--jsonl"])
        let first = try #require(lines.stdout.split(separator: "\n").first { $0.contains("\"status\":\"replayed\"") || $0.contains("\"status\": \"replayed\"") })
        let line = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let report = try #require(line["report"] as? [String: Any])
        #expect((report["energyAcrossDevices"] as? [String: Any])?["profiles"] as? [String] == EnergyProfile.devices.map(\.name))
        let dir = scratchFolder.appendingPathComponent("device-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("lines.jsonl").path
        try lines.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let merged = try Run(["merge", path])
        #expect(merged.status == 0 && merged.stdout == table.stdout, "\(merged.stderr)")
    }

    @Test("compare gives both policies' range; tune can minimise the worst device's energy")
    func compareAndTune() throws {
        let compare = try Run([
            "compare", "--scenario", "Traces/trips/ride/ride.scenario.json", "--policy", "seed", "--policy", "Fuzz/Seeds/policy/partial.policy.json",
        ])
        #expect(compare.stdout.contains("  devices every phone on 6 device profiles: A "), "\(compare.stdout.prefix(800))")
        let tune = try Run(["tune", "Traces/trips/ride", "--require", "enRoute.hirer.displayErrorP95<=60m", "--minimize", "energy-worst", "--format", "json"])
        #expect(tune.status == 0, "\(tune.stderr)")
        let doc = try Self.json(tune)
        #expect(doc["objective"] as? String == "energy-worst")
        // The start's objective is the largest device total of its replay.
        let start = try #require((doc["start"] as? [String: Any])?["figures"] as? [String: Any])
        let across = try #require((doc["energyAcrossDevices"] as? [String: Any])?["start"] as? [String: Any])
        let joules = try #require(across["joules"] as? [Double])
        #expect(abs(try #require(start["objective"] as? Double) - joules.max()!) < 1e-6)
    }
}

/// One decimal, as the summary prints a charge.
enum DecimalTextProbe {
    static func one(_ x: Double) -> String { String(format: "%.1f", x) }
}
