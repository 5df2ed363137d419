import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// The truth about the helper's arrivals at the pickup and the dropoff, and when each viewer first
/// saw them: the pickup arrival at the first helper fix within the radius of the pickup, then when
/// the helper leaves that radius; the dropoff arrival (``OnlineDropoffArrival``) once the helper
/// has left the pickup. Each viewer sees an arrival at the first update it receives at or after
/// it that places the helper within the radius.
struct Arrivals {
    let pickup: Coordinate?
    let radius: Double
    private(set) var pickupArrival: Int64?
    private var leftPickup = false
    private var pickupVisible = RoleTable<Int64?>(repeating: nil)
    /// The dropoff's arrival candidates (nil without a dropoff).
    private(set) var dropoff: OnlineDropoffArrival?

    /// `dropoffNotBefore`: the dropoff's earliest arrival when known ahead (two passes); the single
    /// pass finds it from the helper's stops as they come (the `stay` of ``helperFix(_:at:stay:)``).
    init(pickup: Coordinate?, dropoff: Coordinate?, dropoffNotBefore: Int64, radius: Double) {
        self.pickup = pickup
        self.radius = radius
        self.dropoff = dropoff.map { OnlineDropoffArrival(dropoff: $0, radius: radius, notBefore: dropoffNotBefore) }
    }

    /// A helper fix at `c` (before its own update can show it); `stay`, in a single pass, what the
    /// helper's scanner returned for it.
    @inline(__always)
    mutating func helperFix(_ c: Coordinate, at time: Int64, stay: (started: Bool, closed: Dwell?)) {
        guard let p = pickup else { return }
        if pickupArrival == nil {
            if RoleScanner.within(p, c, radius) { pickupArrival = time }
        } else if !leftPickup {
            leftPickup = !RoleScanner.within(p, c, radius)
        }
        dropoff?.fix(c, at: time, leftPickup: leftPickup, stay: stay)
    }

    /// A helper fix after the cancellation: only the helper's stops are followed.
    mutating func helperFixAfterCancellation(at time: Int64, stay: (started: Bool, closed: Dwell?)) {
        dropoff?.fix(at: time, counts: false, stay: stay)
    }

    /// An update from the helper showing `c`, received by `viewer` at `time`.
    @inline(__always)
    mutating func update(_ c: Coordinate, at time: Int64, to viewer: Role) {
        if let a = pickupArrival, pickupVisible[viewer] == nil, time >= a, let p = pickup, RoleScanner.within(p, c, radius) {
            pickupVisible[viewer] = time
        }
        dropoff?.update(c, at: time, to: viewer.rawValue)
    }

    /// Each point's arrival and its visibility to `viewers`, given the helper's finished scan
    /// (which decides the dropoff's candidate, ``OnlineDropoffArrival/result(_:)``).
    func visibility(to viewers: [Role], helperScan: RoleScan) -> [ArrivalVisibility] {
        let settled = dropoff?.result(helperScan)
        var arrivals: [ArrivalVisibility] = []
        for point in ArrivalPoint.allCases {
            guard point == .pickup ? pickup != nil : dropoff != nil else { continue }
            for v in viewers {
                let arrived = point == .pickup ? pickupArrival : settled?.arrival
                let visible = point == .pickup ? pickupVisible[v] : settled?.visible(to: v.rawValue)
                arrivals.append(
                    ArrivalVisibility(
                        point: point, viewer: v, arrivedAt: arrived.map(Timestamp.init(nanoseconds:)),
                        visibleAt: visible.map(Timestamp.init(nanoseconds:))))
            }
        }
        return arrivals
    }
}
