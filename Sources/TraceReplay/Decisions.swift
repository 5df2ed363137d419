import TraceDomain
import TraceGeodesy
public import TraceSharing

/// What the send rule remembers: each phone's last two updates sent in the current state
/// (cleared at each state change: a state's first delivered fix is always sent). The replay and
/// the decision pass (``DecisionSchedule``) decide with the same code.
struct SentMemory {
    private var last = RoleTable<ViewPair?>(repeating: nil)

    mutating func reset() { last = RoleTable(repeating: nil) }

    /// Equal bit for bit.
    func isIdentical(to o: SentMemory) -> Bool {
        Role.allCases.allSatisfy { r in
            switch (last[r], o.last[r]) {
            case (nil, nil): true
            case (let a?, let b?): a.isIdentical(to: b)
            default: false
            }
        }
    }

    /// Whether the send rule in force in `state` (`override`, else the row's ``StatePolicy/send``
    /// in `policy`) sends `update`, a delivered fix of `role`'s phone, which shares in the state;
    /// a sent update becomes the phone's last sent.
    ///
    /// Dead reckoning: the phone predicts what a viewer draws at the fix's time from the updates
    /// it sent before in this state (`viewer`, without the network: the phone cannot know an
    /// update's fate), and sends when the prediction is more than the threshold from the fix, or
    /// the heartbeat has passed since its last send, or it has sent nothing yet in this state.
    @inline(__always)
    mutating func sends(
        _ update: ViewUpdate, role: Role, state: FulfilmentState, policy: SharingPolicy, override: SendRule?, viewer: ViewerModel,
        geodesic: some GeodesicDirectSolver
    ) -> Bool {
        let rule = override ?? policy[state].send
        guard case .deadReckoning(_, let heartbeat) = rule else { return true }
        if let pair = last[role], let threshold = rule.thresholdMetres(in: policy[state]) {
            let predicted = viewer.draw(pair, at: update.time, geodesic: geodesic)
            let due = Double(update.time &- pair.last.time) / 1e9 >= heartbeat
            guard due || TangentPlane.distance(from: predicted, to: update.coordinate, fallback: geodesic) > threshold else {
                return false
            }
        }
        last[role] = viewer.accept(update, after: last[role], geodesic: geodesic)
        return true
    }
}

/// The decisions a policy makes on a trip held in memory, found without replaying it.
///
/// In a replay the policy's per-state rows act in one place: the phones. At each state change a
/// phone takes the state's row (its tier, distance filter, delivery model, accuracy gate: the
/// ``TraceSharing/SharingAction``); at each raw fix it delivers it or not (``PhoneModel``), and the
/// send rule sends a delivered fix or not (``SentMemory``). Everything else — the timeline, the
/// clock, who takes part and who sees whom, the recorded positions — does not depend on those
/// fields. So the schedule, recorded from one replay (``Replay/runRecordingDecisions(_:options:)``),
/// keeps the phones' inputs in replay order (each offered fix with its request-clock time and state,
/// each state change with the action it brought), and ``key(under:)`` runs the phones alone over
/// them under another policy. Its ``DecisionKey`` is the whole outcome: per offered fix, whether it
/// was delivered and whether it was sent (and, when accuracy emulation or smoothing changes the
/// positions, the position and accuracy delivered); per state change, each phone's tier. Two
/// policies with equal keys on a trip give the same replay from there on, figure for figure: the
/// replay's network draws, radio, views, arrivals and meters see nothing else of the policy.
/// `tracekit tune` replays one policy of each key in full and gives the others its figures
/// (``TraceBatch``'s `Tuner`; tested against full replays of every candidate).
///
/// A policy that differs from the recorded one in anything but the rows' tier, distance filter,
/// delivery model, accuracy gate and send rule, or that turns a state's tier off or on, has no
/// key: nil (``decidesAlone(_:)``).
///
/// **Memory**: 64 bytes per offered fix (the fix, 48, its clock time and state), plus the state
/// changes (``bytes``); a key is a word per run of equal outcomes (4 words per delivered fix with
/// positions).
public struct DecisionSchedule: Sendable {
    struct Offer {
        var fix: ReplayFix
        var clock: Int64
        var role: Role
        var state: FulfilmentState
    }

    /// A state change (or the start) for one phone, before offer `at`, with the action the
    /// recorded policy gave.
    struct Change {
        var at: Int
        var role: Role
        var action: SharingAction
        /// Whether the send rule's memory is cleared first (a state change; not the start).
        var resetsSent: Bool
    }

    let options: ReplayOptions
    /// The request clock's start (``Meters/start``): a fix's replay time is `clock - start`.
    var start: Int64 = 0
    var offers: [Offer] = []
    var changes: [Change] = []

    /// An empty schedule, room made for `capacity` offers (a trip's fixes: at most one offer each).
    init(options: ReplayOptions, capacity: Int) {
        self.options = options
        offers.reserveCapacity(capacity)
    }

    /// Offered fixes recorded.
    public var offered: Int { offers.count }

    /// Bytes held (offers and state changes; capacity not counted).
    public var bytes: Int {
        offers.count * MemoryLayout<Offer>.stride + changes.count * MemoryLayout<Change>.stride
    }

    /// The bytes a schedule of `fixes` offered fixes takes at most, before it is recorded, with a
    /// trace's kept points (``DecisionTrace/bytesPerPoint``; counted even where none are kept); not
    /// counted: the state changes (a few a trip) and the trace's key (a word per run, 4 per
    /// delivered fix with positions).
    public static func bytes(fixes: Int) -> Int {
        fixes * MemoryLayout<Offer>.stride + (fixes / stride + 1) * DecisionTrace.bytesPerPoint
    }

    mutating func offer(_ fix: ReplayFix, clock: Int64, role: Role, state: FulfilmentState) {
        offers.append(Offer(fix: fix, clock: clock, role: role, state: state))
    }

    mutating func change(_ role: Role, action: SharingAction, resetsSent: Bool) {
        changes.append(Change(at: offers.count, role: role, action: action, resetsSent: resetsSent))
    }

    /// Whether `policy` differs from the recorded one only where the phones decide: the rows'
    /// tier (off in both or in neither: it decides who uses location and who sees whom), distance
    /// filter, delivery model, accuracy gate and send rule, the name and tuning provenance aside.
    public func decidesAlone(_ policy: SharingPolicy) -> Bool {
        policy.equals(options.policy) { row, recorded in
            guard (row.tier == .off) == (recorded.tier == .off) else { return false }
            var r = row
            r.tier = recorded.tier
            r.distanceFilter = recorded.distanceFilter
            r.delivery = recorded.delivery
            r.accuracyGate = recorded.accuracyGate
            r.send = recorded.send
            return r == recorded
        }
    }

    /// The phones' decisions under `policy` (the recorded options otherwise); nil when the policy
    /// differs from the recorded one beyond what the phones decide (``decidesAlone(_:)``).
    public func key(under policy: SharingPolicy) -> DecisionKey? {
        guard decidesAlone(policy) else { return nil }
        var pass = Pass(self, policy)
        while pass.i < offers.count { pass.step() }
        return pass.finish()
    }

    /// The viewer a replay under `policy` draws with: the one chosen, else the one paired with
    /// the policy's send rules (``ReplayOptions/viewer``).
    func viewer(under policy: SharingPolicy) -> ViewerModel {
        options.chosenViewer ?? ViewerModel.paired(with: policy, send: options.send)
    }

    /// Offers between the points where a pass's state is kept (``trace(under:)``).
    static let stride = 64

    /// The decisions of `policy` with what the pass held every ``stride`` offers, for
    /// ``key(under:near:)``; nil where ``key(under:)`` is nil. The points are kept only when the
    /// phones can be compared (neither accuracy emulation nor smoothing: their noise and filters
    /// are not); without them ``key(under:near:)`` runs whole passes.
    public func trace(under policy: SharingPolicy) -> DecisionTrace? {
        guard decidesAlone(policy) else { return nil }
        var pass = Pass(self, policy)
        var points: [DecisionTrace.Point] = []
        let keeps = options.phone.accuracyEmulation == .off && options.phone.smoothing == .off
        if keeps { points.reserveCapacity(offers.count / Self.stride + 1) }
        while pass.i < offers.count {
            if keeps && pass.i % Self.stride == 0 { points.append(pass.point) }
            pass.step()
        }
        var touches = [FulfilmentState: (first: Int, last: Int)]()
        func touch(_ s: FulfilmentState, _ i: Int) {
            let t = touches[s] ?? (i, i)
            touches[s] = (min(t.first, i), max(t.last, i))
        }
        for (i, o) in offers.enumerated() { touch(o.state, i) }
        for c in changes { touch(c.action.state, c.at) }
        return DecisionTrace(policy: policy, key: pass.finish(), offers: offers.count, points: points, touches: touches)
    }

    /// ``key(under:)``, equal word for word, found from the trace of a policy that differs from
    /// `policy` in a few states: the phones run only from the last kept point before those states'
    /// first offer or change, and stop at the first kept point after their last one where both
    /// phones and the send rule's memory are as in the trace (the rest of the key is the trace's).
    /// A policy that differs in no state the trip reaches has the trace's key. `trace` must come
    /// from this schedule (``trace(under:)``): one of another trip traps.
    public func key(under policy: SharingPolicy, near trace: DecisionTrace) -> DecisionKey? {
        keyAndOffersRun(under: policy, near: trace)?.key
    }

    /// ``key(under:near:)``, the number of offers the phones ran over to find it, and the offer
    /// where the pass joined the trace's key (nil: it ran to the end, or did not run).
    func keyAndOffersRun(under policy: SharingPolicy, near trace: DecisionTrace) -> (key: DecisionKey, offers: Int, joined: Int?)? {
        precondition(trace.offers == offers.count, "a trace of another schedule")
        guard decidesAlone(policy) else { return nil }
        var first = Int.max, last = -1
        for s in FulfilmentState.allCases where !Self.decidesAlike(policy[s], trace.policy[s]) {
            guard let t = trace.touches[s] else { continue }
            first = min(first, t.first)
            last = max(last, t.last)
        }
        guard last >= 0 else { return (trace.key, 0, nil) }
        // A pass joins another only under the same viewer (the send rule's memory predicts with it).
        guard !trace.points.isEmpty, viewer(under: policy) == viewer(under: trace.policy) else {
            return key(under: policy).map { ($0, offers.count, nil) }
        }
        // (A state entered after the last offer has its first touch there: the last point.)
        let start = trace.points[min(first / Self.stride, trace.points.count - 1)]
        var pass = Pass(self, policy, from: start, of: trace.key)
        while pass.i < offers.count {
            if pass.i > last && pass.i % Self.stride == 0 {
                let point = trace.points[pass.i / Self.stride]
                if pass.matches(point) { return (pass.finish(joining: trace.key, at: point), pass.i - start.offer, pass.i) }
            }
            pass.step()
        }
        return (pass.finish(), pass.i - start.offer, nil)
    }

    /// Whether two rows set the phones alike: tier, distance filter, delivery model, accuracy gate
    /// and send rule.
    static func decidesAlike(_ a: StatePolicy, _ b: StatePolicy) -> Bool {
        a.tier == b.tier && a.distanceFilter.bitPattern == b.distanceFilter.bitPattern && a.delivery == b.delivery
            && a.accuracyGate == b.accuracyGate && a.send == b.send
    }

    /// The phones run over the schedule under one policy, an offer at a time.
    struct Pass {
        let schedule: DecisionSchedule
        /// The schedule's state changes, held here: read at every offer.
        let changes: [Change]
        let policy: SharingPolicy
        /// Resolved once per pass (``DecisionSchedule/viewer(under:)``): the send rule asks at every delivered fix.
        let viewer: ViewerModel
        let geodesic: any GeodesicDirectSolver & Sendable
        let positions: Bool
        var phones: [PhoneModel]
        var sent = SentMemory()
        var key = DecisionKey.Builder()
        /// The next state change to apply, and the next offer.
        var next = 0, i = 0

        init(_ schedule: DecisionSchedule, _ policy: SharingPolicy) {
            self.schedule = schedule
            changes = schedule.changes
            self.policy = policy
            viewer = schedule.viewer(under: policy)
            geodesic = schedule.options.exact
            positions = !schedule.options.phone.isPassThrough
            phones = Role.allCases.map { PhoneModel(role: $0, configuration: schedule.options.phone, exact: schedule.options.exact) }
        }

        /// A pass resumed at a kept point of another policy's pass, whose key is `key`.
        init(_ schedule: DecisionSchedule, _ policy: SharingPolicy, from point: DecisionTrace.Point, of key: DecisionKey) {
            self.init(schedule, policy)
            phones = point.phones
            sent = point.sent
            next = point.next
            i = point.offer
            self.key.resume(key, at: point)
        }

        /// What the pass holds before offer ``i``.
        var point: DecisionTrace.Point {
            let (words, runPrefix) = key.position
            return DecisionTrace.Point(offer: i, next: next, words: words, runPrefix: runPrefix, phones: phones, sent: sent)
        }

        /// Whether the pass, before offer ``i``, holds what `point` holds (so that it decides the
        /// rest alike, where the policies' rows agree).
        func matches(_ point: DecisionTrace.Point) -> Bool {
            point.offer == i && point.next == next && sent.isIdentical(to: point.sent)
                && phones.indices.allSatisfy { phones[$0].decidesAlike(point.phones[$0]) }
        }

        mutating func applyChanges(through offer: Int) {
            while next < changes.count, changes[next].at <= offer {
                let c = changes[next]
                if c.resetsSent { sent.reset() }
                let tier = phones[c.role.rawValue].apply(c.action.withPhoneSettings(of: policy[c.action.state]))
                key.change(role: c.role, tier: tier)
                next += 1
            }
        }

        /// Offer ``i``, with the state changes before it.
        @inline(__always)
        mutating func step() {
            if next < changes.count && changes[next].at <= i { applyChanges(through: i) }
            let o = schedule.offers[i]
            i += 1
            let r = o.role.rawValue
            let outcome = phones[r].offer(o.fix, at: Double(o.clock &- schedule.start) / 1e9)
            guard outcome.delivered else {
                key.outcome(0)
                return
            }
            let update = ViewUpdate(coordinate: outcome.coordinate, time: o.clock, speed: o.fix.speed, course: o.fix.course)
            let sends =
                phones[r].use == .shares
                && sent.sends(
                    update, role: o.role, state: o.state, policy: policy, override: schedule.options.send, viewer: viewer,
                    geodesic: geodesic)
            if positions {
                key.delivered(sent: sends, coordinate: outcome.coordinate, accuracy: outcome.accuracy)
            } else {
                key.outcome(sends ? 2 : 1)
            }
        }

        /// The key, after the state changes after the last offer.
        mutating func finish() -> DecisionKey {
            applyChanges(through: .max)
            return key.key
        }

        /// The key: this pass's words, then `key`'s from `point` on.
        func finish(joining key: DecisionKey, at point: DecisionTrace.Point) -> DecisionKey {
            var joined = self.key
            joined.join(key, at: point)
            return joined.key
        }
    }
}

/// One policy's decisions on a trip (``DecisionSchedule/trace(under:)``), with what its pass held
/// every ``DecisionSchedule/stride`` offers: the phones, the send rule's memory and where the key stood.
/// From it, ``DecisionSchedule/key(under:near:)`` finds the key of a policy that differs in a few
/// states by running the phones only where they can decide otherwise.
///
/// **Memory**: the key, and a point per 64 offers of ``bytesPerPoint`` bytes (2,624 on x86_64:
/// 41 bytes an offer; none with accuracy emulation or smoothing).
public struct DecisionTrace: Sendable {
    struct Point: Sendable {
        var offer: Int
        var next: Int
        /// The key's word where the pass stood: the open run's, or the next word.
        var words: Int
        /// The outcomes of the open run before the point (0: no run open).
        var runPrefix: UInt64
        var phones: [PhoneModel]
        var sent: SentMemory
    }

    let policy: SharingPolicy
    let key: DecisionKey
    /// The schedule's offers (``DecisionSchedule/key(under:near:)`` checks that they agree).
    let offers: Int
    let points: [Point]
    /// Each state's first and last offer or change.
    let touches: [FulfilmentState: (first: Int, last: Int)]

    /// Bytes a kept point takes: the point, its phones and the send rule's memory (array headers
    /// included).
    public static var bytesPerPoint: Int {
        MemoryLayout<Point>.stride + 2 * 32 + Role.allCases.count * (MemoryLayout<PhoneModel>.stride + MemoryLayout<ViewPair?>.stride)
    }

    /// Bytes held: the key's words and the points.
    public var bytes: Int { key.words.count * 8 + points.count * Self.bytesPerPoint }
}

/// The phones' decisions on one trip under one policy (``DecisionSchedule/key(under:)``): equal
/// keys, equal replays. Compared exactly, word for word (no digest, so no collision).
public struct DecisionKey: Hashable, Sendable {
    let words: [UInt64]
    /// A fold of the words, computed once: what the key gives a hasher (a key is hashed at
    /// least twice when it is numbered, and its words run to thousands; the standard hasher
    /// took 3 % of a tune hashing them). Equal words, equal fold; keys are still compared word for word.
    private let fold: UInt64

    init(words: [UInt64]) {
        self.words = words
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(words.count)
        for w in words {
            h = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        fold = h
    }

    public static func == (a: DecisionKey, b: DecisionKey) -> Bool { a.fold == b.fold && a.words == b.words }

    public func hash(into hasher: inout Hasher) { hasher.combine(fold) }

    /// Runs of equal outcomes, one word each: the outcome in the top 2 bits (0 not delivered,
    /// 1 delivered, 2 delivered and sent), the run's length below; a phone's tier at a state
    /// change is a word of its own (3 in the top bits, then the role and the tier); with positions
    /// each delivered fix is a run of one followed by its latitude, longitude and accuracy bits.
    /// Read word by word with the schedule's positions setting, the encoding is unambiguous.
    struct Builder {
        var words: [UInt64] = []
        /// Whether the last word is a run that the next equal outcome may lengthen.
        var open = false

        static let lengthMask: UInt64 = (1 << 62) - 1

        mutating func outcome(_ code: UInt64) {
            if open, let last = words.last, last >> 62 == code, last & Self.lengthMask < Self.lengthMask {
                words[words.count - 1] = last + 1
            } else {
                words.append(code << 62 | 1)
                open = true
            }
        }

        mutating func delivered(sent: Bool, coordinate: Coordinate, accuracy: Double?) {
            words.append((sent ? 2 : 1) << 62 | 1)
            words.append(coordinate.latitude.bitPattern)
            words.append(coordinate.longitude.bitPattern)
            words.append(accuracy.map(\.bitPattern) ?? Double.nan.bitPattern)
            open = false
        }

        mutating func change(role: Role, tier: AccuracyTier) {
            words.append(3 << 62 | UInt64(role.rawValue) << 8 | UInt64(tier.rawValue))
            open = false
        }

        var key: DecisionKey { DecisionKey(words: words) }

        /// Where the builder stands: the open run's word and its length so far, or the next word
        /// and 0.
        var position: (words: Int, runPrefix: UInt64) {
            open ? (words.count - 1, words[words.count - 1] & Self.lengthMask) : (words.count, 0)
        }

        /// `count` more outcomes `code`, as that many calls of ``outcome(_:)`` would add them.
        mutating func outcomes(_ code: UInt64, count: UInt64) {
            var count = count
            while count > 0 {
                if open, let last = words.last, last >> 62 == code, last & Self.lengthMask < Self.lengthMask {
                    let added = min(count, Self.lengthMask - last & Self.lengthMask)
                    words[words.count - 1] = last + added
                    count -= added
                } else {
                    let added = min(count, Self.lengthMask)
                    words.append(code << 62 | added)
                    count -= added
                    open = true
                }
            }
        }

        /// The builder of `key`'s pass at `point`: its words before the point, its run there open.
        mutating func resume(_ key: DecisionKey, at point: DecisionTrace.Point) {
            words = Array(key.words[..<point.words])
            open = false
            if point.runPrefix > 0 { outcomes(key.words[point.words] >> 62, count: point.runPrefix) }
        }

        /// `key`'s words after `point`, added as its pass added them (a run open here takes the
        /// outcomes of the same code that follow).
        mutating func join(_ key: DecisionKey, at point: DecisionTrace.Point) {
            var j = point.words
            if point.runPrefix > 0 {
                // The rest of the run open at the point (none when it ended there).
                let w = key.words[j]
                outcomes(w >> 62, count: w & Self.lengthMask - point.runPrefix)
                j += 1
            }
            if j < key.words.count, open, let last = words.last, key.words[j] >> 62 == last >> 62 {
                // A run of the open run's code (a run word: only code-0 runs stay open with
                // positions, and those words are runs in both encodings).
                outcomes(key.words[j] >> 62, count: key.words[j] & Self.lengthMask)
                j += 1
            }
            words += key.words[j...]
        }
    }
}
