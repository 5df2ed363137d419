import Testing
import TraceDomain
import TraceJSON

@testable import TraceSharing

/// The policy file's `tuned` member (`tracekit tune --out`) and the single-field readers.
@Suite("Policy files: the tuned member")
struct PolicyTuningFileTests {
    static let tuning = PolicyTuning(
        tracekitVersion: "0.1.0", corpus: ["Traces/"], trips: 12, requirements: ["enRoute.hirer.displayErrorP95<=25m"], judged: "every",
        objective: "energy", start: "seed")

    @Test("written and read back; a policy without it has none")
    func roundTrip() throws {
        var p = SharingPolicy.seed
        p.tuning = Self.tuning
        p[.enRoute].distanceFilter = 12
        let text = JSONWriter.string(p.fileJSON)
        #expect(text.contains("\"tuned\""))
        let back = try SharingPolicy(fileBytes: Array(text.utf8), file: "t.json")
        #expect(back == p)
        #expect(try SharingPolicy(fileBytes: Array(JSONWriter.string(SharingPolicy.seed.fileJSON).utf8), file: "s.json").tuning == nil)
    }

    @Test(
        "a bad tuned member is refused, naming the field",
        arguments: [
            (#"{"format": "tracekit-policy", "version": 2, "tuned": {}}"#, "needs version 3"),
            (#"{"format": "tracekit-policy", "version": 3, "tuned": {"tracekitVersion": "x"}}"#, "tuned.corpus"),
            (
                #"{"format": "tracekit-policy", "version": 3, "tuned": {"tracekitVersion": "x", "corpus": "a", "trips": 1, "requirements": [], "judged": "every", "objective": "energy", "start": "seed"}}"#,
                "tuned.corpus"
            ),
            (#"{"format": "tracekit-policy", "version": 3, "tuned": {"by": "me"}}"#, "unknown member"),
        ])
    func refused(text: String, expected: String) {
        #expect {
            _ = try SharingPolicy(fileBytes: Array(text.utf8), file: "p.json")
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test("the field readers use the policy file's ranges and messages")
    func fields() throws {
        let r = PolicyFieldReader(file: "space.json")
        #expect(try r.tier(JSONParser.parse(Array(#""best""#.utf8)), "tier[0]") == .best)
        #expect(try r.accuracyGate(JSONParser.parse(Array("null".utf8)), "g") == nil)
        #expect(
            try r.delivery(JSONParser.parse(Array(#"{"model": "distanceOrTime", "intervalSeconds": 20}"#.utf8)), "d")
                == .distanceOrTime(interval: 20))
        #expect {
            _ = try r.distanceFilter(JSONParser.parse(Array("-1".utf8)), "distanceFilterMetres[2]")
        } throws: { "\($0)".contains("distanceFilterMetres[2]") }
        #expect {
            _ = try r.tier(JSONParser.parse(Array(#""fast""#.utf8)), "tier[1]")
        } throws: { "\($0)".contains("tier[1]") && "\($0)".contains("unknown tier") }
    }

    @Test("equal but for the name, the tuning and what the rows' comparison leaves out")
    func equalsButRows() {
        var tuned = SharingPolicy.seed
        tuned.name = "tuned"
        tuned.tuning = Self.tuning
        #expect(tuned.equals(.seed, rows: ==) && SharingPolicy.seed.equals(tuned, rows: ==))
        var filtered = tuned
        filtered[.inTask].distanceFilter = 7
        #expect(!filtered.equals(.seed, rows: ==))
        #expect(filtered.equals(.seed) { $0.distanceFilter == $1.distanceFilter || $0.tier == .hundredMeters })
        var states: [AccuracyTier] = []
        #expect(filtered.equals(.seed) { a, _ in states.append(a.tier); return true })
        #expect(states == FulfilmentState.allCases.map { filtered[$0].tier })
    }
}
