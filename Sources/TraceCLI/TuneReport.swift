import TraceBatch
import TraceDomain
import TraceEnergy
import TraceJSON
import TraceReplay
import TraceSharing
import TraceTune

/// `tracekit tune`'s report, in each format: the verdict, the requirements (start, tuned, the best
/// any candidate reached, which bind), the fields changed, every figure per state and role start
/// → tuned, the limit of each display-error requirement, and each state's frontier.
struct TuneReport {
    let outcome: TuneOutcome
    let inputs: [String]

    static let schema = "tracekit-tune/1"

    var request: TuneRequest { outcome.request }
    /// The requirements asked for.
    var requirements: [Requirement] { request.requirements }
    /// Every requirement judged: those asked for, then the kept figures' (their indices in the
    /// outcome's per-requirement arrays).
    var judged: [Requirement] { outcome.requirements }

    // MARK: Figures

    /// `value` in `r`'s unit, e.g. "24.8 m", "never" for infinity.
    static func figure(_ value: Double?, _ r: Requirement) -> String {
        guard let value else { return "—" }
        if value.isInfinite { return "never" }
        return r.figure == .sentPerMinute ? "\(DecimalText.fixed(value, 2))/min" : "\(DecimalText.fixed(value, 1)) \(r.figure.unit)"
    }

    /// A corpus value with the trip it comes from, and whether it meets `r`.
    func value(_ v: CorpusEvaluation.CorpusValue?, _ r: Requirement, marked: Bool = true) -> String {
        guard let v else { return "— (no trip has it)" }
        let mark = marked ? (r.comparison.holds(v.value, r.bound) ? "✓ " : "✗ ") : ""
        let trip = v.trip.map { " (\(request.trips[$0].id))" } ?? ""
        return mark + Self.figure(v.value, r) + trip
    }

    func objective(_ x: Double) -> String {
        request.objective.unit == "J" ? "\(DecimalText.fixed(x, 1)) J" : "\(DecimalText.fixed(x, 0)) updates"
    }

    /// "−24.5 %" from `a` to `b`.
    static func change(_ a: Double, _ b: Double) -> String {
        guard a != 0 else { return "" }
        let p = (b - a) / a * 100
        return " (\(p < 0 ? "−" : "+")\(DecimalText.fixed(abs(p), 1)) %)"
    }

    var objectiveName: String {
        switch request.objective {
        case .energy: "energy of every phone"
        case .energyWorstDevice: "energy of every phone on the shipped device profile that needs the most energy (J) on each trip"
        case .energyOf(let r): "energy of the \(r.key)'s phone"
        case .sent: "updates sent"
        case .forwarded: "updates forwarded"
        }
    }

    var judgedText: String {
        request.judgement == .everyTrip
            ? "every trip must meet each requirement (the value shown is the worst trip's)"
            : "pooled over the corpus (percentiles over every sample, maxima over all trips)"
    }

    /// The header: what was tuned, how it was replayed, the search, how requirements are judged.
    var header: [(label: String, text: String)] {
        let states = request.space.states
        let trips = request.trips.count
        return [
            (
                "Tune",
                "\(trips) trip\(trips == 1 ? "" : "s") from \(inputs.joined(separator: ", ")) · start \(outcome.start.name) · minimise \(objectiveName) · \(request.jobs) job\(request.jobs == 1 ? "" : "s") · tracekit \(TraceKitCommand.version)"
            ),
            (
                "Replay",
                (outcome.startResults.first.map { "view \($0.view.summary) · " } ?? "")
                    + "energy \(outcome.startResults.first?.energyModel ?? "")"
            ),
            (
                "Search",
                "\(states.map { "\($0.state.displayName) (\(request.space.candidates($0.state, start: outcome.start[$0.state], base: outcome.start[$0.state]).count) rows)" }.joined(separator: ", ")); \(outcome.candidates) candidate policies in \(outcome.rounds) round\(outcome.rounds == 1 ? "" : "s")\(outcome.converged ? "" : " (stopped by --rounds before a round changed nothing: the bindings and frontiers are of the last sweeps)"), \(outcome.evaluations) trip evaluations (\(outcome.evaluations - outcome.sharedEvaluations) full replays, \(outcome.sharedEvaluations) shared with a replay that made the same decisions), \(outcome.tripsInMemory) of \(trips) trips in memory (\(DecimalText.fixed(Double(outcome.bytesInMemory) / 1e6, 1)) MB of fixes and schedules)"
            ),
            ("Data", dataText),
            ("Judged", judgedText),
        ] + (keptText.map { [("Kept", $0)] } ?? []) + (leftOutText.map { [("Left out", $0)] } ?? [])
    }

    /// What is kept of the figures no requirement names; nil when the request keeps nothing and
    /// releases nothing (the library's callers that turn keeping off).
    var keptText: String? {
        let released = request.released.isEmpty ? "" : "; released: \(request.released.map(\.text).joined(separator: ", "))"
        guard let tolerance = request.keep else { return request.released.isEmpty ? nil : "nothing\(released)" }
        if request.released.contains(.all) { return "nothing: every figure is released (--release all)" }
        let n = outcome.kept.count
        return
            "\(n) figure\(n == 1 ? "" : "s") no requirement names (every view figure of each state and viewer, every arrival's delay), each kept within max(start × \(DecimalText.fixed(1 + tolerance.relative, 2)), start + \(JSONWriter.number(tolerance.metres)) m or \(JSONWriter.number(tolerance.seconds)) s) (--keep-tolerance \(tolerance))\(released)"
    }

    /// The trips whose traces had data problems, each with its problems and what was done with
    /// them (``TraceReplay/ReplayResult/dataProblems``), or that every trip was clean: the
    /// figures below rest on the data as read.
    var dataText: String {
        let results = outcome.startResults
        let withProblems = results.filter { !$0.dataProblems.isEmpty }
        guard let first = results.first else { return "no trip" }
        let policy = "read with --on-problem \(first.problemPolicy.rawValue)"
        guard !withProblems.isEmpty else { return "clean: no problem in any trip's traces (\(policy))" }
        let listed = withProblems.map { r in
            "\(r.scenario.traces.map(\.path).joined(separator: ", ")): \(DataProblem.summary(r.dataProblems))"
        }
        return
            "⚠ \(withProblems.count) of \(results.count) trip\(results.count == 1 ? "" : "s") had problems, so their figures are of the data as read (\(policy)): \(listed.joined(separator: "; "))"
    }

    /// The trips left out of the search; nil when none was.
    var leftOutText: String? {
        let ids = outcome.leftOut
        guard !ids.isEmpty else { return nil }
        return
            "\(ids.count) trip\(ids.count == 1 ? "" : "s") on which no candidate meets a requirement (--skip-infeasible): \(ids.joined(separator: ", "))"
    }

    var headerLines: [String] { header.map { "\($0.label): \($0.text)" } }

    /// Every phone's energy over the corpus on each shipped device profile, under the start and
    /// the tuned policy; nil when the replays did not price them.
    var deviceSpreads: (start: EnergySpread, tuned: EnergySpread)? {
        func sum(_ results: [ReplayResult]) -> EnergySpread? {
            let spreads = results.compactMap(\.energySpread)
            return spreads.count == results.count ? EnergySpread.sum(spreads) : nil
        }
        guard let a = sum(outcome.startResults), let b = sum(outcome.chosenResults) else { return nil }
        return (a, b)
    }

    /// "Devices: every phone over the corpus on 6 device profiles: start 40.5–86.5 mAh, tuned
    /// 40.4–86.4 mAh (tuned: galaxy-s5 … nexus-5)"; nil without ``deviceSpreads``.
    var devicesLine: String? {
        guard let (a, b) = deviceSpreads else { return nil }
        return
            "Devices: every phone over the corpus on \(b.profiles.count) device profiles: start \(a.range()) mAh, tuned \(b.range()) mAh (tuned: \(b.profiles[b.lowest]) … \(b.profiles[b.highest]))"
    }

    var verdict: String {
        let s = outcome.startEvaluation, c = outcome.chosenEvaluation
        let figures =
            "\(objectiveName) \(objective(s.objective)) → \(objective(c.objective))\(Self.change(s.objective, c.objective)); updates sent \(s.sent) → \(c.sent)"
        if outcome.feasible {
            let changed = changes.count
            return changed == 0
                ? "Met: the start already is the cheapest policy found that meets every requirement; \(figures)"
                : "Met: the tuned policy meets every requirement, changing \(changed) field\(changed == 1 ? "" : "s"); \(figures)"
        }
        let missed = c.violated.count
        return "Not met: the search found no policy that meets every requirement (\(missed) missed by the best found); \(figures)"
    }

    /// One line per requirement or kept figure the tuned policy misses, then one per trip on
    /// which no candidate meets a requirement (stderr, exit 1).
    var missedLines: [String] {
        let requirementLines = outcome.chosenEvaluation.violated.map { i in
            let r = judged[i]
            if i >= requirements.count {
                let k = outcome.kept[i - requirements.count], head = Self.head(r)
                let tuned = outcome.chosenEvaluation.values[i]
                let on = tuned?.trip.map { " on \(request.trips[$0].id)" } ?? ""
                return
                    "tune: the search found no policy that meets the requirements and keeps \(head)\(on) within its tolerance: at most \(Self.figure(r.bound(trip: tuned?.trip), r)) (the start's \(Self.figure(k.start(trip: tuned?.trip), r))), the best found \(Self.figure(tuned?.value, r)); --release \(head) gives it up"
            }
            let at: String =
                switch r.scope {
                case .state(let s): "in \(s.displayName), "
                case .trip: "over the trip, "
                case .arrival(let p): "at the \(p.rawValue), "
                }
            let who = r.figure == .sentPerMinute ? "phone \(r.role.key)" : "viewer \(r.role.key)"
            let best = outcome.bestReached[i]
            // Some candidate met it, but none together with every other requirement.
            if let best, r.comparison.holds(best, r.bound) {
                return
                    "tune: the search found no policy that meets \(r.text) (\(at)\(who)) together with the other requirements: alone, a candidate reached \(Self.figure(best, r))"
            }
            return
                "tune: the search found no policy that meets \(r.text) (\(at)\(who)): the best any candidate reached is \(Self.figure(best, r))"
        }
        let tripLines = outcome.infeasibleTrips.filter { !$0.leftOut }.map { t in
            "tune: no candidate meets \(requirements[t.requirement].text) on \(t.trip): the best any candidate reached there is \(Self.figure(t.best, requirements[t.requirement]))\(infeasibleWhy(t).map { " (\($0))" } ?? ""); --skip-infeasible leaves such trips out"
        }
        return requirementLines + tripLines
    }

    /// A requirement's figure without its bound, e.g. `atPickup.helper.displayErrorP95`.
    static func head(_ r: Requirement) -> String { String(r.text.prefix { $0 != "<" && $0 != ">" }) }

    /// Why no candidate meets a requirement on a trip, when the trip says: the viewer never shown
    /// what it was to see, or how far apart the recorded fixes of what it sees are.
    func infeasibleWhy(_ t: InfeasibleTrip) -> String? {
        let r = requirements[t.requirement]
        if t.best.isInfinite {
            return r.figure == .arrivalDelay
                ? "the \(r.role.key) never saw the arrival under any candidate"
                : "the \(r.role.key) was never shown a position there under any candidate"
        }
        guard let g = t.fixGaps, let state = r.state else { return nil }
        let whose = g.senders.map { "the \($0.key)'s" }.joined(separator: " and ")
        return
            "\(whose) fixes recorded in \(state.displayName): \(g.fixes), a median \(DecimalText.fixed(g.medianSeconds, 0)) s apart, the longest gap \(DecimalText.fixed(g.largestSeconds, 0)) s"
    }

    // MARK: Tables

    /// Whether requirement (or kept figure) `i` binds, in words.
    func binds(_ i: Int) -> String {
        let b = outcome.bindings[i]
        if b.binds, let s = b.cheaperState, let o = b.cheaperObjective {
            return "yes: it alone refuses a cheaper \(s.displayName) row (\(objective(o)))"
        } else if b.bindsJointly {
            return "jointly: with others it refuses cheaper rows"
        }
        return "no"
    }

    /// Whether requirement (or kept figure) `i`'s tuned value is worse than the start's (a kept
    /// figure's start on the same trip).
    func worse(_ i: Int) -> Bool {
        guard let tuned = outcome.chosenEvaluation.values[i], let a = startValue(i, trip: tuned.trip) else { return false }
        return judged[i].comparison.upper ? tuned.value > a : tuned.value < a
    }

    /// The start's value of requirement `i`: for a kept figure, on trip `trip` (when judged trip
    /// by trip), for a requirement its corpus value.
    func startValue(_ i: Int, trip: Int?) -> Double? {
        i >= requirements.count ? outcome.kept[i - requirements.count].start(trip: trip) : outcome.startEvaluation.values[i]?.value
    }

    var requirementRows: [[String]] {
        requirements.indices.map { i in
            let r = requirements[i]
            return [
                r.text, value(outcome.startEvaluation.values[i], r), value(outcome.chosenEvaluation.values[i], r),
                Self.figure(outcome.bestReached[i], r), binds(i),
            ]
        }
    }
    static let requirementHeader = ["Requirement", "Start", "Tuned", "Best any candidate", "Binds"]
    /// The column of the tuned value in the requirements' and the kept figures' tables.
    static let tunedColumn = 2

    /// The kept figures: tuned (judged trip by trip: on the trip closest to its bound), the
    /// start's there, the most allowed there, whether it binds.
    var keptRows: [[String]] {
        outcome.kept.indices.map { k in
            let i = requirements.count + k, r = judged[i], tuned = outcome.chosenEvaluation.values[i]
            let mark = tuned.map { r.comparison.holds($0.value, r.bound(trip: $0.trip)) ? "✓ " : "✗ " } ?? ""
            return [
                Self.head(r), Self.figure(startValue(i, trip: tuned?.trip), r), tuned.map { mark + value($0, r, marked: false) } ?? "—",
                Self.figure(r.bound(trip: tuned?.trip), r), binds(i),
            ]
        }
    }
    static let keptHeader = ["Kept figure", "Start", "Tuned", "Allowed", "Binds"]

    var keptCaption: String {
        let each =
            request.judgement == .everyTrip
            ? "each trip's within its tolerance of the start's on that trip; shown on the trip closest to its bound"
            : "each within its tolerance of the start's"
        return "Kept: figures no requirement names, \(each) (\(request.keep?.description ?? "")); --release gives one up"
    }

    /// The trips on which no candidate meets a requirement.
    var infeasibleRows: [[String]] {
        outcome.infeasibleTrips.map { t in
            [
                t.trip, requirements[t.requirement].text, Self.figure(t.best, requirements[t.requirement]), infeasibleWhy(t) ?? "—",
                t.leftOut ? "yes" : "no",
            ]
        }
    }
    static let infeasibleHeader = ["Trip", "Requirement", "Best any candidate there", "Why", "Left out"]
    var infeasibleCaption: String {
        outcome.leftOut.isEmpty
            ? "Trips on which no candidate meets a requirement (--skip-infeasible leaves them out of the search)"
            : "Trips on which no candidate meets a requirement, left out of the search (--skip-infeasible)"
    }

    struct Change {
        var state: FulfilmentState
        var field: String
        var start: String
        var tuned: String
    }

    /// The tuned fields that differ from the start, per state.
    var changes: [Change] {
        var list: [Change] = []
        for (state, _) in request.space.states {
            let a = outcome.start[state], b = outcome.chosen[state]
            if a.tier != b.tier { list.append(Change(state: state, field: "tier", start: a.tier.key, tuned: b.tier.key)) }
            if a.distanceFilter != b.distanceFilter {
                list.append(
                    Change(
                        state: state, field: "distance filter", start: "\(JSONWriter.number(a.distanceFilter)) m",
                        tuned: "\(JSONWriter.number(b.distanceFilter)) m"))
            }
            if a.delivery != b.delivery {
                list.append(Change(state: state, field: "delivery", start: a.delivery.summary, tuned: b.delivery.summary))
            }
            if a.accuracyGate != b.accuracyGate {
                list.append(
                    Change(
                        state: state, field: "accuracy gate", start: a.accuracyGate?.summary ?? "none",
                        tuned: b.accuracyGate?.summary ?? "none"))
            }
        }
        return list
    }
    static let changeHeader = ["State", "Field", "Start", "Tuned"]
    var changeRows: [[String]] { changes.map { [$0.state.displayName, $0.field, $0.start, $0.tuned] } }

    /// One state and role over the corpus: sums, pooled percentiles, maxima.
    struct Figures: Equatable {
        var sent = 0
        var joules = 0.0
        var error = QuantileHistogram()
        var staleness = QuantileHistogram()
    }

    static func figures(_ results: [ReplayResult], _ state: FulfilmentState, _ role: Role) -> Figures? {
        var f = Figures(), any = false
        for r in results {
            guard let s = r.states.first(where: { $0.state == state && $0.entered }), let m = s[role] else { continue }
            any = true
            f.sent += m.sentUpdates
            f.joules += m.energy.totalJoules
            f.error.merge(m.view.displayErrorHistogram)
            f.staleness.merge(m.view.stalenessHistogram)
        }
        return any ? f : nil
    }

    static let stateHeader = [
        "State", "Role", "Sent", "Energy J", "Display error p95 m", "Display error max m", "Staleness p95 s", "Staleness max s",
    ]

    /// Per state and role, start → tuned, where the phone sent, spent or was seen.
    var stateRows: [[String]] { stateTable.rows }

    /// ``stateRows``, and per row the columns whose figure got worse than the start's (every one
    /// is lower-is-better: updates, joules, errors, staleness; one as printed, so a change hidden
    /// by the rounding is not one).
    var stateTable: (rows: [[String]], worse: [Set<Int>]) {
        var worse: Set<Int> = []
        func pair(_ a: Double?, _ b: Double?, _ d: Int, _ column: Int) -> String {
            let x = a.map { DecimalText.fixed($0, d) } ?? "—", y = b.map { DecimalText.fixed($0, d) } ?? "—"
            if let a, let b, x != y, b > a { worse.insert(column) }
            return x == y ? x : "\(x) → \(y)"
        }
        var rows: [[String]] = [], worseRows: [Set<Int>] = []
        for state in FulfilmentState.allCases {
            for role in Role.allCases {
                let a = Self.figures(outcome.startResults, state, role), b = Self.figures(outcome.chosenResults, state, role)
                guard a != nil || b != nil else { continue }
                let fa = a ?? Figures(), fb = b ?? Figures()
                guard fa.sent + fb.sent > 0 || fa.joules + fb.joules > 0 || fa.error.count + fb.error.count > 0 else { continue }
                worse = []
                rows.append([
                    state.displayName, role.key, pair(Double(fa.sent), Double(fb.sent), 0, 2), pair(fa.joules, fb.joules, 1, 3),
                    pair(fa.error.quantile(0.95), fb.error.quantile(0.95), 1, 4), pair(fa.error.max, fb.error.max, 1, 5),
                    pair(fa.staleness.quantile(0.95), fb.staleness.quantile(0.95), 1, 6), pair(fa.staleness.max, fb.staleness.max, 1, 7),
                ])
                worseRows.append(worse)
            }
        }
        return (rows, worseRows)
    }

    /// The marker beside a figure that got worse than the start's (Markdown and HTML).
    static let worseMarker = "▲"

    /// `rows` for Markdown: every cell's text as ``Shown/markdown(_:)`` writes it (cells name
    /// trips), each cell in `worse` in bold, with the marker.
    static func markdownRows(_ rows: [[String]], worse: [Set<Int>] = []) -> [[String]] {
        rows.indices.map { i in
            rows[i].indices.map { j in
                let cell = Shown.markdown(rows[i][j])
                return i < worse.count && worse[i].contains(j) ? "**\(cell) \(worseMarker)**" : cell
            }
        }
    }

    /// `rows` for HTML: each cell in `worse` with the marker, and its class (`worse`).
    static func htmlRows(_ rows: [[String]], worse: [Set<Int>]) -> (rows: [[String]], classes: [[Int: String]]) {
        let marked = rows.indices.map { i in rows[i].indices.map { j in worse[i].contains(j) ? "\(rows[i][j]) \(worseMarker)" : rows[i][j] }
        }
        return (marked, worse.map { Dictionary(uniqueKeysWithValues: $0.map { ($0, "worse") }) })
    }

    /// Per row of the requirements' (or the kept figures') table: the tuned column when its
    /// value is worse than the start's.
    func worseTuned(_ indices: Range<Int>) -> [Set<Int>] { indices.map { worse($0) ? [Self.tunedColumn] : [] } }

    static let limitHeader = ["Requirement", "State", "Updates sent (tuned)", "Fewest possible", "Ratio", "Trips left out"]
    var limitRows: [[String]] {
        outcome.limits.map {
            [
                requirements[$0.requirement].text, $0.state.displayName, "\($0.sent)", "\($0.minimum)",
                $0.ratio.map { "\(DecimalText.fixed($0, 2))×" } ?? "—",
                $0.tripsLeftOut == 0 ? "none" : "\($0.tripsLeftOut) (a stay too long to compute)",
            ]
        }
    }

    /// The requirement each state's frontier is drawn against: one that binds there alone (a
    /// requirement before a kept figure), else a requirement of that state with the least slack
    /// at the tuned policy, else a kept figure of that state that binds with others with the
    /// least slack, else the requirement with the least slack of all. A kept figure judged trip by
    /// trip (each trip against its own bound) is never drawn.
    func frontierRequirement(_ sweep: StateSweep) -> Int? {
        // A kept figure judged against each trip's own bound has no one figure to draw.
        let drawable = judged.indices.filter { judged[$0].tripBounds == nil }
        if let i = drawable.first(where: { outcome.bindings[$0].binds && outcome.bindings[$0].cheaperState == sweep.state }) {
            return i
        }
        func slack(_ i: Int) -> Double? {
            guard let v = sweep.evaluations[sweep.chosen].values[i]?.value, v.isFinite else { return nil }
            let r = judged[i]
            return (r.comparison.upper ? r.bound - v : v - r.bound) / max(abs(r.bound), 1e-9)
        }
        let own = requirements.indices.filter { requirements[$0].state == sweep.state && slack($0) != nil }
        // No requirement of the state: a kept figure of it that binds with others, before the
        // requirements of other states.
        let kept = drawable.filter {
            $0 >= requirements.count && judged[$0].state == sweep.state && outcome.bindings[$0].bindsJointly && slack($0) != nil
        }
        let pool = !own.isEmpty ? own : !kept.isEmpty ? Array(kept) : requirements.indices.filter { slack($0) != nil }
        return pool.min { slack($0)! < slack($1)! }
    }

    struct FrontierPoint {
        var objective: Double
        var value: Double
        /// The requirements the candidate misses (any requirement, not only the frontier's).
        var misses: [Int]
        var row: StatePolicy
        var isStart: Bool
        var isTuned: Bool
    }

    struct Frontier {
        var state: FulfilmentState
        var requirement: Int
        var round: Int
        /// Every candidate with the figure (the frontier's among them).
        var points: [FrontierPoint]
        var front: [Int]
        var tuned: Int?
        var start: Int?
    }

    var frontiers: [Frontier] {
        outcome.sweeps.compactMap { sweep in
            guard let ri = frontierRequirement(sweep) else { return nil }
            let r = judged[ri]
            var points: [FrontierPoint] = []
            var index: [Int: Int] = [:]
            for i in sweep.rows.indices {
                guard let v = sweep.evaluations[i].values[ri]?.value, v.isFinite else { continue }
                index[i] = points.count
                points.append(
                    FrontierPoint(
                        objective: sweep.evaluations[i].objective, value: v, misses: sweep.evaluations[i].violated, row: sweep.rows[i],
                        isStart: i == 0, isTuned: i == sweep.chosen))
            }
            let front = sweep.frontier(ri, upper: r.comparison.upper).compactMap { index[$0] }
            return Frontier(
                state: sweep.state, requirement: ri, round: sweep.round, points: points, front: front, tuned: index[sweep.chosen],
                start: index[0])
        }
    }

    /// A row's tuned fields in a few words.
    func rowText(_ row: StatePolicy) -> String {
        var parts = [
            "\(JSONWriter.number(row.distanceFilter)) m", row.delivery.summary, row.accuracyGate.map { "gate \($0.summary)" } ?? "no gate",
        ]
        if request.space.states.contains(where: { !$0.axes.tiers.isEmpty }) { parts.insert(row.tier.key, at: 0) }
        return parts.joined(separator: " · ")
    }

    static let frontierHeader = ["Objective", "Figure", "Meets", "Row", ""]
    func frontierRows(_ f: Frontier) -> [[String]] {
        let r = judged[f.requirement]
        var shown = f.front
        for extra in [f.start, f.tuned].compactMap({ $0 }) where !shown.contains(extra) { shown.append(extra) }
        shown.sort { (f.points[$0].objective, $0) < (f.points[$1].objective, $1) }
        return shown.map { i in
            let p = f.points[i]
            let marks = [p.isTuned ? "tuned" : nil, p.isStart ? "start's row" : nil, f.front.contains(i) ? nil : "off the frontier"]
                .compactMap {
                    $0
                }
            let meets = p.misses.isEmpty ? "✓ all" : "✗ misses " + missesText(p.misses)
            return [objective(p.objective), Self.figure(p.value, r), meets, rowText(p.row), marks.joined(separator: ", ")]
        }
    }

    /// The requirements a row misses, then the kept figures it does not keep (at most two named).
    func missesText(_ misses: [Int]) -> String {
        let asked = misses.filter { $0 < requirements.count }.map { judged[$0].text }
        let kept = misses.filter { $0 >= requirements.count }.map { Self.head(judged[$0]) }
        var parts = asked
        if kept.count == 1 {
            parts.append("kept \(kept[0])")
        } else if kept.count == 2 {
            parts.append("kept \(kept[0]) and \(kept[1])")
        } else if kept.count > 2 {
            parts.append("kept \(kept[0]), \(kept[1]) and \(kept.count - 2) more")
        }
        return parts.joined(separator: ", ")
    }

    func frontierCaption(_ f: Frontier) -> String {
        "\(f.state.displayName): \(objectiveName) against \(judged[f.requirement].text), round \(f.round) (\(f.points.count) candidates with the figure, \(f.front.count) on the frontier; Meets: every requirement, or those the row misses)"
    }

    var limitNote: String? {
        let display = requirements.contains { $0.state != nil && ($0.figure == .displayErrorP95 || $0.figure == .displayErrorMax) }
        guard display else { return nil }
        if outcome.limits.isEmpty {
            return "No limit: some trip is not held in memory, and the limit needs every trip's recorded fixes."
        }
        return
            "The limit: the fewest updates a phone that knew its true position could send so that every recorded fix of the senders the viewer sees stays within the bound of the last one sent (instant network, last-position viewer). A p95 bound is treated as a maximum, so a policy may go below it."
    }

    // MARK: Formats

    /// Whether the report has a section for the kept figures: when the tune keeps figures (the
    /// header says when it keeps none).
    var keptSection: Bool { request.keep != nil && !request.released.contains(.all) }

    /// The kept figures' section's text when there is no table: nothing to keep.
    var keptNone: String? {
        outcome.kept.isEmpty ? "none: every view figure and arrival the start has is named by a requirement or released" : nil
    }

    /// The note under the tables that mark figures worse than the start's.
    static let worseNote = "\(worseMarker): worse than the start's."

    /// The note, after a space, when some figure is marked (nothing otherwise: the page as before).
    var worseNoteIfAny: String {
        let any =
            !stateTable.worse.allSatisfy(\.isEmpty) || judged.indices.contains { worse($0) }
        return any ? " \(Self.worseNote)" : ""
    }

    /// The terminal report; its header lines (which name the inputs and trips) as
    /// ``Shown/terminal(_:)`` shows text, the tables' cells likewise (``TextTable/aligned(header:rows:)``).
    var table: String {
        var out =
            headerLines.map(Shown.terminal).joined(separator: "\n") + "\n\n" + verdict + "\n" + (devicesLine.map { $0 + "\n" } ?? "") + "\n"
        out += "Requirements\n" + TextTable.aligned(header: Self.requirementHeader, rows: requirementRows) + "\n"
        if keptSection {
            out +=
                keptNone.map { "Kept: \($0)\n\n" } ?? "\(keptCaption)\n" + TextTable.aligned(header: Self.keptHeader, rows: keptRows) + "\n"
        }
        if !outcome.infeasibleTrips.isEmpty {
            out += "\(infeasibleCaption)\n" + TextTable.aligned(header: Self.infeasibleHeader, rows: infeasibleRows) + "\n"
        }
        out +=
            "Changed fields\n"
            + (changes.isEmpty ? "none: the start's rows are kept\n" : TextTable.aligned(header: Self.changeHeader, rows: changeRows))
            + "\n"
        out +=
            "Per state and role, start → tuned (role: the phone that sends and spends; its display error and staleness are what its viewers saw of it; sums over the trips, p95 of the pooled samples, the largest max)\n"
        out += TextTable.aligned(header: Self.stateHeader, rows: stateRows) + "\n"
        if !outcome.limits.isEmpty {
            out += "The limit\n" + TextTable.aligned(header: Self.limitHeader, rows: limitRows)
        }
        if let note = limitNote { out += note + "\n" }
        for f in frontiers {
            out += "\nFrontier, \(frontierCaption(f))\n" + TextTable.aligned(header: Self.frontierHeader, rows: frontierRows(f))
        }
        return out
    }

    var markdown: String {
        var out =
            "# tracekit tune\n\n" + header.map { "- \($0.label): \(Shown.markdown($0.text))" }.joined(separator: "\n")
            + "\n\n**\(verdict)**\n\n"
            + (devicesLine.map { $0 + "\n\n" } ?? "")
        out +=
            "## Requirements\n\n"
            + TextTable.markdown(
                header: Self.requirementHeader, rows: Self.markdownRows(requirementRows, worse: worseTuned(requirements.indices))) + "\n"
        if keptSection {
            out += "## Kept\n\n"
            out +=
                keptNone.map { "None: \($0.dropFirst(6))\n\n" }
                ?? "\(keptCaption).\n\n"
                + TextTable.markdown(
                    header: Self.keptHeader,
                    rows: Self.markdownRows(keptRows, worse: worseTuned(requirements.count..<(requirements.count + outcome.kept.count))))
                + "\n"
        }
        if !outcome.infeasibleTrips.isEmpty {
            out +=
                "## Infeasible trips\n\n\(infeasibleCaption).\n\n"
                + TextTable.markdown(header: Self.infeasibleHeader, rows: Self.markdownRows(infeasibleRows))
                + "\n"
        }
        out +=
            "## Changed fields\n\n"
            + (changes.isEmpty
                ? "None: the start's rows are kept.\n" : TextTable.markdown(header: Self.changeHeader, rows: Self.markdownRows(changeRows)))
            + "\n"
        out +=
            "## Per state and role, start → tuned\n\nRole: the phone that sends and spends; its display error and staleness are what its viewers saw of it. Sums over the trips; p95 of the pooled samples; the largest max.\(worseNoteIfAny)\n\n"
        let states = stateTable
        out += TextTable.markdown(header: Self.stateHeader, rows: Self.markdownRows(states.rows, worse: states.worse)) + "\n"
        if !outcome.limits.isEmpty {
            out += "## The limit\n\n" + TextTable.markdown(header: Self.limitHeader, rows: Self.markdownRows(limitRows)) + "\n"
        }
        if let note = limitNote { out += note + "\n\n" }
        if !frontiers.isEmpty { out += "## Frontiers\n\n" }
        for f in frontiers {
            out +=
                "### \(frontierCaption(f))\n\n" + TextTable.markdown(header: Self.frontierHeader, rows: Self.markdownRows(frontierRows(f)))
                + "\n"
        }
        return out
    }

    /// What the HTML page adds to the house style: a figure worse than the start's (said by the
    /// marker too, never by colour alone).
    static let htmlStyle = "td.worse { background: #fbe3d6; font-weight: bold; }\n"

    var html: String {
        let esc = HTMLPage.escape
        var body = "<h1>tracekit tune</h1>\n<dl class=\"summary\">\n"
        for (label, text) in header { body += "<dt>\(esc(label))</dt><dd>\(esc(text))</dd>\n" }
        body += "</dl>\n<p class=\"verdict \(outcome.feasible ? "pass" : "fail")\">\(outcome.feasible ? "✓" : "✗") \(esc(verdict))</p>\n"
        if let d = devicesLine { body += "<p>\(esc(d))</p>\n" }
        let reqs = Self.htmlRows(requirementRows, worse: worseTuned(requirements.indices))
        body += "<h2>Requirements</h2>\n" + HTMLPage.table(Self.requirementHeader, reqs.rows, cellClasses: reqs.classes)
        if keptSection {
            body += "<h2>Kept</h2>\n"
            if let none = keptNone {
                body += "<p>None: \(esc(String(none.dropFirst(6))))</p>\n"
            } else {
                let kept = Self.htmlRows(keptRows, worse: worseTuned(requirements.count..<(requirements.count + outcome.kept.count)))
                body +=
                    "<p class=\"note\">\(esc(keptCaption)).</p>\n" + HTMLPage.table(Self.keptHeader, kept.rows, cellClasses: kept.classes)
            }
        }
        if !outcome.infeasibleTrips.isEmpty {
            body +=
                "<h2>Infeasible trips</h2>\n<p class=\"note\">\(esc(infeasibleCaption)).</p>\n"
                + HTMLPage.table(Self.infeasibleHeader, infeasibleRows, rowClasses: outcome.infeasibleTrips.map { _ in "failed" })
        }
        body += "<h2>Changed fields</h2>\n"
        body += changes.isEmpty ? "<p>None: the start's rows are kept.</p>\n" : HTMLPage.table(Self.changeHeader, changeRows)
        body +=
            "<h2>Per state and role, start → tuned</h2>\n<p class=\"note\">Role: the phone that sends and spends; its display error and staleness are what its viewers saw of it. Sums over the trips; p95 of the pooled samples; the largest max.\(esc(worseNoteIfAny))</p>\n"
        let states = stateTable
        let cells = Self.htmlRows(states.rows, worse: states.worse)
        body += HTMLPage.table(Self.stateHeader, cells.rows, numeric: [2, 3, 4, 5, 6, 7], cellClasses: cells.classes)
        if !outcome.limits.isEmpty { body += "<h2>The limit</h2>\n" + HTMLPage.table(Self.limitHeader, limitRows, numeric: [2, 3, 4]) }
        if let note = limitNote { body += "<p class=\"note\">\(esc(note))</p>\n" }
        if !frontiers.isEmpty {
            body += "<h2>Frontiers</h2>\n<div id=\"frontiers\">\n" + HTMLPage.inline(svg: TuneSVG.render(self)) + "</div>\n"
        }
        for f in frontiers {
            body += HTMLPage.table(Self.frontierHeader, frontierRows(f), caption: frontierCaption(f))
        }
        return HTMLPage.document(title: "tracekit tune: \(inputs.joined(separator: ", "))", body: body, style: Self.htmlStyle)
    }

    var json: JSONValue {
        .object([
            ("schema", .string(Self.schema)), ("tracekitVersion", .string(TraceKitCommand.version)),
            ("inputs", .array(inputs.map { .string($0) })), ("trips", .array(request.trips.map { .string($0.id) })),
            ("objective", .string(request.objective.description)), ("judged", .string(request.judgement.rawValue)),
            ("view", .string(outcome.startResults.first?.view.summary ?? "")), ("met", .bool(outcome.feasible)),
            ("start", .object([("policy", outcome.start.fileJSON), ("figures", evaluationJSON(outcome.startEvaluation))])),
            ("tuned", .object([("policy", outcome.chosen.fileJSON), ("figures", evaluationJSON(outcome.chosenEvaluation))])),
            ("energyAcrossDevices", deviceSpreads.map { .object([("start", $0.start.json), ("tuned", $0.tuned.json)]) } ?? .null),
            ("requirements", .array(requirementsJSON)),
            (
                "keep",
                .object([
                    ("tolerance", request.keep.map { .string($0.description) } ?? .null),
                    ("released", .array(request.released.map { .string($0.text) })),
                ])
            ),
            ("kept", .array(keptJSON)), ("infeasibleTrips", .array(infeasibleJSON)),
            ("leftOut", .array(outcome.leftOut.map { .string($0) })),
            (
                "changes",
                .array(
                    changes.map {
                        .object([
                            ("state", .string($0.state.key)), ("field", .string($0.field)), ("start", .string($0.start)),
                            ("tuned", .string($0.tuned)),
                        ])
                    })
            ),
            ("states", .array(statesJSON)), ("limits", .array(limitsJSON)), ("frontiers", .array(frontiersJSON)),
            ("search", searchJSON),
        ])
    }

    /// A corpus value: the figure ("never" for an infinite one) and the trip it comes from.
    private func valueJSON(_ v: CorpusEvaluation.CorpusValue?) -> JSONValue {
        guard let v else { return .null }
        return .object([
            ("value", v.value.isFinite ? .number(v.value) : .string("never")),
            ("trip", v.trip.map { .string(request.trips[$0].id) } ?? .null),
        ])
    }

    /// A figure, "never" for an infinite one, or null.
    private func numberJSON(_ x: Double?) -> JSONValue { x.map { $0.isFinite ? .number($0) : .string("never") } ?? .null }

    /// A policy's figures over the corpus: the objective, updates sent, whether it meets every requirement.
    private func evaluationJSON(_ e: CorpusEvaluation) -> JSONValue {
        .object([("objective", .number(e.objective)), ("sent", .number(Double(e.sent))), ("feasible", .bool(e.feasible))])
    }

    /// Whether a requirement or kept figure binds, and the cheaper policy without it.
    private func bindingJSON(_ b: Binding) -> [(String, JSONValue)] {
        [
            ("binds", .bool(b.binds)), ("bindsJointly", .bool(b.bindsJointly)),
            ("cheaperState", b.cheaperState.map { .string($0.key) } ?? .null),
            ("cheaperObjective", b.cheaperObjective.map { .number($0) } ?? .null),
        ]
    }

    /// Each requirement: its value at the start and tuned, the best any candidate reached.
    private var requirementsJSON: [JSONValue] {
        requirements.indices.map { i in
            .object(
                [
                    ("requirement", .string(requirements[i].text)), ("start", valueJSON(outcome.startEvaluation.values[i])),
                    ("tuned", valueJSON(outcome.chosenEvaluation.values[i])), ("met", .bool(outcome.chosenEvaluation.excess[i] == 0)),
                    ("bestReached", outcome.bestReached[i].map { $0.isFinite ? .number($0) : .string("never") } ?? .null),
                ] + bindingJSON(outcome.bindings[i]))
        }
    }

    /// Each kept figure (what no requirement names): tuned, start and allowed.
    private var keptJSON: [JSONValue] {
        outcome.kept.indices.map { k in
            let i = requirements.count + k, r = judged[i], tuned = outcome.chosenEvaluation.values[i]
            return .object(
                [
                    ("figure", .string(Self.head(r))), ("tuned", valueJSON(tuned)), ("start", numberJSON(startValue(i, trip: tuned?.trip))),
                    ("allowed", numberJSON(r.bound(trip: tuned?.trip))), ("met", .bool(outcome.chosenEvaluation.excess[i] == 0)),
                ] + bindingJSON(outcome.bindings[i]))
        }
    }

    /// The trips on which no candidate meets a requirement, with the gaps between their fixes.
    private var infeasibleJSON: [JSONValue] {
        outcome.infeasibleTrips.map { t in
            .object([
                ("trip", .string(t.trip)), ("requirement", .string(requirements[t.requirement].text)), ("best", numberJSON(t.best)),
                (
                    "fixGaps",
                    t.fixGaps.map {
                        .object([
                            ("senders", .array($0.senders.map { .string($0.key) })), ("fixes", .number(Double($0.fixes))),
                            ("medianSeconds", .number($0.medianSeconds)),
                            ("largestSeconds", .number($0.largestSeconds)),
                        ])
                    } ?? .null
                ),
                ("leftOut", .bool(t.leftOut)),
            ])
        }
    }

    /// Each state and role with figures: the start policy's and the tuned one's.
    private var statesJSON: [JSONValue] {
        func figures(_ f: Figures?) -> JSONValue {
            guard let f else { return .null }
            func n(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
            return .object([
                ("sent", .number(Double(f.sent))), ("joules", .number(f.joules)), ("displayErrorP95", n(f.error.quantile(0.95))),
                ("displayErrorMax", n(f.error.max)), ("stalenessP95", n(f.staleness.quantile(0.95))),
                ("stalenessMax", n(f.staleness.max)),
            ])
        }
        var states: [JSONValue] = []
        for state in FulfilmentState.allCases {
            for role in Role.allCases {
                let a = Self.figures(outcome.startResults, state, role), b = Self.figures(outcome.chosenResults, state, role)
                guard a != nil || b != nil else { continue }
                states.append(
                    .object([("state", .string(state.key)), ("role", .string(role.key)), ("start", figures(a)), ("tuned", figures(b))]))
            }
        }
        return states
    }

    /// The limit: the fewest updates each requirement allows in each state.
    private var limitsJSON: [JSONValue] {
        outcome.limits.map {
            .object([
                ("requirement", .string(requirements[$0.requirement].text)), ("state", .string($0.state.key)),
                ("sent", .number(Double($0.sent))), ("minimum", .number(Double($0.minimum))),
                ("ratio", $0.ratio.map { .number($0) } ?? .null), ("tripsLeftOut", .number(Double($0.tripsLeftOut))),
            ])
        }
    }

    /// Each state's frontier: every point searched, which are on the front, the start and the tuned policy.
    private var frontiersJSON: [JSONValue] {
        frontiers.map { f in
            .object([
                ("state", .string(f.state.key)), ("requirement", .string(judged[f.requirement].text)),
                ("round", .number(Double(f.round))),
                (
                    "points",
                    .array(
                        f.points.indices.map { i in
                            let p = f.points[i]
                            return .object([
                                ("objective", .number(p.objective)), ("value", .number(p.value)), ("frontier", .bool(f.front.contains(i))),
                                ("start", .bool(p.isStart)), ("tuned", .bool(p.isTuned)), ("row", p.row.fileRowJSON),
                            ])
                        })
                ),
            ])
        }
    }

    /// What the search did: the states tuned, candidates, rounds, replays and evaluations, memory.
    private var searchJSON: JSONValue {
        .object([
            ("statesTuned", .array(request.space.states.map { .string($0.state.key) })),
            ("candidates", .number(Double(outcome.candidates))),
            ("rounds", .number(Double(outcome.rounds))), ("replays", .number(Double(outcome.replays))),
            ("evaluations", .number(Double(outcome.evaluations))),
            ("sharedEvaluations", .number(Double(outcome.sharedEvaluations))),
            ("fixEvaluations", .number(Double(outcome.fixEvaluations))), ("tripsInMemory", .number(Double(outcome.tripsInMemory))),
            ("bytesInMemory", .number(Double(outcome.bytesInMemory))),
        ])
    }
}
