public import TraceGeodesy

/// What smoothing a trace did.
public struct SmoothingSummary: Sendable, Hashable {
    /// Points smoothed.
    public var points = 0
    /// Fixes rejected by the gate.
    public var rejected = 0
    /// Restarts after rejections in a row (the restarting fixes are not counted as rejected).
    public var restarts = 0
    /// Unusable fixes (``KalmanOutcome/invalid``).
    public var invalid = 0
    /// Times the local frame was re-anchored.
    public var reanchors = 0
    /// Mean and largest distance between a fix and its estimate, metres, measured in the fix's
    /// local frame (over the points that have an estimate; far outliers' distances are the
    /// frame's orthographic ones, shorter than on the ellipsoid).
    public var meanCorrection = 0.0, maximumCorrection = 0.0

    /// An empty summary.
    public init() {}

    /// Adds another run's counts (several segments); the mean is weighted by points.
    public mutating func add(_ other: SmoothingSummary) {
        let total = points + other.points
        if total > 0 { meanCorrection = (meanCorrection * Double(points) + other.meanCorrection * Double(other.points)) / Double(total) }
        points = total
        rejected += other.rejected
        restarts += other.restarts
        invalid += other.invalid
        reanchors += other.reanchors
        maximumCorrection = max(maximumCorrection, other.maximumCorrection)
    }
}

/// Smooths a whole trace of coordinates offline: each fix's measurement noise from its reported
/// accuracy (``SmoothingConfiguration``), a local frame that follows the estimate
/// (``AnchoredFrame``, driven by a ``TrackFilter`` run as the fixes are appended, so the frames
/// are those of the online filter), the forward filter and the RTS pass (``RTSSmoother``).
///
/// Usage: ``append(_:time:accuracy:)`` every fix of one segment, ``run(smoothing:)``, then read
/// ``coordinate(at:)``; ``removeAll()`` and reuse for the next segment. Storage is reused; the
/// per-fix cost is dominated by the conversions to and from the local frame.
public struct TrackSmoother: Sendable {
    /// The configuration.
    public let configuration: SmoothingConfiguration
    private var smoother: RTSSmoother
    private var online: TrackFilter
    // The frames in order, and the index of the first point of each.
    private var frames: [LocalFrame] = []
    private var frameStarts: [Int] = []

    /// A smoother with room for `capacity` fixes before it allocates again.
    public init(configuration: SmoothingConfiguration, capacity: Int = 1024) {
        self.configuration = configuration
        smoother = RTSSmoother(parameters: configuration.parameters, capacity: capacity)
        online = TrackFilter(configuration: configuration)
    }

    /// Fixes appended.
    public var count: Int { smoother.count }

    /// Forgets every fix, keeping the storage.
    public mutating func removeAll() {
        smoother.removeAll()
        online = TrackFilter(configuration: configuration)
        frames.removeAll(keepingCapacity: true)
        frameStarts.removeAll(keepingCapacity: true)
    }

    /// Appends a fix at `coordinate` taken at `time` seconds (any clock; not decreasing) with its
    /// reported horizontal accuracy in metres, if any.
    public mutating func append(_ coordinate: Coordinate, time: Double, accuracy: Double?) {
        let s = online.step(coordinate, time: time, accuracy: accuracy)
        if frames.isEmpty {
            frames.append(s.frame)
            frameStarts.append(0)
        }
        smoother.append(east: s.position.east, north: s.position.north, variance: s.variance, at: time)
        if let moved = s.moved {
            // The points from the next one on are in the frame the online filter moved to; the
            // forward pass of run() repeats the same filter, so it moves at the same point.
            smoother.switchFrame(moved)
            frames.append(online.frame!)
            frameStarts.append(smoother.count)
        }
    }

    /// Filters (and, when `smoothing`, smooths) the fixes appended.
    public mutating func run(smoothing: Bool = true) -> SmoothingSummary {
        smoother.run(smoothing: smoothing)
        var summary = SmoothingSummary()
        summary.points = count
        summary.rejected = smoother.rejected
        summary.restarts = smoother.restarts
        summary.invalid = smoother.invalid
        summary.reanchors = online.reanchors
        var total = 0.0
        for i in smoother.firstEstimate..<count {
            let e = smoother.estimate(at: i), z = smoother.measurement(at: i)
            let d = ((e.east - z.east) * (e.east - z.east) + (e.north - z.north) * (e.north - z.north)).squareRoot()
            total += d
            summary.maximumCorrection = max(summary.maximumCorrection, d)
        }
        let estimated = count - smoother.firstEstimate
        summary.meanCorrection = estimated > 0 ? total / Double(estimated) : 0
        return summary
    }

    /// The index of the frame point `i` is expressed in.
    private func frameIndex(of i: Int) -> Int {
        // Binary search for the last start ≤ i (frames are few; this is O(log frames)).
        var lo = 0, hi = frameStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if frameStarts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The estimated position of fix `i` (after ``run(smoothing:)``); nil when the fix has no
    /// estimate (unusable fixes before the first usable one) or the estimate lies beyond the
    /// Earth's outline in its frame (possible only after a long gap carried a fast velocity
    /// thousands of kilometres). The frame follows the estimate, so an estimate is otherwise
    /// within about ``SmoothingConfiguration/reanchorDistance`` of its frame's origin.
    public func coordinate(at i: Int) -> Coordinate? {
        guard smoother.hasEstimate(at: i) else { return nil }
        let e = smoother.estimate(at: i)
        return frames[frameIndex(of: i)].coordinate(at: EastNorth(east: e.east, north: e.north))
    }

    /// The estimate's standard deviation per axis for fix `i`, metres.
    public func sigma(at i: Int) -> Double { smoother.estimate(at: i).covariance.position.squareRoot() }

    /// What the filter did with fix `i`.
    public func outcome(at i: Int) -> KalmanOutcome { smoother.outcome(at: i) }
}
