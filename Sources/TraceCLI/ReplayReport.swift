import TraceDevice
import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceJSON
import TraceReplay
import TraceSharing

/// The terminal report of a replay: the summary (``ReplaySummary``); a header naming the trip,
/// its scenario (inferred items marked) and the models; one table per phone with a trace, one row
/// per state entered and a totals row, with a legend line under it; the battery estimate per
/// phone; what dominates the cost; the arrivals as seen, an expected absence said as such. Times
/// of day follow ``ReportClock``'s rule.
enum ReplayReport {
    /// The header's policy, phones, view and time lines.
    static func modelLines(_ r: ReplayResult) -> String {
        var out =
            "  policy     \(r.policy.name) · energy \(r.energyModel) (an estimate) · receiver radio \(r.receiverRadio ? "on" : "off") · tracekit \(r.tracekitVersion)\n"
        if !r.phone.isPassThrough { out += "  phones     \(r.phone.summary)\n" }
        if !r.view.isIdeal { out += "  view       \(r.view.summary)\n" }
        out += "  time       \(r.start.iso8601) … \(r.end.iso8601) (\(InfoCommand.duration(r.durationSeconds))\(excludedNote(r)))\n"
        return out
    }

    static func table(_ r: ReplayResult) -> String {
        let summary = ReplaySummary(r)
        var out = summary.table + "\n"
        let s = r.scenario
        let traces = s.traces.map { t in
            "\(Shown.terminal(t.path)) (" + t.roles.map { "\($0.role.key) \($0.fixes) fixes" }.joined(separator: ", ") + ")"
        }
        out += "Replay: \(traces.joined(separator: "; "))\n"
        out +=
            "  category   \(Shown.terminal(s.category.value.name))\(s.category.value.isRide ? "" : " (not a ride)")\(label(s.category))\n"
        if summary.answersPerState {
            // No credible pickup: the answer is the summary's, state by state; the inferred
            // timeline's tables would rest on a pickup placed at the first fix.
            out += "  pickup     none credible: no stop after setting off (README \"Replay: a plain recording\")\n"
            out += modelLines(r)
            return out
        }
        if s.pickupHandedOff.value { out += "  pickup handed off to the delegate\(label(s.pickupHandedOff))\n" }
        for (name, p) in [("pickup", s.pickup), ("dropoff", s.dropoff)] {
            let pad = String(repeating: " ", count: 11 - name.count)  // the values start in one column
            guard let p else {
                out += "  \(name)\(pad)none\n"
                continue
            }
            out += "  \(name)\(pad)\(fixed(p.value.latitude, 6)), \(fixed(p.value.longitude, 6))\(label(p))\n"
        }
        out +=
            "  timeline   "
            + (s.timeline.isEmpty
                ? "none"
                : s.timeline.map { "\($0.state.displayName) \(clock($0.time, in: r))\($0.provenance == .inferred ? "*" : "")" }.joined(
                    separator: ", ")) + "\n"
        if s.timeline.contains(where: { $0.provenance == .inferred }) {
            out +=
                "             (* inferred: dwell \(fixed(s.rules.dwellRadiusMetres, 0)) m for \(fixed(s.rules.dwellSeconds, 0)) s, no gap over \(fixed(s.rules.recordingGapSeconds, 0)) s; README \"Replay\")\n"
        }
        if let c = s.cancelledAt { out += "  cancelled  \(c.value.iso8601)\(label(c))\n" }
        let assumed = s.assumedItems
        out += "  inferred   \(assumed.isEmpty ? "nothing" : assumed.joined(separator: ", "))\n"
        out += modelLines(r)

        for phone in r.energy where phone.hasTrace {
            let role = phone.role
            out += "\n\(role.key.capitalizedFirst)'s phone\n"
            let (header, rows) = phoneTable(r, role)
            out += TextTable.aligned(header: header, rows: rows)
            out += legend(r, role) + "\n"
        }

        out += "\nBattery (\(r.energyModel); an estimate, constants marked assumed in the profile):\n"
        if let d = derivation(r) { out += "  \(d)\n" }
        for phone in r.energy {
            let e = phone.estimate
            out += "  \(batteryLine(phone, r))\n"
            let tiers = TierSeconds.metricKitOrder.filter { e.tierSeconds[$0] > 0 }.map {
                "\($0.key) \(InfoCommand.duration(e.tierSeconds[$0]))"
            }
            out += "    time per tier: \(tiers.isEmpty ? "location off throughout" : tiers.joined(separator: ", "))\n"
            if let spread = phone.spread { out += "    the same replay \(spread.text(decimals: 2))\n" }
        }
        out += dominantCost(r) + "\n"
        let controls = policyControls(r)
        if !controls.isEmpty {
            out += Self.policyControlsHeading + ":\n" + controls.map { "  \($0)\n" }.joined()
        }
        for line in arrivals(r) { out += line + "\n" }
        if let n = r.networkFigures { out += "Network: \(n.summary)\n" }
        for f in r.files {
            var problems = f.diagnostics.summaryLines
            if f.untimedFixes > 0 { problems.append("\(f.untimedFixes) track points without a time were not replayed") }
            if f.outOfOrderFixes > 0 { problems.append("\(f.outOfOrderFixes) fixes out of time order were skipped") }
            if !problems.isEmpty { out += Shown.terminal("\(f.path): " + problems.joined(separator: "; ")) + "\n" }
        }
        for n in r.notes { out += "Note: \(Shown.terminal(n))\n" }
        return out
    }

    /// ", of request time: 9.6 h in 1 recording gap excluded (… → …)", or nothing without a gap.
    static func excludedNote(_ r: ReplayResult) -> String {
        let gaps = r.recordingGaps
        guard !gaps.isEmpty else { return "" }
        let listed = gaps.prefix(3).map { "\($0.from.iso8601) → \($0.to.iso8601)" }.joined(separator: ", ")
        let more = gaps.count > 3 ? " and \(gaps.count - 3) more" : ""
        return
            " of request time; \(InfoCommand.duration(r.excludedSeconds)) in \(gaps.count) recording gap\(gaps.count == 1 ? "" : "s") excluded: \(listed)\(more)"
    }

    /// One phone's battery line without its newline: "helper: 734.5 J = 53.00 mAh, 1.5 % of a
    /// 3,500 mAh battery (assumed), 162.70 mAh/h; location …, fixes …, radio … (… sent, …)".
    static func batteryLine(_ phone: PhoneEnergy, _ r: ReplayResult) -> String {
        let e = phone.estimate
        let perHour =
            e.milliampHoursPerHour.map { ", \(fixed($0, 2)) mAh/h" } ?? e.rateWithheld.map { ", no hourly rate (\($0))" } ?? ""
        return
            "\(phone.role.key)\(phone.hasTrace ? "" : " (no trace: location and received updates only)"): \(fixed(e.totalJoules, 1)) J = \(fixed(e.milliampHours, 2)) mAh, \(ReplaySummary.percent(e.percentOfReferenceBattery)) of \(ReplaySummary.battery(r.energyProfile))\(perHour)"
            + "; location \(fixed(e.locationJoules, 1)) J, fixes \(fixed(e.fixesJoules, 1)) J, radio \(fixed(e.radio.totalJoules, 1)) J"
            + " (\(e.sent) sent, \(e.received) received, \(e.radioPromotions) promotions)"
    }

    /// "profile pixel-4-xl from an Android power profile: GNSS 15 mA (…), …": how a profile's
    /// constants were derived (``TraceEnergy/EnergyProfile/derivation``); nil for the built-in
    /// radio profiles and JSON profile files.
    static func derivation(_ r: ReplayResult) -> String? {
        let p = r.energyProfile
        guard !p.derivation.isEmpty else { return nil }
        return "profile \(p.name) from an Android power profile: " + p.derivation.joined(separator: "; ")
    }

    /// The heading of ``policyControls(_:)``'s lines.
    static let policyControlsHeading =
        "What the policy controls, per phone and state (its fixes and radio; the location part is the state's tier over the state's time)"

    /// One line per phone and state of some time and energy: the part of the energy a throttling
    /// policy changes against the whole, and what one more update would cost at the state's rate
    /// (``TraceReplay/StateRoleMetrics/marginalUpdateJoules(_:)``), e.g. "helper, En Route: 475.3 J
    /// of 548.0 J (87 %); one more update +0.06 J (0.005 mAh): at one radio event every 3.3 s it
    /// shares the tail (an isolated update costs 11.16 J)".
    static func policyControls(_ r: ReplayResult) -> [String] {
        let profile = r.energyProfile
        let isolated = profile.radio.isolatedUpdateJoules + profile.fixMillijoules / 1000
        var lines: [String] = []
        for phone in r.energy {
            for st in r.states where st.entered && st.seconds > 0 {
                guard let m = st[phone.role], m.energy.totalJoules > 0 else { continue }
                let total = m.energy.totalJoules
                var line =
                    "\(phone.role.key), \(st.state.displayName): \(fixed(m.policyJoules, 1)) J of \(fixed(total, 1)) J (\(fixed(m.policyJoules / total * 100, 0)) %)"
                if let more = m.marginalUpdateJoules(profile) {
                    let events = m.sentUpdates + m.receivedUpdates
                    line += "; one more update +\(fixed(more, 2)) J (\(fixed(more / profile.joulesPerMilliampHour, 3)) mAh)"
                    if events == 0 {
                        line += ": none was sent or received in the state, so it would be an isolated update"
                    } else {
                        let every = st.seconds / Double(events)
                        let shares = every < profile.radio.transmitSeconds + profile.radio.tailTotalSeconds
                        line +=
                            shares
                            ? ": at one radio event every \(fixed(every, 1)) s it shares the tail (an isolated update costs \(fixed(isolated, 2)) J)"
                            : ": at one radio event every \(fixed(every, 1)) s each pays its own promotion and tail"
                    }
                }
                lines.append(line)
            }
        }
        return lines
    }

    /// "What dominates the cost: …", one line without its newline.
    static func dominantCost(_ r: ReplayResult) -> String {
        guard let d = r.dominantCost else { return "What dominates the cost: nothing; location was off throughout." }
        let state = r.costliestState(of: d.role, part: d.part).map { ", most of it in \($0.displayName)" } ?? ""
        return
            "What dominates the cost: the \(d.role.key)'s \(d.part.rawValue), \(fixed(d.joules, 1)) J, \(fixed(d.share * 100, 0)) % of all phones' energy\(state)."
    }

    /// One line per arrival: when the viewer saw it, or why it did not
    /// (``ArrivalVisibility/reason(radiusMetres:)``): the helper never arrived, the policy does not
    /// show the helper to the viewer then (expected, "not shown by design"), or a failure ("never,
    /// a failure": the viewer was to see the helper, but no update placed it there).
    static func arrivals(_ r: ReplayResult) -> [String] {
        r.arrivals.map { a in
            let text =
                a.reason(radiusMetres: r.scenario.rules.dwellRadiusMetres) ?? "\(fixed(a.lateSeconds ?? 0, 1)) s after the helper arrived"
            return "Arrival at \(a.point.rawValue) seen by the \(a.viewer.key): \(text)"
        }
    }

    /// The line under a phone's table that says what its columns count: "Raw fixes: in the trace ·
    /// Delivered: to the app · Sent: to the server · → hirer: forwarded to the hirer · …".
    static func legend(_ r: ReplayResult, _ role: Role) -> String {
        let viewers = r.roles.filter { $0 != role }
        let forwarded =
            viewers.count == 1
            ? "→ \(viewers[0].key): forwarded to the \(viewers[0].key)"
            : viewers.map { "→ \($0.key)" }.joined(separator: ", ") + ": forwarded to each"
        return
            "Raw fixes: in the trace · Delivered: to the app · Sent: to the server · \(forwarded) · Display error: true position to the viewer's marker · Staleness: the marker's age"
    }

    /// The per-state table of one phone: header and rows (the states entered, then the total).
    static func phoneTable(_ r: ReplayResult, _ role: Role) -> (header: [String], rows: [[String]]) {
        let viewers = r.roles.filter { $0 != role }
        var header = ["State", "Time", "Tier", "Raw fixes", "Delivered", "Sent"]
        header += viewers.map { "→ \($0.key)" }
        header += ["Display error m mean/p95/max", "Staleness s p95/max", "Distance km", "Energy J"]
        var rows: [[String]] = []
        for st in r.states where st.entered {
            guard let m = st[role] else { continue }
            rows.append(row(st.state.displayName, InfoCommand.duration(st.seconds), st.tier.key, m, viewers))
        }
        if let t = r.roleTotals.first(where: { $0.role == role }) {
            rows.append(row("Total", InfoCommand.duration(r.durationSeconds), "", t, viewers))
        }
        return (header, rows)
    }

    static func row(_ name: String, _ time: String, _ tier: String, _ m: StateRoleMetrics, _ viewers: [Role]) -> [String] {
        let v = m.view
        var cells = [name, time, tier, "\(m.rawFixes)", "\(m.deliveredFixes)", "\(m.sentUpdates)"]
        cells += viewers.map { "\(m.forwarded[$0])" }
        if let mean = v.displayErrorMeanMetres, let p95 = v.displayErrorP95Metres, let mx = v.displayErrorMaxMetres {
            cells.append("\(fixed(mean, 1)) / \(fixed(p95, 1)) / \(fixed(mx, 1))")
        } else {
            cells.append(v.withoutUpdate > 0 ? "nothing received" : "—")
        }
        if let p95 = v.stalenessP95Seconds, let mx = v.stalenessMaxSeconds {
            cells.append("\(fixed(p95, 1)) / \(fixed(mx, 1))")
        } else {
            cells.append("—")
        }
        cells.append(fixed(m.distanceMetres / 1000, 2))
        cells.append(fixed(m.energy.totalJoules, 1))
        return cells
    }

    /// Where a scenario item came from, for the terminal: "   [sidecar PATH]" (the detail, which
    /// may name a file, as ``Shown/terminal(_:)`` shows it).
    static func label<T>(_ s: Sourced<T>) -> String {
        switch s.provenance {
        case .inferred: "   [inferred: \(Shown.terminal(s.detail))]"
        case .default: "   [default]"
        case .flag, .sidecar, .trace: s.detail.isEmpty ? "   [\(s.provenance.rawValue)]" : "   [\(Shown.terminal(s.detail))]"
        }
    }

    /// `t` as a time of day in `r`'s reports (UTC): "08:01:37", or "2024-05-02 00:03:11" when the
    /// trip's span crosses midnight UTC (``ReportClock``).
    static func clock(_ t: Timestamp, in r: ReplayResult) -> String { ReportClock(r).text(t) }

    /// `x` with exactly `decimals` digits after the point, rounded half away from zero.
    static func fixed(_ x: Double, _ decimals: Int) -> String { DecimalText.fixed(x, decimals) }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
