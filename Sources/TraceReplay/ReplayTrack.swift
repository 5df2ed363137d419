public import TraceDomain
public import TraceGeodesy
import TraceIO
public import TraceSharing

/// What a picture of the trip needs, recorded by the replay only when
/// ``ReplayOptions/recordTrack`` is on: each role's track and delivered updates per state, the
/// cumulative counts and energy over time, and each state's map frame.
///
/// Memory is bounded whatever the trace's length: each (role, state) path and each (role, state)
/// set of updates keeps at most ``ReplayOptions/trackPointsPerPath`` points (+1: the last), and
/// the series at most ``ReplayTrack/seriesLimit`` samples (+1), thinned evenly as they arrive (every
/// k-th, k doubling as needed, see ``Thinned``). With the default 500 that is at most
/// 7 states × 3 roles × 2 × 501 points and 1,025 samples: under 1 MB.
public struct ReplayTrack: Hashable, Sendable {
    /// The most samples the series keeps (+1, the last).
    public static let seriesLimit = 1024

    /// One role's raw fixes in one state, thinned. A path after the role's first state starts
    /// with the role's last position in the previous state, so the paths join up.
    public struct Path: Hashable, Sendable {
        public var role: Role
        public var state: FulfilmentState
        /// Raw fixes the path stands for (before thinning).
        public var fixes: Int
        public var points: [Coordinate]
    }

    /// One delivered update, as drawn.
    public struct Update: Hashable, Sendable {
        public var coordinate: Coordinate
        /// Seconds since the replay's start.
        public var seconds: Double
        /// Whether the phone sent it to the server.
        public var sent: Bool
    }

    /// One role's delivered updates in one state, thinned.
    public struct Updates: Hashable, Sendable {
        public var role: Role
        public var state: FulfilmentState
        /// Updates delivered in the state (before thinning).
        public var delivered: Int
        public var updates: [Update]
    }

    /// Cumulative totals over all phones at one moment.
    public struct Sample: Hashable, Sendable {
        /// Seconds since the replay's start.
        public var seconds: Double
        public var delivered: Int
        public var sent: Int
        /// All phones' energy so far, joules.
        public var energyJoules: Double
        /// Each sender's display error at this moment, metres, indexed by `Role.rawValue` (hirer,
        /// helper, delegate): the distance from its latest raw fix to what the viewers entitled
        /// to see it then draw, the worst of them; nil when no viewer sees it or none has accepted
        /// an update from it yet. A picture's series of the view, sampled with the counts (the
        /// report's display error figures come from the viewers' own clock instead).
        public var displayErrorMetres: [Double?] = [nil, nil, nil]
    }

    /// The region a viewer's map shows at the state's first replayed fix
    /// (``SharingPolicy/region(for:in:request:positions:)``), with the annotations placed at the
    /// parties' latest raw positions, the pickup and the dropoff (the origin at the pickup, the
    /// destination at the dropoff).
    public struct Frame: Hashable, Sendable {
        public var state: FulfilmentState
        public var viewer: Role
        /// Seconds since the replay's start.
        public var seconds: Double
        public var region: MapRegion
    }

    /// The most points kept per role and state, for paths and for updates (+1, the last).
    public var pointsPerPath: Int
    public var paths: [Path]
    public var updates: [Updates]
    public var series: [Sample]
    public var frames: [Frame]
}

/// Collects a ``ReplayTrack`` as the engine replays.
struct TrackRecorder {
    private let limit: Int
    private var paths: [Thinned<Coordinate>?]
    private var updates: [Thinned<ReplayTrack.Update>?]
    private var series = Thinned<ReplayTrack.Sample>(limit: ReplayTrack.seriesLimit)
    private var frames: [ReplayTrack.Frame] = []
    private var framed = [Bool](repeating: false, count: 7)
    private var pathFixes = [Int](repeating: 0, count: 21)
    private var lastState: [FulfilmentState?] = [nil, nil, nil]
    private var delivered = 0, sent = 0

    init(pointsPerPath: Int) {
        limit = max(2, pointsPerPath)
        paths = Array(repeating: nil, count: 21)
        updates = Array(repeating: nil, count: 21)
    }

    /// A raw fix of `role` in `state`; `previous` is the role's position before it.
    mutating func fix(_ c: Coordinate, role: Role, state: FulfilmentState, previous: Coordinate?) {
        let i = state.rawValue * 3 + role.rawValue
        if paths[i] == nil {
            paths[i] = Thinned(limit: limit)
            if let previous, lastState[role.rawValue] != nil { paths[i]!.add(previous) }
        }
        paths[i]!.add(c)
        pathFixes[i] += 1
        lastState[role.rawValue] = state
    }

    mutating func delivered(_ c: Coordinate, role: Role, state: FulfilmentState, seconds: Double, sent isSent: Bool) {
        let i = state.rawValue * 3 + role.rawValue
        if updates[i] == nil { updates[i] = Thinned(limit: limit) }
        updates[i]!.add(ReplayTrack.Update(coordinate: c, seconds: seconds, sent: isSent))
        delivered += 1
        if isSent { sent += 1 }
    }

    /// Whether the next series sample will be kept (energy is computed only for those).
    var wantsSample: Bool { series.keepsNext }

    mutating func sample(seconds: Double, energyJoules: Double, displayErrorMetres: [Double?]) {
        series.add(
            ReplayTrack.Sample(
                seconds: seconds, delivered: delivered, sent: sent, energyJoules: energyJoules, displayErrorMetres: displayErrorMetres))
    }

    /// Offers the next sample without its energy when it will not be kept.
    mutating func skipSample(seconds: Double) {
        series.add(ReplayTrack.Sample(seconds: seconds, delivered: delivered, sent: sent, energyJoules: .nan))
    }

    /// Whether `state` still needs its frames.
    func needsFrame(_ state: FulfilmentState) -> Bool { !framed[state.rawValue] }

    mutating func frames(
        _ state: FulfilmentState, seconds: Double, policy: SharingPolicy, request: RequestContext,
        positions: (Role) -> [MapAnnotation: Coordinate]
    ) {
        framed[state.rawValue] = true
        for viewer in request.viewers {
            guard let region = policy.region(for: viewer, in: state, request: request, positions: positions(viewer)) else { continue }
            frames.append(ReplayTrack.Frame(state: state, viewer: viewer, seconds: seconds, region: region))
        }
    }

    /// The record, with a last sample at `end` carrying the final totals.
    func finish(end: Double, energyJoules: Double) -> ReplayTrack {
        var s = series
        s.add(ReplayTrack.Sample(seconds: end, delivered: delivered, sent: sent, energyJoules: energyJoules))
        var p: [ReplayTrack.Path] = []
        var u: [ReplayTrack.Updates] = []
        for state in FulfilmentState.allCases {
            for role in [Role.helper, .hirer, .delegate] {
                let i = state.rawValue * 3 + role.rawValue
                if let t = paths[i] { p.append(ReplayTrack.Path(role: role, state: state, fixes: pathFixes[i], points: t.elements)) }
                if let t = updates[i] { u.append(ReplayTrack.Updates(role: role, state: state, delivered: t.count, updates: t.elements)) }
            }
        }
        // A sample offered without its energy is kept only as the last offered, which the end
        // sample replaced; none is left, but filter to be sure no NaN reaches a report.
        let samples = s.elements.filter { !$0.energyJoules.isNaN }
        return ReplayTrack(pointsPerPath: limit, paths: p, updates: u, series: samples, frames: frames)
    }
}
