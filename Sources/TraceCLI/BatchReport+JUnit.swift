import TraceBatch
import TraceIO

/// `batch --junit FILE`: JUnit XML as Jenkins, GitLab and GitHub's test reporters read it (the
/// common Ant/Jenkins schema: `testsuites` > `testsuite` > `testcase` > `failure` | `error`).
///
/// One test suite per trip (`name` and each case's `classname`: the trip's name). With a
/// baseline, one test case per state, role and metric group (`En Route/helper/updates`,
/// `…/view`, `…/energy`), failing with the group's diff lines when a figure of the group fails
/// the gate; a trip new to the baseline is one case, `baseline` (failing under `--strict`).
/// Without a baseline, one case per trip, `replay`. A trip that failed to replay is one case,
/// `replay`, with an `error`; a baseline trip that was not run is a suite with one failing case,
/// `baseline`; a trip of a merged batch in no shard's lines (``notRun``), known only by its index,
/// a suite `index N` with one `replay` case with an `error`. No times: the same results write the
/// same bytes.
extension BatchReport {
    var junit: String {
        var suites: [String] = []
        var tests = 0, failures = 0, errors = 0
        func attr(_ s: String) -> String {
            var dropped = 0
            return xmlEscaped(s, dropped: &dropped)
        }
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
                    var cases: [(name: String, failure: (type: String, message: String, text: String)?, error: Bool)] = []
                    var groups: [(key: String, figures: [ComparedFigure])] = []
                    for f in c.figures {
                        let key = "\(f.state.displayName)/\(f.role.key)/\(f.metric.group.rawValue)"
                        if let i = groups.firstIndex(where: { $0.key == key }) {
                            groups[i].figures.append(f)
                        } else {
                            groups.append((key, [f]))
                        }
                    }
                    for g in groups {
                        let failing = g.figures.filter { $0.fails(strict: strict) }
                        if let first = failing.first {
                            let type = failing.contains { $0.verdict == .regression } ? "regression" : "changed"
                            cases.append((g.key, (type, first.line, failing.map(\.line).joined(separator: "\n")), false))
                        } else {
                            cases.append((g.key, nil, false))
                        }
                    }
                    suite(id, cases)
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
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"tracekit batch\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
            + suites.joined() + "</testsuites>\n"
    }
}
