import Foundation
import TestSupport
import Testing

@testable import TraceCLI

/// The replay's report formats and `compare`, end to end on the demo ride (Traces/trips/ride).
@Suite("tracekit replay formats and compare, end to end")
struct ReportFormatTests {
    static let ride = ["--scenario", "Traces/trips/ride/ride.scenario.json"]

    func tempDir() throws -> URL {
        let dir = scratchFolder.appendingPathComponent("reports-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func replayJSON() throws -> [String: Any] {
        let r = try Run(["replay", "-f", "json"] + Self.ride)
        #expect(r.status == 0, "\(r.stderr)")
        return try json(r.stdout)
    }

    /// RFC 4180 records: CRLF line ends, quoted fields with doubled quotes.
    func parseCSV(_ text: String) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = ""
        var quoted = false, i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            i = text.index(after: i)
            if quoted {
                if c == "\"" {
                    if i < text.endIndex && text[i] == "\"" { field.append("\""); i = text.index(after: i) } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                record.append(field); field = ""
            } else if c == "\r\n" {
                record.append(field); field = ""
                records.append(record); record = []
            } else {
                field.append(c)
            }
        }
        return records
    }

    /// Whether `xml` is well-formed as far as elements go: every tag closed in order, attributes
    /// quoted, no stray `<` or `&` in text.
    func wellFormed(_ xml: String) -> Bool {
        var stack: [Substring] = []
        var rest = Substring(xml)
        if rest.hasPrefix("<?xml") {
            guard let end = rest.range(of: "?>") else { return false }
            rest = rest[end.upperBound...]
        }
        while let open = rest.firstIndex(of: "<") {
            let text = rest[..<open]
            if text.contains(">") { return false }
            var amp = text[...]
            while let a = amp.firstIndex(of: "&") {
                let after = amp[a...]
                guard ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(where: { after.hasPrefix($0) }) else { return false }
                amp = amp[amp.index(after: a)...]
            }
            guard let close = rest[open...].firstIndex(of: ">") else { return false }
            let tag = rest[rest.index(after: open)..<close]
            if tag.hasPrefix("/") {
                guard stack.popLast() == tag.dropFirst() else { return false }
            } else {
                if tag.filter({ $0 == "\"" }).count % 2 != 0 { return false }
                let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
                if name.isEmpty { return false }
                if !tag.hasSuffix("/") { stack.append(name) }
            }
            rest = rest[rest.index(after: close)...]
        }
        return stack.isEmpty && rest.allSatisfy(\.isWhitespace)
    }

    func states(_ doc: [String: Any]) -> [[String: Any]] { doc["states"] as? [[String: Any]] ?? [] }
    func totals(_ doc: [String: Any]) -> [[String: Any]] { doc["totals"] as? [[String: Any]] ?? [] }

    @Test("CSV: one row per state and role plus a total per role; the totals are the JSON's, column by column")
    func csv() throws {
        let jsonText = try Run(["replay", "-f", "json"] + Self.ride).stdout
        let doc = try json(jsonText)
        let r = try Run(["replay", "-f", "csv"] + Self.ride)
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout.hasSuffix("\r\n") && !r.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let records = parseCSV(r.stdout)
        let header = try #require(records.first)
        #expect(header.contains("display_error_p95_m") && header.contains("energy_total_j") && header.contains("duration_s"))
        let roles = totals(doc).count
        #expect(roles == 2)
        #expect(records.count == 1 + 7 * roles + roles)
        #expect(records.allSatisfy { $0.count == header.count })
        func column(_ row: [String], _ name: String) -> String { row[header.firstIndex(of: name)!] }
        for t in totals(doc) {
            let role = t["role"] as! String
            let row = try #require(records.first { column($0, "state") == "total" && column($0, "role") == role })
            #expect(Int(column(row, "raw_fixes")) == t["rawFixes"] as? Int)
            #expect(Int(column(row, "delivered_fixes")) == t["deliveredFixes"] as? Int)
            #expect(Int(column(row, "sent_updates")) == t["sentUpdates"] as? Int)
            // Numbers are written as the JSON writes them (compared as text: Foundation's JSON
            // parser does not read every double back exactly).
            let distance = column(row, "distance_m"), energy = column(row, "energy_total_j"), p95 = column(row, "display_error_p95_m")
            #expect(abs(Double(distance)! - (t["distanceMetres"] as! Double)) < 1e-9)
            #expect(jsonText.contains("\"distanceMetres\": \(distance),"))
            #expect(jsonText.contains("\"total\": \(energy)\n"))
            #expect(jsonText.contains("\"p95\": \(p95),"))
            // The states add up to the total.
            let perState = records.filter { column($0, "state") != "total" && column($0, "role") == role }
            #expect(perState.count == 7)
            #expect(perState.reduce(0) { $0 + Int(column($1, "delivered_fixes"))! } == t["deliveredFixes"] as? Int)
        }
        #expect(ReplayReport.csvField("a,\"b\"") == "\"a,\"\"b\"\"\"" && ReplayReport.csvField("Total") == "Total")
    }

    @Test("Markdown: one table per phone, the dominant cost, the scenario and inferred items")
    func markdown() throws {
        let r = try Run(["replay", "-f", "markdown"] + Self.ride)
        #expect(r.status == 0 && r.stderr.isEmpty)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("| State |") }.count == 2)
        #expect(lines.filter { $0.hasPrefix("|---|") }.count == 2)
        for text in [
            "#### Helper's phone", "#### Hirer's phone", "**What dominates the cost:** the ", "- **Inferred:** ",
            "- **Scenario:** category **ride**", "| **Total** |", "- **Timeline:** ",
        ] {
            #expect(r.stdout.contains(text), "missing \(text)")
        }
        // Every table row has the header's number of cells.
        for table in r.stdout.components(separatedBy: "\n| State |").dropFirst() {
            let rows = ("| State |" + table).split(separator: "\n").prefix { $0.hasPrefix("|") }
            let width = rows.first.map { $0.filter { $0 == "|" }.count } ?? 0
            #expect(rows.count == 10 && width == 12)  // header, rule, the 7 states entered, total; 11 columns
            #expect(rows.allSatisfy { $0.filter { $0 == "|" }.count == width })
        }
        // Inferred items are listed: the bundled recording's timeline is inferred.
        let inferred = try Run(["replay", "-f", "markdown", "Traces/georust-garmin-activity.gpx"])
        #expect(inferred.stdout.contains("- **Inferred:** ") && !inferred.stdout.contains("- **Inferred:** nothing"))
    }

    @Test("GeoJSON: a FeatureCollection of every delivered update and the pickup and dropoff, lon/lat order")
    func geojson() throws {
        let doc = try replayJSON()
        let dir = try tempDir()
        let out = dir.appendingPathComponent("ride.geojson").path
        let r = try Run(["replay", "--geojson", out] + Self.ride)
        #expect(r.status == 0 && r.stderr.isEmpty && r.stdout.contains("Helper's phone"))
        let geo = try json(String(contentsOfFile: out, encoding: .utf8))
        #expect(geo["type"] as? String == "FeatureCollection")
        let features = try #require(geo["features"] as? [[String: Any]])
        let updates = features.filter { ($0["properties"] as? [String: Any])?["kind"] as? String == "update" }
        let delivered = totals(doc).reduce(0) { $0 + ($1["deliveredFixes"] as! Int) }
        let sent = totals(doc).reduce(0) { $0 + ($1["sentUpdates"] as! Int) }
        #expect(updates.count == delivered)
        #expect(updates.filter { ($0["properties"] as! [String: Any])["sent"] as? Bool == true }.count == sent)
        for f in updates {
            let p = f["properties"] as! [String: Any]
            #expect(Set(p.keys) == ["kind", "role", "state", "time", "sent", "forwardedTo", "accuracyMetres"])
            #expect((p["time"] as? String)?.hasSuffix("Z") == true)
            #expect((f["geometry"] as? [String: Any])?["type"] as? String == "Point")
        }
        let pickup = try #require(features.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "pickup" })
        #expect((pickup["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [8.5403, 47.3779])
        #expect(features.contains { ($0["properties"] as? [String: Any])?["kind"] as? String == "dropoff" })
        // Written atomically: no temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["ride.geojson"])
    }

    @Test("SVG: well-formed, self-contained, one track path per role and state, updates, markers, frames, legend, chart")
    func svg() throws {
        let doc = try replayJSON()
        let dir = try tempDir()
        let out = dir.appendingPathComponent("ride.svg").path
        let r = try Run(["replay", "--svg", out, "-f", "json"] + Self.ride)
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(try json(r.stdout)["schema"] as? String == "tracekit-replay/3")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(wellFormed(svg))
        #expect(!wellFormed(svg.replacingOccurrences(of: "</g>", with: "", options: [], range: svg.range(of: "</g>"))))
        #expect(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        for banned in ["<script", "href", "url(", "<image", "<foreignObject"] { #expect(!svg.contains(banned), "\(banned)") }
        var expected = 0
        for st in states(doc) {
            for role in st["roles"] as! [[String: Any]] where (role["rawFixes"] as! Int) > 0 {
                expected += 1
                let tag = "<path class=\"track\" data-role=\"\(role["role"] as! String)\" data-state=\"\(st["state"] as! String)\""
                #expect(svg.components(separatedBy: tag).count == 2, "\(tag)")
            }
        }
        #expect(svg.components(separatedBy: "class=\"track\"").count - 1 == expected)
        let delivered = totals(doc).reduce(0) { $0 + ($1["deliveredFixes"] as! Int) }
        let markers = svg.components(separatedBy: "class=\"update ").count - 1
        #expect(markers >= min(delivered, 50) && markers <= delivered + 2 * 4)  // thinned at most, plus the legend's
        #expect(svg.contains("class=\"update sent\"") && svg.contains("class=\"update unsent\""))
        #expect(svg.contains("data-point=\"pickup\"") && svg.contains("data-point=\"dropoff\""))
        #expect(svg.contains("class=\"frame\" data-state=\"enRoute\""))
        #expect(svg.contains("<g class=\"legend\">") && svg.contains("<g class=\"scale\">") && svg.contains("<g class=\"chart\">"))
        for series in ["delivered", "sent", "energy"] { #expect(svg.contains("data-series=\"\(series)\"")) }
        #expect(svg.contains("class=\"band\" data-state=\"inTask\""))
        #expect(try Run(["replay", "--svg", "-"] + Self.ride).status == 64)
    }

    @Test("compare: a larger distance filter delivers fewer updates for B; the same policy twice, no difference")
    func compare() throws {
        let dir = try tempDir()
        let policy = dir.appendingPathComponent("quiet.json").path
        try #"{"format": "tracekit-policy", "version": 2, "name": "quiet", "states": {"enRoute": {"distanceFilterMetres": 120}}}"#
            .write(toFile: policy, atomically: true, encoding: .utf8)
        // The ideal network throughout: the rows written out below were counted with it.
        let r = try Run(["compare", "--policy", "seed", "--policy", policy, "-f", "json", "--network", "ideal"] + Self.ride)
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try json(r.stdout)
        #expect(doc["schema"] as? String == "tracekit-compare/1" && doc["identical"] as? Bool == false)
        #expect(((doc["b"] as? [String: Any])?["policy"] as? [String: Any])?["name"] as? String == "quiet")
        let rows = try #require(doc["rows"] as? [[String: Any]])
        let total = try #require(
            rows.first { $0["state"] as? String == "total" && $0["role"] as? String == "helper" && $0["metric"] as? String == "delivered" })
        let a = try #require(total["a"] as? Double), b = try #require(total["b"] as? Double)
        #expect(b < a && total["difference"] as? Double == b - a)
        #expect(abs((total["percent"] as? Double ?? 0) - (b - a) / a * 100) < 1e-9)
        // A equals the plain replay's figure.
        let plain = try replayJSON()
        #expect(Int(a) == totals(plain).first { $0["role"] as? String == "helper" }?["deliveredFixes"] as? Int)
        let biggest = try #require(doc["biggest"] as? [[String: Any]])
        #expect(!biggest.isEmpty && biggest.allSatisfy { $0["state"] as? String == "enRoute" })

        let table = try Run(["compare", "--policy", "seed", "--policy", policy] + Self.ride + ["--network", "ideal"])
        #expect(
            table.stdout.contains("A: seed") && table.stdout.contains("B: quiet") && table.stdout.contains("◀ 1")
                && table.stdout.contains("Biggest changes"))
        let md = try Run(["compare", "--policy", "seed", "--policy", policy, "-f", "markdown", "--network", "ideal"] + Self.ride)
        #expect(md.status == 0, "\(md.stderr)")
        let mdLines = md.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(mdLines.filter { $0 == "| State | Metric | A: seed | B: quiet | B − A | % | Rank |" }.count == 2)
        #expect(mdLines.contains("- **A:** `seed` (`seed`) · **B:** `quiet` (`\(policy)`)"))
        // The figures: a few rows written out (the En Route filter's effect, the maxima, energy in
        // J with the charge in mAh, ranks, the totals)…
        for line in [
            "| En Route | delivered, updates | 147 | 39 | −108 | −73.5 % |  |",
            "| En Route | display error p95, m | 24.3 | 113.6 | +89.3 | +367.5 % | **#1** |",
            "| En Route | display error max, m | 29.9 | 119.0 | +89.0 | +297.3 % |  |",
            "| En Route | staleness p95, s | 30.0 | 39.0 | +9.0 | +30.0 % |  |",
            "| En Route | energy, J (mAh) | 548.7 (39.59) | 483.5 (34.88) | −65.2 (−4.71) | −11.9 % |  |",
            "| Total | sent, updates | 148 | 40 | −108 | −73.0 % |  |",
            "| Total | energy, J (mAh) | 754.1 (54.41) | 688.9 (49.70) | −65.2 (−4.70) | −8.6 % |  |",
            "| En Route | staleness p95, s | 230.0 | 483.2 | +253.2 | +110.1 % | **#3** |",
            "| En Route | sent, updates | 4 | 1 | −3 | −75.0 % | **#5** |",
        ] { #expect(mdLines.contains(line), "missing \(line)") }
        // …and a row that did not change is left out, and counted.
        #expect(!mdLines.contains { $0.hasPrefix("| At Pickup | delivered, updates |") })
        let biggestStart = try #require(mdLines.firstIndex(of: "**Biggest changes (B − A):**"))
        #expect(
            Array(mdLines[(biggestStart + 1)...].prefix(5)) == [
                "- helper, En Route: display error p95 24.3 → 113.6 m (+89.3, +367.5 %)",
                "- hirer, En Route: display error p95 21.5 → 96.3 m (+74.8, +347.9 %)",
                "- hirer, En Route: staleness p95 230.0 → 483.2 s (+253.2, +110.1 %)",
                "- hirer, En Route: delivered 4 → 1 updates (−3, −75.0 %)",
                "- hirer, En Route: sent 4 → 1 updates (−3, −75.0 %)",
            ])
        // The charge is the joules over 3.6 × 3.85 V (13.86 J per mAh, EnergyProfile.nominalVolts).
        for row in rows where row["metric"] as? String == "energy" {
            let a = try #require(row["a"] as? Double), mAh = try #require(row["aMilliampHours"] as? Double)
            #expect(abs(mAh - a / (3.6 * 3.85)) < 1e-9, "\(row)")
        }
        // …and every row shown against the JSON's (which has every row): the rows whose A and B
        // differ at the decimals shown, with the same state, metric, A, B and rank, in the same
        // order; the others counted as left out.
        let stateNames = [
            "accepted": "Accepted", "enRoute": "En Route", "atPickup": "At Pickup", "inTask": "In Task",
            "awaitingPayment": "Awaiting Payment", "completed": "Completed", "total": "Total",
        ]
        let metricNames = [
            "delivered": "delivered, updates", "sent": "sent, updates", "forwarded": "forwarded, updates",
            "displayErrorP95": "display error p95, m", "displayErrorMax": "display error max, m", "stalenessP95": "staleness p95, s",
            "stalenessMax": "staleness max, s", "energy": "energy, J (mAh)",
        ]
        func figure(_ value: Any?, _ charge: Any?, _ unit: String?) -> String {
            guard let v = value as? Double else { return "—" }
            if let c = charge as? Double { return String(format: "%.1f (%.2f)", v, c) }
            return unit == "updates" ? String(Int(v)) : String(format: "%.1f", v)
        }
        let shown = rows.filter {
            figure($0["a"], $0["aMilliampHours"], $0["unit"] as? String) != figure($0["b"], $0["bMilliampHours"], $0["unit"] as? String)
        }
        let mdRows = mdLines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| State |") }
            .map { $0.dropFirst(2).dropLast(2).components(separatedBy: " | ") }
        #expect(rows.count == 96)  // 2 phones × (5 states that lasted + the total) × 8 figures
        #expect(mdRows.count == shown.count)
        let leftOut = mdLines.compactMap { line -> Int? in
            guard line.hasSuffix(" unchanged rows left out.") else { return nil }
            return Int(line.prefix { $0 != " " })
        }
        #expect(leftOut.count == 2 && leftOut.reduce(0, +) + mdRows.count == rows.count, "\(leftOut)")
        for (row, cells) in zip(shown, mdRows) {
            let label = "\(row["role"] ?? "") \(row["state"] ?? "") \(row["metric"] ?? "")"
            #expect(cells.count == 7, "\(label): \(cells)")
            guard cells.count == 7 else { continue }
            #expect(cells[0] == stateNames[row["state"] as? String ?? ""], "\(label)")
            #expect(cells[1] == metricNames[row["metric"] as? String ?? ""], "\(label)")
            #expect(
                cells[2] == figure(row["a"], row["aMilliampHours"], row["unit"] as? String)
                    && cells[3] == figure(row["b"], row["bMilliampHours"], row["unit"] as? String),
                "\(label): \(cells)")
            #expect(cells[6] == ((row["rank"] as? Int).map { "**#\($0)**" } ?? ""), "\(label): \(cells)")
        }

        let same = try json(try Run(["compare", "--policy", "seed", "--policy", "seed", "-f", "json"] + Self.ride).stdout)
        #expect(same["identical"] as? Bool == true && (same["biggest"] as? [Any])?.isEmpty == true)
        for row in same["rows"] as? [[String: Any]] ?? [] {
            #expect(row["difference"] is NSNull || row["difference"] as? Double == 0)
        }
        let sameTable = try Run(["compare", "--policy", "seed", "--policy", "seed"] + Self.ride).stdout
        #expect(sameTable.contains("No differences"))
        // Every row left out, and counted, on both phones.
        #expect(sameTable.components(separatedBy: "No figure changed.\n48 unchanged rows left out\n").count == 3, "\(sameTable)")
        let once = try Run(["compare", "--policy", "seed"] + Self.ride)
        #expect(once.status == 64 && once.stderr.hasPrefix("tracekit: 'compare' needs --policy exactly twice"))
    }

    @Test("determinism: every format twice gives the same bytes")
    func determinism() throws {
        let dir = try tempDir()
        for format in ["table", "json", "csv", "markdown"] {
            let a = try Run(["replay", "-f", format] + Self.ride), b = try Run(["replay", "-f", format] + Self.ride)
            #expect(a.status == 0 && a.stdout == b.stdout, "\(format)")
        }
        var files: [[Data]] = []
        for run in 0..<2 {
            let svg = dir.appendingPathComponent("\(run).svg").path, geo = dir.appendingPathComponent("\(run).geojson").path
            #expect(try Run(["replay", "--svg", svg, "--geojson", geo] + Self.ride).status == 0)
            files.append([try Data(contentsOf: URL(fileURLWithPath: svg)), try Data(contentsOf: URL(fileURLWithPath: geo))])
        }
        #expect(files[0] == files[1])
        for format in ["table", "json", "markdown"] {
            let args = ["compare", "--policy", "seed", "--policy", "seed", "-f", format] + Self.ride
            #expect(try Run(args).stdout == Run(args).stdout, "compare \(format)")
        }
    }

    @Test("help names the formats, the pictures and compare")
    func help() throws {
        let r = try Run(["replay", "--help"])
        for text in ["--svg FILE", "--geojson FILE", "table|json|csv|markdown"] { #expect(r.stdout.contains(text), "\(text)") }
        let c = try Run(["compare", "--help"])
        for text in ["--policy FILE", "tracekit-compare/1", "--scenario", "table|json|markdown"] {
            #expect(c.stdout.contains(text), "\(text)")
        }
        #expect(try Run(["--help"]).stdout.contains("compare"))
    }
}
