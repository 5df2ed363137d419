import Foundation
import TestSupport
import Testing

/// The parts of `tracekit batch`'s reports a person reads first, end to end with the built
/// binary: the verdict, the grouped gate listing, the Markdown that fits a screen, the HTML's
/// elements, the per-state changes and the charge in mAh.
@Suite("tracekit batch reports, end to end", .serialized)
struct BatchReportTests {
    static func lines(_ s: String) -> [String] { s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The lines of a Markdown comment outside its `<details>` folds.
    static func unfolded(_ md: String) -> [String] {
        var out: [String] = [], depth = 0
        for line in lines(md) {
            if line.hasPrefix("<details>") { depth += 1 }
            if depth == 0 { out.append(line) }
            if line.hasPrefix("</details>") { depth -= 1 }
        }
        return out
    }

    @Test(
        "one figure beyond tolerance: one line per trip, state and role that has it, counted in the verdict; within tolerance only counted")
    func groupedGate() throws {
        try BatchCommandTests.scratch { dir in
            #expect(try Run(["batch", "Traces/trips/ride", "--write-baseline", "\(dir)/b.json"]).status == 0)
            // Every metric but `sent` so loose that only the updates sent go beyond tolerance.
            var args = ["batch", "Traces/trips/ride", "--baseline", "\(dir)/b.json", "--policy", try BatchCommandTests.chattyPolicy(dir)]
            for m in [
                "delivered", "forwarded", "displayErrorP95", "stalenessP95", "energyTotal", "energyLocation", "energyFixes", "energyRadio",
            ] {
                args += ["--tolerance", "\(m)=400%,"]
            }
            let r = try Run(args)
            #expect(r.status == 1)
            let listed = Self.lines(r.stdout).filter {
                $0.hasPrefix("  REGRESSION ") || $0.hasPrefix("  passes ") || $0.hasPrefix("  FAIL")
            }
            #expect(
                listed == [
                    "  REGRESSION ride.scenario.json: En Route, helper: ▲ updates sent 147 → 382 (+160 %)",
                    "  REGRESSION ride.scenario.json: Total, helper: ▲ updates sent 148 → 382 (+158 %)",
                    "  REGRESSION ride.scenario.json: En Route, hirer: ▲ updates sent 4 → 15 (+275 %)",
                    "  REGRESSION ride.scenario.json: Total, hirer: ▲ updates sent 16 → 27 (+69 %)",
                ], "\(r.stdout)")
            // The verdict counts them, and the figures that moved within tolerance, which are not listed.
            let verdict = try #require(Self.lines(r.stdout).first { $0.hasPrefix("Verdict: ") })
            #expect(
                verdict.hasPrefix(
                    "Verdict: FAILED: gate failed against \(dir)/b.json: 4 figures failing the gate (worse beyond tolerance) · 1 trip compared, "
                ) && verdict.hasSuffix(" figures within tolerance (not listed)"), "\(verdict)")
            #expect(!r.stdout.contains("updates delivered 147 → 382"), "a figure within tolerance is listed")
            // The per-state table says which figure regressed, in words, and the others' standing.
            // (Cells compared with their runs of spaces collapsed: the widths follow the longest label.)
            let rows = Self.lines(r.stdout).map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            #expect(rows.contains("helper En Route updates sent 147 382 +235 +159.9 % ▲ regression in 1 trip"), "\(r.stdout)")
            #expect(rows.contains("helper En Route updates delivered 147 382 +235 +159.9 % within tolerance"), "\(r.stdout)")
        }
    }

    @Test("Markdown fits one screen: the verdict first, at most 40 lines outside <details>, no link", arguments: [false, true])
    func markdownOneScreen(chatty: Bool) throws {
        try BatchCommandTests.scratch { dir in
            var args = ["batch", "Traces/", "--baseline", "Traces/baseline.json", "--markdown", "\(dir)/m.md"]
            if chatty { args += ["--policy", try BatchCommandTests.chattyPolicy(dir)] }
            let r = try Run(args)
            #expect(r.status == (chatty ? 1 : 0), "\(r.stderr)")
            let md = try BatchCommandTests.read("\(dir)/m.md")
            let shown = Self.unfolded(md)
            #expect(shown.count <= 40, "\(shown.count) lines outside <details>:\n\(shown.joined(separator: "\n"))")
            #expect(
                shown[2].hasPrefix(
                    chatty ? "**❌ FAILED: gate failed against Traces/baseline.json: " : "**✅ passed: gate against Traces/baseline.json: "))
            // The trips table, every trip of the bundled corpus, before the folds.
            #expect(shown.contains("| Trip | Status | Data | Time | Updates sent | Energy mAh | Worst display error p95 | Worst staleness p95 |"))
            #expect(shown.filter { $0.hasPrefix("| trips/") || $0.hasPrefix("| real/") || $0.hasPrefix("| georust") }.count == 12)
            if chatty {
                // The top changes: a few lines, the regressions first.
                let top = shown.filter { $0.hasPrefix("- ▲ ") || $0.hasPrefix("- ▼ ") }
                #expect(top.count == 5 && top.allSatisfy { $0.hasPrefix("- ▲ ") }, "\(top)")
            }
            #expect(md.components(separatedBy: "<details>").count == md.components(separatedBy: "</details>").count)
            #expect(!md.contains("](") && !md.contains("http"))
        }
    }

    @Test("HTML: the ids and classes the browser tests look for, header cells with scope, no URL")
    func htmlElements() throws {
        try BatchCommandTests.scratch { dir in
            let fm = FileManager.default
            try fm.createDirectory(atPath: "\(dir)/corpus", withIntermediateDirectories: true)
            try fm.copyItem(atPath: packageRoot.appendingPathComponent("Traces/trips/ride").path, toPath: "\(dir)/corpus/ride")
            try fm.copyItem(atPath: packageRoot.appendingPathComponent("Traces/trips/dog-walk").path, toPath: "\(dir)/corpus/dog-walk")
            #expect(try Run(["batch", "\(dir)/corpus", "--write-baseline", "\(dir)/b.json"]).status == 0)
            try "not a trace".write(toFile: "\(dir)/corpus/broken.gpx", atomically: true, encoding: .utf8)
            let r = try Run([
                "batch", "\(dir)/corpus", "--baseline", "\(dir)/b.json", "--policy", try BatchCommandTests.chattyPolicy(dir), "--html",
                "\(dir)/r.html",
            ])
            #expect(r.status == 1)
            let html = try BatchCommandTests.read("\(dir)/r.html")
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
            #expect(html.contains("<p id=\"verdict\" class=\"verdict fail\">✗ FAILED: 1 of 3 trips failed to replay; gate failed against "))
            for id in ["trips", "failed", "gate", "states"] { #expect(html.contains("<section id=\"\(id)\">"), "\(id)") }
            // In the table output's order.
            let order = ["id=\"verdict\"", "id=\"trips\"", "id=\"failed\"", "id=\"gate\"", "id=\"states\"", "class=\"trip\""]
            let at = order.map { html.range(of: $0)?.lowerBound }
            #expect(at.allSatisfy { $0 != nil } && zip(at, at.dropFirst()).allSatisfy { $0! < $1! }, "\(order)")
            // A section per replayed trip, with its picture.
            #expect(html.components(separatedBy: "<section class=\"trip\" id=\"trip-").count == 3)
            #expect(html.components(separatedBy: "<figure>\n<div class=\"scroll picture\">\n<svg width=").count == 3)
            // Every header cell has a scope; the regressions are rows of class "regression" and say so in words.
            let th = html.components(separatedBy: "<th ").count + html.components(separatedBy: "<th>").count - 2
            let scoped =
                html.components(separatedBy: "<th scope=\"col\">").count + html.components(separatedBy: "<th scope=\"row\">").count - 2
            #expect(th > 0 && th == scoped, "\(th) header cells, \(scoped) with a scope")
            #expect(html.contains("<tr class=\"regression\"><th scope=\"row\">ride/ride.scenario.json</th><td>▲ "))
            #expect(html.contains("<tr class=\"failed\"><th scope=\"row\">broken.gpx</th>"))
            #expect(html.contains("<td class=\"num\">"))
            // Self-contained: no URL, script, link or external source of any kind.
            #expect(!html.contains("http") && !html.contains("<script") && !html.contains("<link") && !html.contains("src="))
            // Without a failed trip there is no section#failed; a passing gate says so.
            try fm.removeItem(atPath: "\(dir)/corpus/broken.gpx")
            #expect(try Run(["batch", "\(dir)/corpus", "--baseline", "\(dir)/b.json", "--html", "\(dir)/p.html"]).status == 0)
            let pass = try BatchCommandTests.read("\(dir)/p.html")
            #expect(
                pass.contains(
                    "<p id=\"verdict\" class=\"verdict pass\">✓ passed: gate against \(dir)/b.json: 0 figures failing the gate"))
            #expect(!pass.contains("id=\"failed\"") && pass.contains("<section id=\"states\">"))
        }
    }

    @Test("--compare: per state and role only the figures that differ, A → B, and how many were left out")
    func compareChangedRows() throws {
        try BatchCommandTests.scratch { dir in
            let r = try Run(["batch", "Traces/trips", "--compare", try BatchCommandTests.chattyPolicy(dir), "--markdown", "\(dir)/m.md"])
            #expect(r.status == 0, "\(r.stderr)")
            // The Markdown's first screen names the largest changes A → B.
            let shown = Self.unfolded(try BatchCommandTests.read("\(dir)/m.md"))
            let top = try #require(shown.firstIndex(of: "**Top changes, `seed` → `chatty`** (the corpus per state; all below):"))
            #expect(shown.count <= 40 && shown[(top + 2)...].prefix(5).allSatisfy { $0.hasPrefix("- ") && $0.contains(" → ") }, "\(shown)")
            let lines = Self.lines(r.stdout)
            let start = try #require(lines.firstIndex { $0.hasPrefix("Per state and role, policy seed (A) → chatty (B) ") })
            #expect(lines[start + 1].hasPrefix("Role ") && lines[start + 1].contains("A: seed") && lines[start + 1].contains("B: chatty"))
            let end = try #require(lines[start...].firstIndex { $0.hasSuffix(" unchanged rows left out") })
            let rows = lines[(start + 3)..<end]
            #expect(rows.count > 10)
            // No row whose A and B read the same (columns: role, state, figure, A, B, change, %).
            for row in rows {
                let cells = row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                #expect(cells.count == 7 && cells[3] != cells[4], "\(row)")
            }
            #expect(rows.contains { $0.contains("En Route") && $0.contains("updates sent") })
            #expect(rows.contains { $0.contains("En Route") && $0.contains("display error max, m (worst sample)") })
            // Rows shown and left out: every state and role of the corpus, 10 figures each (with
            // --compare, the worst samples too).
            let left = Int(lines[end].prefix { $0 != " " }) ?? -1
            let corpus = try #require(lines.firstIndex { $0.hasPrefix("Corpus, policy seed: ") })
            let corpusRows = lines[(corpus + 3)...].prefix { !$0.isEmpty }.count
            #expect(rows.count + left == corpusRows * 10, "\(rows.count) + \(left) vs \(corpusRows) rows")
        }
    }

    @Test("mAh: the joules over 3.6 × 3.85 V, per phone in the trips table and per state in the corpus")
    func milliampHours() throws {
        let r = try Run(["batch", "Traces/trips/ride"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = Self.lines(r.stdout)
        let corpus = try #require(lines.firstIndex { $0.hasPrefix("Corpus, policy seed: ") })
        #expect(lines[corpus + 1].hasSuffix("Energy J  Energy mAh"))
        var totals: [String: Double] = [:]
        for row in lines[(corpus + 3)...].prefix(while: { !$0.isEmpty }) {
            let cells = row.split(separator: " ").map(String.init)
            let joules = try #require(Double(cells[cells.count - 2])), mAh = try #require(Double(cells[cells.count - 1]))
            // Both rounded (0.1 J, 0.01 mAh): within half a unit of the last decimal each.
            #expect(abs(mAh - joules / (3.6 * 3.85)) <= 0.005 + 0.05 / 13.86, "\(row)")
            if cells[1] == "Total" { totals[cells[0]] = mAh }
        }
        // The trips table's "Energy mAh" is each phone's total, to 0.1 mAh.
        let trip = try #require(lines.first { $0.hasPrefix("ride.scenario.json ") })
        let helper = try #require(totals["helper"]), hirer = try #require(totals["hirer"])
        #expect(
            trip.contains(
                "helper \(String(format: "%.1f", helper)), hirer \(String(format: "%.1f", hirer))"),
            "\(trip) vs \(totals)")
    }
}
