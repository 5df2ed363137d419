import TraceBatch
import TraceDomain
import TraceIO

/// `batch --html FILE`: one self-contained page (inline CSS, inline SVG, no script, no external
/// asset): the verdict, the gate's changes, the trips, the corpus per role and state, and each
/// replayed trip's picture (``ReplaySVG``, as `replay --svg` draws it).
extension BatchReport {
    var html: String {
        func esc(_ s: String) -> String {
            var dropped = 0
            return xmlEscaped(s, dropped: &dropped)
        }
        func table(_ header: [String], _ rows: [[String]]) -> String {
            var t = "<table>\n<tr>" + header.map { "<th>\(esc($0))</th>" }.joined() + "</tr>\n"
            for r in rows { t += "<tr>" + r.map { "<td>\(esc($0))</td>" }.joined() + "</tr>\n" }
            return t + "</table>\n"
        }
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>TraceKit batch: \(esc(inputs.joined(separator: ", ")))</title>
            <style>
            body { font-family: sans-serif; margin: 2em; color: #111; }
            table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }
            th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
            th { background: #f0f0ee; }
            .pass { color: #1a7f37; } .fail { color: #cf222e; }
            section.trip { margin-top: 2em; border-top: 1px solid #ddd; }
            svg { max-width: 100%; height: auto; }
            </style>
            </head>
            <body>

            """
        out += "<h1>TraceKit batch: \(trips.count) trip\(trips.count == 1 ? "" : "s"), policy \(esc(header.policyName))</h1>\n"
        if let summary = failureSummary {
            out += "<p class=\"fail\"><strong>\(esc(summary))</strong></p>\n"
        } else {
            out +=
                "<p class=\"pass\"><strong>\(baselinePath.map { "Gate passed against \(esc($0))" } ?? "Every trip replayed")</strong></p>\n"
        }
        out +=
            "<p>Energy \(esc(header.energyLabel)) (an estimate) · receiver radio \(header.receiverRadio ? "on" : "off") · tracekit \(esc(header.tracekitVersion))</p>\n"
            + "<p>View: \(esc(header.view))</p>\n"
        let lines = gateLines
        if !lines.isEmpty {
            out += "<h2>Gate and failures</h2>\n<ul>\n" + lines.map { "<li>\(esc($0))</li>\n" }.joined() + "</ul>\n"
        }
        out += "<h2>Trips</h2>\n"
        out += table(
            ["Trip", "Status", "Category", "Phones", "Fixes", "Time", "Sent", "Energy J"],
            trips.map { t in
                switch t.outcome {
                case .success(let r):
                    [
                        t.trip.id, "replayed", r.category, "\(r.phones)", "\(r.fixes)", InfoCommand.duration(r.seconds), "\(r.sent)",
                        ReplayReport.fixed(r.joules, 1),
                    ]
                case .failure(let e): [t.trip.id, "failed: " + e.message, "", "", "", "", "", ""]
                }
            })
        out += "<h2>Corpus per role and state</h2>\n<p>Sums over the trips; p95: the trips' mean / largest.</p>\n"
        out += table(Self.aggregateHeader, Self.aggregateRows(aggregate()))
        if let policyB {
            out += "<h2>Policy \(esc(policyB)) against \(esc(header.policyName))</h2>\n"
            out += table(
                ["Role", "State", "Sent A", "Sent B", "Sent %", "Forwarded %", "Energy J A", "Energy J B", "Energy %"],
                Self.differenceRows(aggregate(), aggregate(b: true)))
        }
        for t in replayed {
            out += "<section class=\"trip\">\n<h2>\(esc(t.trip.id))</h2>\n"
            if let svg = t.report.svg {
                // The SVG document without its XML declaration, inline.
                out += svg.hasPrefix("<?xml") ? String(svg.drop { $0 != "\n" }.dropFirst()) : svg
            }
            out += "</section>\n"
        }
        return out + "</body>\n</html>\n"
    }
}
