import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// Each viewer's view of the others: the last two updates each viewer accepted from each sender,
/// what its map draws from them (``ViewerModel``), and the samples of display error (metres from
/// the sender's true position to what the map draws) and staleness (seconds since the fix of the
/// last accepted update). Times are on the request clock (``Meters/clock(_:)``) unless named
/// trace times: a recording gap is neither staleness nor extrapolation.
///
/// Two ways to feed it, one per ``NetworkModel``:
/// - ideal: ``deliver(_:from:to:)`` at the send, ``sample(sender:truth:at:viewers:into:)`` at each
///   raw fix of the sender (the view TraceKit measured before the network model);
/// - realistic: ``schedule(_:)`` at the send; the engine takes the arrivals (``popArrival()``,
///   ``receive(_:)``) and the viewers' clock ticks (``sampleTick(at:clock:state:viewers:gap:)``)
///   in time order, and tells the views of each sender's raw fix (``senderFix(_:at:coordinate:gap:)``):
///   the truth at a tick between two fixes of the sender is interpolated between them, so the
///   display error of a tick waits for the sender's next fix (at most `gap` of ticks per sender:
///   a sender silent for longer than the recording gap is taken to stand at its last fix).
struct Views {
    let viewer: ViewerModel
    private var received: [ViewPair?] = Array(repeating: nil, count: 9)
    private let geodesic: any GeodesicDirectSolver & Sendable

    // The realistic network.
    /// Updates on their way, by arrival (trace time); `head` is the next.
    private var inFlight: [InFlight] = []
    private var head = 0
    /// The next tick of the viewers' clock, request clock.
    var nextTick: Int64 = 0
    /// Each sender's last raw fix (trace time), whether it had one, and the ticks since then that
    /// wait for its next fix; plain columns, so that reading one allocates and retains nothing.
    private var truthStarted = [false, false, false]
    private var truthTime: [Int64] = [0, 0, 0]
    private var truthCoordinate = [Coordinate](repeating: Coordinate(uncheckedLatitude: 0, longitude: 0), count: 3)
    private var pending: [[PendingSample]] = [[], [], []]
    /// The realistic network's samples per state and sender (state × 3 + sender), merged into the
    /// meters at ``finish(meters:)``: kept here so that a tick touches one small cell.
    private var cells = [ViewCell](repeating: ViewCell(), count: FulfilmentState.allCases.count * 3)
    /// With ``ReplayOptions/viewerFigures``: the same samples per state, viewer and sender (state × 9
    /// + viewer × 3 + sender), under either network; empty otherwise.
    private var pairCells: [ViewCell]
    /// Whether the samples also go to each sender's cell over all its viewers (``cells``, the
    /// meters): ``ReplayOptions/senderFigures``.
    private let perSender: Bool

    struct ViewCell {
        var error = QuantileHistogram()
        var staleness = QuantileHistogram()
        var withoutUpdate = 0
    }

    init(viewer: ViewerModel, geodesic: any GeodesicDirectSolver & Sendable, perViewer: Bool = false, perSender: Bool = true) {
        self.viewer = viewer
        self.geodesic = geodesic
        self.perSender = perSender
        pairCells = perViewer ? Array(repeating: ViewCell(), count: FulfilmentState.allCases.count * 9) : []
    }

    @inline(__always)
    private static func pairIndex(_ state: FulfilmentState, _ viewer: Int, _ sender: Int) -> Int {
        state.rawValue * 9 + viewer * 3 + sender
    }

    @inline(__always)
    private static func index(_ viewer: Int, _ sender: Int) -> Int { viewer * 3 + sender }

    /// What `viewer` last accepted from `sender`.
    func lastReceived(by viewer: Role, from sender: Role) -> ViewUpdate? {
        received[Self.index(viewer.rawValue, sender.rawValue)]?.last
    }

    @inline(__always)
    private mutating func accept(_ u: ViewUpdate, at i: Int) {
        received[i] = viewer.accept(u, after: received[i], geodesic: geodesic)
    }

    /// The largest distance from `truth`, `sender`'s position, to what any of `viewers` draws of
    /// it at `time` (request clock); nil when none of them has accepted an update from it.
    func worstError(of sender: Role, truth: Coordinate, at time: Int64, viewers: RoleSet) -> Double? {
        var worst: Double?
        for vi in 0..<3 where viewers.rawValue & (1 << vi) != 0 {
            guard let pair = received[Self.index(vi, sender.rawValue)] else { continue }
            let e = TangentPlane.distance(from: truth, to: viewer.draw(pair, at: time, geodesic: geodesic), fallback: geodesic)
            worst = max(worst ?? e, e)
        }
        return worst
    }

    // MARK: Ideal

    /// `viewer` receives `update` from `sender` at once.
    @inline(__always)
    mutating func deliver(_ update: ViewUpdate, from sender: Role, to viewer: Role) {
        accept(update, at: Self.index(viewer.rawValue, sender.rawValue))
    }

    /// At `sender`'s raw fix `truth` taken at `time` (request clock), samples what each of
    /// `viewers` draws of it into `cell`: the display error and staleness, or one more sample
    /// without an update.
    /// What `viewer` vi draws of sender r's position at `time` (request clock) against the truth
    /// `c`: the display error and the staleness; nil when it has accepted no update from r.
    @inline(__always)
    private func measured(_ vi: Int, _ r: Int, truth c: Coordinate, at time: Int64) -> (error: Double, staleness: Double)? {
        guard let pair = received[Self.index(vi, r)] else { return nil }
        let drawn = viewer.draw(pair, at: time, geodesic: geodesic)
        // The update just forwarded from this very fix (a pass-through position): 0 m, as the
        // tangent plane gives for identical points inside its domain.
        let error =
            drawn == c && abs(c.latitude) <= TangentPlane.maximumLatitude
            ? 0 : TangentPlane.distance(from: c, to: drawn, fallback: geodesic)
        return (error, Double(time - pair.last.time) / 1e9)
    }

    /// At `sender`'s raw fix `truth` taken at `time` (request clock), samples what each of
    /// `viewers` draws of it into `cell`: the display error and staleness, or one more sample
    /// without an update.
    @inline(__always)
    func sample(sender: Role, truth c: Coordinate, at time: Int64, viewers: RoleSet, into cell: inout MeterCell) {
        let r = sender.rawValue
        for vi in 0..<3 where viewers.rawValue & (1 << vi) != 0 {
            if let m = measured(vi, r, truth: c, at: time) {
                cell.error.add(m.error)
                cell.staleness.add(m.staleness)
            } else {
                cell.withoutUpdate += 1
            }
        }
    }

    /// ``sample(sender:truth:at:viewers:into:)``, each sample also in its viewer's cell of `state`
    /// (with ``ReplayOptions/viewerFigures``; a method of its own, so that the replay that does
    /// not ask for them runs the loop it ran before).
    mutating func samplePerViewer(
        sender: Role, truth c: Coordinate, at time: Int64, state: FulfilmentState, viewers: RoleSet, into cell: inout MeterCell
    ) {
        let r = sender.rawValue
        for vi in 0..<3 where viewers.rawValue & (1 << vi) != 0 {
            let p = Self.pairIndex(state, vi, r)
            if let m = measured(vi, r, truth: c, at: time) {
                if perSender {
                    cell.error.add(m.error)
                    cell.staleness.add(m.staleness)
                }
                pairCells[p].error.add(m.error)
                pairCells[p].staleness.add(m.staleness)
            } else {
                if perSender { cell.withoutUpdate += 1 }
                pairCells[p].withoutUpdate += 1
            }
        }
    }

    // MARK: Realistic

    /// An update on its way from `sender` to `viewer`, arriving at `arrival` (trace time).
    struct InFlight {
        var arrival: Int64
        var sender: Role
        var viewer: Role
        /// The state the update was sent in (its reception's energy is charged there).
        var state: FulfilmentState
        var update: ViewUpdate
    }

    /// The arrival of the next update on its way (trace time), or `Int64.max`.
    var nextArrival: Int64 { head < inFlight.count ? inFlight[head].arrival : .max }

    /// An update sent: kept in arrival order (equal arrivals in sending order).
    mutating func schedule(_ f: InFlight) {
        if head > 64 && head * 2 > inFlight.count {
            inFlight.removeFirst(head)
            head = 0
        }
        var i = inFlight.count
        inFlight.append(f)
        while i > head && inFlight[i - 1].arrival > f.arrival {
            inFlight[i] = inFlight[i - 1]
            i -= 1
        }
        inFlight[i] = f
    }

    /// The next update on its way (call when ``nextArrival`` is due).
    mutating func popArrival() -> InFlight {
        defer { head += 1 }
        return inFlight[head]
    }

    /// Updates still on their way.
    var inFlightCount: Int { inFlight.count - head }

    /// The viewer of `f` receives it: accepted unless it is not newer, by its fix's time, than
    /// the update the viewer shows (an update overtaken by a later one is discarded, as an app
    /// keeps the newest by fix time). Returns whether it was accepted.
    mutating func receive(_ f: InFlight) -> Bool {
        let i = Self.index(f.viewer.rawValue, f.sender.rawValue)
        if let shown = received[i], shown.last.time >= f.update.time { return false }
        accept(f.update, at: i)
        return true
    }

    /// One tick of the viewers' clock at trace time `time` (`clock` on the request clock) in
    /// `state`: for each sender that has had a fix, what each viewer in `viewers[sender]` draws,
    /// its staleness now, its display error once the sender's truth at `time` is known.
    mutating func sampleTick(
        at time: Int64, clock: Int64, state: FulfilmentState, viewers: ViewerSets, gap: Int64
    ) {
        for r in 0..<3 where truthStarted[r] {
            let seen = viewers[r]
            guard seen.rawValue != 0 else { continue }
            let c = state.rawValue * 3 + r
            let stopped = time &- truthTime[r] > gap
            if stopped && !pending[r].isEmpty { resolve(r, at: nil) }
            let known = stopped || time == truthTime[r]
            let perViewer = !pairCells.isEmpty
            for vi in 0..<3 where seen.rawValue & (1 << vi) != 0 {
                guard let pair = received[Self.index(vi, r)] else {
                    if perSender { cells[c].withoutUpdate += 1 }
                    if perViewer { pairCells[Self.pairIndex(state, vi, r)].withoutUpdate += 1 }
                    continue
                }
                let staleness = Double(clock &- pair.last.time) / 1e9
                if perSender { cells[c].staleness.add(staleness) }
                if perViewer { pairCells[Self.pairIndex(state, vi, r)].staleness.add(staleness) }
                let drawn = viewer.draw(pair, at: clock, geodesic: geodesic)
                if known {
                    let error = TangentPlane.distance(from: truthCoordinate[r], to: drawn, fallback: geodesic)
                    if perSender { cells[c].error.add(error) }
                    if perViewer { pairCells[Self.pairIndex(state, vi, r)].error.add(error) }
                } else {
                    pending[r].append(PendingSample(time: time, state: state, viewer: UInt8(vi), drawn: drawn))
                }
            }
        }
    }

    /// `sender`'s raw fix at `coordinate`, trace time `time`: the display errors of the ticks since
    /// its previous fix, against the position interpolated between the two (or the previous fix
    /// when the two are more than `gap` apart).
    mutating func senderFix(_ sender: Role, at time: Int64, coordinate: Coordinate, gap: Int64) {
        let r = sender.rawValue
        if !pending[r].isEmpty {
            resolve(r, at: time &- truthTime[r] > gap ? nil : (time, coordinate))
        }
        truthStarted[r] = true
        truthTime[r] = time
        truthCoordinate[r] = coordinate
    }

    /// Each viewer's view of each sender per state (with ``ReplayOptions/viewerFigures``; call
    /// after ``finish(meters:)``): the cells with a sample or a sample without an update, in state,
    /// viewer and sender order. Empty without the option.
    var viewerViews: [ViewerView] {
        var views: [ViewerView] = []
        for state in FulfilmentState.allCases {
            for vi in 0..<3 {
                for r in 0..<3 {
                    let cell = pairCells.isEmpty ? ViewCell() : pairCells[Self.pairIndex(state, vi, r)]
                    guard cell.staleness.count > 0 || cell.withoutUpdate > 0 else { continue }
                    views.append(
                        ViewerView(
                            state: state, viewer: Self.role(vi), sender: Self.role(r),
                            view: ViewMetrics(error: cell.error, staleness: cell.staleness, withoutUpdate: cell.withoutUpdate)))
                }
            }
        }
        return views
    }

    /// The end of the replay: the ticks still waiting for a sender's next fix are measured
    /// against its last fix, and the samples go to the meters.
    mutating func finish(meters: inout Meters) {
        for r in 0..<3 where !pending[r].isEmpty { resolve(r, at: nil) }
        for state in FulfilmentState.allCases {
            for r in 0..<3 {
                let cell = cells[state.rawValue * 3 + r]
                guard cell.staleness.count > 0 || cell.withoutUpdate > 0 else { continue }
                meters[state, Self.role(r)].error.merge(cell.error)
                meters[state, Self.role(r)].staleness.merge(cell.staleness)
                meters[state, Self.role(r)].withoutUpdate += cell.withoutUpdate
            }
        }
    }

    /// Measures sender `r`'s pending samples against the truth: interpolated towards `next` (a
    /// later fix), or its last fix when `next` is nil.
    private mutating func resolve(_ r: Int, at next: (time: Int64, coordinate: Coordinate)?) {
        let from = truthCoordinate[r], t0 = truthTime[r]
        for p in pending[r] {
            var c = from
            if let next, next.time > t0 {
                let f = Double(p.time &- t0) / Double(next.time &- t0)
                c = Coordinate(
                    uncheckedLatitude: from.latitude + f * (next.coordinate.latitude - from.latitude),
                    longitude: Coordinate.normalizedLongitude(
                        from.longitude + f * Self.wrapped(next.coordinate.longitude - from.longitude)))
            }
            let error = TangentPlane.distance(from: c, to: p.drawn, fallback: geodesic)
            if perSender { cells[p.state.rawValue * 3 + r].error.add(error) }
            if !pairCells.isEmpty { pairCells[Self.pairIndex(p.state, Int(p.viewer), r)].error.add(error) }
        }
        pending[r].removeAll(keepingCapacity: true)
    }

    /// The role of raw value `i` (0, 1, 2), without a failable init per tick.
    @inline(__always) private static func role(_ i: Int) -> Role { i == 0 ? .hirer : i == 1 ? .helper : .delegate }

    /// A longitude difference wrapped to [-180, 180].
    private static func wrapped(_ d: Double) -> Double { d > 180 ? d - 360 : d < -180 ? d + 360 : d }

    /// A tick's drawn position, waiting for the truth at its time.
    private struct PendingSample {
        var time: Int64
        var state: FulfilmentState
        /// The viewer's raw value (a byte: the sample stays 32 bytes).
        var viewer: UInt8
        var drawn: Coordinate
    }
}

/// Who sees each sender's location in a state (the relay's decision), by the sender's raw value:
/// three role sets held inline, so a tick allocates nothing.
struct ViewerSets {
    var hirer: RoleSet
    var helper: RoleSet
    var delegate: RoleSet

    @inline(__always)
    subscript(sender: Int) -> RoleSet { sender == 0 ? hirer : sender == 1 ? helper : delegate }

    /// Whether no sender is seen by anyone.
    var isEmpty: Bool { (hirer.rawValue | helper.rawValue | delegate.rawValue) == 0 }
}
