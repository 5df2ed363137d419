import TraceGeodesy

/// The helper's arrival at the dropoff counted from a given earliest time (`notBefore`), and when
/// each viewer first saw it: the first helper fix at or after `notBefore`, once the helper has left
/// the pickup's radius, within the radius of the dropoff; then, per viewer, the first update
/// forwarded at or after the arrival that places the helper within the radius.
struct DropoffArrival {
    let notBefore: Int64
    private(set) var arrival: Int64?
    private(set) var visible: (Int64?, Int64?, Int64?) = (nil, nil, nil)

    init(notBefore: Int64) { self.notBefore = notBefore }

    /// A helper fix at `time`: `counts` when the helper has left the pickup and the fix is within
    /// the dropoff's radius.
    @inline(__always)
    mutating func fix(at time: Int64, counts: Bool) {
        if counts, arrival == nil, time >= notBefore { arrival = time }
    }

    /// An update from the helper forwarded to `viewer` at `time`, `inside` the dropoff's radius.
    @inline(__always)
    mutating func update(at time: Int64, to viewer: Int, inside: Bool) {
        guard inside, let a = arrival, time >= a else { return }
        switch viewer {
        case 0: if visible.0 == nil { visible.0 = time }
        case 1: if visible.1 == nil { visible.1 = time }
        default: if visible.2 == nil { visible.2 = time }
        }
    }

    /// Whether an update at `time` to `viewer` could be its first sight of the arrival.
    @inline(__always)
    func awaitsSight(at time: Int64, by viewer: Int) -> Bool {
        guard let a = arrival, time >= a else { return false }
        return visible(to: viewer) == nil
    }

    func visible(to viewer: Int) -> Int64? {
        switch viewer {
        case 0: visible.0
        case 1: visible.1
        default: visible.2
        }
    }
}

/// The dropoff arrival in one pass, when the dropoff is given but the helper's stops are not known
/// ahead: a given dropoff counts as reached no earlier than the start of the helper's last stop
/// (a dwell, or the final stay) centred within the radius of it (``PointInference/dropoff``), and
/// which stop that is shows only at the end.
///
/// Three candidates are followed: from the beginning (no such stop), from the start of the latest
/// closed dwell centred near the dropoff, and from the start of the stay still open. Each stay's
/// start is its anchor fix, so the open candidate sees every fix from its start on; when the stay
/// closes as a dwell near the dropoff it becomes the committed candidate. ``result`` picks the one
/// the two-pass rule would have chosen. O(1) memory.
struct OnlineDropoffArrival {
    private(set) var fromStart = DropoffArrival(notBefore: .min)
    private var committed: DropoffArrival?
    private var open: DropoffArrival?
    let dropoff: Coordinate
    let radius: Double

    /// `notBefore`: the earliest arrival from the beginning, when known ahead (two passes: no stops
    /// are fed, and only that candidate is followed).
    init(dropoff: Coordinate, radius: Double, notBefore: Int64 = .min) {
        self.dropoff = dropoff
        self.radius = radius
        fromStart = DropoffArrival(notBefore: notBefore)
    }

    /// A helper fix at `time`, after the scanner took it (`stay`: what ``RoleScanner/add(time:_:)``
    /// returned).
    mutating func fix(at time: Int64, counts: Bool, stay: (started: Bool, closed: Dwell?)) {
        if let d = stay.closed, RoleScanner.within(d.centre, dropoff, radius) { committed = open }
        if stay.started { open = DropoffArrival(notBefore: time) }
        fromStart.fix(at: time, counts: counts)
        committed?.fix(at: time, counts: counts)
        open?.fix(at: time, counts: counts)
    }

    /// A helper fix at `c` (after the scanner took it, when stops are followed): it counts when the
    /// helper has left the pickup and is within the radius; the distance is measured only while a
    /// candidate awaits its arrival.
    @inline(__always)
    mutating func fix(_ c: Coordinate, at time: Int64, leftPickup: Bool, stay: (started: Bool, closed: Dwell?)) {
        if stay.started || stay.closed != nil { fix(at: time, counts: false, stay: stay) }
        guard leftPickup else { return }
        guard fromStart.arrival == nil || (committed.map { $0.arrival == nil } ?? false) || (open.map { $0.arrival == nil } ?? false) else {
            return
        }
        let counts = RoleScanner.within(dropoff, c, radius)
        fromStart.fix(at: time, counts: counts)
        committed?.fix(at: time, counts: counts)
        open?.fix(at: time, counts: counts)
    }

    /// An update from the helper showing `c`, forwarded to `viewer` at `time`; the distance is
    /// measured only when a candidate's arrival awaits this viewer's sight.
    @inline(__always)
    mutating func update(_ c: Coordinate, at time: Int64, to viewer: Int) {
        guard
            fromStart.awaitsSight(at: time, by: viewer) || (committed?.awaitsSight(at: time, by: viewer) ?? false)
                || (open?.awaitsSight(at: time, by: viewer) ?? false)
        else { return }
        update(at: time, to: viewer, inside: RoleScanner.within(dropoff, c, radius))
    }

    mutating func update(at time: Int64, to viewer: Int, inside: Bool) {
        fromStart.update(at: time, to: viewer, inside: inside)
        committed?.update(at: time, to: viewer, inside: inside)
        open?.update(at: time, to: viewer, inside: inside)
    }

    /// The arrival under the two-pass rule, given the helper's finished scan.
    func result(_ scan: RoleScan) -> DropoffArrival {
        if let final = scan.finalStay, RoleScanner.within(final.centre, dropoff, radius), let open { return open }
        return committed ?? fromStart
    }
}
