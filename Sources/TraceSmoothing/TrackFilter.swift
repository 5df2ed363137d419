public import TraceGeodesy

/// The online (forward) filter for one device's coordinates, for services: measurement noise
/// from each fix's accuracy (``SmoothingConfiguration``), a local frame re-anchored as the device
/// moves (``AnchoredFrame``), a ``KalmanFilter`` with gating. A value type, O(1) per fix, no
/// allocation.
public struct TrackFilter: Sendable {
    /// The configuration.
    public let configuration: SmoothingConfiguration
    /// The filter, in the current frame's metres.
    public private(set) var filter: KalmanFilter
    private var anchor: AnchoredFrame

    /// A filter that has seen no fix.
    public init(configuration: SmoothingConfiguration) {
        self.configuration = configuration
        filter = KalmanFilter(parameters: configuration.parameters)
        anchor = AnchoredFrame(reanchorDistance: configuration.reanchorDistance)
    }

    /// Filters a fix at `coordinate`, taken at `time` seconds, with its reported horizontal
    /// accuracy in metres, if any.
    @discardableResult
    public mutating func update(_ coordinate: Coordinate, time: Double, accuracy: Double?) -> KalmanOutcome {
        let (p, moved) = anchor.project(coordinate)
        if let moved { filter.apply(moved) }
        return filter.update(east: p.east, north: p.north, variance: configuration.variance(accuracy: accuracy), at: time)
    }

    /// The current estimate, nil before the first fix.
    public var estimate: Coordinate? {
        guard filter.isInitialised, let frame = anchor.frame else { return nil }
        return frame.coordinate(at: EastNorth(east: filter.east, north: filter.north))
    }

    /// The estimate's standard deviation per axis, metres (nil before the first fix).
    public var sigma: Double? { filter.isInitialised ? filter.covariance.position.squareRoot() : nil }

    /// Times the frame was re-anchored.
    public var reanchors: Int { anchor.reanchors }
}
