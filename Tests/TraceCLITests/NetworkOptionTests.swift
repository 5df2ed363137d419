import Foundation
import TestSupport
import Testing

/// `--network`, `--viewer` and the seed on the command line: what the reports say, and that each
/// option reaches the replay (the figures by hand are TraceReplayTests' NetworkViewTests).
@Suite("the network and viewer options, end to end")
struct NetworkOptionTests {
    static let ride = ["--scenario", "Traces/trips/ride/ride.scenario.json"]

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let r = try Run(["replay", "--format", "json"] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    @Test("the default is the realistic network of the energy profile, named with its seed in the table, Markdown and JSON")
    func defaultIsRealistic() throws {
        let table = try Run(["replay"] + Self.ride)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout.contains(
                "  view       network realistic (lte: uplink 35 ms, backend median 250 ms σ 0.5, loss 1 %), seed 20240501 · viewer last received position\n"
            ))
        #expect(table.stdout.contains("\nNetwork: ") && table.stdout.contains(" updates towards viewers, "))
        let md = try Run(["replay", "-f", "markdown"] + Self.ride)
        #expect(md.stdout.contains("- **View:** network realistic (lte: ") && md.stdout.contains("**Network:** "))
        let doc = try Self.json(Self.ride)
        let view = try #require(doc["view"] as? [String: Any])
        #expect(view["network"] as? String == "realistic" && view["seed"] as? String == "20240501" && view["viewer"] as? String == "last")
        #expect(view["profile"] as? String == "lte" && view["lossProbability"] as? Double == 0.01)
        let network = try #require(doc["network"] as? [String: Any])
        #expect((network["toViewers"] as? Int ?? 0) > 100 && network["delayMedianSeconds"] as? Double != nil)
        // The 3g profile's network is slower: its median delay is longer.
        let slow = try #require(try Self.json(Self.ride + ["--energy-profile", "3g"])["network"] as? [String: Any])
        #expect((slow["delayMedianSeconds"] as? Double ?? 0) > (network["delayMedianSeconds"] as? Double ?? 1))
    }

    @Test("--viewer extrapolate[:SECONDS] reaches the replay and is named; --network ideal leaves the view out of the report")
    func viewerAndIdeal() throws {
        let doc = try Self.json(Self.ride + ["--viewer", "extrapolate:5"])
        let view = try #require(doc["view"] as? [String: Any])
        #expect(view["viewer"] as? String == "extrapolate" && view["extrapolationSeconds"] as? Double == 5)
        let plain = try Self.json(Self.ride + ["--viewer", "extrapolate"])
        #expect((plain["view"] as? [String: Any])?["extrapolationSeconds"] as? Double == 10)
        // The two viewers draw differently, so the display error differs.
        func enRouteError(_ d: [String: Any]) -> Double? {
            let state = (d["states"] as? [[String: Any]])?.first { $0["state"] as? String == "enRoute" }
            let helper = (state?["roles"] as? [[String: Any]])?.first { $0["role"] as? String == "helper" }
            return ((helper?["view"] as? [String: Any])?["displayErrorMetres"] as? [String: Any])?["mean"] as? Double
        }
        let last = try Self.json(Self.ride)
        #expect(enRouteError(doc) != nil && enRouteError(doc) != enRouteError(last))
        let ideal = try Self.json(Self.ride + ["--network", "ideal"])
        #expect(ideal["view"] == nil && ideal["network"] == nil)
        let idealExtrapolating = try Self.json(Self.ride + ["--network", "ideal", "--viewer", "extrapolate"])
        #expect((idealExtrapolating["view"] as? [String: Any])?["network"] as? String == "ideal")
    }

    @Test("the seed drives the network's draws: the same seed, the same bytes; another seed, other delays")
    func seeds() throws {
        let a = try Run(["replay", "-f", "json", "--seed", "4"] + Self.ride).stdout
        #expect(a == (try Run(["replay", "-f", "json", "--seed", "4"] + Self.ride).stdout))
        #expect(a != (try Run(["replay", "-f", "json", "--seed", "5"] + Self.ride).stdout))
    }

    @Test(
        "bad values: one line naming the option and what it takes, exit 64",
        arguments: [
            (["--network", "fast"], "--network"),
            (["--viewer", "extrapolate:0"], "'0' is not a number of seconds above 0 and at most 3600"),
            (["--viewer", "extrapolate:x"], "'x' is not a number of seconds"),
            (["--viewer", "ahead"], "last or extrapolate[:SECONDS]"),
        ])
    func badValues(arguments: [String], message: String) throws {
        let r = try Run(["replay"] + Self.ride + arguments)
        #expect(r.status == 64 && r.stdout.isEmpty)
        // One line, then the usage hint every usage error ends with.
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("tracekit: ") == true && lines.first?.contains(message) == true, "\(r.stderr)")
        #expect(lines.count == 2 && lines.last == "See 'tracekit --help'.", "\(r.stderr)")
    }

    @Test("batch takes --network and records the view in its baseline; a baseline of another view is noted by the gate")
    func batch() throws {
        let dir = scratchFolder.appendingPathComponent("network-batch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ideal = try Run(["batch", "Traces/trips/ride", "--network", "ideal", "--write-baseline", "\(dir)/ideal.json"])
        #expect(ideal.status == 0, "\(ideal.stderr)")
        let baseline = try String(contentsOfFile: "\(dir)/ideal.json", encoding: .utf8)
        #expect(
            baseline.contains(
                "\"view\": \"network ideal (no delay, no loss, sampled at the sender's fixes) · viewer last received position\""))
        let realistic = try Run(["batch", "Traces/trips/ride", "--baseline", "\(dir)/ideal.json"])
        #expect(realistic.stdout.contains("note: view: the baseline used network ideal"), "\(realistic.stdout)")
    }
}
