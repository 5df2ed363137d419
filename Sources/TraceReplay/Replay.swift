public import TraceDevice
public import TraceDomain
public import TraceEnergy
public import TraceGeodesy
public import TraceIO
import TracePlatform
public import TraceSharing

/// How to replay.
public struct ReplayOptions: Sendable {
    /// The per-state policy (`--policy FILE`).
    public var policy: SharingPolicy = .seed
    /// The battery model's constants (`--energy-profile FILE`).
    public var energyProfile: EnergyProfile = .lte
    /// The profiles each phone's energy is also priced under (``PhoneEnergy/across``), for the
    /// range every report gives beside ``energyProfile``'s figure: the shipped device profiles by
    /// default (``TraceEnergy/EnergyProfile/devices``); empty prices nothing more (the tuner's
    /// candidates, unless its objective is the worst case across them).
    public var energySpread: [EnergyProfile] = EnergyProfile.devices
    /// Whether a viewer's radio is charged for each update it receives (docs/battery-model.md,
    /// "Radio", receptions). On by default: a hirer's phone receiving updates pays for them.
    public var receiverRadio = true
    /// How updates travel to the viewers (`--network`): realistic by default, with the energy
    /// profile's network constants (``TraceEnergy/NetworkProfile``) and the seed of ``phone``.
    public var network = NetworkModel.realistic
    /// What a viewer's map draws between updates (`--viewer`), when chosen; nil (the default):
    /// the model paired with the send rules (``ViewerModel/paired(with:send:)``: the extrapolating
    /// viewer when a sharing state's rule predicts, else the last received position).
    public var chosenViewer: ViewerModel?
    /// The viewer the replay draws with: ``chosenViewer``, else the one paired with the send
    /// rules. Setting it chooses it.
    public var viewer: ViewerModel {
        get { chosenViewer ?? ViewerModel.paired(with: policy, send: send) }
        set { chosenViewer = newValue }
    }
    /// How every phone is emulated besides its state's policy row (TraceDevice's pipeline): accuracy
    /// emulation (off by default), its seed, smoothing before the filter (off by default) and a
    /// delivery model that replaces every state's. The default passes fixes through unchanged.
    public var phone = PhoneConfiguration()
    /// Replaces every state's send rule (`--send`); nil uses the state's
    /// (``TraceSharing/StatePolicy/send``).
    public var send: SendRule?
    /// The inference constants.
    public var rules = InferenceRules.default
    /// How the trace files are read.
    public var read = ReadOptions()
    /// Read every file as this format instead of guessing from its extension.
    public var inputFormat: TraceFormat?
    /// Fixes of one role in one file sorted in memory (a file that is not in time order) and read
    /// from standard input: a larger unordered file is replayed in file order, its late fixes
    /// skipped and counted; larger standard input is refused. Without a trip held in memory
    /// (``memoryLimitTripBytes``), a larger file is read twice. 262,144 fixes take at most 12.6 MB
    /// (24 to 48 bytes each: ``LoadedTrip``).
    public var memoryLimitFixes = 262_144
    /// The most bytes the fixes of a trip replayed after the first pass may take in memory (every
    /// role and file, 24 to 48 bytes a fix: ``LoadedTrip``): within it, the first pass keeps every
    /// fix and the replay reads each file once; beyond it, files with more than
    /// ``memoryLimitFixes`` fixes of a role are read again (two passes; nothing is dropped).
    /// 24 MiB: the 1 M-point GPX of the benchmarks (24 bytes a fix, 24.0 MB) fits, and
    /// `tracekit replay` stays within the 64 MB peak RSS the README and Benchmarks/README state,
    /// also for a file just over it (measured: Benchmarks/README.md). A power of two times the
    /// bytes a fix at 24 and 48 bytes, so full columns are not grown to twice their size.
    public var memoryLimitTripBytes = 24 << 20
    /// Keep a trip replayed after the first pass in memory when it fits ``memoryLimitTripBytes``.
    /// On by default; off reads larger files twice, as before (the results are the same; tests
    /// and the benchmark compare them).
    public var tripInMemory = true
    /// Replay in a single pass when the scenario is complete (``Replay/singlePassApplies(_:spec:)``):
    /// each file is read once. On by default; off always runs the first pass (the results are the
    /// same; tests compare them).
    public var singlePass = true
    /// The exact WGS84 solver for the steps beyond the tangent plane's domain (over 2 km, or near
    /// a pole) and for a viewer's extrapolation along a course: the phones' update gates, the
    /// views, the send rule and the trip split all use it. By default TraceGeodesy's
    /// ``TraceGeodesy/KarneyGeodesic`` (pure Swift), so the replay links no C library; the
    /// `tracekit` command passes TraceProj's `Geodesic` (the same method in PROJ; the two agree
    /// within 10 nm).
    public var exact: any GeodesicDirectSolver & Sendable = KarneyGeodesic.wgs84
    /// The TraceKit version recorded in results.
    public var tracekitVersion = "unspecified"
    /// Record what a picture of the trip needs (``ReplayResult/track``): off by default, since
    /// only the SVG report draws it. Bounded memory (see ``ReplayTrack``).
    public var recordTrack = false
    /// Also measure each viewer's view of each sender, per state (``ReplayResult/viewerViews``):
    /// off by default, since the reports show each sender's view over all its viewers; `tune`
    /// judges a requirement per viewer. The other figures are the same either way.
    public var viewerFigures = false
    /// Measure each sender's view over all its viewers (the display error, staleness and samples
    /// without an update of ``ReplayResult/states`` and ``ReplayResult/roleTotals``): on by
    /// default, since every report shows them. `tune`'s search, which judges each viewer's view
    /// (``viewerFigures``), turns them off; every other figure is the same either way.
    public var senderFigures = true
    /// The views sampled (``ViewSampling``): every one by default. `tune`'s search narrows it to
    /// the views its requirements judge; a narrower set leaves the others out of the result.
    public var sampledViews = ViewSampling.all
    /// With ``recordTrack``: the most points kept per role and state for its path, and again for
    /// its delivered updates (+1, the last), thinned evenly.
    public var trackPointsPerPath = 500
    /// Replay only the fixes timed within this window, inclusive (nanoseconds since 1970): one
    /// trip of a long recording (``Replay/runTrips(_:scenario:options:rules:)``). Untimed points
    /// and waypoints are left out too.
    public var window: ClosedRange<Int64>?

    public init() {}
}

/// A trace file to replay and the role of its tracks and rows that do not name one.
public struct TraceInput: Hashable, Sendable {
    /// A path, or "-" for standard input.
    public var path: String
    public var defaultRole: Role
    public var provenance: Provenance

    public init(path: String, defaultRole: Role = .helper, provenance: Provenance = .flag) {
        self.path = path
        self.defaultRole = defaultRole
        self.provenance = provenance
    }
}

/// Why a replay could not run.
public enum ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A trace could not be opened or read.
    case read(TraceReadError)
    /// The input is unusable (no timed fix, a bad role or state label, a bad timeline): one line
    /// naming the file and the problem.
    case invalid(String)

    public var description: String {
        switch self {
        case .read(let e): e.description
        case .invalid(let m): m
        }
    }
}

/// Replays trace files through the location-sharing state machine.
public enum Replay {
    /// The sidecar beside a trace: `trip.gpx` → `trip.scenario.json`.
    public static func sidecarPath(besides trace: String) -> String {
        let slash = trace.lastIndex(of: "/")
        if let dot = trace.lastIndex(of: "."), slash.map({ dot > $0 }) ?? true, dot != trace.startIndex {
            return String(trace[..<dot]) + ".scenario.json"
        }
        return trace + ".scenario.json"
    }

    /// Replays `inputs` (together with the traces `spec` names) under `spec`, inferring what it
    /// does not give.
    ///
    /// Two passes at most: the first reads every file once to find roles, waypoints, state labels,
    /// dwells and the first and last fixes, keeping every fix in memory while they take at most
    /// ``ReplayOptions/memoryLimitTripBytes`` (then the second replays the trip from memory, as
    /// ``run(_:options:)`` replays a ``LoadedTrip``), else up to ``ReplayOptions/memoryLimitFixes``
    /// fixes per role and file; the second replays, from memory or by reading the larger files
    /// again. When the scenario is complete (``singlePassApplies(_:spec:)``) the first
    /// pass is skipped and each file is read once. Memory is bounded whatever the file size.
    /// - Throws: ``ReplayError``.
    public static func run(_ inputs: [TraceInput], scenario spec: ScenarioSpec, options: ReplayOptions) throws(ReplayError) -> ReplayResult
    {
        var none = NoReplayObserver()
        return try run(inputs, scenario: spec, options: options, observer: &none)
    }

    /// ``run(_:scenario:options:)``, showing `observer` each delivered update as it happens.
    /// - Throws: ``ReplayError``.
    public static func run<Observer: ReplayObserver>(
        _ inputs: [TraceInput], scenario spec: ScenarioSpec, options: ReplayOptions, observer: inout Observer
    ) throws(ReplayError) -> ReplayResult {
        let all = try allInputs(inputs, spec: spec)
        // One pass when nothing is to be inferred and the observer does not see deliveries.
        if triesSinglePass(all, spec: spec, options: options, observer: Observer.self) {
            var engine = Engine(first: nil, inputs: all, spec: spec, options: options, observer: observer)
            if let result = try engine.run() {
                observer = engine.observer
                return result
            }
        }
        let first = try firstPass(all, options: options, keepingTrip: options.tripInMemory)
        if first.holdsTrip {
            // Every fix in memory: the trip is replayed from it, each file read once.
            return try run(LoadedTrip(inputs: all, spec: spec, first: first, options: options), checked: options, observer: &observer)
        }
        var engine = Engine(first: first, inputs: all, spec: spec, options: options, observer: observer)
        defer { observer = engine.observer }
        guard let result = try engine.run() else { preconditionFailure("a replay after the first pass is never abandoned") }
        return result
    }

    /// Whether a replay tries a single pass: ``ReplayOptions/singlePass`` is on, the observer does
    /// not see deliveries (``ReplayObserver/seesDeliveries``: an abandoned single pass would already
    /// have shown its updates) and the scenario is complete (``singlePassApplies(_:spec:)``).
    static func triesSinglePass<Observer: ReplayObserver>(
        _ inputs: [TraceInput], spec: ScenarioSpec, options: ReplayOptions,
        observer: Observer.Type
    ) -> Bool {
        options.singlePass && options.window == nil && !Observer.seesDeliveries && singlePassApplies(inputs, spec: spec)
    }

    /// Whether a replay can skip the first pass: the scenario gives the timeline (complete: through
    /// Completed, or with a cancellation), the pickup and the dropoff (nothing is inferred), and
    /// each file is a different role's and can be read again (not standard input). The single pass
    /// still checks what the first pass would have found, and is abandoned for the two passes when
    /// a file holds a point of another role (a named track, a CSV role column) or goes back in
    /// time (it must be sorted); the dwells that decide when a given dropoff counts as reached are
    /// found as the fixes come.
    static func singlePassApplies(_ inputs: [TraceInput], spec: ScenarioSpec) -> Bool {
        guard let timeline = spec.timeline, spec.pickup != nil, spec.dropoff != nil else { return false }
        guard !ResolvedScenario.isPartial(timeline.value, cancelled: spec.cancelledAt != nil) else { return false }
        guard !inputs.contains(where: { $0.path == "-" }) else { return false }
        return Set(inputs.map(\.defaultRole)).count == inputs.count
    }

    /// `inputs` and the traces `spec` names, each file once (a trace the scenario names takes its
    /// role when a flag gave it or the input's role is the same).
    /// - Throws: ``ReplayError/invalid(_:)`` when there is no trace at all.
    static func allInputs(_ inputs: [TraceInput], spec: ScenarioSpec) throws(ReplayError) -> [TraceInput] {
        var all = inputs
        for role in Role.allCases {
            guard let t = spec.traces[role] else { continue }
            if let i = all.firstIndex(where: { samePath($0.path, t.value) }) {
                if t.provenance == .flag || all[i].defaultRole == role { all[i].defaultRole = role }
                continue
            }
            all.append(TraceInput(path: t.value, defaultRole: role, provenance: t.provenance))
        }
        guard !all.isEmpty else { throw .invalid("no trace to replay") }
        return all
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard a != "-", b != "-", let ra = Platform.resolvedPath(a), let rb = Platform.resolvedPath(b) else { return false }
        return ra == rb
    }

    /// What the first pass found.
    struct FirstPass {
        var records: [(file: Int, record: StreamRecord)] = []
        var files: [FileDiagnostics] = []
        var pickup: Sourced<Coordinate>?
        var dropoff: Sourced<Coordinate>?
        /// Every record's fixes are in its buffer (in time order, or in file order for an unordered
        /// file over ``ReplayOptions/memoryLimitFixes``, as a second read would give them): the
        /// trip can be replayed from memory (``LoadedTrip``).
        var holdsTrip = false
    }

    /// The first pass's account of the fixes it keeps for a trip held in memory.
    struct TripBudget {
        let bytes: Int
        var used = 0
        /// Every fix read so far is kept, within ``bytes``; once false, a record over the per-file
        /// limit keeps none (the two passes, as without a trip held in memory).
        var fits: Bool
        /// The buffers over the per-file limit were dropped when ``fits`` turned false.
        var swept = false

        init(bytes: Int?) {
            self.bytes = bytes ?? 0
            fits = bytes != nil
        }
    }

    /// The first pass. `keepingTrip`: keep every fix while they take at most
    /// ``ReplayOptions/memoryLimitTripBytes`` (``FirstPass/holdsTrip``); otherwise, and once over
    /// it, keep the fixes of a role and file only while they are at most
    /// ``ReplayOptions/memoryLimitFixes`` (standard input never more than that).
    static func firstPass(_ inputs: [TraceInput], options: ReplayOptions, keepingTrip: Bool = false) throws(ReplayError) -> FirstPass {
        var pass = FirstPass()
        let limit = options.memoryLimitFixes
        let window = options.window
        var budget = TripBudget(bytes: keepingTrip ? options.memoryLimitTripBytes : nil)
        for (fileIndex, input) in inputs.enumerated() {
            var reader: RoleReader
            do {
                reader = try RoleReader(
                    path: input.path, format: options.inputFormat, options: options.read, defaultRole: input.defaultRole)
            } catch {
                throw .read(error)
            }
            var records: [StreamRecord?] = [nil, nil, nil]
            var untimed = 0
            while let item = try reader.nextScanned() {
                switch item {
                case .waypoint(let fix):
                    guard window == nil else { continue }  // a trip's pickup and dropoff are inferred
                    let name = fix.name?.trimmingSpaces.lowercased()
                    if name == "pickup", pass.pickup == nil {
                        pass.pickup = Sourced(fix.coordinate, .trace, "waypoint 'pickup' in \(input.path)")
                    } else if name == "dropoff", pass.dropoff == nil {
                        pass.dropoff = Sourced(fix.coordinate, .trace, "waypoint 'dropoff' in \(input.path)")
                    }
                case .point(let point, let state):
                    guard point.timed else {
                        if window == nil { untimed += 1 }
                        continue
                    }
                    if let window, !window.contains(point.fix.time) { continue }
                    let role = point.role
                    if records[role.rawValue] == nil {
                        records[role.rawValue] = StreamRecord(
                            path: input.path, role: role, defaultRole: input.defaultRole, rules: options.rules)
                    }
                    try note(
                        &records[role.rawValue]!, point.fix, state: state, named: point.named, limit: limit,
                        growing: input.path != "-", budget: &budget)
                    if !budget.fits && !budget.swept {
                        // Over the trip's bytes: back to the per-file limit, as if never kept.
                        budget.swept = true
                        for i in records.indices where (records[i]?.buffer?.count ?? 0) > limit { records[i]!.buffer = nil }
                        for i in pass.records.indices where (pass.records[i].record.buffer?.count ?? 0) > limit {
                            pass.records[i].record.buffer = nil
                        }
                    }
                }
            }
            for role in [Role.helper, .hirer, .delegate] {
                guard var r = records[role.rawValue] else { continue }
                if r.buffer == nil && input.path == "-" {
                    throw .invalid(
                        "<stdin>: more than \(limit) fixes for the \(role.key); standard input is held in memory, so replay a file instead")
                }
                // Sorted up to the per-file limit; over it, kept in file order (its late fixes are
                // skipped and counted in the replay, as when the file is read again).
                if r.unordered, r.fixes <= limit, var b = r.buffer {
                    b.sortByTime()
                    r.buffer = b
                    r.scanner = RoleScanner(rules: options.rules)
                    for i in 0..<b.count { r.scanner.add(time: b.times[i], b.coordinates[i]) }
                }
                pass.records.append((fileIndex, r))
            }
            pass.files.append(
                FileDiagnostics(
                    path: input.path == "-" ? "<stdin>" : input.path, format: reader.format,
                    diagnostics: reader.diagnostics, untimedFixes: untimed, outOfOrderFixes: 0))
        }
        pass.holdsTrip = budget.fits
        return pass
    }

    /// Records a timed fix. Its buffer takes it while at most `limit` fixes, or, `growing` (not
    /// standard input), while the trip fits `budget`.
    private static func note(
        _ r: inout StreamRecord, _ f: ReplayFix, state: String?, named: Bool, limit: Int, growing: Bool, budget: inout TripBudget
    ) throws(ReplayError) {
        let time = f.time
        r.fixes += 1
        if named { r.named = true }
        if time < r.lastTime {
            r.unordered = true
        } else {
            r.scanner.add(time: time, f.coordinate)
            r.lastTime = time
        }
        if r.buffer != nil {
            if budget.fits {
                // Counted before the append: a trip over its bytes never grows the columns past them.
                let more = r.buffer!.bytes(appending: f) - r.buffer!.bytes
                if budget.used + more > budget.bytes { budget.fits = false } else { budget.used += more }
            }
            if r.buffer!.count < limit || (growing && budget.fits) {
                r.buffer!.append(f)
            } else {
                r.buffer = nil
            }
        }
        if let label = state, label != r.lastStateLabel {
            r.lastStateLabel = label
            guard r.stateChanges.count < 10_000 else { throw .invalid("\(r.path): the state column changes more than 10000 times") }
            r.stateChanges.append((label, time))
        }
    }
}
