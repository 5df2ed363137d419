import TraceBatch

/// `merge --summary`: the reports of a batch whose trips were folded as their lines were read
/// and not kept (``BatchReport/folded``, ``BatchReport/notPassing``), so that memory does not
/// grow with them but for the index that finds a trip seen twice.
///
/// The table, `--markdown` and `--junit` give what the full reports give of the corpus, in the
/// same words and from the same builders: the verdict (and the exit status), the gate's counts,
/// per state and role before → after, the corpus per role and state, `--compare`'s A → B, the
/// energy. Instead of a row per trip they list the trips that did not pass (failed to replay,
/// failing the gate, new under `--strict`, not run, in the baseline and not run), each with its
/// reason: the first ``BatchReport/summaryListed`` in the batch's order, whatever the order of the
/// lines, then how many more. Text from the lines is written as the full reports write it
/// (``Shown``).
extension BatchReport {
    /// The trips that did not pass a summary lists; the others are counted ("and N more").
    static let summaryListed = 100

    /// A trip that did not pass, as a summary lists it.
    struct NotPassed {
        enum Kind { case failed, gate, new, notRun, missing }

        /// Its index in the batch's order; nil for a baseline trip that was not run, known only by
        /// its name (listed after the others).
        var index: Int?
        /// Its name ("index N" for a trip in no shard's lines).
        var trip: String
        var kind: Kind
        /// Why, on one line.
        var reason: String
        /// JUnit's failure: its type and text (a trip that failed: the error's message; failing the
        /// gate: its verdict, and its figures that fail, per state and role).
        var type = "", text = ""

        /// A trip that failed to replay.
        static func failed(_ index: Int, _ trip: String, _ e: BatchTripError) -> NotPassed {
            NotPassed(index: index, trip: trip, kind: .failed, reason: "failed to replay: \(e.message)", type: "replay", text: e.message)
        }

        /// A trip whose figures fail the gate (`c`): its standing, and the first state and role that
        /// fails it.
        static func gate(_ index: Int, _ c: TripComparison, strict: Bool) -> NotPassed {
            let failing = c.groups.filter { $0.fails(strict: strict) }
            var reason = BatchReport.standing(c, strict: strict).text
            if let g = failing.first { reason += ": \(g.place): \(g.changes)" }
            if failing.count > 1 { reason += "; and \(failing.count - 1) more state\(failing.count == 2 ? " and role" : "s and roles")" }
            return NotPassed(
                index: index, trip: c.trip, kind: .gate, reason: reason,
                type: c.regressions.isEmpty ? "strict" : GateVerdict.regression.rawValue,
                text: failing.map { "\($0.tag(strict: strict)) \($0.place): \($0.changes)" }.joined(separator: "; "))
        }

        /// A trip the baseline does not list, under `--strict`.
        static func new(_ index: Int, _ trip: String) -> NotPassed {
            NotPassed(index: index, trip: trip, kind: .new, reason: "✗ new (strict): not in the baseline")
        }

        /// A trip in no shard's lines.
        static func notRun(_ index: Int) -> NotPassed {
            NotPassed(index: index, trip: "index \(index)", kind: .notRun, reason: "not run: in no shard's lines")
        }

        /// A baseline trip in no line.
        static func missing(_ trip: String) -> NotPassed {
            NotPassed(
                index: nil, trip: trip, kind: .missing,
                reason: BatchCommand.namingTheFlag("in the baseline but not run (removed or renamed? \(GateComparison.refreshAdvice))"))
        }
    }

    /// The trips that did not pass: how many, and the first ``cap`` in the batch's order (the
    /// baseline trips not run after the others, in the order added), whatever order they are
    /// added in. Memory: `cap` trips.
    struct NotPassing {
        var cap = BatchReport.summaryListed
        private(set) var listed: [NotPassed] = []
        private(set) var count = 0

        /// Those not listed.
        var more: Int { count - listed.count }

        mutating func add(_ t: NotPassed) {
            count += 1
            let key = t.index ?? .max
            // After every entry of a smaller or equal key.
            var lo = 0, hi = listed.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if (listed[mid].index ?? .max) <= key { lo = mid + 1 } else { hi = mid }
            }
            guard lo < cap else { return }
            listed.insert(t, at: lo)
            if listed.count > cap { listed.removeLast() }
        }
    }

    /// "Trips that did not pass (250), the first 100 in the batch's order".
    var notPassingTitle: String {
        let n = notPassing?.count ?? 0, shown = notPassing?.listed.count ?? 0
        guard n > 0 else { return "Trips that did not pass: none" }
        return "Trips that did not pass (\(n))" + (shown < n ? ", the first \(shown) in the batch's order" : ", in the batch's order")
    }

    /// "and 150 more (merge without --summary lists every trip)"; nil when every one is listed.
    var notPassingMore: String? {
        guard let p = notPassing, p.more > 0 else { return nil }
        return "and \(p.more) more (merge without --summary lists every trip)"
    }

    /// The gate section's title in a summary: the gate's count, and where its trips are (those
    /// failing it are among the trips that did not pass; figures beyond tolerance that pass are
    /// counted, not listed).
    var summaryGateTitle: String? {
        guard let gate, let failing = gateFailing else { return nil }
        let beyond = gate.counts.shown, failingFigures = gate.failingFigures(strict: strict), passing = beyond - failingFigures
        guard beyond > 0 else { return failing + "; nothing beyond tolerance" }
        var title = failing
        if failingFigures > 0 { title += "; its trips are among those that did not pass" }
        if passing > 0 {
            title += "; \(Self.plural(passing, "figure")) beyond tolerance \(passing == 1 ? "passes" : "pass") (counted, not listed)"
        }
        return title
    }

    /// The gate's notes and advice (no line per trip).
    var summaryGateListing: [String] { gate.map { $0.lines(strict: strict, trips: false).map(BatchCommand.namingTheFlag) } ?? [] }

    /// What the full report lists trip by trip and a summary only counts; nil when nothing.
    var summaryLeftOut: String? {
        let f = folded
        let parts = [
            f.withDataProblems > 0 ? "\(Self.plural(f.withDataProblems, "trip")) with data problems" : nil,
            f.withInferred > 0 ? "\(Self.plural(f.withInferred, "trip")) with inferred items" : nil,
            f.asEachState > 0 ? "\(Self.plural(f.asEachState, "trip")) answered as each state" : nil,
        ].compactMap { $0 }
        guard !parts.isEmpty else { return nil }
        return "Not listed in a summary: " + parts.joined(separator: ", ") + " (merge without --summary lists them)"
    }

    /// The terminal report of a summary.
    var summaryTable: String {
        let t = Shown.terminal
        var out = tableHead
        out += "\n\(notPassingTitle)\n"
        for p in notPassing?.listed ?? [] { out += "  \(t(p.trip)): \(t(p.reason))\n" }
        if let more = notPassingMore { out += "  \(more)\n" }
        if let path = baselinePath {
            out += "\nGate against \(t(path)): \(summaryGateTitle ?? "")\n"
            if let legend = gateLegend, gate?.failingFigures(strict: strict) ?? 0 > 0 { out += legend + "\n" }
            for l in summaryGateListing { out += "  \(t(l))\n" }
        }
        out += tableAggregates
        if let l = summaryLeftOut { out += "\n" + l + "\n" }
        return out
    }

    /// `--markdown` of a summary: the head, the trips that did not pass (``markdownShown`` of
    /// them before the folds), the gate, the corpus.
    var summaryMarkdown: String {
        let md = Shown.markdown, code = Shown.markdownCode
        var out = markdownHead + markdownCompareTop
        let listed = notPassing?.listed ?? []
        out += "\n**\(notPassingTitle)**\(listed.isEmpty ? "" : ":")\n"
        if !listed.isEmpty { out += "\n" }
        for p in listed.prefix(Self.markdownShown) { out += "- \(code(p.trip)): \(md(p.reason))\n" }
        if listed.count > Self.markdownShown {
            out += "- and \(listed.count - Self.markdownShown + (notPassing?.more ?? 0)) more in the details below\n"
            out += "\n<details><summary>\(Shown.html(notPassingTitle))</summary>\n\n"
            for p in listed { out += "- \(code(p.trip)): \(md(p.reason))\n" }
            if let more = notPassingMore { out += "- \(md(more))\n" }
            out += "\n</details>\n"
        } else if let more = notPassingMore {
            out += "- \(md(more))\n"
        }
        if let path = baselinePath {
            out += "\n<details><summary>Gate against \(Shown.html(path)): \(summaryGateTitle ?? "")</summary>\n\n"
            if let legend = gateLegend, gate?.failingFigures(strict: strict) ?? 0 > 0 { out += legend + "\n\n" }
            for l in summaryGateListing { out += "- \(md(l))\n" }
            out += "\n</details>\n"
        }
        out += markdownAggregates
        if let l = summaryLeftOut { out += "\n\(md(l))\n" }
        return out
    }

    /// `--junit` of a summary: a suite per trip listed that did not pass, as the full report
    /// writes its case (a trip failing the gate: one case, `gate`, its figures failing in the
    /// text), and a suite `corpus` whose one case, `summary`, carries the counts and fails with
    /// the verdict when the batch fails.
    var summaryJUnit: String {
        var x = JUnitSuites()
        for p in notPassing?.listed ?? [] {
            switch p.kind {
            case .failed: x.suite(p.trip, [JUnitSuites.Case("replay", (p.type, p.text, p.text), error: true)])
            case .gate: x.suite(p.trip, [JUnitSuites.Case("gate", (p.type, p.reason, p.text), error: false)])
            case .new: x.suite(p.trip, [newCase])
            case .notRun: x.suite(p.trip, [Self.notRunCase])
            case .missing: x.suite(p.trip, [Self.missingCase])
            }
        }
        let plain = verdict { $0 }
        var counts =
            "\(Self.plural(corpusSize, "trip")): \(folded.replayed) replayed, \(folded.failed) failed, \(notRun.count) not run; \(notPassing?.count ?? 0) did not pass, \(notPassing?.listed.count ?? 0) listed as a suite each"
        if let g = gateCounts { counts += "; gate: \(g)" }
        x.suite("corpus", [JUnitSuites.Case("summary", passed ? nil : ("batch", plain, plain), error: false, out: counts)])
        var comment = "a summary: one test case per trip that did not pass (the first \(Self.summaryListed)) and one for the corpus"
        if let failing = gateFailing { comment = "\(failing); " + comment }
        return x.document(comment: comment)
    }
}
