import TraceDomain
import TraceGeodesy
import TraceJSON

/// The motion a track's fixes imply, checked as they are read: a fix that would take the device
/// faster than ``ReadOptions/maximumSpeed`` (``defaultMaximumSpeed``, 100 m/s or 360 km/h, unless
/// set) is a per-point problem, a ``ProblemKind/speedSpike`` or a ``ProblemKind/teleport``.
///
/// **Fits.** Fix B fits fix A when the distance between them is at most
/// `limit × max(|tB − tA|, 1 s) + accuracy(A) + accuracy(B)`: a jump within the fixes' reported
/// horizontal accuracies is not motion (an accuracy counts when it is finite and above 0,
/// ``ReportedAccuracy``; else 0), and a time step under ``timeStep`` (1 s) counts as 1 s, since
/// receivers stamp whole seconds (a 1 Hz logger's two fixes in one second, a few metres apart,
/// fit). The distance is TraceGeodesy's tangent-plane distance (within 0.3 mm of the geodesic up
/// to 2 km), beyond that the haversine distance (within 0.6 %); a bound on it from the latitude
/// and longitude differences (6,400 km per radian of each, more than the ellipsoid's largest
/// radius of curvature) settles the usual step without either.
///
/// **Reference and window.** Each fix is compared with the reference (the last fix that was
/// neither a spike nor pending) and, when it is less than 1 s after the window's first fix, with
/// that fix too (the window starts at a fix 1 s or more after the previous window's start, and at
/// a teleport): fixes stamped within one second are within `limit × 1 s` of each other, so a run
/// of small steps at the same time (the 2,404 fixes in 5 s of a seconds-for-milliseconds epoch
/// bug) cannot add up to kilometres.
///
/// **Spike or teleport.** A fix that fits neither is pending until the next fix of its key: when
/// that one does not fit the pending fix but fits the reference (and window), the pending fix went
/// away and came back, a *speed spike*, and the reference stays; otherwise it is a *teleport*: the
/// track goes on from it, and it becomes the reference and starts a window. A pending fix is also
/// a teleport when its segment ends, a route point or waypoint is read, the file ends, or
/// ``lookahead`` (64) other track points are read first (other roles' fixes in between).
///
/// **Keys.** The check runs per track segment and per role label (a point's `role` text, as a
/// CSV `role` column writes it): a helper's fix is compared with the helper's, never with a
/// hirer's interleaved in the same segment. At most ``roleLabels`` (8) labels per segment are
/// checked; the points of further labels are not. Points without a time are not checked.
///
/// **Policies.** `report` keeps both kinds and counts them; `fail` stops at the first with an
/// error naming the file and the line of the fix; `filter` (the default) and `skip` drop each spike and start a new
/// segment at each teleport (the fixes after a teleport are the track; dropping them would drop
/// the rest of the trip), done by the motion stage ``openTrace(_:format:options:)`` puts over the
/// reader. The state is a few fixes per key: memory does not grow with the file.
///
/// Prior art: Traccar's `filter.maxSpeed` drops a position whose implied speed from the last kept
/// one is too high (after a real jump it drops everything that follows); GPSBabel's track filter
/// splits a track at a distance (`sdistance`) and its Kalman filter discards points beyond a
/// `max_speed`. Here a jump that comes back is dropped and one that does not is a break.
public enum ImpliedMotion {
    /// The default limit: 100 m/s (360 km/h), above any road vehicle and below any jump worth
    /// reporting.
    public static let defaultMaximumSpeed = 100.0
    /// The shortest time step counted, seconds: a shorter one (or none) counts as this.
    public static let timeStep = 1.0
    /// How many other track points a pending fix waits for its own next fix.
    public static let lookahead = 64
    /// How many role labels per segment are checked.
    public static let roleLabels = 8

    /// ``timeStep`` in nanoseconds.
    static let timeStepNanoseconds: Int64 = 1_000_000_000
    /// An upper bound on the metres per degree of latitude or longitude difference anywhere on
    /// WGS84 (6,400 km × π / 180; the largest radius of curvature is a/√(1 − e²) = 6,399.6 km).
    static let metresPerDegreeBound = 6_400_000.0 * Double.pi / 180
}

/// A track point as the motion check takes it: where, how accurately, whose.
struct TrackSample {
    var coordinate: Coordinate
    /// The reported horizontal accuracy, metres, or 0 when none was (any value that is not
    /// finite and above 0 counts as none, ``ReportedAccuracy``).
    var accuracy: Double
    /// The point's role label (a CSV `role` column, a GPX `<role>`), nil when it has none.
    var role: String?

    @inline(__always) init(_ coordinate: Coordinate, accuracy: Double, role: String? = nil) {
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.role = role
    }
}

/// What the motion check found, for the motion stage (recorded only under `filter` and `skip`): the ordinal of
/// a kept track point (1 for the first) and what it is.
struct MotionMark: Equatable {
    enum Kind: Equatable { case pending, spike, teleport }
    var ordinal: Int
    var kind: Kind
}

/// A step from one fix to another as the rule judges it: whether it fits, its distance, its time
/// and the distance allowed for it.
struct MotionStep {
    var fits: Bool
    var metres: Double
    var seconds: Double
    var allowance: Double
}

/// One fix as the motion check keeps it.
struct MotionFix {
    var latitude: Double
    var longitude: Double
    /// Nanoseconds since 1970.
    var time: Int64
    /// Metres as the reader gave it (0 when none); ``accuracy`` is what counts.
    var reportedAccuracy: Double

    static let none = MotionFix(latitude: 0, longitude: 0, time: 0, reportedAccuracy: 0)

    /// The accuracy the rule counts: the reported one when usable, else 0.
    var accuracy: Double { ReportedAccuracy.usable(reportedAccuracy) ?? 0 }

    var coordinate: Coordinate { Coordinate(uncheckedLatitude: latitude, longitude: longitude) }
}

/// The motion check's state for one key (segment and role label).
struct MotionTrack {
    var label: String?
    var hasReference = false
    var reference = MotionFix.none
    /// The window's first fix, when it is not the reference.
    private var earlierWindow = MotionFix.none
    /// Whether the window starts at the reference (the usual case: a fix 1 s or more after the
    /// last one starts a window).
    private(set) var windowAtReference = true
    var hasPending = false
    var pending = MotionFix.none
    /// The pending fix's line (0 when not needed: no example of either kind wanted, not `fail`),
    /// ordinal, how many other track points it waited, and the jump that made it pending.
    var pendingLine = 0
    var pendingOrdinal = 0
    var pendingWait = 0
    var pendingJump = MotionStep(fits: true, metres: 0, seconds: 0, allowance: 0)

    init(label: String?) { self.label = label }

    /// Whether the usual point can be decided inline: a reference, the window at it, nothing
    /// pending.
    var settled: Bool { hasReference && windowAtReference && !hasPending }

    /// The window's first fix.
    var window: MotionFix { windowAtReference ? reference : earlierWindow }

    /// `f` is the new reference; it starts a window when it is `timeStep` or more from the
    /// window's first fix (or when `restart`: after a teleport).
    mutating func advance(to f: MotionFix, restart: Bool = false) {
        let w = window
        let dw = f.time >= w.time ? f.time &- w.time : w.time &- f.time
        if restart || dw >= ImpliedMotion.timeStepNanoseconds {
            windowAtReference = true
        } else if windowAtReference {
            earlierWindow = reference
            windowAtReference = false
        }
        reference = f
    }

    /// The inline step (``MotionState/takesUsual(latitude:longitude:accuracy:at:)``): `f` is the new reference and starts a
    /// window (it is 1 s or more after the reference, which was the window's first fix).
    @inline(__always) mutating func advanceUsual(to f: MotionFix) { reference = f }
}

/// The motion check's state in a ``PointChecker``: the limit, the keys of the open segment, the
/// count of kept track points, and the marks for the motion stage.
struct MotionState {
    /// Whether the check runs (a limit was given).
    let on: Bool
    /// Metres per second.
    let limit: Double
    /// The limit in degrees of ``ImpliedMotion/metresPerDegreeBound`` per nanosecond: the inline
    /// test's allowance for a step.
    let degreesPerNanosecond: Double
    /// Whether marks are recorded for the motion stage (the `filter` and `skip` policies).
    let recordsMarks: Bool
    var unlabelled = MotionTrack(label: nil)
    var labelled: [MotionTrack] = []
    /// Keys with a pending fix.
    var pendingKeys = 0
    /// Whether the usual point can be decided inline: the check is on, nothing is pending, and the
    /// unlabelled key is settled (``MotionTrack/settled``). Kept by the general path.
    private(set) var inlineReady = false
    /// Kept track points so far (the ordinal of the last one).
    var ordinal = 0
    var marks: [MotionMark] = []

    init(limit: Double?, recordsMarks: Bool) {
        let l = limit ?? .infinity
        on = l.isFinite && l > 0
        self.limit = on ? l : .infinity
        degreesPerNanosecond = on ? l * 1e-9 / ImpliedMotion.metresPerDegreeBound : 0
        self.recordsMarks = on && recordsMarks
    }

    /// The usual track point, decided inline (``PointChecker/acceptTrackPoint(time:line:at:accuracy:)``):
    /// a point without a role label, while ``inlineReady``, 1 s or more after the reference, and
    /// within `limit × step` of it by the cheap bound alone (the accuracies, which can only widen
    /// the allowance, are left out). Takes it and returns true; else changes nothing and returns
    /// whether the check is off (the general path decides when it is on).
    @inline(__always)
    mutating func takesUsual(latitude: Double, longitude: Double, accuracy: Double, at t: Int64) -> Bool {
        guard inlineReady else { return !on }
        let r = unlabelled.reference
        let dt = t &- r.time
        guard dt >= ImpliedMotion.timeStepNanoseconds,
            abs(latitude - r.latitude) + abs(longitude - r.longitude) <= degreesPerNanosecond * Double(dt)
        else { return false }
        unlabelled.advanceUsual(to: MotionFix(latitude: latitude, longitude: longitude, time: t, reportedAccuracy: accuracy))
        ordinal &+= 1
        return true
    }

    /// ``takesUsual(latitude:longitude:accuracy:at:)`` for any point: a track point with a role
    /// label goes to the general path; a route point or waypoint (nil) needs nothing while
    /// nothing is pending.
    @inline(__always)
    mutating func takesUsual(_ track: TrackSample?, at t: Int64) -> Bool {
        guard let track else { return pendingKeys == 0 }
        guard track.role == nil else { return !on }
        return takesUsual(latitude: track.coordinate.latitude, longitude: track.coordinate.longitude, accuracy: track.accuracy, at: t)
    }

    /// Sets ``inlineReady`` after the general path changed the state.
    mutating func settle() { inlineReady = on && pendingKeys == 0 && unlabelled.settled }

    /// Whether `b` fits `a`, and the distance and time step between them.
    func fits(_ a: MotionFix, _ b: MotionFix) -> MotionStep {
        let dt = b.time >= a.time ? b.time &- a.time : a.time &- b.time
        let seconds = Double(dt) * 1e-9
        let allowance = limit * max(seconds, ImpliedMotion.timeStep) + a.accuracy + b.accuracy
        let bound = ImpliedMotion.metresPerDegreeBound * (abs(b.latitude - a.latitude) + abs(b.longitude - a.longitude))
        if bound <= allowance { return MotionStep(fits: true, metres: bound, seconds: seconds, allowance: allowance) }
        let d =
            TangentPlane.distanceIfNear(from: a.coordinate, to: b.coordinate) ?? Haversine.distance(from: a.coordinate, to: b.coordinate)
        return MotionStep(fits: d <= allowance, metres: d, seconds: seconds, allowance: allowance)
    }

    /// Whether `f` fits the reference of `track` and, within a window, the window's first fix;
    /// the jump that does not fit otherwise.
    func fitsTrack(_ track: MotionTrack, _ f: MotionFix) -> MotionStep {
        let r = fits(track.reference, f)
        guard r.fits, !track.windowAtReference else { return r }
        let w = track.window
        let dw = f.time >= w.time ? f.time &- w.time : w.time &- f.time
        guard dw < ImpliedMotion.timeStepNanoseconds else { return r }
        let inWindow = fits(w, f)
        return inWindow.fits ? r : inWindow
    }
}

// The motion check's general path, in the checker (where every reader's points pass).
extension PointChecker {
    /// Takes a kept track point: counts it, lets the pending fixes of other keys wait, decides its
    /// key's pending fix, and judges it (``ImpliedMotion``).
    mutating func takeMotion(_ sample: TrackSample, time: Timestamp?, line: () -> Int) throws(TraceReadError) {
        guard motion.on else { return }
        defer { motion.settle() }
        motion.ordinal += 1
        let key = motionKey(sample.role)
        if motion.pendingKeys > 0 {
            if key != 0 && motion.unlabelled.hasPending { try wait(0) }
            for i in motion.labelled.indices where i + 1 != key && motion.labelled[i].hasPending { try wait(i + 1) }
        }
        guard let key, let t = time?.nanoseconds else { return }
        let f = MotionFix(
            latitude: sample.coordinate.latitude, longitude: sample.coordinate.longitude, time: t, reportedAccuracy: sample.accuracy)
        var track = self[motionTrack: key]
        guard track.hasReference else {
            track.hasReference = true
            track.advance(to: f, restart: true)
            self[motionTrack: key] = track
            return
        }
        if track.hasPending {
            let back = motion.fits(track.pending, f)
            let spike = !back.fits && motion.fitsTrack(track, f).fits
            try decide(&track, spike ? .speedSpike : .teleport, back: spike ? back : nil)
        }
        let judged = motion.fitsTrack(track, f)
        if judged.fits {
            track.advance(to: f)
        } else {
            track.hasPending = true
            track.pending = f
            track.pendingOrdinal = motion.ordinal
            track.pendingWait = 0
            track.pendingJump = judged
            let wanted = policy == .fail || diagnostics.wantsExample(of: .speedSpike) || diagnostics.wantsExample(of: .teleport)
            track.pendingLine = wanted ? line() : 0
            motion.pendingKeys += 1
            if motion.recordsMarks { motion.marks.append(MotionMark(ordinal: motion.ordinal, kind: .pending)) }
        }
        self[motionTrack: key] = track
    }

    /// A route point or waypoint was kept: every pending fix is a teleport (a track's points do
    /// not go on past one).
    mutating func interruptMotion() throws(TraceReadError) {
        guard motion.pendingKeys > 0 else { return }
        defer { motion.settle() }
        try decideAllPending()
    }

    /// The end of the input: every pending fix is a teleport.
    mutating func finishMotion() throws(TraceReadError) {
        guard motion.pendingKeys > 0 else { return }
        defer { motion.settle() }
        try decideAllPending()
    }

    /// A new segment: every pending fix is a teleport, and every key starts afresh.
    mutating func restartMotion() throws(TraceReadError) {
        defer { motion.settle() }
        if motion.pendingKeys > 0 { try decideAllPending() }
        if motion.unlabelled.hasReference { motion.unlabelled = MotionTrack(label: nil) }
        if !motion.labelled.isEmpty { motion.labelled.removeAll(keepingCapacity: true) }
    }

    /// The marks recorded for the motion stage since the last call, oldest first.
    mutating func takeMotionMarks(into marks: inout [MotionMark]) {
        marks.append(contentsOf: motion.marks)
        motion.marks.removeAll(keepingCapacity: true)
    }

    /// Whether marks are waiting for the motion stage.
    var hasMotionMarks: Bool { !motion.marks.isEmpty }

    /// Whether this checker records marks for the motion stage (the check is on, under `filter` or `skip`).
    var motionMarks: Bool { motion.recordsMarks }

    /// The key of a role label: 0 for none, 1… for the labels of the segment; nil when the
    /// segment has ``ImpliedMotion/roleLabels`` labels already.
    private mutating func motionKey(_ role: String?) -> Int? {
        guard let role else { return 0 }
        if let i = motion.labelled.firstIndex(where: { $0.label == role }) { return i + 1 }
        guard motion.labelled.count < ImpliedMotion.roleLabels else { return nil }
        motion.labelled.append(MotionTrack(label: role))
        return motion.labelled.count
    }

    private subscript(motionTrack key: Int) -> MotionTrack {
        get { key == 0 ? motion.unlabelled : motion.labelled[key - 1] }
        set {
            if key == 0 { motion.unlabelled = newValue } else { motion.labelled[key - 1] = newValue }
        }
    }

    /// Another track point was read while key `key` has a pending fix.
    private mutating func wait(_ key: Int) throws(TraceReadError) {
        var track = self[motionTrack: key]
        track.pendingWait += 1
        if track.pendingWait >= ImpliedMotion.lookahead { try decide(&track, .teleport, back: nil) }
        self[motionTrack: key] = track
    }

    private mutating func decideAllPending() throws(TraceReadError) {
        if motion.unlabelled.hasPending {
            var track = motion.unlabelled
            try decide(&track, .teleport, back: nil)
            motion.unlabelled = track
        }
        for i in motion.labelled.indices where motion.labelled[i].hasPending {
            var track = motion.labelled[i]
            try decide(&track, .teleport, back: nil)
            motion.labelled[i] = track
        }
    }

    /// Decides the pending fix of `track` as `kind` (a spike, with the step `back` to the fix that
    /// came back, or a teleport): counts it, keeps it as an example or throws under `fail`, marks
    /// it for the stage, and moves the reference to it when it is a teleport.
    private mutating func decide(_ track: inout MotionTrack, _ kind: ProblemKind, back: MotionStep?)
        throws(TraceReadError)
    {
        track.hasPending = false
        motion.pendingKeys -= 1
        if kind == .teleport { track.advance(to: track.pending, restart: true) }
        if policy == .fail || diagnostics.wantsExample(of: kind) {
            let detail = PointChecker.motionDetail(jump: track.pendingJump, back: back, limit: motion.limit)
            if policy == .fail {
                throw TraceReadError(file: file, line: track.pendingLine, column: 0, message: kind.rawValue + ": " + detail)
            }
            diagnostics.record(Problem(kind: kind, line: track.pendingLine, detail: detail))
        } else {
            diagnostics.record(Problem(kind: kind, line: 0, detail: ""))
        }
        if motion.recordsMarks {
            motion.marks.append(MotionMark(ordinal: track.pendingOrdinal, kind: kind == .speedSpike ? .spike : .teleport))
        }
    }

    /// A problem's detail: the jump, for a spike the step back, and the distance the jump was
    /// allowed: "1.12 km in 1 s and 1.1 km back in 1 s, beyond the 100 m allowed at 100 m/s",
    /// "100.1 m in 0 s, beyond the 100 m allowed at 100 m/s".
    static func motionDetail(jump: MotionStep, back: MotionStep?, limit: Double) -> String {
        func metres(_ m: Double) -> String {
            m < 1000 ? "\(JSONWriter.number((m * 10).rounded() / 10)) m" : "\(JSONWriter.number((m / 10).rounded() / 100)) km"
        }
        func seconds(_ s: Double) -> String { "\(JSONWriter.number((s * 1000).rounded() / 1000)) s" }
        let beyond = "beyond the \(metres(jump.allowance)) allowed at \(JSONWriter.number(limit)) m/s"
        guard let back else { return "\(metres(jump.metres)) in \(seconds(jump.seconds)), \(beyond)" }
        return "\(metres(jump.metres)) in \(seconds(jump.seconds)) and \(metres(back.metres)) back in \(seconds(back.seconds)), \(beyond)"
    }
}
