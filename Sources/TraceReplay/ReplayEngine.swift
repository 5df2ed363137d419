import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// Whether a replay reads each file once or runs after a first pass.
enum ReplayPass {
    /// The scenario is complete: each file is read once (``FixSource/live(_:_:)``), the helper's
    /// dwells found as the fixes come; abandoned when a file needs the first pass after all.
    case single
    /// After ``Replay/firstPass(_:options:)``: its records give the scans and the fixes.
    case second
}

/// The replay: opens the fix streams (``FixStreams.swift``), resolves the scenario
/// (``ResolvedScenario``), sets the clock, then takes the merged fixes (``MergedFixes``) through
/// the timeline (``Timeline``), the phones (``PhoneModel``), the relay, the network and the
/// viewers' views (``Views``, ``NetworkModel``, ``ViewerModel``: ReplayEngine+Views.swift) and the
/// meters (``Meters``), and assembles the result (ReplayEngine+Result.swift).
struct Engine<Observer: ReplayObserver> {
    let options: ReplayOptions
    /// The viewer model, resolved once (``ReplayOptions/viewer``: chosen, or paired with the send rules).
    let viewer: ViewerModel
    private(set) var observer: Observer
    var recorder: TrackRecorder?
    let inputs: [TraceInput]
    var first: Replay.FirstPass
    let spec: ScenarioSpec
    let geodesic: any GeodesicDirectSolver & Sendable
    let pass: ReplayPass
    /// A trip held in memory (``LoadedTrip``): the roles' scans and the scenario, resolved once.
    let prepared: (scans: RoleTable<RoleScan?>, scenario: ResolvedScenario)?

    /// `first` is the first pass's findings; nil replays in a single pass (the scenario is complete:
    /// nothing to infer), which ``run()`` abandons when a file needs the first pass after all.
    init(first: Replay.FirstPass?, inputs: [TraceInput], spec: ScenarioSpec, options: ReplayOptions, observer: Observer) {
        self.init(first: first, inputs: inputs, spec: spec, prepared: nil, options: options, observer: observer)
    }

    /// Replays `trip` from memory: its first pass, scans and scenario are not found again.
    init(trip: LoadedTrip, options: ReplayOptions, observer: Observer) {
        self.init(
            first: trip.first, inputs: trip.inputs, spec: trip.spec, prepared: (trip.scans, trip.scenario), options: options,
            observer: observer)
    }

    private init(
        first: Replay.FirstPass?, inputs: [TraceInput], spec: ScenarioSpec,
        prepared: (scans: RoleTable<RoleScan?>, scenario: ResolvedScenario)?, options: ReplayOptions, observer: Observer
    ) {
        self.prepared = prepared
        self.observer = observer
        recorder = options.recordTrack ? TrackRecorder(pointsPerPath: options.trackPointsPerPath) : nil
        self.first = first ?? Replay.FirstPass()
        pass = first == nil ? .single : .second
        self.inputs = inputs
        self.spec = spec
        self.options = options
        geodesic = options.exact
        phones = Role.allCases.map { PhoneModel(role: $0, configuration: options.phone, exact: options.exact) }
        radius = options.rules.dwellRadiusMetres
        helperScanner = RoleScanner(rules: options.rules)
        viewer = options.viewer
        views = Views(viewer: viewer, geodesic: geodesic, perViewer: options.viewerFigures, perSender: options.senderFigures)
        timeline = Timeline(machine: FulfilmentMachine(category: .ride), events: [], inference: .given)
        meters = Meters(start: 0, profile: options.energyProfile, tiers: [])
        arrivals = Arrivals(pickup: nil, dropoff: nil, dropoffNotBefore: .min, radius: radius)
    }

    // Clock and scenario.
    var tEnd: Int64 = 0
    var relay = RelayTable(.seed)
    var isRide = true
    let radius: Double
    /// Single pass: the helper's dwells, found as the fixes come (the first pass's job otherwise).
    private var helperScanner: RoleScanner

    // The parts.
    var timeline: Timeline
    var meters: Meters
    var arrivals: Arrivals
    var views: Views
    /// The realistic network's figures so far (``NetworkModel/realistic``).
    var network = NetworkTally()
    /// Who sees each sender's location in the current state and is sampled
    /// (``ReplayOptions/sampledViews``); nil after a state change, until the viewers' clock needs it.
    var viewerSets: ViewerSets?
    /// The recording gap, nanoseconds (``InferenceRules/recordingGapSeconds``).
    var gapNanoseconds: Int64 = 0
    private var phones: [PhoneModel] = []
    var afterCancellation = 0
    private var lastPosition: [Coordinate?] = [nil, nil, nil]
    /// What each phone sent last in the current state (its last two updates), for the send rule.
    private var sent = SentMemory()
    /// The phones' inputs, recorded for ``DecisionSchedule`` when asked (nil: not recorded).
    var decisions: DecisionSchedule?
    private var lastTime = [Int64](repeating: .min, count: 3)
    var outOfOrder: [Int] = []

    @inline(__always) private func seconds(_ t: Int64) -> Double { meters.seconds(t) }

    /// The role of raw value `i` (0, 1, 2), without `Role.allCases` or a failable init per fix.
    @inline(__always) private static func role(_ i: Int) -> Role { i == 0 ? .hirer : i == 1 ? .helper : .delegate }

    /// The replay; nil when a single pass had to be abandoned (run again with a first pass).
    mutating func run() throws(ReplayError) -> ReplayResult? {
        let rules = options.rules
        var scans = RoleTable<RoleScan?>(repeating: nil)
        var opened: [FixStream] = []
        switch pass {
        case .single:
            // One file per role (checked by the caller); each file's first fix read now, for the clock.
            for role in [Role.helper, .hirer, .delegate] {
                for (i, input) in inputs.enumerated() where input.defaultRole == role {
                    let reader: RoleReader
                    do {
                        reader = try RoleReader(path: input.path, format: options.inputFormat, options: options.read, defaultRole: role)
                    } catch {
                        throw .read(error)
                    }
                    let s = try FixStream(role: role, file: i, source: .live(reader, LiveTally()))
                    if s.abandoned { return nil }
                    if s.head != nil { scans[role] = RoleScan() }  // finished after the merge
                    opened.append(s)
                }
            }
        case .second:
            scans = prepared?.scans ?? Self.scans(first)
        }
        try Self.checkTimed(
            scans, inputs: inputs, diagnostics: pass == .single ? opened.compactMap(\.diagnostics) : first.files.map(\.diagnostics))

        var scenario: ResolvedScenario
        if let prepared {
            scenario = prepared.scenario
        } else {
            scenario = try ResolvedScenario(spec: spec, first: first, scans: scans, rules: rules)
        }
        isRide = scenario.category.value.isRide
        arrivals = Arrivals(
            pickup: scenario.pickup?.value, dropoff: scenario.dropoff?.value,
            dropoffNotBefore: scenario.dropoffNotBefore, radius: radius)

        // The clock.
        var lo = Int64.max, hi = Int64.min
        for role in Role.allCases {
            guard let s = scans[role] else { continue }
            if let f = s.first { lo = min(lo, f.time) }
            if let l = s.last { hi = max(hi, l.time) }
        }
        for s in opened {
            if let h = s.head { lo = min(lo, h.time) }  // single pass: the latest fix is known at the end
        }
        let firstFix = lo
        var lastFix = hi  // single pass: found in the merge
        for e in scenario.events {
            lo = min(lo, e.time)
            hi = max(hi, e.time)
        }
        tEnd = hi

        // Phones taking part: helper and hirer always, the delegate once handed off or with a trace.
        let machine = FulfilmentMachine(
            category: scenario.category.value, policy: options.policy, pickupHandedOff: scenario.handedOff.value)
        timeline = Timeline(
            machine: machine, events: scenario.events, inference: scenario.inference,
            completesAt: scenario.completesAt, notes: scenario.notes)
        relay = RelayTable(options.policy)
        viewerSets = nil
        var roles: [Role] = [.helper, .hirer]
        if scenario.handedOff.value || scans[.delegate] != nil { roles.append(.delegate) }
        let start = machine.currentAction
        let tiers = roles.map { ($0, phones[$0.rawValue].apply(start)) }
        meters = Meters(start: lo, profile: options.energyProfile, across: options.energySpread, tiers: tiers)
        if decisions != nil {
            decisions!.start = lo
            for role in roles { decisions!.change(role, action: start, resetsSent: false) }
        }
        views.nextTick = lo

        // The merge.
        outOfOrder = [Int](repeating: 0, count: inputs.count)
        if pass == .second {
            for i in first.records.indices where first.records[i].record.fixes > 0 {
                let r = first.records[i].record
                let source: FixSource
                if let b = r.buffer {
                    source = .memory(b)
                } else {
                    do {
                        source = .file(
                            try RoleReader(path: r.path, format: options.inputFormat, options: options.read, defaultRole: r.defaultRole))
                    } catch {
                        throw .read(error)
                    }
                }
                first.records[i].record.buffer = nil  // the stream owns it now
                opened.append(try FixStream(role: r.role, file: first.records[i].file, source: source, window: options.window))
            }
        }
        var merged = MergedFixes(opened)
        opened = []
        let gap = Int64((rules.recordingGapSeconds * 1e9).rounded())
        gapNanoseconds = gap
        var latest = merged.earliest ?? tEnd
        while let (fix, role, file) = try merged.next() {
            // A recording gap: no fix of any trace for longer than the gap (README, "Long
            // recordings"); `latest` starts at the first fix, so the first is never one.
            if fix.time &- latest > gap { meters.exclude(from: latest, to: fix.time) }
            if fix.time > latest { latest = fix.time }
            process(fix, role: role, file: file)
        }
        tEnd = max(tEnd, latest)
        if merged.abandoned { return nil }
        if pass == .single { finishSinglePass(merged.streams, &scans) }
        lastFix = max(lastFix, lastTime.max() ?? .min)
        scenario.warnings += ScenarioChecks.warnings(scenario, helper: scans[.helper], recording: (firstFix, lastFix), rules: rules)
        if timeline.completesAt < .max {
            applyScheduled(through: timeline.completesAt)
            completeIfDue()
        }
        applyScheduled(through: .max)
        advanceViews(before: tEnd)
        views.finish(meters: &meters)
        network.inFlightAtEnd = views.inFlightCount
        meters.close(timeline.machine.state, at: timeline.cancelled ? meters.stateSince : tEnd)
        meters.chargeLastTails()

        return result(scenario, roles: roles, scans: scans)
    }

    /// The roles' scans of the first pass's records (a role's files combined).
    static func scans(_ first: Replay.FirstPass) -> RoleTable<RoleScan?> {
        var scans = RoleTable<RoleScan?>(repeating: nil)
        for (_, record) in first.records {
            var scanner = record.scanner
            let scan = scanner.finish()
            scans[record.role] = scans[record.role].map { $0.combined(with: scan) } ?? scan
        }
        return scans
    }

    /// - Throws: ``ReplayError/invalid(_:)`` naming the files when no role has a timed fix, with
    ///   why when the readers' `diagnostics` tell: how many points had an unusable time, the first
    ///   one's line and reason, and what would give them one (``TraceIO/Diagnostics/timeAdvice``).
    static func checkTimed(_ scans: RoleTable<RoleScan?>, inputs: [TraceInput], diagnostics: [Diagnostics] = []) throws(ReplayError) {
        guard !Role.allCases.contains(where: { scans[$0] != nil }) else { return }
        let names = inputs.map { $0.path == "-" ? "<stdin>" : $0.path }.joined(separator: ", ")
        var why = ""
        let kinds: Set<ProblemKind> = [.invalidTime, .missingTime]
        let untimed = diagnostics.reduce(0) { $0 + ($1.counts[.invalidTime] ?? 0) + ($1.counts[.missingTime] ?? 0) }
        if untimed > 0 {
            why = ": \(untimed) \(untimed == 1 ? "point has" : "points have") no usable time"
            if let first = diagnostics.lazy.compactMap({ d in d.examples.first { kinds.contains($0.kind) } }).first {
                let what = first.detail.isEmpty ? first.kind.rawValue : first.detail
                why += " (first: \(first.line > 0 ? "line \(first.line): " : "")\(what))"
            }
            if let advice = diagnostics.lazy.compactMap(\.timeAdvice).first { why += "; \(advice)" }
        }
        throw .invalid("\(names): no timed track points to replay\(why)")
    }

    /// Single pass: what the first pass would have found, from the streams' tallies.
    private mutating func finishSinglePass(_ streams: [FixStream], _ scans: inout RoleTable<RoleScan?>) {
        if scans[.helper] != nil { scans[.helper] = helperScanner.finish() }
        for s in streams.sorted(by: { $0.file < $1.file }) {
            guard let (tally, reader) = s.live else { continue }
            var record = StreamRecord(path: reader.path, role: s.role, defaultRole: reader.defaultRole, rules: options.rules)
            record.fixes = tally.fixes
            record.untimed = tally.untimed
            record.lastTime = tally.lastTime
            record.named = tally.named
            if record.fixes > 0 { first.records.append((s.file, record)) }
            first.files.append(
                FileDiagnostics(
                    path: record.path, format: reader.format, diagnostics: reader.diagnostics,
                    untimedFixes: record.untimed, outOfOrderFixes: 0))
        }
    }

    // MARK: Events

    private mutating func applyScheduled(through time: Int64) {
        while let s = timeline.takeDue(through: time) {
            apply(s.event, at: s.time, provenance: s.provenance, detail: s.detail)
        }
    }

    /// Completed at the helper's last fix, once Awaiting Payment was reached (inferred timelines).
    private mutating func completeIfDue() {
        if let t = timeline.takeCompletion() {
            apply(.confirmPayment, at: t, provenance: .inferred, detail: "the helper's last fix")
        }
    }

    private mutating func apply(_ event: FulfilmentEvent, at t: Int64, provenance: Provenance, detail: String) {
        advanceViews(before: t)
        guard let (left, action) = timeline.handle(event, at: t, provenance: provenance, detail: detail) else { return }
        meters.close(left, at: t)
        sent.reset()  // a state's first delivered fix is always sent
        viewerSets = nil
        if !action.cancelled { meters.enter(action.state) }
        var resets = true
        for role in Role.allCases where meters.takesPart(role) {
            decisions?.change(role, action: action, resetsSent: resets)
            resets = false
            let tier = phones[role.rawValue].apply(action)
            meters[energyOf: role].setTier(tier, at: seconds(t))
        }
    }

    // MARK: Fixes

    private mutating func process(_ fix: ReplayFix, role: Role, file: Int) {
        let r = role.rawValue
        if fix.time < lastTime[r] {
            outOfOrder[file] += 1
            return
        }
        // Single pass: the helper's dwells are found here, from every fix (as the first pass would).
        var stay: (started: Bool, closed: Dwell?) = (false, nil)
        if role == .helper, pass == .single { stay = helperScanner.add(time: fix.time, fix.coordinate) }
        if timeline.completesAt < fix.time {
            applyScheduled(through: timeline.completesAt)
            completeIfDue()
        }
        if timeline.isDue(through: fix.time) { applyScheduled(through: fix.time) }
        if timeline.cancelled {
            afterCancellation += 1
            lastTime[r] = fix.time
            if role == .helper { arrivals.helperFixAfterCancellation(at: fix.time, stay: stay) }
            return
        }
        let c = fix.coordinate
        let realistic = options.network == .realistic
        if realistic { advanceViews(before: fix.time) }
        if role == .helper, timeline.infers {
            while let step = timeline.inferred(helperAt: c, time: fix.time) {
                apply(step.event, at: fix.time, provenance: .inferred, detail: step.detail)
            }
        }
        let state = timeline.machine.state
        let clock = meters.clock(fix.time)  // the request clock, for the views' staleness
        let now = Double(clock &- meters.start) / 1e9  // seconds(fix.time)
        meters[state, role].raw += 1
        recorder?.fix(c, role: role, state: state, previous: lastPosition[r])
        let taking = meters.takesPart(role)
        if let p = lastPosition[r] {
            let d = TangentPlane.distance(from: p, to: c, fallback: geodesic)
            meters[state, role].distance += d
            if taking { meters[energyOf: role].travel(metres: d) }
        }
        lastPosition[r] = c
        lastTime[r] = fix.time
        if realistic { views.senderFix(role, at: fix.time, coordinate: c, gap: gapNanoseconds) }

        // The truth about arrivals (before this fix's own update can show it).
        if role == .helper { arrivals.helperFix(c, at: fix.time, stay: stay) }

        let viewers = relay.viewers(
            ofLocationFrom: role, in: state, isRide: isRide, pickupHandedOff: timeline.machine.request.pickupHandedOff)
        if taking {
            decisions?.offer(fix, clock: clock, role: role, state: state)
            let outcome = phones[r].offer(fix, at: now)
            if outcome.delivered {
                meters[state, role].delivered += 1
                meters[energyOf: role].deliverFix()
                // What the viewers receive is the phone's reported position (emulated, smoothed);
                // the display error below is measured from the raw fix, the truth.
                let shown = outcome.coordinate
                let update = ViewUpdate(coordinate: shown, time: clock, speed: fix.speed, course: fix.course)
                let sends =
                    phones[r].use == .shares
                    && sent.sends(
                        update, role: role, state: state, policy: options.policy, override: options.send, viewer: viewer,
                        geodesic: geodesic)
                var forwarded = RoleSet()
                if sends {
                    meters[state, role].sent += 1
                    meters.radio(role, at: now, state: state, receiving: false)
                    // Realistic: the update leaves the phone when the radio has sent it (after a
                    // promotion from idle, or behind a transmission in progress), as the battery
                    // model's radio scheduled it.
                    let leaves = meters[energyOf: role].radio.transmissionEnd - now
                    for vi in 0..<3 where viewers.rawValue & (1 << vi) != 0 {
                        let v = Self.role(vi)
                        meters[state, role].forwarded[v] += 1
                        forwarded.insert(RoleSet(rawValue: 1 << vi))
                        if realistic {
                            send(update, of: state, at: fix.time, leavingAfter: leaves, from: role, to: v)
                            continue
                        }
                        if options.receiverRadio && meters.takesPart(v) { meters.radio(v, at: now, state: state, receiving: true) }
                        views.deliver(update, from: role, to: v)
                        if role == .helper && v != .helper { arrivals.update(shown, at: fix.time, to: v) }
                    }
                }
                observer.delivered(
                    DeliveredUpdate(
                        role: role, state: state, time: Timestamp(nanoseconds: fix.time), coordinate: shown,
                        accuracyMetres: outcome.accuracy, sent: sends, forwarded: forwarded))
                recorder?.delivered(shown, role: role, state: state, seconds: now, sent: sends)
            }
        }
        if !realistic {
            let sampled = viewers.intersection(options.sampledViews[state])
            if options.viewerFigures {
                views.samplePerViewer(sender: role, truth: c, at: clock, state: state, viewers: sampled, into: &meters[state, role])
            } else if options.senderFigures {
                views.sample(sender: role, truth: c, at: clock, viewers: sampled, into: &meters[state, role])
            }
        }
        if recorder != nil { record(state: state, at: now, clock: clock) }
    }

    /// The picture's series sample (at `now`, request clock `clock`) and, at a state's first fix,
    /// its map frames.
    private mutating func record(state: FulfilmentState, at now: Double, clock: Int64) {
        guard var recorder else { return }
        self.recorder = nil  // held uniquely while recording
        defer { self.recorder = recorder }
        if recorder.wantsSample {
            let handedOff = timeline.machine.request.pickupHandedOff
            var errors: [Double?] = [nil, nil, nil]
            for r in 0..<3 {
                guard let truth = lastPosition[r] else { continue }
                let sender = Self.role(r)
                let viewers = relay.viewers(ofLocationFrom: sender, in: state, isRide: isRide, pickupHandedOff: handedOff)
                errors[r] = views.worstError(of: sender, truth: truth, at: clock, viewers: viewers)
            }
            recorder.sample(seconds: now, energyJoules: meters.energyJoules(at: now), displayErrorMetres: errors)
        } else {
            recorder.skipSample(seconds: now)
        }
        guard recorder.needsFrame(state) else { return }
        let request = timeline.machine.request
        let pickup = arrivals.pickup, dropoff = arrivals.dropoff?.dropoff
        let live: [MapAnnotation: Coordinate] = {
            var p: [MapAnnotation: Coordinate] = [:]
            if let o = pickup { p[.origin] = o; p[.pickupPoint] = o }
            if let d = dropoff { p[.destination] = d; p[.dropoffPoint] = d }
            if let h = lastPosition[Role.helper.rawValue] { p[.helperLocation] = h }
            if let h = lastPosition[(request.pickupHandedOff ? Role.delegate : .hirer).rawValue] { p[.hirerLocation] = h }
            return p
        }()
        let last = lastPosition
        recorder.frames(state, seconds: now, policy: options.policy, request: request) { viewer in
            var p = live
            if let own = last[viewer.rawValue] { p[.ownLocation] = own }
            return p
        }
    }
}
