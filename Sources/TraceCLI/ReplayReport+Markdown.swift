import TraceReplay
import TraceSharing

/// `replay --format markdown`: a compact GitHub-flavoured report for a pull-request comment: a
/// heading naming the traces, the summary (``ReplaySummary``), the scenario with each item's source and what was inferred, the
/// models, one table per phone with a trace (the terminal table's columns), what dominates the
/// cost and the arrivals as seen. Deterministic, like every report. Text from files (paths, the
/// category, policy and profile names, notes) is written with ``Shown/markdown(_:)`` or, in code
/// spans, ``Shown/markdownCode(_:)``.
extension ReplayReport {
    static func markdown(_ r: ReplayResult) -> String {
        let s = r.scenario
        var out = "### TraceKit replay: " + s.traces.map { Shown.markdownCode($0.path) }.joined(separator: ", ") + "\n\n"
        let summary = ReplaySummary(r)
        out += summary.markdown + "\n"
        // No credible pickup: the summary's answer as each state is the report (the inferred
        // timeline's tables would rest on a pickup placed at the first fix).
        if summary.answersPerState {
            out +=
                "- **Policy:** \(Shown.markdown(r.policy.name)) · energy \(Shown.markdown(r.energyModel)) (an estimate) · receiver radio \(r.receiverRadio ? "on" : "off")"
            out += (r.view.isIdeal ? "" : " · **View:** \(r.view.summary)") + "\n"
            for w in r.warnings { out += "- **Warning:** \(Shown.markdown(w))\n" }
            return out
        }
        func source<T>(_ item: Sourced<T>) -> String {
            switch item.provenance {
            case .default: "default"
            case .inferred: "inferred: \(Shown.markdown(item.detail))"
            case .flag, .sidecar, .trace: item.detail.isEmpty ? item.provenance.rawValue : Shown.markdown(item.detail)
            }
        }
        var scenario = [
            "category **\(Shown.markdown(s.category.value.name))**\(s.category.value.isRide ? "" : " (not a ride)") (\(source(s.category)))"
        ]
        if s.pickupHandedOff.value { scenario.append("pickup handed off to the delegate (\(source(s.pickupHandedOff)))") }
        for (name, p) in [("pickup", s.pickup), ("dropoff", s.dropoff)] {
            scenario.append(
                p.map { "\(name) \(fixed($0.value.latitude, 6)), \(fixed($0.value.longitude, 6)) (\(source($0)))" } ?? "\(name) none")
        }
        out += "- **Scenario:** " + scenario.joined(separator: "; ") + "\n"
        out +=
            "- **Timeline:** "
            + (s.timeline.isEmpty
                ? "none"
                : s.timeline.map { "\($0.state.displayName) \(clock($0.time, in: r))\($0.provenance == .inferred ? "\\*" : "")" }.joined(
                    separator: " → ")) + "\n"
        let assumed = s.assumedItems
        out += "- **Inferred:** " + (assumed.isEmpty ? "nothing" : assumed.joined(separator: ", ")) + "\n"
        if let c = s.cancelledAt { out += "- **Cancelled:** \(c.value.iso8601) (\(source(c)))\n" }
        out +=
            "- **Policy** \(Shown.markdownCode(r.policy.name)) · energy \(Shown.markdown(r.energyModel)) (an estimate) · receiver radio \(r.receiverRadio ? "on" : "off") · \(r.start.iso8601) … \(r.end.iso8601) (\(InfoCommand.duration(r.durationSeconds))\(ReplayReport.excludedNote(r))) · tracekit \(r.tracekitVersion)\n"
        if !r.view.isIdeal { out += "- **View:** \(r.view.summary)\n" }
        for phone in r.energy where phone.hasTrace {
            out += "\n#### \(phone.role.key.capitalizedFirst)'s phone\n\n"
            var (header, rows) = phoneTable(r, phone.role)
            if let last = rows.indices.last { rows[last] = rows[last].map { $0.isEmpty ? $0 : "**\($0)**" } }
            out += TextTable.markdown(header: header, rows: rows)
        }
        let lead = "What dominates the cost:"
        out += "\n**\(lead)**" + dominantCost(r).dropFirst(lead.count) + "\n"
        let battery = r.energy.map {
            "\($0.role.key) \(fixed($0.estimate.totalJoules, 1)) J (\(fixed($0.estimate.milliampHours, 2)) mAh, \(ReplaySummary.percent($0.estimate.percentOfReferenceBattery)))"
        }
        out += "Battery, as % of \(ReplaySummary.battery(r.energyProfile)): " + battery.joined(separator: ", ") + ".\n"
        let spreads = r.energy.compactMap { p in p.spread.map { "\(p.role.key) \($0.text(decimals: 2))" } }
        if !spreads.isEmpty { out += "The same replay on the shipped device profiles: " + spreads.joined(separator: "; ") + ".\n" }
        if let d = derivation(r) { out += "The \(Shown.markdown(d)).\n" }
        let controls = policyControls(r)
        if !controls.isEmpty {
            out += "\n<details><summary>\(Self.policyControlsHeading)</summary>\n\n" + controls.map { "- \($0)\n" }.joined() + "\n</details>\n"
        }
        let arrivals = arrivals(r)
        if !arrivals.isEmpty { out += "\n" + arrivals.map { "- \($0)\n" }.joined() }
        if let n = r.networkFigures { out += "\n**Network:** \(n.summary)\n" }
        if !r.notes.isEmpty || !r.warnings.isEmpty {
            out +=
                "\n" + r.warnings.map { "- **Warning:** \(Shown.markdown($0))\n" }.joined()
                + r.notes.map { "- Note: \(Shown.markdown($0))\n" }.joined()
        }
        return out
    }
}
