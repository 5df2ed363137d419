import TraceBatch
import TraceDomain

/// `batch --html FILE`: one self-contained page in the house style (``HTMLPage``), with the
/// parts of the table output in its order, each with a stable id for tests and links:
///
/// - `p#verdict.verdict.pass` or `.fail`: the verdict in words;
/// - `section#trips`: the trips replayed (rows `tr.regression` / `tr.improvement` by their
///   standing against the baseline);
/// - `section#failed` (only when a trip failed): each failed trip and its reason (`tr.failed`);
/// - `section#gate` (with a baseline): `p#gate-count`, the gate's count in its unit (figures
///   failing the gate, as in the verdict); the figures beyond tolerance, one row per trip, state
///   and role; the missing and new trips, the notes;
/// - `section#states`: per state and role, the figures before → after (with a baseline or
///   `--compare`), and the corpus aggregate;
/// - `section#inferred` (when any): the scenario items inferred per trip;
/// - `section.trip` per replayed trip (`id` `trip-1`, `trip-2`, … in the trips' order, `data-trip`
///   its name), with its picture as `replay --svg`
///   draws it.
extension BatchReport {
    var html: String {
        let esc = HTMLPage.escape
        var body = "<h1>TraceKit batch: \(esc(Self.plural(trips.count, "trip"))), policy \(esc(header.policyName))"
        body += policyB.map { " vs \(esc($0))" } ?? ""
        body += "</h1>\n"
        body += "<p id=\"verdict\" class=\"verdict \(passed ? "pass" : "fail")\">\(passed ? "✓" : "✗") \(esc(verdict))</p>\n"
        body +=
            "<p class=\"note\">Inputs \(esc(inputs.joined(separator: ", ")))\(shard.map { " (shard \($0.index)/\($0.count))" } ?? "") · energy \(esc(header.energyLabel)) (an estimate) · receiver radio \(header.receiverRadio ? "on" : "off") · tracekit \(esc(header.tracekitVersion)) · view \(esc(header.view))</p>\n"

        let rows = tripRows
        body += "<section id=\"trips\">\n<h2>Trips replayed (\(rows.count))</h2>\n"
        body += HTMLPage.table(Self.tripHeader, rows.map(\.cells), numeric: Self.tripNumeric, rowClasses: rows.map(\.rowClass))
        body += "<p class=\"legend\">\(esc(Self.tripLegend))</p>\n</section>\n"

        if !failed.isEmpty {
            body += "<section id=\"failed\">\n<h2>Failed trips (\(failed.count))</h2>\n"
            body += "<p>Not replayed, so neither in the tables nor gated.</p>\n"
            body += HTMLPage.table(["Trip", "Reason"], failedRows, rowClasses: failedRows.map { _ in "failed" })
            body += "</section>\n"
        }

        if let gate, let path = baselinePath {
            body += "<section id=\"gate\">\n<h2>Gate against \(esc(path))</h2>\n"
            body += "<p id=\"gate-count\">\(esc(gateTitle ?? "")).</p>\n"
            for n in gate.notes { body += "<p class=\"note\">Note: \(esc(BatchCommand.namingTheFlag(n)))</p>\n" }
            let groups = gate.groups
            if !groups.isEmpty {
                if let legend = gateLegend { body += "<p class=\"legend\">\(esc(legend))</p>\n" }
                body += HTMLPage.table(
                    ["Trip", "State", "Role", "Verdict", "Figures beyond tolerance"],
                    groups.map { g in [g.trip, g.state.displayName, g.role.key, g.tag(strict: strict), g.changes] },
                    rowClasses: groups.map { $0.rowClass(strict: strict) })
                if gate.improvements > 0 && !strict {
                    body += "<p>\(esc(BatchCommand.namingTheFlag(gate.improvementAdvice))).</p>\n"
                }
            }
            let others =
                gate.missing.map {
                    [$0, "✗ in the baseline but not run (removed or renamed? \(BatchCommand.namingTheFlag(GateComparison.refreshAdvice)))"]
                }
                + gate.new.map { [$0, strict ? "✗ new, not in the baseline (strict)" : "new, not in the baseline: passes"] }
            if !others.isEmpty {
                body += HTMLPage.table(
                    ["Trip", "Standing"], others,
                    rowClasses: gate.missing.map { _ in "regression" } + gate.new.map { _ in strict ? "regression" : nil })
            }
            body += "</section>\n"
        }

        body += "<section id=\"states\">\n<h2>Per state and role</h2>\n"
        for t in stateTables {
            body +=
                t.rows.isEmpty
                ? "<p><strong>\(esc(t.title))</strong>: no figure changed.</p>\n"
                : HTMLPage.table(t.header, t.rows, caption: t.title, numeric: Self.stateNumeric, rowClasses: t.classes)
            if let l = t.leftOut { body += "<p class=\"legend\">\(esc(l)).</p>\n" }
        }
        for c in corpusTables {
            body += HTMLPage.table(Self.aggregateHeader, aggregateRows(c.aggregate), caption: c.title, numeric: Self.aggregateNumeric)
        }
        if let e = energyLine { body += "<p>\(HTMLPage.escape(e))</p>\n" }
        body += "</section>\n"

        let perState = asEachStateRows
        if !perState.isEmpty {
            body += "<section id=\"as-each-state\">\n<h2>As each state</h2>\n<p>\(esc(Self.asEachStateTitle))</p>\n"
            body += HTMLPage.table(["Trip", "Per live state"], perState.map { [$0[0], $0.dropFirst().joined(separator: "; ")] })
            body += "</section>\n"
        }

        let problems = dataProblemRows
        if !problems.isEmpty {
            body += "<section id=\"data-problems\">\n<h2>Data problems</h2>\n"
            body += HTMLPage.table(["Trip", "Problems in the traces, and what was done with them"], problems)
            body += "</section>\n"
        }

        let inferred = inferredRows
        if !inferred.isEmpty {
            body += "<section id=\"inferred\">\n<h2>Inferred items</h2>\n" + HTMLPage.table(["Trip", "Inferred from the traces"], inferred)
            body += "</section>\n"
        }

        for (i, t) in replayed.enumerated() {
            body += "<section class=\"trip\" id=\"trip-\(i + 1)\" data-trip=\"\(esc(t.trip.id))\">\n<h2>\(esc(t.trip.id))</h2>\n"
            if let svg = t.report.svg { body += "<figure>\n" + HTMLPage.inline(svg: svg) + "</figure>\n" }
            body += "</section>\n"
        }
        return HTMLPage.document(title: "TraceKit batch: \(inputs.joined(separator: ", "))", body: body)
    }
}
