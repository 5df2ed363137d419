public import TraceDomain
public import TraceGeodesy
import TraceIO

/// How a long recording is cut into trips (`--gap`, `--stay`, `--stay-radius`; README, "Long
/// recordings: trips").
///
/// - A *recording gap* is a time longer than ``gapSeconds`` with no fix. 10 min: longer than a
///   tunnel, an underground car park or a phone's location pause at a red light, shorter than a
///   meal or a night; trackintel's staypoint and trip generation use the same order (15 min).
/// - A *long stay* is the device within ``stayRadiusMetres`` of one fix (the stay's first, its
///   anchor: the anchor-based "sliding" staypoint rule of trackintel and movingpandas) for at least
///   ``staySeconds``, with no recording gap inside. 100 m and 15 min: trackintel's defaults for a
///   staypoint's distance and for an activity; a phone's network fixes scatter tens of metres
///   around a building, and a pickup wait, a red light or a fuel stop is shorter.
public struct TripRules: Hashable, Sendable {
    /// Seconds without a fix that make a recording gap.
    public var gapSeconds: Double
    /// Seconds within the radius that make a long stay.
    public var staySeconds: Double
    /// Metres.
    public var stayRadiusMetres: Double

    public init(gapSeconds: Double = 600, staySeconds: Double = 900, stayRadiusMetres: Double = 100) {
        self.gapSeconds = gapSeconds
        self.staySeconds = staySeconds
        self.stayRadiusMetres = stayRadiusMetres
    }

    public static let `default` = TripRules()

    /// The gap in nanoseconds.
    var gapNanoseconds: Int64 { Int64((gapSeconds * 1e9).rounded()) }
}

/// What starts or ends a trip.
public enum TripBoundary: String, Hashable, Sendable {
    /// The first or last fix of the recording.
    case recording = "the recording"
    /// A recording gap (``TripRules/gapSeconds``).
    case gap = "a recording gap"
    /// A long stay (``TripRules/staySeconds``).
    case stay = "a long stay"
}

/// One piece of a recording: a trip or a long stay. The fixes in neither are *stationary*: a
/// stretch between gaps or stays in which the device never went farther than the stay radius from
/// the first of them.
public struct RecordingPiece: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A trip: ``TripSplit/trips`` holds it at this index.
        case trip(Int)
        /// A long stay: its fixes after the anchor (the arrival, the last fix of the trip before)
        /// and before its last fix when a trip follows (the departure, that trip's first fix).
        case stay
    }

    public var kind: Kind
    /// The piece's first and last times; a stay's own fixes are those strictly after ``start``
    /// and before ``end`` (or at ``end`` when ``includesEnd``).
    public var start: Timestamp
    public var end: Timestamp
    /// Whether a fix at ``end`` belongs to the piece (a stay that ends a segment: no trip follows).
    public var includesEnd: Bool
    /// The centre of a stay: its anchor.
    public var anchor: Coordinate

    /// Whether a fix at time `t` belongs to the piece.
    public func contains(_ t: Int64) -> Bool {
        switch kind {
        case .trip: t >= start.nanoseconds && t <= end.nanoseconds
        case .stay: t > start.nanoseconds && (t < end.nanoseconds || (includesEnd && t == end.nanoseconds))
        }
    }
}

/// A trip of a long recording: from a departure to an arrival, each the recording's own start or
/// end, a recording gap or a long stay.
public struct Trip: Hashable, Sendable {
    /// 1-based, in time order.
    public var index: Int
    /// The trip's first and last fix times (inclusive).
    public var start: Timestamp
    public var end: Timestamp
    /// The trip's fixes as the split pass counted them.
    public var fixes: Int
    /// The path length, fix to fix.
    public var distanceMetres: Double
    /// What the trip starts after and ends before.
    public var startsAfter: TripBoundary
    public var endsAt: TripBoundary
    public var first: Coordinate
    public var last: Coordinate

    public var durationSeconds: Double { end.seconds(since: start) }

    /// Whether a fix at `t` is the trip's (its window, inclusive).
    public func contains(_ t: Int64) -> Bool { t >= start.nanoseconds && t <= end.nanoseconds }
}

/// A recording cut into trips: the trips, the pieces between them, and what the counts add up to.
public struct TripSplit: Hashable, Sendable {
    public var rules: TripRules
    public var trips: [Trip] = []
    /// The trips and long stays, in time order; a fix in neither is stationary (or out of order).
    public var pieces: [RecordingPiece] = []
    /// The recording gaps, the fixes either side: the first ``maximumGapsListed``.
    public var gaps: [(from: Timestamp, to: Timestamp)] = []
    /// Recording gaps, all of them, and the time they cover.
    public var gapCount = 0
    public var gapSeconds = 0.0
    public static let maximumGapsListed = 1000
    /// Timed fixes seen, in time order or not.
    public var fixes = 0
    /// Fixes earlier than one before them in the file (the recording was then sorted by time
    /// before it was split: ``find(_:options:rules:)``).
    public var outOfOrder = 0
    /// Fixes in long stays and in stationary pieces, as the split pass counted them.
    public var inStays = 0
    public var stationary = 0

    public init(rules: TripRules) { self.rules = rules }

    public static func == (a: TripSplit, b: TripSplit) -> Bool {
        a.rules == b.rules && a.trips == b.trips && a.pieces == b.pieces && a.fixes == b.fixes && a.outOfOrder == b.outOfOrder
            && a.inStays == b.inStays && a.stationary == b.stationary && a.gapCount == b.gapCount
            && a.gaps.map(\.from) == b.gaps.map(\.from)
            && a.gaps.map(\.to) == b.gaps.map(\.to)
    }

    public func hash(into h: inout Hasher) {
        h.combine(trips)
        h.combine(pieces)
        h.combine(fixes)
    }

    /// The piece a fix at `t` belongs to, if any: a trip first (a trip's last fix is also a
    /// stay's anchor), by binary search over the pieces in time order.
    public func piece(at t: Int64) -> RecordingPiece? {
        var lo = 0, hi = pieces.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pieces[mid].end.nanoseconds < t { lo = mid + 1 } else { hi = mid }
        }
        // Pieces that end at or after t, from the first; they may share a boundary time.
        var i = lo
        while i < pieces.count, pieces[i].start.nanoseconds <= t {
            if pieces[i].contains(t) { return pieces[i] }
            i += 1
        }
        return nil
    }

    /// The index (into ``trips``) of the trip a fix at `t` belongs to, if any.
    public func trip(at t: Int64) -> Int? {
        if case .trip(let k) = piece(at: t)?.kind { return k }
        return nil
    }
}

/// Finds the trips of a recording from its fixes in time order, in one pass and O(1) memory per
/// fix (the trips and pieces grow with the recording's span, not its fixes).
///
/// The rule (README, "Long recordings: trips"):
/// 1. Recording gaps cut the recording into segments.
/// 2. In a segment, stays are found anchor-based: each fix within the radius of the stay's anchor
///    extends it; the first fix beyond closes it and anchors the next. A stay lasting at least
///    ``TripRules/staySeconds`` (anchor to last fix within) is long.
/// 3. The fixes between long stays, gaps and the recording's ends are trip candidates: a
///    candidate runs from the last fix of the long stay before it (the departure) to the anchor of
///    the long stay after it (the arrival), so consecutive trips share no fix but each keeps its
///    ends. A candidate is a trip when some fix is farther than the radius from its first;
///    otherwise it is stationary.
/// 4. A long stay's other fixes are in no trip, and counted.
public struct TripSplitter {
    public let rules: TripRules
    private let gap: Int64
    private let stayNanoseconds: Int64
    private let radius: Double
    private let geodesic: any GeodesicSolver & Sendable
    private(set) var split: TripSplit

    private struct Candidate {
        var start: (time: Int64, coordinate: Coordinate)
        var startsAfter: TripBoundary
        /// Fixes, distance and motion up to and including the current stay's anchor.
        var fixes = 1
        var distance = 0.0
        var moved = false
    }

    private struct Stay {
        var anchor: (time: Int64, coordinate: Coordinate)
        var lastInside: (time: Int64, coordinate: Coordinate)
        /// Fixes after the anchor within the radius, their path, and whether one is beyond the
        /// radius of the candidate's start.
        var after = 0
        var distance = 0.0
        var movedFromStart = false
    }

    private var candidate: Candidate?
    private var stay: Stay?
    private var last: (time: Int64, coordinate: Coordinate)?

    /// A splitter by `rules`; `exact` measures the steps beyond the tangent plane's domain (over
    /// 2 km, or near a pole).
    public init(rules: TripRules = .default, exact: any GeodesicSolver & Sendable) {
        self.rules = rules
        geodesic = exact
        gap = rules.gapNanoseconds
        stayNanoseconds = Int64((rules.staySeconds * 1e9).rounded())
        radius = rules.stayRadiusMetres
        split = TripSplit(rules: rules)
    }

    /// Feeds the next fix.
    public mutating func add(time: Int64, _ c: Coordinate) {
        split.fixes += 1
        guard let previous = last else {
            last = (time, c)
            begin(time, c, after: .recording)
            return
        }
        if time < previous.time {
            split.outOfOrder += 1  // the caller sorts and splits again
            return
        }
        if time - previous.time > gap {
            endSegment(at: .gap)
            split.gapCount += 1
            split.gapSeconds += Double(time - previous.time) / 1e9
            if split.gaps.count < TripSplit.maximumGapsListed {
                split.gaps.append((Timestamp(nanoseconds: previous.time), Timestamp(nanoseconds: time)))
            }
            last = (time, c)
            begin(time, c, after: .gap)
            return
        }
        let step = TangentPlane.distance(from: previous.coordinate, to: c, fallback: geodesic)
        last = (time, c)
        guard var s = stay, var k = candidate else { return }
        if RoleScanner.within(s.anchor.coordinate, c, radius) {
            s.after += 1
            s.lastInside = (time, c)
            s.distance += step
            if !s.movedFromStart, !RoleScanner.within(k.start.coordinate, c, radius) { s.movedFromStart = true }
            stay = s
            return
        }
        // The fix leaves the stay.
        if s.lastInside.time - s.anchor.time >= stayNanoseconds {
            finish(k, at: s.anchor, endsAt: .stay)
            piece(.stay, from: s.anchor.time, to: s.lastInside.time, includesEnd: false, anchor: s.anchor.coordinate)
            split.inStays += max(0, s.after - 1)
            k = Candidate(start: s.lastInside, startsAfter: .stay)
        } else {
            k.fixes += s.after
            k.distance += s.distance
            k.moved = k.moved || s.movedFromStart
        }
        k.fixes += 1
        k.distance += step
        if !k.moved, !RoleScanner.within(k.start.coordinate, c, radius) { k.moved = true }
        candidate = k
        stay = Stay(anchor: (time, c), lastInside: (time, c))
    }

    private mutating func begin(_ time: Int64, _ c: Coordinate, after: TripBoundary) {
        candidate = Candidate(start: (time, c), startsAfter: after)
        stay = Stay(anchor: (time, c), lastInside: (time, c))
    }

    /// Ends the segment at the last fix: the open stay is long (the candidate ends at its anchor)
    /// or part of the candidate.
    private mutating func endSegment(at boundary: TripBoundary) {
        guard var k = candidate, let s = stay, let end = last else { return }
        if s.after > 0, s.lastInside.time - s.anchor.time >= stayNanoseconds {
            finish(k, at: s.anchor, endsAt: .stay)
            piece(.stay, from: s.anchor.time, to: s.lastInside.time, includesEnd: true, anchor: s.anchor.coordinate)
            split.inStays += s.after
        } else {
            k.fixes += s.after
            k.distance += s.distance
            k.moved = k.moved || s.movedFromStart
            finish(k, at: end, endsAt: boundary)
        }
        candidate = nil
        stay = nil
    }

    private mutating func finish(_ k: Candidate, at end: (time: Int64, coordinate: Coordinate), endsAt: TripBoundary) {
        if k.moved {
            let index = split.trips.count
            split.trips.append(
                Trip(
                    index: index + 1, start: Timestamp(nanoseconds: k.start.time), end: Timestamp(nanoseconds: end.time),
                    fixes: k.fixes, distanceMetres: k.distance, startsAfter: k.startsAfter, endsAt: endsAt, first: k.start.coordinate,
                    last: end.coordinate))
            piece(.trip(index), from: k.start.time, to: end.time, includesEnd: true, anchor: k.start.coordinate)
        } else {
            split.stationary += k.fixes  // no piece: a fix in no trip or stay is stationary
        }
    }

    private mutating func piece(_ kind: RecordingPiece.Kind, from: Int64, to: Int64, includesEnd: Bool, anchor: Coordinate) {
        split.pieces.append(
            RecordingPiece(
                kind: kind, start: Timestamp(nanoseconds: from), end: Timestamp(nanoseconds: to), includesEnd: includesEnd, anchor: anchor))
    }

    /// The split, once every fix was fed.
    public mutating func finish() -> TripSplit {
        endSegment(at: .recording)
        return split
    }
}
