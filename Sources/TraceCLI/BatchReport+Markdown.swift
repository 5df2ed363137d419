import TraceBatch
import TraceDomain

/// `batch --markdown FILE`: a pull-request comment that fits one screen (at most
/// ``BatchReport/markdownShown`` trips and ``BatchReport/markdownTop`` changes before the folds):
/// the verdict, the largest changes beyond tolerance (and with `--compare` the largest A → B),
/// a table of the trips (no links), the trips that failed; then, folded in `<details>`, every
/// change beyond tolerance, every trip, the figures per state and role before → after, and the
/// corpus. Text from files (trip names, paths, names, reasons, a merged batch's lines) is written
/// with ``Shown/markdown(_:)`` or ``Shown/markdownCode(_:)``, and inside `<summary>` (HTML) with
/// ``Shown/html(_:)``: no raw HTML and no link comes from a file.
extension BatchReport {
    /// Trips shown before the folds (those that did not pass first).
    static let markdownShown = 12
    /// Changes beyond tolerance shown before the folds, and figures of each.
    static let markdownTop = 5
    static let markdownTopFigures = 3
    /// Failed trips shown before the folds.
    static let markdownFailed = 3

    var markdown: String {
        let md = Shown.markdown, code = Shown.markdownCode
        var out = markdownHead

        let top = topChanges
        if !top.isEmpty {
            out += "\n**Top changes beyond tolerance** (\(min(top.count, Self.markdownTop)) of \(top.count); all below):\n\n"
            for g in top.prefix(Self.markdownTop) {
                let shown = g.figures.prefix(Self.markdownTopFigures).map { "\($0.marker) \($0.change)" }.joined(separator: ", ")
                let more = g.figures.count > Self.markdownTopFigures ? ", and \(g.figures.count - Self.markdownTopFigures) more" : ""
                out += "- \(g.marker) \(code(g.trip)) · \(md(g.place)): \(shown)\(more)\n"
            }
        }
        out += markdownCompareTop

        let rows = tripRows
        if !rows.isEmpty {
            // The trips that did not pass first, then the rest, up to `markdownShown`.
            let order = rows.indices.filter { rows[$0].rowClass != nil } + rows.indices.filter { rows[$0].rowClass == nil }
            let shown = order.prefix(Self.markdownShown).sorted()
            out +=
                "\n" + TextTable.markdown(header: Array(Self.tripHeader.prefix(8)), rows: shown.map { rows[$0].cells.prefix(8).map(md) })
            if rows.count > shown.count { out += "\n\(rows.count - shown.count) more trips in the details below.\n" }
        }
        if !failed.isEmpty {
            out += "\n**Failed trips (\(failed.count))**, not replayed:\n\n"
            for f in failedRows.prefix(Self.markdownFailed) { out += "- \(code(f[0])): \(md(f[1]))\n" }
            if failed.count > Self.markdownFailed { out += "- and \(failed.count - Self.markdownFailed) more in the details below\n" }
        }

        // The folds.
        if let path = baselinePath {
            let lines = gateListing
            out +=
                "\n<details><summary>Gate against \(Shown.html(path)): \(gateTitle ?? "")</summary>\n\n"
            if let legend = gateLegend { out += legend + "\n\n" }
            for l in lines { out += "- \(md(l))\n" }
            out += "\n</details>\n"
        }
        if !rows.isEmpty {
            out += "\n<details><summary>Every trip (\(rows.count))</summary>\n\n"
            out += TextTable.markdown(header: Self.tripHeader, rows: rows.map { $0.cells.map(md) })
            out += "\n" + Self.tripLegend + "\n"
            for r in dataProblemRows { out += "- \(code(r[0])) data: \(md(r[1]))\n" }
            for r in asEachStateRows { out += "- \(code(r[0])) " + r.dropFirst().map(md).joined(separator: "; ") + "\n" }
            for r in inferredRows { out += "- \(code(r[0])) inferred: \(md(r[1]))\n" }
            out += "\n</details>\n"
        }
        if failed.count > Self.markdownFailed {
            out += "\n<details><summary>Every failed trip (\(failed.count))</summary>\n\n"
            for f in failedRows { out += "- \(code(f[0])): \(md(f[1]))\n" }
            out += "\n</details>\n"
        }
        return out + markdownAggregates
    }

    /// The comment's title, the verdict, the energy model and the view.
    var markdownHead: String {
        let md = Shown.markdown, code = Shown.markdownCode
        var out = "### TraceKit batch: \(Self.plural(tripsRun, "trip")), policy \(code(header.policyName))"
        out += policyB.map { " vs \(code($0))" } ?? ""
        out += "\n\n"
        out += passed ? "**✅ \(verdict(md))**\n\n" : "**❌ \(verdict(md))**\n\n"
        out +=
            "- **Energy:** \(md(header.energyLabel)) (an estimate) · receiver radio \(header.receiverRadio ? "on" : "off") · tracekit \(md(header.tracekitVersion)) · **View:** \(md(header.view))\n"
        return out
    }

    /// With `--compare`, the largest changes A → B of the corpus per state.
    var markdownCompareTop: String {
        let code = Shown.markdownCode
        let compared = compareTop
        guard let policyB, !compared.isEmpty else { return "" }
        var out = "\n**Top changes, \(code(header.policyName)) → \(code(policyB))** (the corpus per state; all below):\n\n"
        for line in compared.prefix(Self.markdownTop) { out += "- \(line)\n" }
        return out
    }

    /// The folds of the corpus: per state and role before → after, the corpus per role and state;
    /// then the energy.
    var markdownAggregates: String {
        let md = Shown.markdown
        var out = ""
        for t in stateTables {
            out += "\n<details><summary>\(Shown.html(t.title))</summary>\n\n"
            out += t.rows.isEmpty ? "No figure changed.\n" : TextTable.markdown(header: t.header.map(md), rows: t.rows)
            if let l = t.leftOut { out += "\n" + l + "\n" }
            out += "\n</details>\n"
        }
        for c in corpusTables {
            out += "\n<details><summary>\(Shown.html(c.title))</summary>\n\n"
            out += TextTable.markdown(header: Self.aggregateHeader, rows: aggregateRows(c.aggregate))
            out += "\n</details>\n"
        }
        if let e = energyLine { out += "\n\(md(e))\n" }
        return out
    }
}
