import TraceDomain
import TraceReplay
import TraceSharing

/// `replay --html FILE`: the replay as one self-contained page (``HTMLPage``: no script, no
/// external request), in the order a reader asks: the summary and any warning, the map with the cumulative
/// updates and energy (``ReplaySVG``), the display error over time, each phone's table by state,
/// then the battery, the arrivals and the network.
///
/// Element ids a reader (or a test) can rely on: `summary`, `map`, `display-error`, `phones`
/// (with a `section` per phone, `phone-helper`, `phone-hirer`, `phone-delegate`, each holding a
/// table whose rows are the states entered and a Total row), `battery`, `arrivals`.
enum ReplayHTML {
    /// The page of `r`, replayed with `policy` and ``TraceReplay/ReplayOptions/recordTrack`` on.
    static func render(_ r: ReplayResult, policy: SharingPolicy) -> String {
        guard let track = r.track else { preconditionFailure("the HTML report needs a replay with recordTrack") }
        let esc = HTMLPage.escape
        let names = r.scenario.traces.map { String($0.path.split(separator: "/").last ?? Substring($0.path)) }.joined(separator: ", ")
        var body = "<h1>TraceKit replay: \(esc(names))</h1>\n"
        body += summary(r)
        // Warnings right under the summary: they say when a figure above is not to be trusted.
        if !r.warnings.isEmpty {
            body += "<section id=\"warnings\">\n" + r.warnings.map { "<p class=\"note\"><strong>Warning:</strong> \(esc($0))</p>\n" }.joined() + "</section>\n"
        }
        // No credible pickup: the summary's answer as each state is the report; the map, the
        // tables and the arrivals would show a timeline resting on a pickup at the first fix.
        if ReplaySummary(r).answersPerState {
            body +=
                "<p class=\"note\" id=\"as-each-state\">No stop between setting off and the end, so no pickup to infer: the answer is the summary's, state by state. Give the scenario (--scenario FILE, or --pickup and --timeline) for the map and the tables of one request.</p>\n"
            // The network's figures are the inferred timeline's too: left out with it.
            return HTMLPage.document(title: "TraceKit replay: \(names)", body: body + notesSection(r, network: false))
        }
        body += "<figure id=\"map\">\n" + HTMLPage.inline(svg: ReplaySVG.render(r, policy: policy))
        body +=
            "<figcaption>The tracks by state (helper solid, hirer dashed, delegate dotted), delivered updates (filled: sent), the pickup P and dropoff D, each state's map frame; below, the cumulative updates and energy of all phones.</figcaption>\n</figure>\n"
        body += "<figure id=\"display-error\">\n" + HTMLPage.inline(svg: ReplaySVG.displayErrorChart(r, track))
        body +=
            "<figcaption>Display error at the chart's samples (each raw fix, thinned): the distance from the sender's latest fix to what its viewers' maps draw, the worst viewer. The tables' figures come from the viewers' own clock.</figcaption>\n</figure>\n"
        body += "<section id=\"phones\">\n<h2>Each phone, by state</h2>\n"
        for phone in r.energy where phone.hasTrace {
            let (header, rows) = ReplayReport.phoneTable(r, phone.role)
            body += "<section id=\"phone-\(phone.role.key)\">\n"
            body += HTMLPage.table(
                header, rows, caption: "\(phone.role.key.capitalizedFirst)'s phone", numeric: Set(3..<header.count),
                rowClasses: rows.map { $0.first == "Total" ? "total" : nil })
            body += "</section>\n"
        }
        body += "</section>\n"
        body += "<section id=\"battery\">\n<h2>Battery</h2>\n<p>\(esc(r.energyModel)); an estimate, constants marked assumed in the profile.</p>\n<ul>\n"
        if let d = ReplayReport.derivation(r) { body += "<li>\(esc(d))</li>\n" }
        for phone in r.energy {
            body += "<li>\(esc(ReplayReport.batteryLine(phone, r)))"
            if let spread = phone.spread { body += "; the same replay \(esc(spread.text(decimals: 2)))" }
            body += "</li>\n"
        }
        body += "</ul>\n<p>\(esc(ReplayReport.dominantCost(r)))</p>\n"
        let controls = ReplayReport.policyControls(r)
        if !controls.isEmpty {
            body += "<h3>\(esc(ReplayReport.policyControlsHeading))</h3>\n<ul>\n" + controls.map { "<li>\(esc($0))</li>\n" }.joined() + "</ul>\n"
        }
        body += "</section>\n"
        let arrivals = ReplayReport.arrivals(r)
        if !arrivals.isEmpty {
            body += "<section id=\"arrivals\">\n<h2>Arrivals as seen</h2>\n<ul>\n" + arrivals.map { "<li>\(esc($0))</li>\n" }.joined() + "</ul>\n</section>\n"
        }
        return HTMLPage.document(title: "TraceKit replay: \(names)", body: body + notesSection(r))
    }

    /// The network's figures (unless `network` is false) and the replay's notes, when there are any.
    static func notesSection(_ r: ReplayResult, network: Bool = true) -> String {
        var notes: [String] = []
        if network, let n = r.networkFigures { notes.append("Network: \(n.summary)") }
        notes += r.notes.map { "Note: \($0)" }
        guard !notes.isEmpty else { return "" }
        return "<section id=\"notes\">\n" + notes.map { "<p class=\"note\">\(HTMLPage.escape($0))</p>\n" }.joined() + "</section>\n"
    }

    /// The summary block (``ReplaySummary``, the lines the terminal and Markdown reports open
    /// with) as a definition list, then the policy and models.
    static func summary(_ r: ReplayResult) -> String {
        let esc = HTMLPage.escape
        var items = ReplaySummary(r).lines.map { ($0.label, $0.text) }
        items.append(("policy", "\(r.policy.name) · energy \(r.energyModel) (an estimate) · tracekit \(r.tracekitVersion)"))
        if !r.view.isIdeal { items.append(("view", r.view.summary)) }
        return "<section id=\"summary\">\n<dl class=\"summary\">\n"
            + items.map { "<dt>\(esc($0.0))</dt><dd>\(esc($0.1))</dd>\n" }.joined() + "</dl>\n</section>\n"
    }
}
