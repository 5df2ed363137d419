import TraceDomain
import TraceEnergy
import TraceJSON
import TraceReplay

/// What a replay's reader wants first, before the per-phone tables: the trip (traces, category,
/// span), the traces' data problems and what was done with them, the time in each state entered, the updates each phone sent, each phone's battery in mAh
/// and as a percentage of the profile's reference battery, and the worst view any party had of
/// another (``ReplayResult/worstView``). Plain values, so that every report lays it out its own
/// way: the table and Markdown from ``lines``, HTML from the properties.
struct ReplaySummary: Hashable, Sendable {
    /// Time spent in one state entered.
    struct StateTime: Hashable, Sendable {
        /// E.g. "En Route".
        var state: String
        var seconds: Double
        /// E.g. "8.3 min".
        var duration: String
    }

    /// One phone's figures.
    struct Phone: Hashable, Sendable {
        /// "helper", "hirer" or "delegate".
        var role: String
        /// Whether the phone had a trace (without one, only its location and receptions count).
        var hasTrace: Bool
        /// Updates it sent to the server.
        var sent: Int
        var joules: Double
        var milliampHours: Double
        /// The charge as a percentage of the reference battery.
        var percentOfReferenceBattery: Double
        /// E.g. "helper 54.4 mAh, 1.6 % of a 3,500 mAh battery (assumed)".
        var battery: String
    }

    /// One line of the summary: its label ("trip", "states", "sent", "battery", "worst view") and
    /// its text.
    struct Line: Hashable, Sendable {
        var label: String
        var text: String
    }

    /// Each trace with its roles, e.g. "Traces/trips/ride/helper.gpx (helper)".
    var traces: [String]
    /// E.g. "ride" or "dog walking (not a ride)".
    var category: String
    /// E.g. "2024-05-01 08:01:37 … 08:21:09 UTC" (``ReportClock/span(_:_:)``).
    var span: String
    /// Request time, e.g. "19.5 min" (recording gaps excluded).
    var duration: String
    /// The states entered that lasted, in order.
    var states: [StateTime]
    /// One per phone taking part, in the replay's order (helper, hirer, delegate).
    var phones: [Phone]
    /// The reference battery, in mAh (``EnergyProfile/referenceBatteryMilliampHours``).
    var referenceBatteryMilliampHours: Double
    /// Whether the profile marks the reference battery assumed.
    var referenceBatteryAssumed: Bool
    /// E.g. "the hirer saw the helper 24.3 m off (p95) in En Route"; nil when no viewer received
    /// an update.
    var worstDisplayError: String?
    /// E.g. "staleness p95 230.0 s (the helper saw the hirer, En Route)"; nil likewise.
    var worstStaleness: String?
    /// The traces' problems and what was done with them (``ReplayResult/dataProblems``), e.g.
    /// "6 speed spikes dropped, 45 teleports: a new segment at each"; empty when clean.
    var dataProblems: [String]
    /// The policy the traces were read under, e.g. "filter".
    var onProblem: String
    /// How the pickup was found (``TraceReplay/PickupInference``).
    var pickupInference: PickupInference
    /// ``TraceReplay/ReplayScenario/lacksCrediblePickup``.
    var lacksCrediblePickup: Bool
    /// Whether every timeline entry was inferred (none was given).
    var timelineInferred: Bool
    /// The recording replayed as each live state, when it was.
    var asEachState: [StateAnswer]?

    /// Whether the recording had no credible pickup: the report answers per state instead of
    /// showing an inferred timeline.
    var answersPerState: Bool { lacksCrediblePickup && asEachState != nil }

    init(_ r: ReplayResult) {
        let s = r.scenario
        traces = s.traces.map { "\($0.path) (\($0.roles.map(\.role.key).joined(separator: ", ")))" }
        category = s.category.value.name + (s.category.value.isRide ? "" : " (not a ride)")
        span = ReportClock(r).span(r.start, r.end)
        duration = InfoCommand.duration(r.durationSeconds)
        states = r.states.filter { $0.entered && $0.seconds > 0 }.map {
            StateTime(state: $0.state.displayName, seconds: $0.seconds, duration: InfoCommand.duration($0.seconds))
        }
        let profile = r.energyProfile
        referenceBatteryMilliampHours = profile.referenceBatteryMilliampHours
        referenceBatteryAssumed = profile.assumed.contains(.referenceBattery)
        let battery = Self.battery(profile)
        phones = r.energy.map { p in
            let e = p.estimate
            let sent = r.roleTotals.first { $0.role == p.role }?.sentUpdates ?? e.sent
            return Phone(
                role: p.role.key, hasTrace: p.hasTrace, sent: sent, joules: e.totalJoules, milliampHours: e.milliampHours,
                percentOfReferenceBattery: e.percentOfReferenceBattery,
                battery: "\(p.role.key) \(DecimalText.fixed(e.milliampHours, 1)) mAh"
                    + (p.spread.map { " (\($0.rangeText()))" } ?? "") + ", \(Self.percent(e.percentOfReferenceBattery)) of \(battery)")
        }
        pickupInference = r.scenario.pickupInference
        lacksCrediblePickup = r.scenario.lacksCrediblePickup
        timelineInferred = r.scenario.timeline.allSatisfy { $0.provenance == .inferred }
        asEachState = r.asEachState
        dataProblems = r.dataProblems.map(\.text)
        onProblem = r.problemPolicy.rawValue
        let worst = r.worstView
        worstDisplayError = worst.displayErrorP95.map {
            "\(Self.seen($0, in: r)) \(DecimalText.fixed($0.value, 1)) m off (p95) in \($0.state.displayName)"
        }
        worstStaleness = worst.stalenessP95.map {
            "staleness p95 \(DecimalText.fixed($0.value, 1)) s (\(Self.seen($0, in: r)), \($0.state.displayName))"
        }
    }

    /// The data line's text: the problems and what was done with them, the policy, and that the
    /// figures below come from that data; "clean" when there were none.
    var dataText: String {
        guard !dataProblems.isEmpty else { return "clean: no problem in the traces" }
        return dataProblems.joined(separator: ", ") + " (read with --on-problem \(onProblem))"
    }

    /// The summary's lines as a terminal shows them (``lines(_:)`` with ``Shown/terminal(_:)``).
    var lines: [Line] { lines(Shown.terminal) }

    /// The summary's lines, in order: trip, data, states (and what was inferred, with its
    /// confidence), the answer as each state when there is one, then sent, battery and worst view
    /// (marked when the traces had problems). A recording without a credible pickup
    /// (``answersPerState``) ends with the answer as each state: the figures of an inferred
    /// timeline would rest on an invented pickup. The text that came from files (the traces'
    /// paths, the category) is written with `shown`, the output's ``Shown`` function.
    func lines(_ shown: (String) -> String) -> [Line] {
        let phonesWithout = phones.filter { !$0.hasTrace }.map(\.role)
        let sentText = phones.map { "\($0.role) \($0.sent) update\($0.sent == 1 ? "" : "s")" }.joined(separator: ", ")
        var worst = [worstDisplayError, worstStaleness].compactMap { $0 }
        if !worst.isEmpty && !dataProblems.isEmpty { worst[worst.count - 1] += " (on data with problems: see data)" }
        let head = [
            Line(label: "trip", text: "\(traces.map(shown).joined(separator: ", ")); \(shown(category)); \(span) (\(duration))"),
            Line(label: "data", text: dataText),
        ]
        if answersPerState { return head + timelineLines + perStateLines }
        return head + timelineLines + perStateLines + [
            Line(
                label: "sent",
                text: sentText
                    + (phonesWithout.isEmpty ? "" : " (no trace: \(phonesWithout.joined(separator: ", ")))")),
            Line(label: "battery", text: phones.map(\.battery).joined(separator: "; ")),
            Line(label: "worst view", text: worst.isEmpty ? "no viewer received an update" : worst.joined(separator: "; ")),
        ]
    }

    /// The states line, and a line saying what was inferred and how confidently when the pickup
    /// was not given.
    var timelineLines: [Line] {
        let fix = "give the scenario instead: --scenario FILE, or --pickup LAT,LON and --timeline STATE@TIME,…"
        if answersPerState {
            return [
                Line(
                    label: "states",
                    text:
                        "no stop between setting off and the end, so no pickup to infer: the whole recording is replayed as each live state below (\(fix))"
                )
            ]
        }
        let statesLine = Line(
            label: "states", text: states.isEmpty ? "none lasted" : states.map { "\($0.state) \($0.duration)" }.joined(separator: ", "))
        let what: String
        switch pickupInference {
        case .given, .none: return [statesLine]
        case .partyTrace(let role): what = "the pickup at the \(role.key)'s first position"
        case .dwell(let seconds): what = "the pickup at the helper's first stop after setting off (\(InfoCommand.duration(seconds)))"
        case .noStop: what = "the pickup at the helper's first position (no stop after setting off)"
        }
        let timeline = timelineInferred ? ", and the timeline from it" : ""
        return [
            statesLine,
            Line(label: "inferred", text: "\(what)\(timeline); confidence \(pickupInference.confidence); \(fix)"),
        ]
    }

    /// One line per live state of the answer as each state: "as En Route": each phone's updates
    /// delivered and sent, its viewers' view (p95), and its battery in all, per hour and per km.
    var perStateLines: [Line] {
        (asEachState ?? []).map { a in
            let phones = a.phones.map { p -> String in
                var t = p.hasTrace ? "\(p.role.key) \(p.deliveredFixes) delivered, \(p.sentUpdates) sent" : "\(p.role.key) (no trace)"
                if let e = p.displayErrorP95Metres {
                    let who = p.viewers.map(\.key).joined(separator: " and ")
                    t += ", seen by the \(who) \(DecimalText.fixed(e, 1)) m off"
                    if let s = p.stalenessP95Seconds { t += " and \(DecimalText.fixed(s, 1)) s stale" }
                    t += " (p95)"
                }
                let rates = [
                    p.milliampHoursPerHour.map { "\(DecimalText.fixed($0, 1)) mAh/h" },
                    p.milliampHoursPerKilometre.map { "\(DecimalText.fixed($0, 2)) mAh/km" },
                    p.spread.map { $0.rangeText() },
                ].compactMap { $0 }
                return t + "; \(DecimalText.fixed(p.milliampHours, 1)) mAh" + (rates.isEmpty ? "" : " (\(rates.joined(separator: ", ")))")
            }
            return Line(
                label: "as \(a.state.displayName)",
                text: "\(a.tier.key): " + phones.joined(separator: "; "))
        }
    }

    /// The summary as the terminal table's block: a title, then one indented line per item with
    /// the texts in one column.
    var table: String {
        let width = lines.map(\.label.count).max() ?? 0
        return "Replay summary\n"
            + lines.map { "  \($0.label)\(String(repeating: " ", count: width + 2 - $0.label.count))\($0.text)\n" }.joined()
    }

    /// The summary as Markdown: one bullet per item.
    var markdown: String {
        lines(Shown.markdown).map { "- **\($0.label.capitalizedFirst):** \($0.text)\n" }.joined()
    }

    /// "a 3,500 mAh battery (assumed)": the reference battery as the reports name it, with its
    /// decimals when it is not a whole number of mAh ("a 2,999.5 mAh battery"), so the name and
    /// the percentages computed from it agree.
    static func battery(_ profile: EnergyProfile) -> String {
        let assumed = profile.assumed.contains(.referenceBattery) ? " (assumed)" : ""
        let mAh = profile.referenceBatteryMilliampHours, whole = mAh.rounded(.towardZero)
        var text = grouped(whole)
        if mAh != whole {
            // ".5" of "0.500": up to three decimals, trailing zeros removed.
            var decimals = Substring(DecimalText.fixed(mAh - whole, 3).drop { $0 != "." })
            while decimals.hasSuffix("0") { decimals = decimals.dropLast() }
            if decimals.count > 1 { text += decimals }
        }
        return "a \(text) mAh battery\(assumed)"
    }

    /// A percentage of the reference battery: one decimal from 1 % up ("1.5 %"), two below
    /// ("0.42 %"), so that a short trip does not read as 0.
    static func percent(_ x: Double) -> String {
        "\(DecimalText.fixed(x, x >= 1 ? 1 : 2)) %"
    }

    /// `x` rounded to a whole number with thousands separated by commas: "3,500", "12,000".
    static func grouped(_ x: Double) -> String { DecimalText.grouped(DecimalText.fixed(x, 0)) }

    /// "the hirer saw the helper": who saw the figure's sender in its state (the policy's viewers
    /// of the sender there, ``StateRoleMetrics/viewers``).
    static func seen(_ f: WorstViewFigure, in r: ReplayResult) -> String {
        let viewers = r.states.first { $0.state == f.state }?[f.sender]?.viewers ?? []
        let who = viewers.isEmpty ? "a viewer" : viewers.map { "the \($0.key)" }.joined(separator: " and ")
        return "\(who) saw the \(f.sender.key)"
    }
}
