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
        var x = JUnitSuites()
        func suite(_ name: String, _ cases: [JUnitSuites.Case]) { x.suite(name, cases) }

        var compared: [String: TripComparison] = [:]
        for t in gate?.trips ?? [] { compared[t.trip] = t }
        let isNew = Set(gate?.new ?? [])
        for t in trips {
            let id = t.trip.id
            switch t.outcome {
            case .failure(let e):
                suite(id, [JUnitSuites.Case("replay", ("replay", e.message, e.message), error: true)])
            case .success:
                if let c = compared[id] {
                    // One case per figure: the gate's unit, so the failures are its count.
                    suite(
                        id,
                        c.figures.map { f in
                            let name = "\(f.state.displayName)/\(f.role.key)/\(f.metric.rawValue)"
                            let line = BatchCommand.namingTheFlag(f.line)
                            return JUnitSuites.Case(name, f.fails(strict: strict) ? (f.verdict.rawValue, line, line) : nil, error: false)
                        })
                } else if gate != nil && isNew.contains(id) {
                    suite(id, [newCase])
                } else {
                    suite(id, [JUnitSuites.Case("replay", nil, error: false)])
                }
            }
        }
        for i in notRun { suite("index \(i)", [Self.notRunCase]) }
        for id in gate?.missing ?? [] { suite(id, [Self.missingCase]) }
        // The count in words, as the verdict gives it, and the trips that fail a case of their own.
        var count = ""
        if let gate, let failing = gateFailing {
            count = "\(failing): one test case per figure (trip, state, role and metric)"
            if !gate.missing.isEmpty {
                count += "; \(gate.missing.count) baseline trip\(gate.missing.count == 1 ? "" : "s") not run, a failing case each"
            }
            if strict && gate.counts.new > 0 { count += "; \(Self.plural(gate.counts.new, "new trip")) (strict), a failing case each" }
        }
        return x.document(comment: count)
    }

    /// The case of a trip in no shard's lines (suite `index N`).
    static var notRunCase: JUnitSuites.Case {
        let message = "in no shard's lines: not run"
        return JUnitSuites.Case("replay", ("not run", message, message + " (merge: a shard's lines are missing)"), error: true)
    }

    /// The case of a trip new to the baseline (failing under `--strict`).
    var newCase: JUnitSuites.Case {
        let message = "new, not in the baseline"
        return JUnitSuites.Case("baseline", strict ? ("new", message, message + " (--strict): refresh the baseline") : nil, error: false)
    }

    /// The case of a baseline trip that was not run.
    static var missingCase: JUnitSuites.Case {
        let message = "in the baseline but not run"
        return JUnitSuites.Case(
            "baseline", ("missing", message, message + ": removed or renamed? refresh the baseline with --write-baseline"), error: false)
    }
}

/// A JUnit document's suites, written as they are added, with the counts its root gives.
/// Attributes and texts are written with ``Shown/html(_:)``.
struct JUnitSuites {
    /// One test case: its name, and its failure (an `error` when `error`) with the failure's type,
    /// message and text; `out` its `system-out`.
    struct Case {
        var name: String
        var failure: (type: String, message: String, text: String)?
        var error = false
        var out: String?

        init(_ name: String, _ failure: (type: String, message: String, text: String)?, error: Bool, out: String? = nil) {
            self.name = name
            self.failure = failure
            self.error = error
            self.out = out
        }
    }

    private var suites: [String] = []
    private(set) var tests = 0, failures = 0, errors = 0

    /// Adds a suite named `name` (each case's `classname` too).
    mutating func suite(_ name: String, _ cases: [Case]) {
        func attr(_ s: String) -> String { Shown.html(s) }
        let f = cases.filter { $0.failure != nil && !$0.error }.count, e = cases.filter(\.error).count
        tests += cases.count
        failures += f
        errors += e
        var s = "  <testsuite name=\"\(attr(name))\" tests=\"\(cases.count)\" failures=\"\(f)\" errors=\"\(e)\" skipped=\"0\">\n"
        for c in cases {
            s += "    <testcase classname=\"\(attr(name))\" name=\"\(attr(c.name))\""
            guard c.failure != nil || c.out != nil else {
                s += "/>\n"
                continue
            }
            s += ">\n"
            if let fail = c.failure {
                let tag = c.error ? "error" : "failure"
                s += "      <\(tag) message=\"\(attr(fail.message))\" type=\"\(attr(fail.type))\">\(attr(fail.text))</\(tag)>\n"
            }
            if let out = c.out { s += "      <system-out>\(attr(out))</system-out>\n" }
            s += "    </testcase>\n"
        }
        suites.append(s + "  </testsuite>\n")
    }

    /// The document: the declaration, `comment` (when not empty; never with a "--"), the suites.
    func document(comment: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + (comment.isEmpty ? "" : "<!-- \(comment) -->\n")
            + "<testsuites name=\"tracekit batch\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
            + suites.joined() + "</testsuites>\n"
    }
}
