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

    init(dropoff: Coordinate, radius: Double) {
        self.dropoff = dropoff
        self.radius = radius
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
