import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceProj
import TraceSharing

/// One role's fixes from one file, in time order, from memory or read again from the file.
private struct FixStream {
    let role: Role
    let file: Int
    var memory: FixColumns?
    var index = 0
    var reader: RoleReader?
    var head: ReplayFix?
    /// Single pass only: what the first pass would have recorded about this file (its one role),
    /// tallied while replaying. `abandoned` when the file turns out to need the first pass (a
    /// point of another role, or a time before the previous one).
    var live: StreamRecord?
    /// Single pass: the record's tallies, kept here as plain values while replaying (so the
    /// per-fix path does not reach into the optional record) and written back at the end.
    var isLive = false
    var liveFixes = 0, liveUntimed = 0
    var liveLastTime = Int64.min
    var liveNamed = false
    var abandoned = false

    mutating func advance() throws(ReplayError) {
        if isLive {
            try advanceLive()
            return
        }
        if let m = memory {
            if index < m.count {
                head = m[index]
                index += 1
            } else {
                head = nil
            }
            return
        }
        while let p = try reader!.nextPoint() {
            if p.role == role, p.timed {
                head = p.fix
                return
            }
        }
        head = nil
    }

    private mutating func advanceLive() throws(ReplayError) {
        while let p = try reader!.nextPoint() {
            guard p.role == role else {
                abandoned = true
                break
            }
            guard p.timed else {
                liveUntimed += 1
                continue
            }
            let t = p.fix.time
            guard t >= liveLastTime else {
                abandoned = true
                break
            }
            liveLastTime = t
            liveFixes += 1
            if p.named { liveNamed = true }
            head = p.fix
            return
        }
        head = nil
    }
}

/// One state × role cell being accumulated.
private struct Cell {
    var raw = 0, delivered = 0, sent = 0
    var forwarded = RoleCounts()
    var distance = 0.0
    var withoutUpdate = 0
    var error = QuantileHistogram()
    var staleness = QuantileHistogram()
    var energy = EnergyParts()

    mutating func merge(_ c: Cell) {
        raw += c.raw
        delivered += c.delivered
        sent += c.sent
        forwarded.add(c.forwarded)
        distance += c.distance
        withoutUpdate += c.withoutUpdate
        error.merge(c.error)
        staleness.merge(c.staleness)
        energy += c.energy
    }

    func metrics(_ role: Role, seconds: Double) -> StateRoleMetrics {
        StateRoleMetrics(role: role, rawFixes: raw, deliveredFixes: delivered, sentUpdates: sent, forwarded: forwarded,
                         seconds: seconds, distanceMetres: distance,
                         view: ViewMetrics(error: error, staleness: staleness, withoutUpdate: withoutUpdate), energy: energy)
    }
}

/// A scheduled timeline event.
private struct Scheduled {
    var time: Int64
    var event: FulfilmentEvent
    var provenance: Provenance
    var detail: String
}

/// The second pass: the k-way merge of every role's fixes on one clock, the state machine, the
/// phones, the relay, the viewers and the meters.
struct Engine<Observer: ReplayObserver> {
    private let options: ReplayOptions
    private(set) var observer: Observer
    private var recorder: TrackRecorder?
    private let inputs: [TraceInput]
    private var first: Replay.FirstPass
    private let spec: ScenarioSpec
    private let geodesic = Geodesic()

    /// Replays straight from the files, without a first pass (``Replay/singlePassApplies(_:spec:)``).
    private let singlePass: Bool

    /// `first` is the first pass's findings; nil replays in a single pass (the scenario is complete:
    /// nothing to infer), which ``run()`` abandons when a file needs the first pass after all.
    init(first: Replay.FirstPass?, inputs: [TraceInput], spec: ScenarioSpec, options: ReplayOptions, observer: Observer) {
        self.observer = observer
        recorder = options.recordTrack ? TrackRecorder(pointsPerPath: options.trackPointsPerPath) : nil
        self.first = first ?? Replay.FirstPass()
        singlePass = first == nil
        self.inputs = inputs
        self.spec = spec
        self.options = options
        phones = Role.allCases.map { PhoneModel(role: $0, configuration: options.phone) }
    }

    // Clock and scenario.
    private var t0: Int64 = 0
    private var tEnd: Int64 = 0
    private var machine = FulfilmentMachine(category: .ride)
    private var relay = RelayTable(.seed)
    private var isRide = true
    private var pickup: Coordinate?
    private var dropoff: Coordinate?
    /// The dropoff arrival from its known earliest time (two passes), or found online (one pass).
    private var dropoffArrival = DropoffArrival(notBefore: .min)
    private var onlineDropoff: OnlineDropoffArrival?
    /// Single pass: the helper's dwells, found as the fixes come (the first pass's job otherwise).
    private var helperScanner: RoleScanner?
    private var radius = 50.0

    // Timeline.
    private var scheduled: [Scheduled] = []
    private var nextScheduled = 0
    private var detector: TimelineDetector?
    private var helperLast = Int64.max
    private var timeline: [TimelineEntry] = []
    private var cancelled = false
    private var afterCancellation = 0
    private var notes: [String] = []

    // Phones, cells, viewers.
    private var phones: [PhoneModel] = []
    private var meters: [EnergyMeter?] = [nil, nil, nil]
    private var snapshots = [EnergyParts](repeating: EnergyParts(), count: 3)
    private var cells = [Cell](repeating: Cell(), count: 21)
    private var stateSeconds = [Double](repeating: 0, count: 7)
    private var entered = [Bool](repeating: false, count: 7)
    private var stateSince: Int64 = 0
    private var lastPosition: [Coordinate?] = [nil, nil, nil]
    private var lastTime = [Int64](repeating: .min, count: 3)
    private var received: [(coordinate: Coordinate, time: Int64)?] = Array(repeating: nil, count: 9)
    private var outOfOrder: [Int] = []

    // Arrivals.
    private var pickupArrival: Int64?
    private var leftPickup = false
    private var pickupVisible: [Int64?] = [nil, nil, nil]

    @inline(__always) private func seconds(_ t: Int64) -> Double { Double(t &- t0) / 1e9 }

    /// The role of raw value `i` (0, 1, 2), without `Role.allCases` or a failable init per fix.
    @inline(__always) private static func role(_ i: Int) -> Role { i == 0 ? .hirer : i == 1 ? .helper : .delegate }

    /// The replay; nil when a single pass had to be abandoned (run again with a first pass).
    mutating func run() throws(ReplayError) -> ReplayResult? {
        let rules = options.rules
        radius = rules.dwellRadiusMetres
        var scans: [RoleScan?] = [nil, nil, nil]
        var streams: [FixStream] = []
        if singlePass {
            // One file per role (checked by the caller), opened in the merge's role order; each
            // file's first fix read now, for the clock.
            for role in [Role.helper, .hirer, .delegate] {
                for (i, input) in inputs.enumerated() where input.defaultRole == role {
                    var s = FixStream(role: role, file: i)
                    do {
                        s.reader = try RoleReader(path: input.path, format: options.inputFormat, options: options.read, defaultRole: role)
                    } catch {
                        throw .read(error)
                    }
                    s.live = StreamRecord(path: input.path, role: role, defaultRole: role, rules: rules)
                    s.isLive = true
                    try s.advance()
                    if s.abandoned { return nil }
                    if s.head != nil { scans[role.rawValue] = RoleScan() }   // finished after the merge
                    streams.append(s)
                }
            }
            helperScanner = RoleScanner(rules: rules)
        } else {
            // Scans per role.
            for i in first.records.indices {
                let scan = first.records[i].record.scanner.finish()
                let role = first.records[i].record.role.rawValue
                scans[role] = scans[role].map { combine($0, scan) } ?? scan
            }
        }
        guard scans.contains(where: { $0 != nil }) else {
            let names = inputs.map { $0.path == "-" ? "<stdin>" : $0.path }.joined(separator: ", ")
            throw .invalid("\(names): no timed track points to replay")
        }
        let helper = scans[Role.helper.rawValue] ?? RoleScan()

        // The scenario, item by item: flags and sidecar, then the traces, then inference.
        let category = spec.category ?? Sourced(RequestCategory.ride, .default, "none given: a ride")
        let handedOff = spec.pickupHandedOff ?? Sourced(false, .default, "none given")
        isRide = category.value.isRide
        let partyRole: Role = handedOff.value ? .delegate : .hirer
        let party = scans[partyRole.rawValue]?.first.map { (partyRole, $0.time, $0.coordinate) }
        let pickupItem = PointInference.pickup(given: spec.pickup ?? first.pickup, partyFirst: party, helper: helper, rules: rules)
        let dropoffFound = PointInference.dropoff(given: spec.dropoff ?? first.dropoff, pickup: pickupItem?.value, helper: helper, rules: rules)
        let dropoffItem = dropoffFound?.point
        pickup = pickupItem?.value
        dropoff = dropoffItem?.value
        dropoffArrival = DropoffArrival(notBefore: dropoffFound?.notBefore ?? .min)
        if singlePass, let d = dropoff { onlineDropoff = OnlineDropoffArrival(dropoff: d, radius: radius) }

        var given = spec.timeline
        if given == nil {
            let ordered = first.records.map(\.record).sorted { ($0.role == .helper ? 0 : 1) < ($1.role == .helper ? 0 : 1) }
            if let r = ordered.first(where: { !$0.stateChanges.isEmpty }) {
                var entries: [TimelineEntry] = []
                for change in r.stateChanges {
                    guard let state = FulfilmentState(parsing: change.state) else {
                        throw .invalid("\(r.path): state '\(change.state)' is not a fulfilment state; expected one of \(FulfilmentState.allCases.map(\.key).joined(separator: ", "))")
                    }
                    entries.append(TimelineEntry(state: state, time: Timestamp(nanoseconds: change.time), provenance: .trace, detail: "the state column of \(r.path)"))
                }
                do {
                    given = Sourced(try TimelineEntry.validated(entries), .trace, "the state column of \(r.path)")
                } catch {
                    throw .invalid("\(r.path): state column: \(error.message)")
                }
            }
        }
        if let given {
            for e in given.value {
                guard let event = TimelineEntry.event(entering: e.state) else { continue }
                scheduled.append(Scheduled(time: e.time.nanoseconds, event: event, provenance: e.provenance, detail: e.detail))
            }
        } else if let start = helper.first, let p = pickup, let d = dropoff {
            scheduled.append(Scheduled(time: start.time, event: .accept, provenance: .inferred, detail: "the helper's first fix"))
            detector = TimelineDetector(rules: rules, start: start.coordinate, pickup: p, dropoff: d, dropoffNotBefore: dropoffFound?.notBefore)
            helperLast = helper.last!.time
        } else {
            notes.append("no helper fix: the timeline cannot be inferred, the request stays in Finding Villager")
        }
        if let c = spec.cancelledAt {
            scheduled.append(Scheduled(time: c.value.nanoseconds, event: .cancel, provenance: c.provenance, detail: c.detail))
        }
        // Stable: entries at the same time keep their order.
        scheduled = scheduled.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)

        // The clock.
        var lo = Int64.max, hi = Int64.min
        for s in scans.compactMap({ $0 }) {
            if let f = s.first { lo = min(lo, f.time) }
            if let l = s.last { hi = max(hi, l.time) }
        }
        for s in streams {
            if let h = s.head { lo = min(lo, h.time) }   // single pass: the latest fix is known at the end
        }
        for s in scheduled {
            lo = min(lo, s.time)
            hi = max(hi, s.time)
        }
        t0 = lo
        tEnd = hi
        stateSince = t0
        entered[FulfilmentState.findingVillager.rawValue] = true

        // Phones taking part: helper and hirer always, the delegate once handed off or with a trace.
        machine = FulfilmentMachine(category: category.value, policy: options.policy, pickupHandedOff: handedOff.value)
        relay = RelayTable(options.policy)
        var roles: [Role] = [.helper, .hirer]
        if handedOff.value || scans[Role.delegate.rawValue] != nil { roles.append(.delegate) }
        let start = machine.currentAction
        for role in roles {
            let tier = phones[role.rawValue].apply(start)
            meters[role.rawValue] = EnergyMeter(profile: options.energyProfile, start: 0, tier: tier)
        }

        // The merge.
        outOfOrder = [Int](repeating: 0, count: inputs.count)
        let order: [Role] = singlePass ? [] : [.helper, .hirer, .delegate]
        for role in order {
            for i in first.records.indices where first.records[i].record.role == role && first.records[i].record.fixes > 0 {
                let r = first.records[i].record
                var s = FixStream(role: role, file: first.records[i].file)
                if let b = r.buffer {
                    s.memory = b
                } else {
                    do {
                        s.reader = try RoleReader(path: r.path, format: options.inputFormat, options: options.read, defaultRole: r.defaultRole)
                    } catch {
                        throw .read(error)
                    }
                }
                first.records[i].record.buffer = nil  // the stream owns it now
                try s.advance()
                streams.append(s)
            }
        }
        while true {
            var k = -1
            var best = Int64.max
            for i in streams.indices {
                if let h = streams[i].head, h.time < best || k < 0 {
                    best = h.time
                    k = i
                }
            }
            guard k >= 0 else { break }
            let fix = streams[k].head!
            let role = streams[k].role
            let file = streams[k].file
            try streams[k].advance()
            if streams[k].abandoned { return nil }
            process(fix, role: role, file: file)
            tEnd = max(tEnd, fix.time)
        }
        if singlePass { finishSinglePass(streams, &scans) }
        if helperLast < .max {
            applyScheduled(through: helperLast)
            completeIfDue()
        }
        applyScheduled(through: .max)
        closeState(machine.state, at: cancelled ? stateSince : tEnd)

        return result(category: category, handedOff: handedOff, pickup: pickupItem, dropoff: dropoffItem, roles: roles, scans: scans)
    }

    /// Single pass: what the first pass would have found, from the streams' tallies; the helper's
    /// dwells decide which dropoff arrival counts.
    private mutating func finishSinglePass(_ streams: [FixStream], _ scans: inout [RoleScan?]) {
        if scans[Role.helper.rawValue] != nil, var scanner = helperScanner {
            let scan = scanner.finish()
            scans[Role.helper.rawValue] = scan
            if let online = onlineDropoff { dropoffArrival = online.result(scan) }
        }
        let ordered = streams.sorted { $0.file < $1.file }
        for s in ordered {
            guard var record = s.live, let reader = s.reader else { continue }
            record.fixes = s.liveFixes
            record.untimed = s.liveUntimed
            record.lastTime = s.liveLastTime
            record.named = s.liveNamed
            if record.fixes > 0 { first.records.append((s.file, record)) }
            first.files.append(FileDiagnostics(path: record.path, format: reader.format, diagnostics: reader.diagnostics,
                                               untimedFixes: record.untimed, outOfOrderFixes: 0))
        }
    }

    private func combine(_ a: RoleScan, _ b: RoleScan) -> RoleScan {
        var c = a
        if let f = b.first, c.first.map({ f.time < $0.time }) ?? true { c.first = f }
        if let l = b.last, c.last.map({ l.time > $0.time }) ?? true { c.last = l }
        if let d = b.departure { c.departure = min(c.departure ?? d, d) }
        c.dwells = (a.dwells + b.dwells).sorted { $0.start < $1.start }
        c.dwellsDropped += b.dwellsDropped
        return c
    }

    // MARK: Events

    private mutating func applyScheduled(through time: Int64) {
        while nextScheduled < scheduled.count && scheduled[nextScheduled].time <= time {
            let s = scheduled[nextScheduled]
            nextScheduled += 1
            apply(s.event, at: s.time, provenance: s.provenance, detail: s.detail)
        }
    }

    /// Completed at the helper's last fix, once Awaiting Payment was reached (inferred timelines).
    private mutating func completeIfDue() {
        guard detector != nil, !cancelled else {
            helperLast = .max
            return
        }
        if detector!.complete() {
            apply(.confirmPayment, at: helperLast, provenance: .inferred, detail: "the helper's last fix")
        }
        helperLast = .max
    }

    private mutating func apply(_ event: FulfilmentEvent, at t: Int64, provenance: Provenance, detail: String) {
        guard !cancelled else {
            notes.append("\(event) at \(Timestamp(nanoseconds: t).iso8601) ignored: the request was cancelled")
            return
        }
        let before = machine
        let action: SharingAction
        do {
            action = try machine.handle(event)
        } catch {
            notes.append("\(event) at \(Timestamp(nanoseconds: t).iso8601) ignored: \(error)")
            return
        }
        closeState(before.state, at: t)
        if action.cancelled {
            cancelled = true
        } else {
            timeline.append(TimelineEntry(state: action.state, time: Timestamp(nanoseconds: t), provenance: provenance, detail: detail))
            entered[action.state.rawValue] = true
        }
        for role in Role.allCases where meters[role.rawValue] != nil {
            let tier = phones[role.rawValue].apply(action)
            meters[role.rawValue]!.setTier(tier, at: seconds(t))
        }
    }

    /// Ends the current state's interval at `t`: its seconds and each phone's energy in it.
    private mutating func closeState(_ state: FulfilmentState, at t: Int64) {
        let s = state.rawValue
        stateSeconds[s] += seconds(t) - seconds(stateSince)
        for role in Role.allCases {
            guard let m = meters[role.rawValue] else { continue }
            let now = EnergyParts(m.estimate(at: max(seconds(t), m.tierSince)))
            cells[s * 3 + role.rawValue].energy += now - snapshots[role.rawValue]
            snapshots[role.rawValue] = now
        }
        stateSince = t
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
        if role == .helper, helperScanner != nil { stay = helperScanner!.add(time: fix.time, fix.coordinate) }
        if helperLast < fix.time {
            applyScheduled(through: helperLast)
            completeIfDue()
        }
        if nextScheduled < scheduled.count && scheduled[nextScheduled].time <= fix.time { applyScheduled(through: fix.time) }
        if cancelled {
            afterCancellation += 1
            lastTime[r] = fix.time
            onlineDropoff?.fix(at: fix.time, counts: false, stay: stay)
            return
        }
        let c = fix.coordinate
        if role == .helper, detector != nil {
            while let step = detector!.step(c, at: fix.time) {
                apply(TimelineEntry.event(entering: step.0)!, at: fix.time, provenance: .inferred, detail: step.1)
            }
        }
        let state = machine.state
        let index = state.rawValue * 3 + r
        let now = seconds(fix.time)
        cells[index].raw += 1
        if recorder != nil {
            recorder!.fix(c, role: role, state: state, previous: lastPosition[r])
        }
        if let p = lastPosition[r] {
            let d = TangentPlane.distance(from: p, to: c, fallback: geodesic)
            cells[index].distance += d
            meters[r]?.travel(metres: d)
        }
        lastPosition[r] = c
        lastTime[r] = fix.time

        // The truth about arrivals (before this fix's own update can show it).
        if role == .helper, let p = pickup {
            if pickupArrival == nil {
                if RoleScanner.within(p, c, radius) { pickupArrival = fix.time }
            } else if !leftPickup {
                leftPickup = !RoleScanner.within(p, c, radius)
            }
            if onlineDropoff != nil {
                let counts = leftPickup && RoleScanner.within(onlineDropoff!.dropoff, c, radius)
                onlineDropoff!.fix(at: fix.time, counts: counts, stay: stay)
            } else if leftPickup, dropoffArrival.arrival == nil, let d = dropoff {
                dropoffArrival.fix(at: fix.time, counts: RoleScanner.within(d, c, radius))
            }
        }

        let viewers = relay.viewers(ofLocationFrom: role, in: state, isRide: isRide, pickupHandedOff: machine.request.pickupHandedOff)
        if meters[r] != nil {
            let outcome = phones[r].offer(fix, at: now)
            if outcome.delivered {
                cells[index].delivered += 1
                meters[r]!.deliverFix()
                let sends = phones[r].use == .shares
                // What the viewers receive is the phone's reported position (emulated, smoothed);
                // the display error below is measured from the raw fix, the truth.
                let shown = outcome.coordinate
                var forwarded = RoleSet()
                if sends {
                    cells[index].sent += 1
                    meters[r]!.send(at: now)
                    for vi in 0..<3 where viewers.rawValue & (1 << vi) != 0 {
                        let v = Self.role(vi)
                        cells[index].forwarded[v] += 1
                        forwarded.insert(RoleSet(rawValue: 1 << vi))
                        if options.receiverRadio { meters[v.rawValue]?.receive(at: now) }
                        received[v.rawValue * 3 + r] = (shown, fix.time)
                        if role == .helper && v != .helper { noteVisibility(of: shown, at: fix.time, to: v) }
                    }
                }
                observer.delivered(DeliveredUpdate(role: role, state: state, time: Timestamp(nanoseconds: fix.time), coordinate: shown,
                                                   accuracyMetres: outcome.accuracy, sent: sends, forwarded: forwarded))
                recorder?.delivered(shown, role: role, state: state, seconds: now, sent: sends)
            }
        }
        for vi in 0..<3 where viewers.rawValue & (1 << vi) != 0 {
            if let last = received[vi * 3 + r] {
                // The update just forwarded from this very fix (a pass-through position): 0 m, as
                // the tangent plane gives for identical points inside its domain.
                let error = last.coordinate == c && abs(c.latitude) <= TangentPlane.maximumLatitude
                    ? 0 : TangentPlane.distance(from: c, to: last.coordinate, fallback: geodesic)
                cells[index].error.add(error)
                cells[index].staleness.add(Double(fix.time - last.time) / 1e9)
            } else {
                cells[index].withoutUpdate += 1
            }
        }
        if recorder != nil { record(state: state, at: now) }
    }

    /// The picture's series sample and, at a state's first fix, its map frames.
    private mutating func record(state: FulfilmentState, at now: Double) {
        if recorder!.wantsSample {
            recorder!.sample(seconds: now, energyJoules: energyJoules(at: now))
        } else {
            recorder!.skipSample(seconds: now)
        }
        guard recorder!.needsFrame(state) else { return }
        let request = machine.request
        let live: [MapAnnotation: Coordinate] = {
            var p: [MapAnnotation: Coordinate] = [:]
            if let o = pickup { p[.origin] = o; p[.pickupPoint] = o }
            if let d = dropoff { p[.destination] = d; p[.dropoffPoint] = d }
            if let h = lastPosition[Role.helper.rawValue] { p[.helperLocation] = h }
            if let h = lastPosition[(request.pickupHandedOff ? Role.delegate : .hirer).rawValue] { p[.hirerLocation] = h }
            return p
        }()
        let last = lastPosition
        recorder!.frames(state, seconds: now, policy: options.policy, request: request) { viewer in
            var p = live
            if let own = last[viewer.rawValue] { p[.ownLocation] = own }
            return p
        }
    }

    /// All phones' energy so far.
    private func energyJoules(at now: Double) -> Double {
        var total = 0.0
        for m in meters { if let m { total += m.estimate(at: max(now, m.tierSince)).totalJoules } }
        return total
    }

    private mutating func noteVisibility(of c: Coordinate, at t: Int64, to viewer: Role) {
        let v = viewer.rawValue
        if let a = pickupArrival, pickupVisible[v] == nil, t >= a, let p = pickup, RoleScanner.within(p, c, radius) { pickupVisible[v] = t }
        guard let d = dropoff else { return }
        if onlineDropoff != nil {
            onlineDropoff!.update(at: t, to: v, inside: RoleScanner.within(d, c, radius))
        } else if let a = dropoffArrival.arrival, t >= a, dropoffArrival.visible(to: v) == nil {
            dropoffArrival.update(at: t, to: v, inside: RoleScanner.within(d, c, radius))
        }
    }

    // MARK: Result

    private func result(category: Sourced<RequestCategory>, handedOff: Sourced<Bool>, pickup: Sourced<Coordinate>?,
                        dropoff: Sourced<Coordinate>?, roles: [Role], scans: [RoleScan?]) -> ReplayResult {
        var states: [StateMetrics] = []
        var totals = [Cell](repeating: Cell(), count: 3)
        for state in FulfilmentState.allCases {
            var perRole: [StateRoleMetrics] = []
            for role in roles {
                let cell = cells[state.rawValue * 3 + role.rawValue]
                totals[role.rawValue].merge(cell)
                perRole.append(cell.metrics(role, seconds: stateSeconds[state.rawValue]))
            }
            states.append(StateMetrics(state: state, entered: entered[state.rawValue], seconds: stateSeconds[state.rawValue],
                                       tier: options.policy[state].tier, roles: perRole))
        }
        let duration = seconds(tEnd)
        let roleTotals = roles.map { totals[$0.rawValue].metrics($0, seconds: duration) }
        let energy = roles.map { role in
            PhoneEnergy(role: role, hasTrace: scans[role.rawValue] != nil, estimate: meters[role.rawValue]!.estimate(at: max(duration, meters[role.rawValue]!.tierSince)))
        }
        var arrivals: [ArrivalVisibility] = []
        let viewers: [Role] = handedOff.value ? [.hirer, .delegate] : [.hirer]
        for point in ArrivalPoint.allCases {
            guard (point == .pickup ? self.pickup : self.dropoff) != nil else { continue }
            for v in viewers {
                let arrived = point == .pickup ? pickupArrival : dropoffArrival.arrival
                let visible = point == .pickup ? pickupVisible[v.rawValue] : dropoffArrival.visible(to: v.rawValue)
                arrivals.append(ArrivalVisibility(point: point, viewer: v, arrivedAt: arrived.map(Timestamp.init(nanoseconds:)),
                                                  visibleAt: visible.map(Timestamp.init(nanoseconds:))))
            }
        }
        let track = recorder?.finish(end: duration, energyJoules: energy.reduce(0) { $0 + $1.estimate.totalJoules })
        var files = first.files
        for i in files.indices { files[i].outOfOrderFixes = outOfOrder[i] }
        var notes = notes
        if afterCancellation > 0 { notes.append("\(afterCancellation) fixes after the cancellation were not replayed") }
        for (i, s) in scans.enumerated() where (s?.dwellsDropped ?? 0) > 0 {
            notes.append("the \(Role(rawValue: i)!.key) has more than \(RoleScanner.maximumDwells) dwells: only the first and the latest were kept")
        }
        var traces: [TraceAssignment] = []
        for (i, input) in inputs.enumerated() {
            let counts = first.records.filter { $0.file == i }.map { RoleFixCount(role: $0.record.role, fixes: $0.record.fixes, namedInTrace: $0.record.named) }
            traces.append(TraceAssignment(path: input.path == "-" ? "<stdin>" : input.path, defaultRole: input.defaultRole, provenance: input.provenance, roles: counts))
        }
        let scenario = ReplayScenario(category: category, pickupHandedOff: handedOff, pickup: pickup, dropoff: dropoff, traces: traces,
                                      timeline: timeline, cancelledAt: spec.cancelledAt, rules: options.rules)
        return ReplayResult(
            tracekitVersion: options.tracekitVersion, policy: PolicyLabel(name: options.policy.name, fileVersion: SharingPolicy.fileVersion),
            energyModel: options.energyProfile.label, energyProfile: options.energyProfile, receiverRadio: options.receiverRadio,
            phone: options.phone,
            scenario: scenario, start: Timestamp(nanoseconds: t0), end: Timestamp(nanoseconds: tEnd), states: states,
            roleTotals: roleTotals, energy: energy, arrivals: arrivals, files: files, notes: notes, track: track)
    }
}
