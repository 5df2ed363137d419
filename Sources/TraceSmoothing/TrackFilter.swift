public import TraceGeodesy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The online (forward) filter for one device's coordinates, for services: measurement noise
/// from each fix's accuracy (``SmoothingConfiguration``), a local frame that follows the estimate
/// (``AnchoredFrame``), a ``KalmanFilter`` with gating. A value type, O(1) per fix, no
/// allocation; keep one per device for its whole session and ``reconfigure(_:)`` it when the
/// device's tier or travel mode changes.
///
/// Per fix: the fix is projected into the current frame, filtered there (the gate judges it
/// before anything moves), and then, if the estimate is more than
/// ``SmoothingConfiguration/reanchorDistance`` from the origin, the frame moves onto the estimate
/// and the state is carried across (``AnchoredFrame/follow(estimate:)``); after a restart the
/// frame moves onto the restarting fix itself (``AnchoredFrame/restart(at:position:)``).
public struct TrackFilter: Sendable {
    /// The configuration (see ``reconfigure(_:)``).
    public private(set) var configuration: SmoothingConfiguration
    /// The filter, in the current frame's metres.
    public private(set) var filter: KalmanFilter
    private var anchor: AnchoredFrame

    /// A filter that has seen no fix.
    public init(configuration: SmoothingConfiguration) {
        self.configuration = configuration
        filter = KalmanFilter(parameters: configuration.parameters)
        anchor = AnchoredFrame(reanchorDistance: configuration.reanchorDistance)
    }

    /// Replaces the configuration and keeps the state (estimate, covariance, frame, counts): the
    /// new measurement noise applies from the next fix, the new process noise from the next
    /// prediction (see ``KalmanFilter/reconfigure(_:)``).
    public mutating func reconfigure(_ configuration: SmoothingConfiguration) {
        self.configuration = configuration
        filter.reconfigure(configuration.parameters)
        anchor.setReanchorDistance(configuration.reanchorDistance)
    }

    /// Filters a fix at `coordinate`, taken at `time` seconds, with its reported horizontal
    /// accuracy in metres, if any.
    @discardableResult
    public mutating func update(_ coordinate: Coordinate, time: Double, accuracy: Double?) -> KalmanOutcome {
        step(coordinate, time: time, accuracy: accuracy).outcome
    }

    /// One fix through the filter: its position in the frame it was filtered in (`frame`), its
    /// variance, what the filter did, and the frame move made after it, if any (already applied
    /// to ``filter``).
    mutating func step(_ coordinate: Coordinate, time: Double, accuracy: Double?)
        -> (position: EastNorth, frame: LocalFrame, variance: Double, outcome: KalmanOutcome, moved: FrameTransform?)
    {
        let p = anchor.position(of: coordinate)
        let frame = anchor.frame!  // set by position(of:)
        let r = configuration.variance(accuracy: accuracy)
        let outcome = filter.update(east: p.east, north: p.north, variance: r, at: time)
        let moved: FrameTransform?
        switch outcome {
        case .initialised, .restarted:
            // The state is at rest at the fix: move onto the fix itself (a no-op when it is the
            // origin already, as for the first fix).
            moved = anchor.restart(at: coordinate, position: p)
        case .accepted, .rejected:
            moved = anchor.follow(estimate: EastNorth(east: filter.east, north: filter.north))
        case .invalid:
            moved = nil
        }
        if let moved { filter.apply(moved) }
        return (p, frame, r, outcome, moved)
    }

    /// The current estimate, nil before the first usable fix.
    public var estimate: Coordinate? {
        guard filter.isInitialised, let frame = anchor.frame else { return nil }
        return frame.coordinate(at: EastNorth(east: filter.east, north: filter.north))
    }

    /// The estimate predicted to `time` seconds (the filter is not changed) and its standard
    /// deviation per axis, metres; nil before the first usable fix or for a time that is not
    /// finite. A time before the estimate's gives the estimate itself.
    public func predicted(at time: Double) -> (coordinate: Coordinate, sigma: Double)? {
        guard filter.isInitialised, time.isFinite, let frame = anchor.frame else { return nil }
        var f = filter
        f.predict(to: time)
        guard let c = frame.coordinate(at: EastNorth(east: f.east, north: f.north)) else { return nil }
        return (c, f.covariance.position.squareRoot())
    }

    /// The estimated velocity, m/s east and north along the true axes at the estimate (the
    /// frame's axes turned by the convergence of the meridians between its origin and the
    /// estimate); nil before the first usable fix.
    public var velocity: EastNorth? {
        guard filter.isInitialised, let frame = anchor.frame, let here = estimate else { return nil }
        let t = FrameTransform(from: frame, to: LocalFrame(origin: here), offset: EastNorth(east: filter.east, north: filter.north))
        let (e, n) = t.vector(filter.velocityEast, filter.velocityNorth)
        return EastNorth(east: e, north: n)
    }

    /// The estimated speed, m/s; nil before the first usable fix.
    public var speed: Double? { velocity.map { ($0.east * $0.east + $0.north * $0.north).squareRoot() } }

    /// The estimated course, degrees clockwise from true north in [0, 360); nil before the first
    /// usable fix and while the estimated velocity is exactly zero (after a start or restart).
    public var course: Double? {
        guard let v = velocity, v.east != 0 || v.north != 0 else { return nil }
        let degrees = atan2(v.east, v.north) * (180 / Double.pi)
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The estimate's standard deviation per axis, metres (nil before the first usable fix).
    public var sigma: Double? { filter.isInitialised ? filter.covariance.position.squareRoot() : nil }

    /// The current frame (nil before the first fix).
    public var frame: LocalFrame? { anchor.frame }

    /// Times the frame was re-anchored.
    public var reanchors: Int { anchor.reanchors }
}
