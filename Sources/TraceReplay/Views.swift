import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceProj
import TraceSharing

/// Each viewer's view of the others: what each viewer last received from each sender, and the
/// samples of display error (metres from the sender's true position) and staleness (seconds since
/// the shown update's fix) taken at each raw fix of a sender it watches. Times are on the request
/// clock (``Meters/clock(_:)``): a recording gap is not staleness.
///
/// The seam between relay and metrics: today an update forwarded by the relay is received at
/// once and shown as it is. A network model (delay, loss) would sit in ``deliver(_:sentAt:from:to:)``
/// (an update arriving later, or not at all) and a viewer model that extrapolates in
/// ``sample(sender:truth:at:viewers:into:)`` (what the viewer shows at a time, rather than the
/// last update received); the meters only see the samples.
struct Views {
    private var received: [(coordinate: Coordinate, time: Int64)?] = Array(repeating: nil, count: 9)
    private let geodesic: Geodesic

    init(geodesic: Geodesic) { self.geodesic = geodesic }

    @inline(__always)
    private static func index(_ viewer: Int, _ sender: Int) -> Int { viewer * 3 + sender }

    /// What `viewer` last received from `sender`: the shown position and its fix's time.
    func lastReceived(by viewer: Role, from sender: Role) -> (coordinate: Coordinate, time: Int64)? {
        received[Self.index(viewer.rawValue, sender.rawValue)]
    }

    /// `viewer` receives an update from `sender`: the reported position `coordinate` of the fix
    /// taken at `time` (nanoseconds).
    @inline(__always)
    mutating func deliver(_ coordinate: Coordinate, sentAt time: Int64, from sender: Role, to viewer: Role) {
        received[Self.index(viewer.rawValue, sender.rawValue)] = (coordinate, time)
    }

    /// At `sender`'s raw fix `truth` taken at `time`, samples what each of `viewers` shows of it
    /// into `cell`: the display error and staleness, or one more sample without an update.
    @inline(__always)
    func sample(sender: Role, truth c: Coordinate, at time: Int64, viewers: RoleSet, into cell: inout MeterCell) {
        let r = sender.rawValue
        for vi in 0..<3 where viewers.rawValue & (1 << vi) != 0 {
            if let last = received[Self.index(vi, r)] {
                // The update just forwarded from this very fix (a pass-through position): 0 m, as
                // the tangent plane gives for identical points inside its domain.
                let error =
                    last.coordinate == c && abs(c.latitude) <= TangentPlane.maximumLatitude
                    ? 0 : TangentPlane.distance(from: c, to: last.coordinate, fallback: geodesic)
                cell.error.add(error)
                cell.staleness.add(Double(time - last.time) / 1e9)
            } else {
                cell.withoutUpdate += 1
            }
        }
    }
}
