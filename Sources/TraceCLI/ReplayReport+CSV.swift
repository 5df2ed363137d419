import TraceEnergy
import TraceJSON
import TraceReplay
import TraceSharing

/// `replay --format csv`: one row per (state, role), all seven states in order, then one `total`
/// row per role; every metric a column, units in the names (`_m` metres, `_s` seconds, `_j`
/// joules). RFC 4180: CRLF line ends, a field with a comma, quote, CR or LF is quoted with its
/// quotes doubled. Numbers are written as in the JSON report (shortest round trip, integral values
/// without a fraction), so the two agree exactly; an absent value (no view sample) is an empty
/// field. The policy's part of the energy, the tier's, one more update's cost
/// (``TraceReplay/StateRoleMetrics/marginalUpdateJoules(_:)``) and, on a role's total row, the
/// range across the shipped device profiles (empty elsewhere) come last. The columns are listed in
/// the README ("Replay: CSV").
extension ReplayReport {
    static let csvColumns = [
        "state", "state_name", "entered", "tier", "role", "duration_s",
        "raw_fixes", "delivered_fixes", "sent_updates", "forwarded_hirer", "forwarded_helper", "forwarded_delegate",
        "distance_m", "view_samples", "view_without_update",
        "display_error_mean_m", "display_error_p95_m", "display_error_max_m",
        "staleness_mean_s", "staleness_p95_s", "staleness_max_s",
        "energy_location_j", "energy_fixes_j", "energy_radio_j", "energy_total_j",
        "received_updates", "energy_policy_j", "energy_tier_j", "marginal_update_j", "devices_min_mah", "devices_max_mah",
    ]

    static func csv(_ r: ReplayResult) -> String {
        var lines = [csvColumns.map(csvField).joined(separator: ",")]
        func line(_ lead: [String], _ m: StateRoleMetrics, total: Bool = false) {
            func n(_ x: Double) -> String { JSONWriter.number(x) }
            func opt(_ x: Double?) -> String { x.map(n) ?? "" }
            let v = m.view
            let cells =
                lead + [
                    m.role.key, n(m.seconds),
                    "\(m.rawFixes)", "\(m.deliveredFixes)", "\(m.sentUpdates)",
                    "\(m.forwarded[.hirer])", "\(m.forwarded[.helper])", "\(m.forwarded[.delegate])",
                    n(m.distanceMetres), "\(v.samples)", "\(v.withoutUpdate)",
                    opt(v.displayErrorMeanMetres), opt(v.displayErrorP95Metres), opt(v.displayErrorMaxMetres),
                    opt(v.stalenessMeanSeconds), opt(v.stalenessP95Seconds), opt(v.stalenessMaxSeconds),
                    n(m.energy.locationJoules), n(m.energy.fixesJoules), n(m.energy.radioJoules), n(m.energy.totalJoules),
                    "\(m.receivedUpdates)", n(m.policyJoules), n(m.tierJoules), opt(m.marginalUpdateJoules(r.energyProfile)),
                ]
                + devices(total ? r.energy.first { $0.role == m.role }?.spread : nil)
            lines.append(cells.map(csvField).joined(separator: ","))
        }
        for st in r.states {
            for m in st.roles { line([st.state.key, st.state.displayName, st.entered ? "true" : "false", st.tier.key], m) }
        }
        for m in r.roleTotals { line(["total", "Total", "true", ""], m, total: true) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The lowest and highest mAh across the device profiles (a role's total row), or two empty
    /// fields.
    static func devices(_ s: EnergySpread?) -> [String] {
        guard let s else { return ["", ""] }
        return [JSONWriter.number(s.lowestMilliampHours), JSONWriter.number(s.highestMilliampHours)]
    }

    /// A field as ``Shown/csv(_:)`` writes a cell: no control character, quoted as RFC 4180
    /// requires, a text that could start a formula prefixed with `'`.
    static func csvField(_ s: String) -> String { Shown.csv(s) }
}
