public import TraceDomain
public import TraceGeodesy

/// Streaming statistics of a trace, in bounded memory: what `tracekit info` prints.
///
/// Length is exact to the geodesic: consecutive track points within a segment are measured with
/// ``TangentPlane`` (≤ 0.3 mm per step) and, beyond its domain, the exact solver given at
/// ``init(exact:)`` (TraceProj's `Geodesic()`, Karney's algorithm, in `tracekit info`). The sampling
/// interval median is exact while there are at most 4,096 distinct intervals (then a 10 ms
/// histogram); the accuracy median comes from a 0.1 m histogram up to 10 km. Memory does not grow
/// with the file.
public struct TraceSummary: Sendable {
    public private(set) var tracks = 0
    public private(set) var segments = 0
    public private(set) var trackPoints = 0
    public private(set) var routes = 0
    public private(set) var routePoints = 0
    public private(set) var waypoints = 0
    /// Earliest and latest time of any track point.
    public private(set) var firstTime: Timestamp?
    public private(set) var lastTime: Timestamp?
    /// Track points with a time.
    public private(set) var timedPoints = 0
    /// Sum of the geodesic lengths of the segments, metres.
    public private(set) var length = 0.0
    public private(set) var minimumElevation: Double?
    public private(set) var maximumElevation: Double?
    public private(set) var pointsWithAccuracy = 0
    private var intervals = ExactMedian()
    private var accuracies = Histogram(resolution: 0.1, limit: 10_000)
    /// The previous track point of the segment, if any: its coordinate and time.
    private var previous: Coordinate?
    private var previousTime: Timestamp?
    private let exact: any GeodesicSolver & Sendable

    /// An empty summary; `exact` measures the steps beyond the tangent plane's domain.
    public init(exact: some GeodesicSolver & Sendable) {
        self.exact = exact
    }

    /// Adds one item.
    public mutating func add(_ item: TraceItem) {
        switch item {
        case .trackStart: addMarker(.trackStart)
        case .segmentStart: addMarker(.segmentStart)
        case .routeStart: addMarker(.routeStart)
        case .routePoint: addMarker(.routePoint)
        case .waypoint: addMarker(.waypoint)
        case .trackPoint(let f):
            addTrackPoint(f.coordinate, time: f.time, elevation: f.elevation, accuracy: f.horizontalAccuracy)
        }
    }

    /// Adds every item of `batch`, as ``add(_:)-(TraceItem)`` would one by one (reading the
    /// columns only).
    public mutating func add(_ batch: FixBatch) {
        for i in 0..<batch.count {
            let kind = batch.kind(i)
            if kind == .trackPoint {
                addTrackPoint(
                    batch.coordinate(i), time: batch.time(i), elevation: batch.elevation(i), accuracy: batch.horizontalAccuracy(i))
            } else {
                addMarker(kind)
            }
        }
    }

    /// Counts an item other than a track point.
    private mutating func addMarker(_ kind: FixBatch.Kind) {
        switch kind {
        case .trackStart:
            tracks += 1
            previous = nil
            previousTime = nil
        case .segmentStart:
            segments += 1
            previous = nil
            previousTime = nil
        case .routeStart: routes += 1
        case .routePoint: routePoints += 1
        case .waypoint: waypoints += 1
        case .trackPoint: break
        }
    }

    @inline(__always)
    private mutating func addTrackPoint(_ c: Coordinate, time: Timestamp?, elevation: Double?, accuracy: Double?) {
        trackPoints += 1
        if let t = time {
            timedPoints += 1
            firstTime = min(firstTime ?? t, t)
            lastTime = max(lastTime ?? t, t)
            // Sampling interval: the size of the step, whichever way the file runs (newest-first
            // files step backwards); steps beyond Int64 nanoseconds (292 years) are not sampling.
            if previous != nil, let pt = previousTime, t != pt {
                let (d, overflow) = t.nanoseconds.subtractingReportingOverflow(pt.nanoseconds)
                if !overflow && d != Int64.min { intervals.add(abs(d)) }
            }
        }
        if let p = previous {
            length += TangentPlane.distanceIfNear(from: p, to: c) ?? exact.inverse(from: p, to: c).distance
        }
        if let e = elevation {
            minimumElevation = min(minimumElevation ?? e, e)
            maximumElevation = max(maximumElevation ?? e, e)
        }
        if let a = ReportedAccuracy.usable(accuracy) {  // 0 is "none", as the gate and the smoother read it
            pointsWithAccuracy += 1
            accuracies.add(a)
        }
        previous = c
        previousTime = time
    }

    /// Median interval between consecutive timed points of a segment, seconds (exact while the
    /// trace has at most 4,096 distinct intervals, as sampled traces do; else to 10 ms).
    public var medianInterval: Double? { intervals.median }
    /// Median reported horizontal accuracy, metres (0.1 m resolution).
    public var medianAccuracy: Double? { accuracies.median }
    /// Smallest and largest reported horizontal accuracy, metres.
    public var accuracyRange: ClosedRange<Double>? { accuracies.range }
}

/// Counts in fixed-width bins from 0 to `limit`, plus an overflow bin; exact extremes.
struct Histogram: Sendable {
    let resolution: Double
    let limit: Double
    private var bins: [UInt32]
    private var overflow = 0
    private(set) var count = 0
    private var low = Double.infinity, high = -Double.infinity

    init(resolution: Double, limit: Double) {
        self.resolution = resolution
        self.limit = limit
        bins = []
    }

    mutating func add(_ x: Double) {
        guard x.isFinite, x >= 0 else { return }
        if bins.isEmpty { bins = [UInt32](repeating: 0, count: Int(limit / resolution) + 1) }
        count += 1
        low = min(low, x)
        high = max(high, x)
        if x >= limit { overflow += 1 } else { bins[Int(x / resolution)] &+= 1 }
    }

    /// The median, as the centre of its bin (or the limit when it falls in the overflow).
    var median: Double? {
        guard count > 0 else { return nil }
        let target = (count + 1) / 2
        var seen = 0
        for (i, n) in bins.enumerated() where n > 0 {
            seen += Int(n)
            if seen >= target { return min(max((Double(i) + 0.5) * resolution, low), high) }
        }
        return limit
    }

    var range: ClosedRange<Double>? { count > 0 ? low...high : nil }
}

/// The median of nanosecond intervals: exact counts per distinct value while there are at most
/// 4,096 of them, then a 10 ms histogram up to one hour.
struct ExactMedian: Sendable {
    private var counts: [Int64: Int] = [:]
    private var histogram: Histogram?

    mutating func add(_ nanoseconds: Int64) {
        if var h = histogram {
            h.add(Double(nanoseconds) / 1e9)
            histogram = h
            return
        }
        counts[nanoseconds, default: 0] += 1
        if counts.count > 4096 {
            var h = Histogram(resolution: 0.01, limit: 3600)
            for (v, n) in counts { for _ in 0..<n { h.add(Double(v) / 1e9) } }
            histogram = h
            counts = [:]
        }
    }

    /// Seconds.
    var median: Double? {
        if let h = histogram { return h.median }
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        var seen = 0
        for v in counts.keys.sorted() {
            seen += counts[v]!
            if seen >= (total + 1) / 2 { return Double(v) / 1e9 }
        }
        return nil
    }
}
