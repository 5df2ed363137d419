import TraceBatch
import TraceDomain

/// `batch --markdown FILE`: a summary for a pull-request comment: the verdict first, then the
/// figures that fail (and those that improved), the trips that failed, and the corpus per role
/// and state in a collapsed section.
extension BatchReport {
    var markdown: String {
        var out = "### TraceKit batch: \(trips.count) trip\(trips.count == 1 ? "" : "s"), policy `\(header.policyName)`\n\n"
        if let summary = failureSummary {
            out += "**❌ \(summary)**\n\n"
        } else if let path = baselinePath {
            out += "**✅ Gate passed** against `\(path)`\(strict ? " (strict)" : ""): no regression beyond tolerance.\n\n"
        } else {
            out += "**✅ Every trip replayed.**\n\n"
        }
        out +=
            "- **Energy:** \(header.energyLabel) (an estimate) · receiver radio \(header.receiverRadio ? "on" : "off") · tracekit \(header.tracekitVersion)\n"
            + "- **View:** \(header.view)\n"
        out += "- **Trips:** \(replayed.count) replayed, \(failed.count) failed\(shard.map { " (shard \($0.index)/\($0.count))" } ?? "")\n"
        if let gate {
            out +=
                "- **Gate:** \(gate.trips.count) compared, \(gate.regressions) regression\(gate.regressions == 1 ? "" : "s"), \(gate.improvements) improvement\(gate.improvements == 1 ? "" : "s") beyond tolerance"
            out += gate.missing.isEmpty ? "" : ", \(gate.missing.count) missing"
            out += gate.new.isEmpty ? "" : ", \(gate.new.count) new"
            out += "\n"
            for n in gate.notes { out += "- **Note:** \(n)\n" }
            var rows: [[String]] = []
            for t in gate.trips {
                for f in t.figures where f.verdict == .regression || f.verdict == .improvement || f.fails(strict: strict) {
                    let verdict =
                        f.verdict == .regression
                        ? "❌ regression" : f.fails(strict: strict) ? "❌ \(f.verdict.rawValue) (strict)" : "✅ \(f.verdict.rawValue)"
                    rows.append(["`\(t.trip)`", f.line, verdict])
                }
            }
            for id in gate.missing { rows.append(["`\(id)`", "in the baseline but not run", "❌ missing"]) }
            for id in gate.new { rows.append(["`\(id)`", "new, not in the baseline", strict ? "❌ new (strict)" : "✅ new"]) }
            if !rows.isEmpty {
                out += "\n" + TextTable.markdown(header: ["Trip", "Change", "Verdict"], rows: rows)
            }
        }
        if !failed.isEmpty {
            out += "\n**Trips that failed to replay**\n\n"
            for f in failed { out += "- `\(f.trip.id)`: \(f.error.message)\n" }
        }
        out +=
            "\n<details><summary>Corpus per role and state (\(replayed.count) trips; sums, p95 as the trips' mean / largest)</summary>\n\n"
        out += TextTable.markdown(header: Self.aggregateHeader, rows: Self.aggregateRows(aggregate()))
        if let policyB {
            out += "\nPolicy `\(policyB)` against `\(header.policyName)`:\n\n"
            out += TextTable.markdown(
                header: ["Role", "State", "Sent A", "Sent B", "Sent %", "Forwarded %", "Energy J A", "Energy J B", "Energy %"],
                rows: Self.differenceRows(aggregate(), aggregate(b: true)))
        }
        out += "\n</details>\n"
        return out
    }
}
