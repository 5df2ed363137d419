import TraceDomain
import TraceGeodesy

/// The checks every reader applies to a point before it is emitted: position validation, time
/// plausibility and order within a segment, the motion a track point implies (``ImpliedMotion``),
/// and the problem policy. Shared so every format, and every path of a reader, reports the same
/// problems the same way.
package struct PointChecker {
    let file: String
    let policy: ProblemPolicy
    var diagnostics = Diagnostics()
    /// The motion check's state (``ImpliedMotion``).
    var motion: MotionState
    private var previousTime: Timestamp?
    /// Problems of the point being checked, pending the policy decision.
    private var pending: [Problem] = []
    /// Whether `pending` holds a problem (kept apart: reading an array's count is a call in the
    /// readers' fused paths).
    private var hasPending = false

    /// 1970-01-01 and 2100-01-01 in nanoseconds.
    static let earliest = Timestamp(nanoseconds: 0)
    static let latest = Timestamp(nanoseconds: 4_102_444_800 * 1_000_000_000)

    /// Whether time `t` is plausible: from ``earliest`` up to, not including, ``latest``. One
    /// definition for every check of a time (``accept(valid:time:line:ordered:)``'s usual case, its
    /// full checks, the CSV reader's mirrored checks of a newest-first file).
    @inline(__always) static func isPlausible(_ t: Timestamp) -> Bool {
        t >= PointChecker.earliest && t < PointChecker.latest
    }

    /// Whether a position is one ``coordinate(latitude:longitude:line:)`` takes unchanged, noting
    /// nothing: latitude in [-90, 90], longitude in (-180, 180] (so both finite). The readers' fast
    /// paths take only these and hand every other position to the general path, which reports or
    /// normalises it; the general path's own usual case is this test too.
    @inline(__always) static func takesUnchanged(latitude: Double, longitude: Double) -> Bool {
        latitude >= -90 && latitude <= 90 && longitude > -180 && longitude <= 180
    }

    init(file: String, options: ReadOptions) {
        self.file = file
        self.policy = options.policy
        motion = MotionState(limit: options.maximumSpeed, recordsMarks: options.policy.actsOnMotion)
    }

    /// A new segment: time order restarts, and so does the motion check (its pending fixes are
    /// teleports; under `fail` the first is thrown).
    mutating func startSegment() throws(TraceReadError) {
        previousTime = nil
        try restartMotion()
    }

    /// The end of the input: the motion check's pending fixes are teleports (under `fail` the
    /// first is thrown). Every reader calls it once its last point is checked; again, it does
    /// nothing.
    mutating func finishInput() throws(TraceReadError) {
        try finishMotion()
    }

    /// The input ended before its document did: `error` is the reader's (category
    /// ``TraceReadError/Category/truncated``), thrown under `fail`. Otherwise the file's one
    /// ``ProblemKind/truncated`` problem is counted at `line` (where the input ends) with
    /// `detail` (``cutDetail(inside:incomplete:what:)``), and the `dropped` points the cut fell
    /// in are counted as read and dropped (any problem noted for them is forgotten). The reader
    /// then ends as at the end of its document (``finishInput()``), so every point before the cut
    /// stays as read.
    mutating func cutOff(_ error: TraceReadError, line: Int, dropped: Int, _ detail: String) throws(TraceReadError) {
        guard policy != .fail else { throw error }
        pending.removeAll()
        hasPending = false
        diagnostics.pointsRead += dropped
        diagnostics.pointsDropped += dropped
        diagnostics.record(Problem(kind: .truncated, line: line, detail: detail))
    }

    /// The detail of a ``ProblemKind/truncated`` problem: what the input ended inside (e.g.
    /// "<trkpt>", "a feature") and the incomplete points dropped, `what` naming them ("point",
    /// "feature").
    static func cutDetail(inside: String?, incomplete: Int, what: String = "point") -> String {
        let place = inside.map { "the file ends inside \($0)" } ?? "the file ends after its last complete element"
        return incomplete == 0 ? place : "\(place): \(incomplete) incomplete \(what)\(incomplete == 1 ? "" : "s") dropped"
    }

    /// Notes a problem of the current point. `line` and `detail` are evaluated only when needed
    /// (the policy is `fail`, or the problem is kept as an example).
    mutating func note(_ kind: ProblemKind, line: @autoclosure () -> Int, _ detail: @autoclosure () -> String = "") throws(TraceReadError) {
        if policy == .fail {
            let d = detail()
            throw TraceReadError(file: file, line: line(), column: 0, message: kind.rawValue + (d.isEmpty ? "" : ": " + d))
        }
        let keep = diagnostics.wantsExample(of: kind) && !pending.contains { $0.kind == kind }
        pending.append(keep ? Problem(kind: kind, line: line(), detail: detail()) : Problem(kind: kind, line: 0, detail: ""))
        hasPending = true
    }

    /// Validates a raw position; notes the problem and returns nil when it is unusable.
    mutating func coordinate(latitude: Double?, longitude: Double?, line: @autoclosure () -> Int) throws(TraceReadError) -> Coordinate? {
        guard let latitude, let longitude else {
            try note(.missingCoordinate, line: line(), latitude == nil ? "latitude" : "longitude")
            return nil
        }
        // The usual position, as `Coordinate(latitude:longitude:)` would keep it.
        if PointChecker.takesUnchanged(latitude: latitude, longitude: longitude) {
            return Coordinate(uncheckedLatitude: latitude, longitude: longitude)
        }
        guard abs(longitude) <= 360 || !longitude.isFinite else {
            // Beyond one turn either way a longitude is not a convention (0…360) but garbage.
            try note(.invalidCoordinate, line: line(), "longitude \(longitude) is outside [-360, 360] degrees")
            return nil
        }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            try note(.invalidCoordinate, line: line(), error.description)
            return nil
        }
    }

    /// Finishes a point: checks its time (for `ordered` points, those of a track segment: present,
    /// plausible, not going backwards, not repeated), and, for a `trackPoint`, the motion it
    /// implies; applies the policy. Returns the fix to emit, or nil when it is dropped. Counts
    /// every problem.
    mutating func finish(_ fix: Fix?, line: @autoclosure () -> Int, ordered: Bool = true, trackPoint: Bool) throws(TraceReadError) -> Fix? {
        guard let fix else {
            _ = try accept(valid: false, time: nil, line: line(), ordered: ordered, track: nil)  // counted and dropped
            return nil
        }
        if trackPoint {
            let role = fix.role
            if role == nil && ordered {
                let accuracy = fix.horizontalAccuracy ?? 0
                return try acceptTrackPoint(time: fix.time, line: line(), at: fix.coordinate, accuracy: accuracy) ? fix : nil
            }
            let track = TrackSample(fix.coordinate, accuracy: fix.horizontalAccuracy ?? 0, role: role)
            return try accept(valid: true, time: fix.time, line: line(), ordered: ordered, track: track) ? fix : nil
        }
        return try accept(valid: true, time: fix.time, line: line(), ordered: ordered, track: nil) ? fix : nil
    }

    /// ``finish(_:line:ordered:trackPoint:)`` for a reader that keeps the fix itself (no copy):
    /// `valid` says whether it has a usable position, `time` is its time, `track` its position,
    /// accuracy and role when it is a track point (nil for a route point or waypoint). Returns
    /// whether to emit it.
    ///
    /// The usual point is decided here, inlined into the reader (`@inline(always)`: guaranteed,
    /// where `@inline(__always)` may be declined in a large caller): a usable position in a
    /// segment, nothing noted, a plausible time after the previous one, and for a track point
    /// without a role label a step the motion check takes without a distance
    /// (``MotionState/takesUsual(latitude:longitude:accuracy:at:)``); the general checks
    /// (``acceptChecked(valid:time:line:ordered:track:)``), which would note nothing and keep it,
    /// are a call for every other point.
    @inline(always)
    mutating func accept(valid: Bool, time: Timestamp?, line: @autoclosure () -> Int, ordered: Bool = true, track: TrackSample?)
        throws(TraceReadError) -> Bool
    {
        if valid && ordered && !hasPending, let t = time, let p = previousTime, t > p, PointChecker.isPlausible(t),
            motion.takesUsual(track, at: t.nanoseconds)
        {
            diagnostics.pointsRead &+= 1
            previousTime = t
            return true
        }
        return try acceptChecked(valid: valid, time: time, line: line(), ordered: ordered, track: track)
    }

    /// ``accept(valid:time:line:ordered:track:)`` for a track point with a usable position and
    /// nothing noted, in a segment, without a role label: what the readers' fused paths read, as
    /// plain values.
    @inline(always)
    mutating func acceptTrackPoint(time: Timestamp?, line: @autoclosure () -> Int, at coordinate: Coordinate, accuracy: Double)
        throws(TraceReadError) -> Bool
    {
        if !hasPending, let t = time, let p = previousTime, t > p, PointChecker.isPlausible(t),
            motion.takesUsual(latitude: coordinate.latitude, longitude: coordinate.longitude, accuracy: accuracy, at: t.nanoseconds)
        {
            diagnostics.pointsRead &+= 1
            previousTime = t
            return true
        }
        return try acceptChecked(valid: true, time: time, line: line(), ordered: true, track: TrackSample(coordinate, accuracy: accuracy))
    }

    /// ``accept(valid:time:line:ordered:track:)`` with every check, out of line.
    @inline(never)
    private mutating func acceptChecked(valid: Bool, time: Timestamp?, line: @autoclosure () -> Int, ordered: Bool, track: TrackSample?)
        throws(TraceReadError) -> Bool
    {
        diagnostics.pointsRead += 1
        if valid && ordered {
            if let t = time {
                if !PointChecker.isPlausible(t) {
                    try note(.implausibleTime, line: line(), t.iso8601)
                }
                if let p = previousTime {
                    if t < p {
                        try note(.timeWentBackwards, line: line(), "\(t.iso8601) after \(p.iso8601)")
                    } else if t == p {
                        try note(.duplicateTime, line: line(), t.iso8601)
                    }
                }
                previousTime = t
            } else if !pending.contains(where: { $0.kind == .invalidTime }) {
                try note(.missingTime, line: line())
            }
        }
        let drop = !valid || pending.contains { $0.kind.dropsPoint } || (policy == .skip && !pending.isEmpty)
        if !pending.isEmpty {
            for p in pending { diagnostics.record(p) }
            pending.removeAll(keepingCapacity: true)
            hasPending = false
        }
        if drop {
            diagnostics.pointsDropped += 1
            return false
        }
        if let track {
            try takeMotion(track, time: time, line: line)
        } else {
            try interruptMotion()
        }
        return true
    }
}
