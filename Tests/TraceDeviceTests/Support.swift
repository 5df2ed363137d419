import TraceDevice
import TraceDomain
import TraceGeodesy
import TraceSharing

/// Shared fixtures: a policy row with chosen settings, and offsets measured in a fix's frame.
enum Fixture {
    /// A phone's position, standing still.
    static let still = try! Coordinate(latitude: 45, longitude: 7)

    /// A row with this tier, filter and model (frame and annotations do not matter to a phone).
    static func row(_ tier: AccuracyTier, filter: Double = 0, delivery: DeliveryModel = .coreLocation, accuracyGate: AccuracyGate? = nil)
        -> StatePolicy
    {
        StatePolicy(
            tier: tier, frame: 250, distanceFilter: filter, delivery: delivery, accuracyGate: accuracyGate,
            shows: ShownContent(route: false, routeLines: false, destination: false), hirerAnnotations: [], helperAnnotations: [])
    }

    /// East and north metres of `c` from `origin` (LocalFrame: nanometres at these distances).
    static func offset(of c: Coordinate, from origin: Coordinate = still) -> EastNorth {
        LocalFrame(origin: origin).eastNorth(of: c)
    }

    /// `count` outcomes of a phone standing still at ``still``, one fix every `dt` seconds, each
    /// reporting `accuracy`.
    static func standingStill(_ phone: inout PhoneEmulator, count: Int, dt: Double = 1, accuracy: Double? = nil) -> [PhoneOutcome] {
        (0..<count).map { phone.offer(still, at: Double($0) * dt, accuracy: accuracy, speed: 0) }
    }
}

/// Sample statistics of a series.
struct Moments {
    var mean = 0.0, sigma = 0.0

    init(_ x: [Double]) {
        mean = x.reduce(0, +) / Double(x.count)
        sigma = (x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count - 1)).squareRoot()
    }

    /// Correlation of x[i] with y[i].
    static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        let a = Moments(x), b = Moments(y)
        var s = 0.0
        for i in x.indices { s += (x[i] - a.mean) * (y[i] - b.mean) }
        return s / Double(x.count - 1) / (a.sigma * b.sigma)
    }
}
