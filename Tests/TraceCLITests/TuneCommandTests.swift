import Foundation
import TestSupport
import Testing
import TraceJSON

/// `tracekit tune`, end to end: the policy it writes, reproduced by `batch`; infeasible
/// requirements; the same output on any number of jobs; bad input.
@Suite("tracekit tune, end to end", .serialized)
struct TuneCommandTests {
    static let scratch = BatchCommandTests.scratch
    static let read = BatchCommandTests.read

    /// A small space (En Route: 3 filters × 2 models; At Pickup: 3 filters; In Task left alone),
    /// so a debug build tunes the bundled corpus in seconds.
    static func space(_ dir: String) throws -> String {
        let path = "\(dir)/space.json"
        try #"""
        {"format": "tracekit-tune-space", "version": 1, "accuracyGate": [null],
         "states": {"enRoute": {"distanceFilterMetres": [10, 30, 75], "delivery": [{"model": "coreLocation"}, {"model": "distanceOrTime", "intervalSeconds": 30}]},
                    "atPickup": {"distanceFilterMetres": [5, 13, 50], "delivery": [{"model": "coreLocation"}]}, "inTask": false}}
        """#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }
}

extension JSONValue {
    fileprivate var stringValue: String? { if case .string(let s) = kind { s } else { nil } }
    fileprivate var boolValue: Bool? { if case .bool(let b) = kind { b } else { nil } }
    fileprivate var numberValue: Double? { if case .number(let x) = kind { x } else { nil } }
    fileprivate var arrayValue: [JSONValue]? { if case .array(let a) = kind { a } else { nil } }
}

extension TuneCommandTests {
    @Test("the bundled corpus: the policy written is valid, names its corpus, and batch with it reproduces tune's figures")
    func reproduced() throws {
        try Self.scratch { dir in
            let tune = try Run([
                "tune", "Traces/", "--space", try Self.space(dir), "--require", "enRoute.hirer.displayErrorP95<=150m", "--require",
                "arrival.pickup.hirer<=30s", "--judge", "pooled", "--out", "\(dir)/tuned.json", "--format", "json",
            ])
            #expect(tune.status == 0, "\(tune.stderr)")
            let report = try Self.json(tune.stdout)
            #expect(report["schema"]?.stringValue == "tracekit-tune/1")
            #expect(report["met"]?.boolValue == true)
            let validate = try Run(["policy", "validate", "\(dir)/tuned.json"])
            #expect(validate.status == 0, "\(validate.stderr)")
            let policy = try Self.read("\(dir)/tuned.json")
            #expect(policy.contains("\"tuned\"") && policy.contains("enRoute.hirer.displayErrorP95<=150m") && policy.contains("Traces/"))
            #expect(policy.contains("\"tracekitVersion\""))

            // batch with the written policy: every trip's energy and updates add up to tune's figures.
            let batch = try Run(["batch", "Traces/", "--policy", "\(dir)/tuned.json", "--jsonl", "--jobs", "2"])
            #expect(batch.status == 0, "\(batch.stderr)")
            var joules = 0.0, sent = 0
            var lines = batch.stdout.split(separator: "\n").map { try? Self.json(String($0)) }
            lines.sort { ($0?["index"]?.numberValue ?? 0) < ($1?["index"]?.numberValue ?? 0) }
            for line in lines {
                for phone in line?["report"]?["perPhone"]?.arrayValue ?? [] {
                    joules += phone["joules"]?.numberValue ?? 0
                    sent += Int(phone["sent"]?.numberValue ?? 0)
                }
            }
            let tuned = report["tuned"]?["figures"]
            #expect(lines.count == 12)
            #expect(abs(joules - (tuned?["objective"]?.numberValue ?? -1)) < 1e-6 * joules)
            #expect(sent == Int(tuned?["sent"]?.numberValue ?? -1))
        }
    }

    @Test("infeasible: exit 1, one line per requirement missed with the best any candidate reached, and no policy written")
    func infeasible() throws {
        try Self.scratch { dir in
            let r = try Run([
                "tune", "Traces/trips/ride", "--space", try Self.space(dir), "--require", "enRoute.hirer.displayErrorP95<=2m", "--require",
                "arrival.pickup.hirer<=30s", "--out", "\(dir)/tuned.json",
            ])
            #expect(r.status == 1)
            #expect(
                r.stderr.contains(
                    "tracekit: tune: the search found no policy that meets enRoute.hirer.displayErrorP95<=2m (in En Route, viewer hirer): the best any candidate reached is"
                ), "\(r.stderr)")
            #expect(!r.stderr.contains("arrival.pickup.hirer<=30s ("))
            #expect(r.stderr.contains("no policy written"))
            #expect(r.stdout.contains("Not met"))
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/tuned.json"))
        }
    }

    @Test("requirements each met by some candidate but never together: the line says so")
    func jointlyInfeasible() throws {
        try Self.scratch { dir in
            let r = try Run([
                "tune", "Traces/trips/ride", "--space", try Self.space(dir), "--require", "enRoute.hirer.displayErrorP95<=20m", "--require",
                "enRoute.helper.sentPerMinute<=10",
            ])
            #expect(r.status == 1)
            // A 10 m filter keeps the hirer's view within 20 m, sending about 45 a minute; 75 m sends
            // under 10 a minute, the view 80 m off.
            #expect(r.stderr.contains("together with the other requirements: alone, a candidate reached"), "\(r.stderr)")
        }
    }

    @Test("the same output on 1 and 2 jobs and between runs; the SVG and HTML written")
    func deterministic() throws {
        try Self.scratch { dir in
            let args = [
                "tune", "Traces/trips/ride", "Traces/trips/dog-walk", "--space", try Self.space(dir), "--require",
                "enRoute.hirer.displayErrorP95<=30m", "--format", "json",
            ]
            let one = try Run(args + ["--jobs", "1", "--svg", "\(dir)/a.svg", "--html", "\(dir)/a.html"])
            let two = try Run(args + ["--jobs", "2", "--svg", "\(dir)/b.svg", "--html", "\(dir)/b.html"])
            let again = try Run(args + ["--jobs", "2"])
            #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
            #expect(one.stdout == two.stdout && two.stdout == again.stdout)
            #expect(try Self.read("\(dir)/a.svg") == Self.read("\(dir)/b.svg"))
            let svg = try Self.read("\(dir)/a.svg")
            #expect(svg.contains("class=\"frontier\"") && svg.contains("class=\"tuned\"") && svg.contains("<title>"))
            let html = try Self.read("\(dir)/a.html")
            #expect(html.contains("<h2>Requirements</h2>") && html.contains("<svg ") && !html.contains("http://"))
            let table = try Run(Array(args.dropLast(2)))
            #expect(table.stdout.contains("Met: the tuned policy meets every requirement") && table.stdout.contains("The limit"))
            #expect(table.stdout.contains("Frontier, En Route"))
        }
    }

    @Test(
        "bad input: one line and the documented status",
        arguments: [
            (["--require", "enRoute.hirer.displayErrorP95<=25"], 64, "requirement 'enRoute.hirer.displayErrorP95<=25'"),
            ([String](), 64, "give at least one requirement"),
            (
                ["--require", "enRoute.hirer.displayErrorP95<=25m", "--minimize", "money"], 64,
                "tracekit: '--minimize' takes energy, energy-worst, energy.ROLE (hirer, helper, delegate), sent or forwarded, not 'money'"
            ),
            (["--minimize", "sent"], 64, "tracekit: give at least one requirement (--require or --require-file)"),
            (["--require", "enRoute.hirer.displayErrorP95<=25m", "--space", "Traces/baseline.json"], 65, "Traces/baseline.json:"),
            (["--require", "enRoute.hirer.displayErrorP95<=25m", "--policy", "/nonexistent/p.json"], 66, "/nonexistent/p.json"),
            (["--require", "enRoute.hirer.displayErrorP95<=25m", "--keep-tolerance", "10"], 64, "'--keep-tolerance 10': '10': unit ''"),
            (
                ["--require", "enRoute.hirer.displayErrorP95<=25m", "--release", "trip.hirer"], 64,
                "'--release trip.hirer': figures are kept per state"
            ),
        ])
    func refuses(args: [String], status: Int32, message: String) throws {
        let r = try Run(["tune", "Traces/trips/ride"] + args)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("options that need each other are checked when read (validate), before any input is opened")
    func validatesFirst() throws {
        // A corpus that does not exist would be 66; the missing requirement is found first.
        let r = try Run(["tune", "/nonexistent/corpus", "--minimize", "sent"])
        #expect(
            r.status == 64 && r.stderr.hasPrefix("tracekit: give at least one requirement (--require or --require-file)\n"), "\(r.stderr)")
        let objective = try Run(["tune", "/nonexistent/corpus", "--require", "enRoute.hirer.displayErrorP95<=25m", "--minimize", "money"])
        #expect(objective.status == 64 && objective.stderr.contains("'--minimize' takes"), "\(objective.stderr)")
    }

    @Test("--check-start: a shipped policy off the frontier or missing a requirement fails; the tuned one, re-tuned, passes")
    func checkStart() throws {
        try Self.scratch { dir in
            let base = [
                "tune", "Traces/trips/ride", "Traces/trips/dog-walk", "--space", try Self.space(dir), "--require",
                "enRoute.hirer.displayErrorP95<=30m",
            ]
            // The seed misses the requirement on the ride (36 m).
            let seed = try Run(base + ["--check-start", "1%", "--out", "\(dir)/tuned.json"])
            #expect(seed.status == 1)
            #expect(
                seed.stderr.contains("tracekit: tune: the start policy 'seed' misses enRoute.hirer.displayErrorP95<=30m"), "\(seed.stderr)")
            // The tuned policy as the start: nothing cheaper meets the requirement.
            let again = try Run(base + ["--policy", "\(dir)/tuned.json", "--check-start", "0"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("Met: the start already is the cheapest policy found"))
            // A loose requirement the seed meets: with every other figure kept near the seed's (the
            // default), nothing much cheaper; with them released, far from the cheapest.
            let kept = try Run(Array(base.dropLast()) + ["enRoute.hirer.displayErrorP95<=500m", "--check-start", "2"])
            #expect(kept.status == 0, "\(kept.stderr)")
            let loose = try Run(
                Array(base.dropLast()) + ["enRoute.hirer.displayErrorP95<=500m", "--check-start", "2", "--release", "all"])
            #expect(loose.status == 1)
            #expect(loose.stderr.contains("is off the frontier: the tuned policy costs"), "\(loose.stderr)")
            #expect(try Run(Array(base.dropLast()) + ["enRoute.hirer.displayErrorP95<=500m", "--check-start", "101"]).status == 64)
        }
    }

    @Test("a requirement file: comments and blank lines skipped; a bad line named by file and line")
    func requirementFile() throws {
        try Self.scratch { dir in
            try "# the hirer's view\n\nenRoute.hirer.displayErrorP95<=30m  # on the way\nbogus\n".write(
                toFile: "\(dir)/req.txt", atomically: true, encoding: .utf8)
            let r = try Run(["tune", "Traces/trips/ride", "--require-file", "\(dir)/req.txt"])
            #expect(r.status == 65)
            #expect(r.stderr.contains("\(dir)/req.txt:4: requirement 'bogus'"), "\(r.stderr)")
        }
    }

    @Test("a requirement file with CR LF line ends and a byte order mark; a requirement nothing has is warned about")
    func crlf() throws {
        try Self.scratch { dir in
            try "\u{FEFF}# the hirer's view\r\nenRoute.hirer.displayErrorP95<=30m\r\n\r\narrival.dropoff.delegate<=5s\r\n".write(
                toFile: "\(dir)/req.txt", atomically: true, encoding: .utf8)
            let r = try Run([
                "tune", "Traces/trips/ride", "--space", try Self.space(dir), "--require-file", "\(dir)/req.txt", "--format", "json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("enRoute.hirer.displayErrorP95<=30m") && r.stdout.contains("arrival.dropoff.delegate<=5s"))
            #expect(r.stderr.contains("tracekit: warning: tune: no trip has a figure for arrival.dropoff.delegate<=5s"), "\(r.stderr)")
        }
    }

    @Test("a trip that cannot be read stops the tune with its status, naming it")
    func unreadableTrip() throws {
        // A manifest on standard input, whose lines may name any path (a manifest file's stay in
        // its folder).
        let manifest = "\(packageRoot.path)/Traces/trips/ride\n/nonexistent/trip.gpx\n"
        let r = try Run(["tune", "-", "--require", "enRoute.hirer.displayErrorP95<=30m"], stdin: manifest)
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr.contains("/nonexistent/trip.gpx"))
    }

    @Test(
        "the figures no requirement names are kept by default, listed with which bind; --release gives them up, worse figures highlighted")
    func kept() throws {
        try Self.scratch { dir in
            let base = ["tune", "Traces/trips/ride", "--space", try Self.space(dir), "--require", "enRoute.hirer.displayErrorP95<=40m"]
            // The seed meets the requirement; a 50 m filter at the pickup would be cheaper, and would
            // show the helper the hirer 26.6 m off there no longer.
            let kept = try Run(base + ["--format", "json"])
            #expect(kept.status == 0, "\(kept.stderr)")
            let report = try Self.json(kept.stdout)
            #expect(report["keep"]?["tolerance"]?.stringValue == "10%,2m,2s")
            #expect(report["changes"]?.arrayValue?.isEmpty == true)
            let figures = report["kept"]?.arrayValue ?? []
            let pickup = try #require(figures.first { $0["figure"]?.stringValue == "atPickup.helper.displayErrorP95" })
            #expect(pickup["start"]?.numberValue == 26.6 && pickup["allowed"]?.numberValue == 29.3)
            #expect(pickup["binds"]?.boolValue == true || pickup["bindsJointly"]?.boolValue == true)
            #expect(!figures.contains { $0["figure"]?.stringValue == "enRoute.hirer.displayErrorP95" })
            let table = try Run(base)
            #expect(
                table.stdout.contains("Kept: ") && table.stdout.contains("Kept figure")
                    && table.stdout.contains("atPickup.helper.displayErrorP95"))
            #expect(table.stdout.contains("Met: the start already is the cheapest policy found"))

            // Released, At Pickup goes to 50 m: the report marks what got worse.
            let released = try Run(base + ["--release", "atPickup", "--format", "json"])
            #expect(released.status == 0, "\(released.stderr)")
            let relaxed = try Self.json(released.stdout)
            #expect(relaxed["keep"]?["released"]?.arrayValue?.compactMap(\.stringValue) == ["atPickup"])
            #expect(
                relaxed["changes"]?.arrayValue?.contains {
                    $0["state"]?.stringValue == "atPickup" && $0["field"]?.stringValue == "distance filter"
                        && $0["tuned"]?.stringValue == "50 m"
                } == true)
            #expect(relaxed["kept"]?.arrayValue?.contains { $0["figure"]?.stringValue?.hasPrefix("atPickup.") == true } == false)
            let markdown = try Run(base + ["--release", "atPickup", "--format", "markdown", "--html", "\(dir)/tune.html"])
            #expect(markdown.stdout.contains("## Kept") && markdown.stdout.contains("released: atPickup"))
            // At Pickup, the hirer's phone: what the helper saw of it, 26.6 m at p95, now worse.
            #expect(markdown.stdout.contains("| At Pickup | hirer |") && markdown.stdout.contains("**26.6 → "), "\(markdown.stdout)")
            #expect(markdown.stdout.contains(" ▲** |") && markdown.stdout.contains("▲: worse than the start's."))
            let html = try Self.read("\(dir)/tune.html")
            #expect(html.contains("<td class=\"num worse\">26.6 → ") && html.contains("td.worse {"))
            // Nothing got worse without the release: nothing marked.
            let same = try Run(base + ["--format", "markdown"])
            #expect(!same.stdout.contains("▲**"))

            let none = try Run(base + ["--release", "all"])
            #expect(none.stdout.contains("Kept: nothing: every figure is released (--release all)"))
            #expect(none.stdout.contains("At Pickup  distance filter  13 m   50 m"), "\(none.stdout)")
            let widened = try Run(base + ["--keep-tolerance", "500%", "--format", "json"])
            #expect(try Self.json(widened.stdout)["keep"]?["tolerance"]?.stringValue == "500%,2m,2s")
        }
    }

    @Test("a trip no candidate can meet a requirement on is named with why; --skip-infeasible leaves it out and the report lists it")
    func infeasibleTrip() throws {
        try Self.scratch { dir in
            let sparse = "Traces/real/trackintel-google_location_history.scenario.json"
            let args = [
                "tune", "Traces/trips/ride", sparse, "--space", try Self.space(dir), "--require", "enRoute.hirer.displayErrorP95<=150m",
            ]
            let r = try Run(args + ["--out", "\(dir)/tuned.json"])
            #expect(r.status == 1)
            #expect(
                r.stderr.contains(
                    "tracekit: tune: no candidate meets enRoute.hirer.displayErrorP95<=150m on \(sparse): the best any candidate reached there is "
                ) && r.stderr.contains("a median 69 s apart") && r.stderr.contains("--skip-infeasible leaves such trips out"), "\(r.stderr)"
            )
            #expect(r.stdout.contains("Trips on which no candidate meets a requirement (--skip-infeasible leaves them out of the search)"))

            let skipped = try Run(args + ["--skip-infeasible", "--out", "\(dir)/tuned.json", "--format", "json"])
            #expect(skipped.status == 0, "\(skipped.stderr)")
            #expect(
                skipped.stderr.contains(
                    "tracekit: warning: tune: left out 1 trip on which no candidate meets a requirement (--skip-infeasible): \(sparse)"))
            let report = try Self.json(skipped.stdout)
            #expect(report["met"]?.boolValue == true)
            #expect(report["leftOut"]?.arrayValue?.compactMap(\.stringValue) == [sparse])
            #expect(report["trips"]?.arrayValue?.compactMap(\.stringValue) == ["ride.scenario.json"])
            let named = try #require(report["infeasibleTrips"]?.arrayValue?.first)
            #expect(named["leftOut"]?.boolValue == true && named["fixGaps"]?["fixes"]?.numberValue == 21)
            #expect(try Self.read("\(dir)/tuned.json").contains("\"trips\": 1"))
            let table = try Run(args + ["--skip-infeasible"])
            #expect(table.stdout.contains("Left out: 1 trip on which no candidate meets a requirement (--skip-infeasible): \(sparse)"))
            #expect(table.stdout.contains("left out of the search (--skip-infeasible)"))
        }
    }
}
