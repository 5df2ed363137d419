import Synchronization
public import TraceDomain
import TraceGeodesy
public import TraceBatch
public import TraceReplay
public import TraceSharing

/// What `tracekit tune` minimises over the corpus.
public enum TuneObjective: Hashable, Sendable, CustomStringConvertible {
    /// Every phone's energy, joules (the default), under the chosen energy profile.
    case energy
    /// Every phone's energy, joules, under the shipped device profile that needs the most energy
    /// (joules, not mAh: the devices' voltages differ) for the trip (``TraceReplay/PhoneEnergy/across``):
    /// the worst case across the devices.
    case energyWorstDevice
    /// One role's phone's energy, joules.
    case energyOf(Role)
    /// Updates sent by every phone.
    case sent
    /// Updates forwarded to every viewer.
    case forwarded

    /// Whether its value needs each phone's energy under the shipped device profiles: the
    /// candidates' replays price them only then.
    public var needsDeviceProfiles: Bool { self == .energyWorstDevice }

    /// Parses `energy`, `energy-worst`, `energy.ROLE`, `sent` or `forwarded`.
    public init?(parsing text: String) {
        switch text {
        case "energy": self = .energy
        case "energy-worst": self = .energyWorstDevice
        case "sent": self = .sent
        case "forwarded": self = .forwarded
        default:
            guard text.hasPrefix("energy."), let role = Role(parsing: String(text.dropFirst(7))) else { return nil }
            self = .energyOf(role)
        }
    }

    public var description: String {
        switch self {
        case .energy: "energy"
        case .energyWorstDevice: "energy-worst"
        case .energyOf(let r): "energy.\(r.key)"
        case .sent: "sent"
        case .forwarded: "forwarded"
        }
    }

    /// Its unit as printed.
    public var unit: String {
        switch self {
        case .energy, .energyWorstDevice, .energyOf: "J"
        case .sent, .forwarded: "updates"
        }
    }

    /// Its value in one trip's replay.
    public func value(_ r: ReplayResult) -> Double {
        switch self {
        case .energy: r.energy.reduce(0) { $0 + $1.estimate.totalJoules }
        case .energyWorstDevice: r.energySpread.map { $0.joules.max() ?? 0 } ?? 0
        case .energyOf(let role): r.energy.first { $0.role == role }?.estimate.totalJoules ?? 0
        case .sent: Double(r.roleTotals.reduce(0) { $0 + $1.sentUpdates })
        case .forwarded: Double(r.roleTotals.reduce(0) { $0 + $1.forwarded.total })
        }
    }
}

/// What to tune: the corpus, the replay options (whose policy is the start), the requirements,
/// how they are judged across the corpus, the objective and the search space.
public struct TuneRequest: Sendable {
    public var trips: [BatchTrip]
    /// The replay's options; ``TraceReplay/ReplayOptions/policy`` is the start.
    public var options: ReplayOptions
    public var requirements: [Requirement]
    public var judgement: CorpusJudgement
    public var objective: TuneObjective
    public var space: TuneSpace
    /// Worker threads.
    public var jobs: Int
    /// The most rounds of the search (each sweeps every tuned state once).
    public var maximumRounds = 4
    /// The most bytes held in memory over the whole corpus: each trip's fixes
    /// (``TraceReplay/LoadedTrip/bytes``) and its decision schedule
    /// (``TraceReplay/DecisionSchedule/bytes(fixes:)``); the trips beyond it are read from their
    /// files at each replay (slower, the same figures).
    public var memoryLimitCorpusBytes = 1 << 30
    /// Whether a trip is replayed once per distinct set of decisions (``TraceReplay/DecisionKey``)
    /// rather than once per candidate: the same figures, found without the replays that would
    /// repeat one. Off replays every candidate on every trip in full (the tests compare the two).
    public var sharesReplays = true
    /// Whether the search's replays sample only the views the requirements judge
    /// (``Requirement/judgedViews(_:)``, ``TraceReplay/ReplayOptions/sampledViews``), each
    /// viewer's alone (without each sender's over all its viewers,
    /// ``TraceReplay/ReplayOptions/senderFigures``, which no requirement reads): the same figures
    /// for the search, without the clock ticks of the views no requirement reads. The start's and
    /// the chosen policy's reported figures always sample every view. Off samples every view in
    /// every replay (the tests compare the two).
    public var samplesJudgedViewsOnly = true
    /// How much worse than the start each view figure and arrival delay that no requirement
    /// names may get (``KeptFigure``): each is judged as a requirement of its own, bounded by this
    /// tolerance over the start's value, so the search cannot buy its savings with a figure it
    /// was not asked to give up. Nil keeps none (the search sees only ``requirements``).
    public var keep: KeepTolerance? = .standard
    /// Figures the search may give up even so: not kept.
    public var released: [KeepRelease] = []
    /// Whether the trips on which no candidate met a requirement judged trip by trip
    /// (``TuneOutcome/infeasibleTrips``) are left out: the search runs again without them (their
    /// replays' figures kept for the others), and the outcome is over the trips left in. When no
    /// trip would be left, none is left out.
    public var skipsInfeasibleTrips = false

    public init(
        trips: [BatchTrip], options: ReplayOptions, requirements: [Requirement], judgement: CorpusJudgement = .everyTrip,
        objective: TuneObjective = .energy, space: TuneSpace, jobs: Int
    ) {
        self.trips = trips
        self.options = options
        self.requirements = requirements
        self.judgement = judgement
        self.objective = objective
        self.space = space
        self.jobs = jobs
    }
}

/// A policy's figures over the corpus: the objective, the updates sent, and each requirement's
/// corpus value (``Requirement/corpusValue(_:judgement:)``) and excess.
public struct CorpusEvaluation: Hashable, Sendable {
    public var objective: Double
    public var sent: Int
    /// Per requirement: the corpus value and the trip it comes from; nil when no trip has the
    /// figure (the requirement holds vacuously).
    public var values: [CorpusValue?]
    /// Per requirement: how far beyond its bound, relative (0: met).
    public var excess: [Double]

    public struct CorpusValue: Hashable, Sendable {
        public var value: Double
        /// The worst trip's index when judged trip by trip.
        public var trip: Int?
    }

    /// Whether every requirement is met.
    public var feasible: Bool { excess.allSatisfy { $0 == 0 } }
    public var totalExcess: Double { excess.reduce(0, +) }
    /// The requirements not met.
    public var violated: [Int] { excess.indices.filter { excess[$0] > 0 } }
}

/// One state's last sweep: every candidate row, tried with the other states at the incumbent's
/// rows, and its figures.
public struct StateSweep: Sendable {
    public var state: FulfilmentState
    public var round: Int
    public var rows: [StatePolicy]
    public var evaluations: [CorpusEvaluation]
    /// The row chosen (an index into ``rows``); row 0 is the start's.
    public var chosen: Int

    /// The candidates on the frontier of the objective against requirement `r`'s value: no other
    /// candidate is at least as good on both and better on one (values oriented so that lower is
    /// better), in ascending objective. Candidates without the figure are left out.
    public func frontier(_ r: Int, upper: Bool) -> [Int] {
        let points: [(i: Int, o: Double, v: Double)] = rows.indices.compactMap { i in
            guard let v = evaluations[i].values[r]?.value else { return nil }
            return (i, evaluations[i].objective, upper ? v : -v)
        }
        let sorted = points.sorted { ($0.o, $0.v, $0.i) < ($1.o, $1.v, $1.i) }
        var front: [Int] = []
        var best = Double.infinity
        for p in sorted where p.v < best {
            front.append(p.i)
            best = p.v
        }
        return front
    }
}

/// Whether a requirement decides the choice: a cheaper candidate of some state's last sweep is
/// refused by it alone (``binds``), or only together with others (``bindsJointly``).
public struct Binding: Hashable, Sendable {
    public var binds = false
    public var bindsJointly = false
    /// The cheapest candidate it refuses alone: its state and objective.
    public var cheaperState: FulfilmentState?
    public var cheaperObjective: Double?
}

/// The fewest updates of the limit (``UpdateLimit``) for a display-error requirement of one state:
/// the viewer's senders' recorded fixes in the state, over every trip, against the tuned policy's
/// updates.
public struct TuneLimit: Hashable, Sendable {
    /// The requirement's index.
    public var requirement: Int
    public var state: FulfilmentState
    /// Updates the tuned policy's phones sent in the state to the senders the viewer sees.
    public var sent: Int
    /// The fewest updates that keep every recorded fix within the bound.
    public var minimum: Int
    /// Trips left out of both counts: a stay so long that the minimum would take more than
    /// ``Tuner/limitDistances`` distances.
    public var tripsLeftOut = 0
    /// `sent / minimum`; nil when the minimum is 0.
    public var ratio: Double? { minimum > 0 ? Double(sent) / Double(minimum) : nil }
}

/// The outcome of a tune.
public struct TuneOutcome: Sendable {
    public var request: TuneRequest
    public var start: SharingPolicy
    public var chosen: SharingPolicy
    public var startEvaluation: CorpusEvaluation
    public var chosenEvaluation: CorpusEvaluation
    /// Each trip's full replay under the start and under the chosen policy (the figures reported).
    public var startResults: [ReplayResult]
    public var chosenResults: [ReplayResult]
    /// Each tuned state's last sweep, in state order.
    public var sweeps: [StateSweep]
    /// Per requirement, the best corpus value any candidate reached (nil: none had the figure, or
    /// a kept figure judged trip by trip, whose trips have bounds of their own).
    public var bestReached: [Double?]
    public var bindings: [Binding]
    /// The limit for each display-error requirement of a state; empty when some trip is not held
    /// in memory (its fixes would have to be read again).
    public var limits: [TuneLimit]
    /// Candidate policies evaluated (each over the whole corpus), rounds run, and replays.
    public var candidates: Int
    public var rounds: Int
    /// Whether the last round changed nothing; false: ``TuneRequest/maximumRounds`` ran out
    /// first, and the last sweeps (the bindings, the frontiers) saw an earlier incumbent.
    public var converged: Bool
    /// Trip evaluations of the search (candidates × trips), and how many were answered by the
    /// figures of an earlier replay with the same decisions (``TuneRequest/sharesReplays``).
    public var evaluations: Int
    public var sharedEvaluations: Int
    /// Full replays: the search's (``evaluations`` − ``sharedEvaluations``), plus each trip's under
    /// the start and under the chosen policy for the figures reported.
    public var replays: Int
    /// Fixes over every candidate and trip (candidate × fix evaluations), whether the trip was
    /// replayed for the candidate or shared another candidate's replay.
    public var fixEvaluations: Int
    /// Trips held in memory, and the bytes their fixes and decision schedules take.
    public var tripsInMemory: Int
    public var bytesInMemory: Int

    /// The figures kept (``TuneRequest/keep``), in ``KeptFigure/candidates`` order. They are
    /// judged after the request's requirements: in every per-requirement array (the evaluations'
    /// values and excess, ``bestReached``, ``bindings``), requirement `request.requirements.count + k`
    /// is kept figure `k`.
    public var kept: [KeptFigure] = []
    /// Trips on which no candidate of the search met a requirement judged trip by trip: one per
    /// trip and requirement, in corpus order (of the request given, before any was left out).
    public var infeasibleTrips: [InfeasibleTrip] = []

    /// Every requirement judged: the request's, then the kept figures'.
    public var requirements: [Requirement] { request.requirements + kept.map(\.requirement) }
    /// Whether the chosen policy meets every requirement, the kept figures' too.
    public var feasible: Bool { chosenEvaluation.feasible }
    /// The trips left out of the search (``TuneRequest/skipsInfeasibleTrips``), each once, in corpus order.
    public var leftOut: [String] {
        var ids: [String] = []
        for t in infeasibleTrips where t.leftOut && ids.last != t.trip { ids.append(t.trip) }
        return ids
    }
}

/// A trip on which no candidate met a requirement (``TuneOutcome/infeasibleTrips``): whatever
/// the rest of the corpus allows, that trip alone fails it.
public struct InfeasibleTrip: Hashable, Sendable {
    /// The trip's id.
    public var trip: String
    /// The requirement's index in ``TuneRequest/requirements``.
    public var requirement: Int
    /// The best value any candidate reached on the trip (infinity: never shown).
    public var best: Double
    /// For a view figure of a state: how far apart the recorded fixes of the senders the viewer
    /// sees are in that state (nil otherwise, or when the trip is not held in memory).
    public var fixGaps: FixGaps?
    /// Whether it was left out of the search (``TuneRequest/skipsInfeasibleTrips``).
    public var leftOut: Bool
}

/// The recorded fixes of a trip's senders in one state: how many, and the median and largest
/// time between consecutive ones, seconds.
public struct FixGaps: Hashable, Sendable {
    /// The senders the viewer sees there, in role order.
    public var senders: [Role]
    public var fixes: Int
    public var medianSeconds: Double
    public var largestSeconds: Double
}

/// Why a tune could not run: a trip that failed to replay (its name and why).
public struct TuneError: Error, Hashable, Sendable, CustomStringConvertible {
    public var trip: String
    public var error: BatchTripError
    public var description: String { "trip \(trip): \(error.message)" }
}

/// The search (``run(_:progress:)``): each trip read once and held in memory, every candidate
/// judged on full replays over the corpus (one per set of decisions on a trip: ``TuneRequest/sharesReplays``),
/// coordinate descent over the tuned states.
public enum Tuner {
    /// Tunes `request`'s start policy. `progress(done, total)` is called on the calling thread
    /// after each candidate of a sweep (total: the sweep's candidates).
    ///
    /// The search: replay the start (its figures reported, and the values the kept figures are
    /// bounded by: ``TuneRequest/keep``, ``KeptFigure/derive(requirements:tolerance:released:results:judgement:)``);
    /// evaluate it; then, round after round, sweep each tuned state in order:
    /// try every candidate row of that state (``TuneSpace/candidates(_:start:base:)``) with the
    /// other states at the incumbent's rows, each judged on a full replay of every trip (shared by
    /// the candidates whose phones decide alike on it: ``TuneRequest/sharesReplays``; sampling only
    /// the views the requirements and the kept figures judge: ``TuneRequest/samplesJudgedViewsOnly``), keep the best
    /// by (total excess over the requirements and the kept figures, objective, updates sent, fields changed from the
    /// start, candidate order). Stop after a round that changes nothing, or after
    /// ``TuneRequest/maximumRounds``. Every figure is a full replay's, so the states' coupling (the
    /// update gate carries its last delivered fix into the next state, a radio tail runs on) is
    /// never approximated; the chosen policy's figures are its own replay's. The trips on which
    /// no candidate met a requirement are named (``TuneOutcome/infeasibleTrips``) and, with
    /// ``TuneRequest/skipsInfeasibleTrips``, left out: the search runs again over the others.
    /// - Throws: ``TuneError`` for the first trip (in corpus order) that cannot be replayed.
    public static func run(_ request: TuneRequest, progress: (Int, Int) -> Void = { _, _ in }) throws(TuneError) -> TuneOutcome {
        var options = request.options
        options.viewerFigures = true
        options.recordTrack = false
        var corpus = try Corpus(
            request.trips, options: options, memoryLimit: request.memoryLimitCorpusBytes, schedules: request.sharesReplays,
            jobs: request.jobs)
        let start = request.options.policy
        // The start's full replays: its figures to report, and what the kept figures keep.
        var startResults = try corpus.results(start, options: options)
        var kept = keptFigures(request, startResults)
        var search = Search(
            request: request, corpus: corpus, options: options, start: start, requirements: request.requirements + kept.map(\.requirement))
        var descent = try descend(&search, request, progress: progress)

        var searched = request
        let infeasible = infeasibleTrips(search, request, startResults)
        var leftOut: Set<Int> = []
        if request.skipsInfeasibleTrips {
            leftOut = Set(infeasible.map(\.trip))
            if leftOut.count == request.trips.count { leftOut = [] }
        }
        if !leftOut.isEmpty {
            // Again over the trips left in: their schedules and decisions kept, and their
            // replays' figures too when the kept figures are the same ones.
            let left = request.trips.indices.filter { !leftOut.contains($0) }
            searched.trips = left.map { request.trips[$0] }
            corpus = corpus.subset(left)
            startResults = left.map { startResults[$0] }
            kept = keptFigures(searched, startResults)
            search = search.subset(left, corpus: corpus, requirements: request.requirements + kept.map(\.requirement))
            descent = try descend(&search, searched, progress: progress)
        }
        var chosen = descent.incumbent
        // Named after the start, once: a tuned policy tuned again keeps its name.
        chosen.name = start.name == "seed" ? "tuned" : start.name.hasSuffix("tuned") ? start.name : "\(start.name), tuned"
        chosen.tuning = nil
        let chosenResults = try corpus.results(chosen, options: options)
        let orderedSweeps = request.space.states.compactMap { descent.sweeps[$0.state] }
        var outcome = TuneOutcome(
            request: searched, start: start, chosen: chosen, startEvaluation: descent.startEvaluation,
            chosenEvaluation: descent.incumbentEvaluation, startResults: startResults, chosenResults: chosenResults, sweeps: orderedSweeps,
            bestReached: search.bestReached, bindings: bindings(orderedSweeps, search.requirements),
            limits: limits(request.requirements, results: chosenResults, corpus: corpus, exact: options.exact),
            candidates: search.candidates, rounds: descent.rounds, converged: descent.converged, evaluations: search.evaluations,
            sharedEvaluations: search.shared, replays: search.replays + request.trips.count + searched.trips.count,
            fixEvaluations: search.fixEvaluations, tripsInMemory: corpus.loaded.count { $0 != nil },
            bytesInMemory: corpus.loaded.reduce(0) { $0 + ($1?.bytes ?? 0) } + search.schedules.reduce(0) { $0 + ($1?.bytes ?? 0) })
        outcome.kept = kept
        outcome.infeasibleTrips = infeasible.map { t in
            var named = t.named
            named.leftOut = leftOut.contains(t.trip)
            return named
        }
        return outcome
    }

    /// The figures `request` keeps, from the start's replay of each of its trips.
    static func keptFigures(_ request: TuneRequest, _ startResults: [ReplayResult]) -> [KeptFigure] {
        guard let tolerance = request.keep else { return [] }
        return KeptFigure.derive(
            requirements: request.requirements, tolerance: tolerance, released: request.released, results: startResults,
            judgement: request.judgement)
    }

    /// Where a descent ended: the start's and the incumbent's evaluations, each state's last
    /// sweep, the rounds run.
    struct Descent {
        var startEvaluation: CorpusEvaluation
        var incumbent: SharingPolicy
        var incumbentEvaluation: CorpusEvaluation
        var sweeps: [FulfilmentState: StateSweep] = [:]
        var rounds = 0
        var converged = false
    }

    /// The coordinate descent from the start over `search`'s corpus.
    static func descend(_ search: inout Search, _ request: TuneRequest, progress: (Int, Int) -> Void) throws(TuneError) -> Descent {
        let start = search.start
        let startEvaluation = try search.evaluate([start], progress: { _, _ in })[0]
        var d = Descent(startEvaluation: startEvaluation, incumbent: start, incumbentEvaluation: startEvaluation)
        for round in 1...max(1, request.maximumRounds) {
            d.rounds = round
            var changed = false
            for (state, _) in request.space.states {
                let rows = request.space.candidates(state, start: start[state], base: d.incumbent[state])
                let policies = rows.map { row -> SharingPolicy in
                    var p = d.incumbent
                    p[state] = row
                    return p
                }
                let evaluations = try search.evaluate(policies, near: d.incumbent, progress: progress)
                // The incumbent's own row is among the candidates: it stays unless another is better.
                var best = 0
                for i in rows.indices.dropFirst() where search.better(i, than: best, evaluations, policies) { best = i }
                d.sweeps[state] = StateSweep(state: state, round: round, rows: rows, evaluations: evaluations, chosen: best)
                if rows[best] != d.incumbent[state] {
                    d.incumbent[state] = rows[best]
                    d.incumbentEvaluation = evaluations[best]
                    changed = true
                }
            }
            if !changed {
                d.converged = true
                break
            }
        }
        return d
    }

    /// The trips on which no candidate of `search` met a requirement of `request` judged trip by
    /// trip (their indices, and each as reported but for ``InfeasibleTrip/leftOut``), in corpus
    /// order, then requirement order.
    static func infeasibleTrips(_ search: Search, _ request: TuneRequest, _ startResults: [ReplayResult]) -> [(
        trip: Int, named: InfeasibleTrip
    )] {
        var list: [(trip: Int, named: InfeasibleTrip)] = []
        for t in request.trips.indices {
            for (ri, r) in request.requirements.enumerated() {
                guard let best = search.tripBest[ri]?[t], !r.comparison.holds(best, r.bound) else { continue }
                list.append(
                    (
                        t,
                        InfeasibleTrip(
                            trip: request.trips[t].id, requirement: ri, best: best,
                            fixGaps: fixGaps(r, result: startResults[t], trip: search.corpus.loaded[t]), leftOut: false)
                    ))
            }
        }
        return list
    }

    /// For a view figure of a state: the recorded fixes, in that state, of the senders `r`'s
    /// viewer sees there (in `result`, the start's replay), on every stretch of the timeline in the
    /// state; nil for other requirements, a trip not held, or fewer than two fixes.
    static func fixGaps(_ r: Requirement, result: ReplayResult, trip: LoadedTrip?) -> FixGaps? {
        guard let state = r.state, r.figure.isView, let trip else { return nil }
        let senders = Set(result.viewerViews.filter { $0.state == state && $0.viewer == r.role && $0.sender != r.role }.map(\.sender))
        let timeline = result.scenario.timeline
        let stretches = timeline.indices.filter { timeline[$0].state == state }.map { i in
            timeline[i].time.nanoseconds..<(i + 1 < timeline.count ? timeline[i + 1].time.nanoseconds : Int64.max)
        }
        var gaps: [Double] = []
        var fixes = 0
        let ordered = senders.sorted { $0.rawValue < $1.rawValue }
        for sender in ordered {
            let times = trip.fixes(of: sender).times
            for stretch in stretches {
                let inState = times.filter { stretch.contains($0) }
                fixes += inState.count
                for (a, b) in zip(inState, inState.dropFirst()) { gaps.append(Double(b - a) / 1e9) }
            }
        }
        guard !gaps.isEmpty else { return nil }
        gaps.sort()
        let n = gaps.count
        let median = n % 2 == 1 ? gaps[n / 2] : (gaps[n / 2 - 1] + gaps[n / 2]) / 2
        return FixGaps(senders: ordered, fixes: fixes, medianSeconds: median, largestSeconds: gaps[n - 1])
    }

    /// The requirements that decide the choice, from each state's last sweep.
    static func bindings(_ sweeps: [StateSweep], _ requirements: [Requirement]) -> [Binding] {
        var result = [Binding](repeating: Binding(), count: requirements.count)
        for sweep in sweeps {
            let chosen = sweep.evaluations[sweep.chosen]
            for (i, e) in sweep.evaluations.enumerated() where i != sweep.chosen && e.objective < chosen.objective {
                let violated = e.violated
                if violated.count == 1 {
                    let r = violated[0]
                    result[r].binds = true
                    if result[r].cheaperObjective.map({ e.objective < $0 }) ?? true {
                        result[r].cheaperObjective = e.objective
                        result[r].cheaperState = sweep.state
                    }
                } else {
                    for r in violated { result[r].bindsJointly = true }
                }
            }
        }
        return result
    }

    /// The most distances the limit computes per trip, state and sender (about a second's work):
    /// beyond it the trip is left out of the limit, and the limit says how many were.
    static let limitDistances = 50_000_000

    /// The limit of each upper display-error requirement of a state (``TuneLimit``): over every
    /// stretch of the timeline in the state, the recorded fixes of each sender the viewer sees.
    static func limits(
        _ requirements: [Requirement], results: [ReplayResult], corpus: Corpus, exact: any GeodesicSolver & Sendable
    ) -> [TuneLimit] {
        guard corpus.loaded.allSatisfy({ $0 != nil }) else { return [] }
        var limits: [TuneLimit] = []
        for (ri, r) in requirements.enumerated() {
            guard let state = r.state, r.figure == .displayErrorP95 || r.figure == .displayErrorMax, r.comparison.upper else { continue }
            var limit = TuneLimit(requirement: ri, state: state, sent: 0, minimum: 0)
            for (t, result) in results.enumerated() {
                guard let trip = corpus.loaded[t] else { continue }
                let senders = Set(
                    result.viewerViews.filter { $0.state == state && $0.viewer == r.role && $0.sender != r.role }.map(\.sender))
                guard !senders.isEmpty else { continue }
                let timeline = result.scenario.timeline
                let stretches = timeline.indices.filter { timeline[$0].state == state }.map { i in
                    timeline[i].time.nanoseconds..<(i + 1 < timeline.count ? timeline[i + 1].time.nanoseconds : Int64.max)
                }
                var sent = 0, minimum = 0, complete = true
                for sender in senders.sorted(by: { $0.rawValue < $1.rawValue }) {
                    sent += result.states[state.rawValue][sender]?.sentUpdates ?? 0
                    let fixes = trip.fixes(of: sender)
                    for stretch in stretches {
                        let inState = fixes.times.indices.filter { stretch.contains(fixes.times[$0]) }.map { fixes.coordinates[$0] }
                        guard
                            let sends = UpdateLimit.fewestSends(
                                inState, boundMetres: r.bound, maximumDistances: limitDistances, exact: exact)
                        else {
                            complete = false
                            break
                        }
                        minimum += sends.count
                    }
                }
                if complete {
                    limit.sent += sent
                    limit.minimum += minimum
                } else {
                    limit.tripsLeftOut += 1
                }
            }
            limits.append(limit)
        }
        return limits
    }
}

/// The corpus held for a tune: each trip's options (its window) and, within the memory bound, the
/// trip itself (``TraceReplay/LoadedTrip``).
struct Corpus: Sendable {
    let trips: [BatchTrip]
    let options: [ReplayOptions]
    let loaded: [LoadedTrip?]
    let jobs: Int

    /// Loads `trips` on `jobs` workers, judging them in corpus order (at most ``loadWindow`` trips
    /// a job ahead of the earliest not yet judged, without a barrier: a long trip does not hold
    /// the others up) and keeping them while their bytes fit `memoryLimit`: at most that plus the
    /// window's trips in memory at once. Once a trip does not fit, the rest are not loaded (they
    /// are replayed from their files); a trip that fails to load before then stops the tune, the
    /// first in corpus order.
    init(_ trips: [BatchTrip], options: ReplayOptions, memoryLimit: Int, schedules: Bool, jobs: Int) throws(TuneError) {
        self.trips = trips
        self.jobs = jobs
        self.options = trips.map { $0.options(options) }
        var loaded: [LoadedTrip?] = []
        var bytes = 0
        var full = false
        var failure: TuneError?
        // Set once the rest need not be loaded (the bound reached, or a failure).
        let done = Atomic<Bool>(false)
        BatchRunner(jobs: jobs).runInOrder(count: trips.count, window: Self.loadWindow * max(1, jobs)) {
            i -> Result<LoadedTrip?, BatchTripError> in
            guard !done.load(ordering: .relaxed) else { return .success(nil) }
            do throws(BatchTripError) { return .success(try trips[i].load(options: options)) } catch { return .failure(error) }
        } completed: { i, outcome in
            switch outcome {
            case .failure(let e) where !full && failure == nil:
                failure = TuneError(trip: trips[i].id, error: e)
                done.store(true, ordering: .relaxed)
            case .success(let t?) where !full && failure == nil:
                if bytes + Self.bytes(t, schedule: schedules) <= memoryLimit {
                    bytes += Self.bytes(t, schedule: schedules)
                    loaded.append(t)
                    return
                }
                full = true
                done.store(true, ordering: .relaxed)
            default: break
            }
            loaded.append(nil)
        }
        if let failure { throw failure }
        self.loaded = loaded
    }

    /// Trips a job the load may run ahead of the earliest not yet judged.
    static let loadWindow = 4

    private init(trips: [BatchTrip], options: [ReplayOptions], loaded: [LoadedTrip?], jobs: Int) {
        self.trips = trips
        self.options = options
        self.loaded = loaded
        self.jobs = jobs
    }

    /// The trips at `indices` (in that order), as held.
    func subset(_ indices: [Int]) -> Corpus {
        Corpus(trips: indices.map { trips[$0] }, options: indices.map { options[$0] }, loaded: indices.map { loaded[$0] }, jobs: jobs)
    }

    /// The bytes a trip held takes: its fixes and, when the tune records one, its decision schedule.
    static func bytes(_ t: LoadedTrip, schedule: Bool) -> Int { t.bytes + (schedule ? DecisionSchedule.bytes(fixes: t.fixes) : 0) }

    /// Trip `i`'s options with `policy`, sampling `views`, each sender's view over all its viewers
    /// measured or not (`senderFigures`: the search judges each viewer's).
    /// Trip `i`'s options under `policy`, sampling `views`; without `priced`, the energy is not
    /// priced on the device profiles too (``TraceReplay/ReplayOptions/energySpread``).
    func options(_ i: Int, policy: SharingPolicy, views: ViewSampling = .all, senderFigures: Bool = true, priced: Bool = true)
        -> ReplayOptions
    {
        var o = options[i]
        o.policy = policy
        o.sampledViews = views
        o.senderFigures = senderFigures
        if !priced { o.energySpread = [] }
        return o
    }

    /// Trip `i` replayed under `policy`, sampling `views` (every one: figures to report).
    func replay(
        _ i: Int, policy: SharingPolicy, views: ViewSampling = .all, senderFigures: Bool = true, priced: Bool = true
    ) throws(BatchTripError) -> ReplayResult {
        let o = options(i, policy: policy, views: views, senderFigures: senderFigures, priced: priced)
        if let trip = loaded[i] {
            do { return try Replay.run(trip, options: o) } catch { throw BatchTripError(error) }
        }
        return try trips[i].replay(options: o)
    }

    /// Every trip's full replay under `policy`, in corpus order.
    func results(_ policy: SharingPolicy, options: ReplayOptions) throws(TuneError) -> [ReplayResult] {
        let outcomes = BatchRunner(jobs: jobs).map(count: trips.count) { i -> Result<ReplayResult, BatchTripError> in
            do throws(BatchTripError) { return .success(try replay(i, policy: policy)) } catch { return .failure(error) }
        }
        var results: [ReplayResult] = []
        for (i, o) in outcomes.enumerated() {
            switch o {
            case .failure(let e): throw TuneError(trip: trips[i].id, error: e)
            case .success(let r): results.append(r)
            }
        }
        return results
    }
}

/// The search's evaluations: policies replayed over the corpus on the workers, reduced to
/// ``CorpusEvaluation``s, and the order that picks the best.
struct Search {
    let request: TuneRequest
    let corpus: Corpus
    let options: ReplayOptions
    let start: SharingPolicy
    /// What each candidate is judged by: the request's requirements, then the kept figures'.
    let requirements: [Requirement]
    var cache: [SharingPolicy: CorpusEvaluation] = [:]
    /// Per trip: its decision schedule, from its first replay (nil: not yet, or not in memory).
    var schedules: [DecisionSchedule?]
    /// Per trip: each distinct decision key seen so far, numbered in the order found, and the
    /// figures of the numbers replayed. Memory grows with the distinct keys, not the candidates.
    var keyNumbers: [[DecisionKey: Int]]
    var known: [[Int: TripFigures]]
    var bestReached: [Double?]
    /// Per requirement of the request judged trip by trip (nil for the others and the kept
    /// figures): per trip, the best value any candidate reached there (nil: none had the figure).
    var tripBest: [[Double?]?]
    var candidates = 0
    /// Trip evaluations (candidates × trips), the full replays among them, and those answered
    /// by an earlier replay with the same decisions.
    var evaluations = 0
    var replays = 0
    var shared = 0
    var fixEvaluations = 0

    init(request: TuneRequest, corpus: Corpus, options: ReplayOptions, start: SharingPolicy, requirements: [Requirement]) {
        self.request = request
        self.corpus = corpus
        self.options = options
        self.start = start
        self.requirements = requirements
        bestReached = Array(repeating: nil, count: requirements.count)
        tripBest = requirements.indices.map { ri in
            ri < request.requirements.count && !requirements[ri].pools(request.judgement)
                ? Array(repeating: nil, count: corpus.trips.count) : nil
        }
        schedules = Array(repeating: nil, count: corpus.trips.count)
        keyNumbers = Array(repeating: [:], count: corpus.trips.count)
        known = Array(repeating: [:], count: corpus.trips.count)
    }

    /// A search over `corpus`, trips `indices` of this one's, judged by `requirements`: each
    /// trip's schedule and decision numbers kept, and the figures of its replays when the
    /// requirements read the same figures (the bounds aside); nothing evaluated yet, the counts
    /// of work done carried on.
    func subset(_ indices: [Int], corpus: Corpus, requirements: [Requirement]) -> Search {
        var s = Search(request: request, corpus: corpus, options: options, start: start, requirements: requirements)
        s.schedules = indices.map { schedules[$0] }
        s.keyNumbers = indices.map { keyNumbers[$0] }
        func figure(_ r: Requirement) -> String { String(r.text.prefix { $0 != "<" && $0 != ">" }) }
        if requirements.map(figure) == self.requirements.map(figure) { s.known = indices.map { known[$0] } }
        s.candidates = candidates
        s.evaluations = evaluations
        s.replays = replays
        s.shared = shared
        s.fixEvaluations = fixEvaluations
        return s
    }

    /// The number of `key` on trip `t`, a new one when it is new.
    mutating func number(_ key: DecisionKey, trip t: Int) -> Int {
        if let n = keyNumbers[t][key] { return n }
        let n = keyNumbers[t].count
        keyNumbers[t][key] = n
        return n
    }

    /// One trip's replay reduced to what the search keeps.
    struct TripFigures: Sendable {
        var objective: Double
        var sent: Int
        var fixes: Int
        var samples: [RequirementSample]
    }

    /// One candidate's figures, its trips added in corpus order: sums and per-trip values kept by
    /// trip, pooled samples merged as they come.
    struct Tally {
        var objective: [Double]
        var sent: [Int]
        var fixes: [Int]
        /// Per requirement judged trip by trip: each trip's value (nil: no figure).
        var values: [[Double?]]
        /// Per requirement pooled: the samples so far.
        var pooled: [RequirementSample]

        init(trips: Int, requirements: Int) {
            objective = Array(repeating: 0, count: trips)
            sent = Array(repeating: 0, count: trips)
            fixes = Array(repeating: 0, count: trips)
            values = Array(repeating: Array(repeating: nil, count: trips), count: requirements)
            pooled = Array(repeating: .none, count: requirements)
        }

        /// Trip `t`'s figures.
        mutating func add(_ f: TripFigures, trip t: Int, _ requirements: [Requirement], judgement: CorpusJudgement) {
            objective[t] = f.objective
            sent[t] = f.sent
            fixes[t] = f.fixes
            for (ri, r) in requirements.enumerated() {
                if r.pools(judgement) {
                    pooled[ri].pool(f.samples[ri], upper: r.comparison.upper)
                } else {
                    values[ri][t] = r.value(f.samples[ri])
                }
            }
        }
    }

    /// The corpus figures of each of `policies` (cached ones not replayed again).
    ///
    /// Each (candidate, trip) is answered by a full replay, or by the figures of an earlier one
    /// with the same decisions on that trip (``TraceReplay/DecisionKey``, with
    /// ``TuneRequest/sharesReplays``): the keys are found first, on the workers, each kept as its
    /// number on the trip, given on this thread as it comes (``BatchRunner`` holds a bounded number
    /// not yet numbered) (with `base`, the sweep's incumbent, from
    /// its trace on each trip: ``TraceReplay/DecisionSchedule/key(under:near:)`` runs the phones
    /// only over the swept state and until they decide as under the base again); then one replay per new key, the first
    /// candidate in order to have it (so the replays done are the same whatever the workers'
    /// order; each samples only the views the requirements judge, with
    /// ``TuneRequest/samplesJudgedViewsOnly``); then the tallies, in corpus order. The start's replay of a trip records its schedule
    /// (``TraceReplay/DecisionSchedule``), which the start is evaluated alone, first, to give; a
    /// trip not held in memory is always replayed from its files.
    /// - Throws: ``TuneError`` for the first trip, in corpus order, that fails to replay.
    mutating func evaluate(_ policies: [SharingPolicy], near base: SharingPolicy? = nil, progress: (Int, Int) -> Void) throws(TuneError)
        -> [CorpusEvaluation]
    {
        var queue: [SharingPolicy] = []
        var queued: Set<SharingPolicy> = []
        for p in policies where cache[p] == nil && queued.insert(p).inserted { queue.append(p) }
        let todo = queue
        let trips = corpus.trips.count
        let requirements = self.requirements, objective = request.objective
        let corpus = self.corpus, schedules = self.schedules
        let items = todo.count * trips
        let runner = BatchRunner(jobs: request.jobs)

        // The keys: each candidate's decisions on each trip with a schedule, as numbers (each key
        // numbered as it is found and then dropped, the workers waiting when a few are not yet
        // numbered: memory for the distinct keys, not for every candidate's; the numbers are names
        // only, so the order they are given in changes nothing).
        var numbers = [Int?](repeating: nil, count: items)
        if request.sharesReplays && schedules.contains(where: { $0 != nil }) {
            // The base's decisions on each trip, with the points a candidate's pass can start from
            // and join again: a sweep's candidates differ from it in one state.
            let traces = items == 0 ? [] : base.map { base in runner.map(count: trips) { t in schedules[t]?.trace(under: base) } } ?? []
            runner.run(count: items) { item in
                let (p, t) = item.quotientAndRemainder(dividingBy: trips)
                if let trace = traces.isEmpty ? nil : traces[t] { return schedules[t]?.key(under: todo[p], near: trace) }
                return schedules[t]?.key(under: todo[p])
            } completed: { item, key in
                if let key { numbers[item] = number(key, trip: item % trips) }
            }
        }

        // The plan: an item is known (an earlier replay had its key), follows the first item of
        // this call with its key, or is replayed.
        var figures = [TripFigures?](repeating: nil, count: items)
        var replayed: [Int] = []
        var followers: [Int: [Int]] = [:]
        var first = [[Int: Int]](repeating: [:], count: trips)
        for item in 0..<items {
            let t = item % trips
            guard let n = numbers[item] else {
                replayed.append(item)
                continue
            }
            if let known = known[t][n] {
                figures[item] = known
                shared += 1
            } else if let leader = first[t][n] {
                followers[leader, default: []].append(item)
                shared += 1
            } else {
                first[t][n] = item
                replayed.append(item)
            }
        }

        var waiting = [Int](repeating: 0, count: todo.count)
        for item in 0..<items where figures[item] == nil { waiting[item / trips] += 1 }
        var done = policies.count - todo.count + waiting.count { $0 == 0 }
        progress(done, policies.count)
        var failure: (trip: Int, error: BatchTripError)?
        let recordedSchedules = request.sharesReplays, start = self.start
        // What the requirements read of the views, and nothing else (the figures to report come
        // from the replays of `Corpus.results`, which sample every view).
        let views = request.samplesJudgedViewsOnly ? Requirement.judgedViews(requirements) : .all
        // Nor each sender's view over all its viewers, which no requirement reads.
        let senderFigures = !request.samplesJudgedViewsOnly
        // Nor the device profiles' energy, unless the objective is their worst case.
        let priced = objective.needsDeviceProfiles
        let replaying = replayed
        runner.run(count: replaying.count) { k -> Result<(TripFigures, DecisionSchedule?), BatchTripError> in
            let (p, t) = replaying[k].quotientAndRemainder(dividingBy: trips)
            do throws(BatchTripError) {
                let r: ReplayResult
                var schedule: DecisionSchedule?
                if recordedSchedules && schedules[t] == nil && todo[p] == start, let trip = corpus.loaded[t] {
                    do throws(ReplayError) {
                        (r, schedule) = try Replay.runRecordingDecisions(
                            trip,
                            options: corpus.options(t, policy: todo[p], views: views, senderFigures: senderFigures, priced: priced))
                    } catch {
                        throw BatchTripError(error)
                    }
                } else {
                    r = try corpus.replay(t, policy: todo[p], views: views, senderFigures: senderFigures, priced: priced)
                }
                return .success(
                    (
                        TripFigures(
                            objective: objective.value(r), sent: r.roleTotals.reduce(0) { $0 + $1.sentUpdates },
                            fixes: r.roleTotals.reduce(0) { $0 + $1.rawFixes }, samples: requirements.map { $0.sample(r) }), schedule
                    ))
            } catch {
                return .failure(error)
            }
        } completed: { k, result in
            let item = replayed[k]
            let t = item % trips
            switch result {
            case .success(let (f, schedule)):
                var resolved = [item] + (followers[item] ?? [])
                if let schedule {
                    // The start's replay of the trip: its schedule, and the start's key found now.
                    self.schedules[t] = schedule
                    if let key = schedule.key(under: todo[item / trips]) { known[t][number(key, trip: t)] = f }
                    resolved = [item]
                } else if let n = numbers[item] {
                    known[t][n] = f
                }
                for i in resolved {
                    figures[i] = f
                    waiting[i / trips] -= 1
                    if waiting[i / trips] == 0 {
                        done += 1
                        progress(done, policies.count)
                    }
                }
            case .failure(let e):
                if failure.map({ t < $0.trip }) ?? true { failure = (t, e) }
            }
        }
        if let failure { throw TuneError(trip: corpus.trips[failure.trip].id, error: failure.error) }
        replays += replayed.count

        // The tallies, candidate by candidate on the workers (pooling every trip's histograms is
        // most of their time), then kept in candidate order.
        let judgement = request.judgement, tripFigures = figures.map { $0! }
        let tallied = runner.map(count: todo.count) { p -> (CorpusEvaluation, fixes: Int, tripValues: [[Double?]]) in
            Self.evaluation(tripFigures[(p * trips)..<((p + 1) * trips)], requirements, judgement: judgement)
        }
        for (p, policy) in todo.enumerated() {
            let (e, fixes, tripValues) = tallied[p]
            for (ri, r) in requirements.enumerated() {
                if r.tripBounds == nil, let v = e.values[ri]?.value, bestReached[ri].map({ r.comparison.upper ? v < $0 : v > $0 }) ?? true {
                    bestReached[ri] = v
                }
                guard tripBest[ri] != nil else { continue }
                for (t, v) in tripValues[ri].enumerated() {
                    if let v, tripBest[ri]![t].map({ r.comparison.upper ? v < $0 : v > $0 }) ?? true { tripBest[ri]![t] = v }
                }
            }
            cache[policy] = e
            candidates += 1
            fixEvaluations += fixes
        }
        evaluations += items
        return policies.map { cache[$0]! }
    }

    /// One candidate's corpus figures from its trips' (in corpus order), the fixes replayed, and
    /// per requirement judged trip by trip each trip's value (empty for those pooled).
    static func evaluation(_ figures: ArraySlice<TripFigures>, _ requirements: [Requirement], judgement: CorpusJudgement)
        -> (CorpusEvaluation, fixes: Int, tripValues: [[Double?]])
    {
        var tally = Tally(trips: figures.count, requirements: requirements.count)
        for (t, f) in figures.enumerated() { tally.add(f, trip: t, requirements, judgement: judgement) }
        var e = CorpusEvaluation(objective: tally.objective.reduce(0, +), sent: tally.sent.reduce(0, +), values: [], excess: [])
        for (ri, r) in requirements.enumerated() {
            let v: (value: Double, trip: Int?)?
            if r.pools(judgement) {
                v = r.value(tally.pooled[ri]).map { ($0, nil) }
            } else {
                v = r.corpusValue(tally.values[ri].map { $0.map { .value($0) } ?? .none }, judgement: .everyTrip)
            }
            e.values.append(v.map { CorpusEvaluation.CorpusValue(value: $0.value, trip: $0.trip) })
            e.excess.append(v.map { r.excess($0.value, trip: $0.trip) } ?? 0)
        }
        return (e, tally.fixes.reduce(0, +), tally.values)
    }

    /// Fields (tier, distance filter, delivery, accuracy gate) of `p` that differ from the start's.
    func changes(_ p: SharingPolicy) -> Int {
        FulfilmentState.allCases.reduce(0) { n, s in
            let a = p[s], b = start[s]
            return n + (a.tier != b.tier ? 1 : 0) + (a.distanceFilter != b.distanceFilter ? 1 : 0) + (a.delivery != b.delivery ? 1 : 0)
                + (a.accuracyGate != b.accuracyGate ? 1 : 0)
        }
    }

    /// Whether candidate `i` beats candidate `j`: less total excess, then a lower objective,
    /// fewer updates sent, fewer fields changed from the start, an earlier candidate.
    func better(_ i: Int, than j: Int, _ e: [CorpusEvaluation], _ policies: [SharingPolicy]) -> Bool {
        let a = e[i], b = e[j]
        if a.totalExcess != b.totalExcess { return a.totalExcess < b.totalExcess }
        if a.objective != b.objective { return a.objective < b.objective }
        if a.sent != b.sent { return a.sent < b.sent }
        let ca = changes(policies[i]), cb = changes(policies[j])
        if ca != cb { return ca < cb }
        return i < j
    }
}
