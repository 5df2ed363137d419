import TraceBatch
import TraceIO

/// `batch --junit FILE`: JUnit XML as Jenkins, GitLab and GitHub's test reporters read it (the
/// common Ant/Jenkins schema: `testsuites` > `testsuite` > `testcase` > `failure` | `error`).
///
/// One test suite per trip (`name` and each case's `classname`: the trip's name). With a
/// baseline, one test case per figure, the gate's unit (``BatchReport/gateFailing``): per state,
/// role and metric (`En Route/helper/sent`, `…/displayErrorP95`, `…/energyTotal`, the metrics
/// named as `--tolerance` names them), failing with its diff line when the figure fails the gate
/// (`type` its verdict: `regression`; under `--strict` also `improvement`, `appeared`,
/// `disappeared`), so that `failures` is the verdict's count of figures failing the gate; a trip
/// new to the baseline is one case, `baseline` (failing under `--strict`). Without a baseline,
/// one case per trip, `replay`. A trip that failed to replay is one case, `replay`, with an
/// `error`; a baseline trip that was not run is a suite with one failing case, `baseline`; a trip
/// of a merged batch in no shard's lines (``notRun``), known only by its index, a suite `index N`
/// with one `replay` case with an `error`. A comment after the declaration gives the count in
/// words, as the verdict does. No times: the same results write the same bytes.
extension BatchReport {
    var junit: String {
        var suites: [String] = []
        var tests = 0, failures = 0, errors = 0
        func attr(_ s: String) -> String { Shown.html(s) }
        func suite(_ name: String, _ cases: [(name: String, failure: (type: String, message: String, text: String)?, error: Bool)]) {
            let f = cases.filter { $0.failure != nil && !$0.error }.count, e = cases.filter(\.error).count
            tests += cases.count
            failures += f
            errors += e
            var s = "  <testsuite name=\"\(attr(name))\" tests=\"\(cases.count)\" failures=\"\(f)\" errors=\"\(e)\" skipped=\"0\">\n"
            for c in cases {
                s += "    <testcase classname=\"\(attr(name))\" name=\"\(attr(c.name))\""
                if let fail = c.failure {
                    let tag = c.error ? "error" : "failure"
                    s +=
                        ">\n      <\(tag) message=\"\(attr(fail.message))\" type=\"\(attr(fail.type))\">\(attr(fail.text))</\(tag)>\n    </testcase>\n"
                } else {
                    s += "/>\n"
                }
            }
            suites.append(s + "  </testsuite>\n")
        }

        var compared: [String: TripComparison] = [:]
        for t in gate?.trips ?? [] { compared[t.trip] = t }
        let isNew = Set(gate?.new ?? [])
        for t in trips {
            let id = t.trip.id
            switch t.outcome {
            case .failure(let e):
                suite(id, [("replay", ("replay", e.message, e.message), true)])
            case .success:
                if let c = compared[id] {
                    // One case per figure: the gate's unit, so the failures are its count.
                    suite(
                        id,
                        c.figures.map { f in
                            let name = "\(f.state.displayName)/\(f.role.key)/\(f.metric.rawValue)"
                            let line = BatchCommand.namingTheFlag(f.line)
                            return (name, f.fails(strict: strict) ? (f.verdict.rawValue, line, line) : nil, false)
                        })
                } else if gate != nil && isNew.contains(id) {
                    let message = "new, not in the baseline"
                    suite(id, [("baseline", strict ? ("new", message, message + " (--strict): refresh the baseline") : nil, false)])
                } else {
                    suite(id, [("replay", nil, false)])
                }
            }
        }
        for i in notRun {
            let message = "in no shard's lines: not run"
            suite("index \(i)", [("replay", ("not run", message, message + " (merge: a shard's lines are missing)"), true)])
        }
        for id in gate?.missing ?? [] {
            let message = "in the baseline but not run"
            suite(
                id,
                [("baseline", ("missing", message, message + ": removed or renamed? refresh the baseline with --write-baseline"), false)])
        }
        // The count in words, as the verdict gives it, and the trips that fail a case of their own.
        var count = ""
        if let gate, let failing = gateFailing {
            count = "<!-- \(failing): one test case per figure (trip, state, role and metric)"
            if !gate.missing.isEmpty {
                count += "; \(gate.missing.count) baseline trip\(gate.missing.count == 1 ? "" : "s") not run, a failing case each"
            }
            if strict && !gate.new.isEmpty { count += "; \(Self.plural(gate.new.count, "new trip")) (strict), a failing case each" }
            count += " -->\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + count
            + "<testsuites name=\"tracekit batch\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
            + suites.joined() + "</testsuites>\n"
    }

}
