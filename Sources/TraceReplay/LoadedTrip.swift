public import TraceDomain
public import TraceGeodesy
import TraceIO

/// A trip read once and held in memory, to be replayed under any number of policies without
/// reading, parsing or inferring again (``Replay/run(_:options:)``): what the first pass finds
/// (roles, waypoints, state labels, dwells, first and last fixes, each file's diagnostics), every
/// role's fixes as columns (``FixColumns``, in time order, or in file order for an unordered file
/// over ``ReplayOptions/memoryLimitFixes``, as a second read would give them), and the scenario
/// resolved against them (the pickup, the dropoff and the timeline inferred once).
///
/// **Memory**: 24 bytes a fix (time 8, position 16), plus 8 for each of accuracy, speed and course
/// when some fix of the role's file reports it: 24 to 48 bytes (``bytes``), held within
/// ``ReplayOptions/memoryLimitTripBytes`` (24 MiB by default: 1 M fixes of a GPX of positions and
/// times take 24.0 MB). The dwells, state labels and diagnostics are small beside them.
///
/// **What it fixes**: the options that decide what is read and inferred — ``ReplayOptions/read``,
/// ``ReplayOptions/inputFormat``, ``ReplayOptions/rules`` (the inference constants, the recording
/// gap among them), ``ReplayOptions/window`` and ``ReplayOptions/memoryLimitFixes`` (whether an
/// unordered file is sorted) — and the scenario and inputs it was loaded with. A replay of it takes
/// everything else from its options: the policy, the energy profile, the receiver radio, the phone
/// configuration, the network, the viewer, the send rule, the track and the version.
/// ``Replay/run(_:options:)`` refuses options whose fixed part differs.
public struct LoadedTrip: Sendable {
    /// The traces, with the scenario's (``Replay/allInputs(_:spec:)``).
    let inputs: [TraceInput]
    let spec: ScenarioSpec
    /// The first pass, every record's fixes in its buffer (``Replay/FirstPass/holdsTrip``).
    let first: Replay.FirstPass
    let scans: RoleTable<RoleScan?>
    let scenario: ResolvedScenario
    let reading: Reading

    /// Fixes held, every role and file.
    public let fixes: Int
    /// Bytes the fixes take in memory (24 to 48 a fix; capacity not counted).
    public let bytes: Int

    /// Every timed fix of `role`'s traces that the replay takes (within ``ReplayOptions/window``),
    /// in time order (a stable sort: equal times keep file order): times in nanoseconds since
    /// 1970. The recorded positions `tune`'s limit is computed on (``UpdateLimit``).
    public func fixes(of role: Role) -> (times: [Int64], coordinates: [Coordinate]) {
        var all: [(time: Int64, coordinate: Coordinate)] = []
        for (_, record) in first.records where record.role == role {
            guard let b = record.buffer else { continue }
            for i in 0..<b.count where reading.window.map({ $0.contains(b.times[i]) }) ?? true {
                all.append((b.times[i], b.coordinates[i]))
            }
        }
        let sorted = all.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        return (sorted.map(\.time), sorted.map(\.coordinate))
    }

    /// The options a loaded trip fixes.
    struct Reading {
        var read: ReadOptions
        var inputFormat: TraceFormat?
        var rules: InferenceRules
        var window: ClosedRange<Int64>?
        var memoryLimitFixes: Int

        init(_ o: ReplayOptions) {
            read = o.read
            inputFormat = o.inputFormat
            rules = o.rules
            window = o.window
            memoryLimitFixes = o.memoryLimitFixes
        }

        /// The first option of `o` that differs from these, by its ``ReplayOptions`` name; nil
        /// when none does.
        func mismatch(_ o: ReplayOptions) -> String? {
            let r = o.read
            func same(_ a: Double?, _ b: Double?) -> Bool { a?.bitPattern == b?.bitPattern }
            if r.policy != read.policy || r.zonelessUTCOffset != read.zonelessUTCOffset || r.columns != read.columns
                || !same(r.maximumSpeed, read.maximumSpeed)
            {
                return "read"
            }
            if o.inputFormat != inputFormat { return "inputFormat" }
            if o.rules != rules { return "rules" }
            if o.window != window { return "window" }
            if o.memoryLimitFixes != memoryLimitFixes { return "memoryLimitFixes" }
            return nil
        }
    }

    /// A trip of `first` (``Replay/FirstPass/holdsTrip``), its scenario resolved.
    /// - Throws: ``ReplayError/invalid(_:)`` as the replay would: no timed fix, a state column
    ///   that is not a valid timeline.
    init(inputs: [TraceInput], spec: ScenarioSpec, first: Replay.FirstPass, options: ReplayOptions) throws(ReplayError) {
        precondition(first.holdsTrip, "a loaded trip holds every fix")
        let scans = Engine<NoReplayObserver>.scans(first)
        try Engine<NoReplayObserver>.checkTimed(scans, inputs: inputs, diagnostics: first.files.map(\.diagnostics))
        scenario = try ResolvedScenario(spec: spec, first: first, scans: scans, rules: options.rules)
        self.inputs = inputs
        self.spec = spec
        self.first = first
        self.scans = scans
        reading = Reading(options)
        fixes = first.records.reduce(0) { $0 + ($1.record.buffer?.count ?? 0) }
        bytes = first.records.reduce(0) { $0 + ($1.record.buffer?.bytes ?? 0) }
    }
}

extension LoadedTrip {
    /// The first and last timed fix of any role's traces; nil when there is none.
    var fixSpan: (start: Timestamp, end: Timestamp)? {
        let firsts = Role.allCases.compactMap { scans[$0]?.first?.time }, lasts = Role.allCases.compactMap { scans[$0]?.last?.time }
        guard let a = firsts.min(), let b = lasts.max() else { return nil }
        return (Timestamp(nanoseconds: a), Timestamp(nanoseconds: b))
    }
}

extension Replay {
    /// Reads `inputs` (with the traces `spec` names) once and holds the trip in memory, its
    /// scenario resolved (``LoadedTrip``); nil when its fixes would take more than
    /// ``ReplayOptions/memoryLimitTripBytes`` (replay it with ``run(_:scenario:options:)``, which
    /// reads the larger files twice). ``ReplayOptions/tripInMemory`` does not apply here.
    /// Complexity: one read of every file; memory: ``LoadedTrip/bytes``.
    /// - Throws: ``ReplayError``, as ``run(_:scenario:options:)`` would for the same inputs.
    public static func load(_ inputs: [TraceInput], scenario spec: ScenarioSpec, options: ReplayOptions) throws(ReplayError)
        -> LoadedTrip?
    {
        let all = try allInputs(inputs, spec: spec)
        let first = try firstPass(all, options: options, keepingTrip: true)
        guard first.holdsTrip else { return nil }
        return try LoadedTrip(inputs: all, spec: spec, first: first, options: options)
    }

    /// Replays `trip` under `options` from memory: no file is read, nothing parsed or inferred
    /// again. The result is the one ``run(_:scenario:options:)`` gives for the trip's inputs and
    /// scenario under the same options (tests compare the bytes).
    /// - Throws: ``ReplayError/invalid(_:)`` when an option the trip fixes (``LoadedTrip``:
    ///   `read`, `inputFormat`, `rules`, `window`, `memoryLimitFixes`) differs from the one it was
    ///   loaded with, naming it.
    public static func run(_ trip: LoadedTrip, options: ReplayOptions) throws(ReplayError) -> ReplayResult {
        var none = NoReplayObserver()
        return try run(trip, options: options, observer: &none)
    }

    /// ``run(_:options:)``, showing `observer` each delivered update as it happens.
    /// - Throws: ``ReplayError``, as ``run(_:options:)``.
    public static func run<Observer: ReplayObserver>(_ trip: LoadedTrip, options: ReplayOptions, observer: inout Observer)
        throws(ReplayError) -> ReplayResult
    {
        try check(trip, options)
        return try run(trip, checked: options, observer: &observer)
    }

    /// ``run(_:options:)``, recording the phones' inputs on the way (``DecisionSchedule``): the
    /// schedule finds, without a replay, which other policies would make the same decisions on
    /// this trip. The result is the plain replay's.
    /// - Throws: ``ReplayError``, as ``run(_:options:)``.
    public static func runRecordingDecisions(_ trip: LoadedTrip, options: ReplayOptions) throws(ReplayError)
        -> (result: ReplayResult, schedule: DecisionSchedule)
    {
        try check(trip, options)
        var engine = Engine(trip: trip, options: options, observer: NoReplayObserver())
        engine.decisions = DecisionSchedule(options: options, capacity: trip.fixes)
        guard let result = try engine.run() else { preconditionFailure("a replay from memory is never abandoned") }
        return (result, engine.decisions!)
    }

    /// - Throws: ``ReplayError/invalid(_:)`` naming the first option `trip` fixes that `options` sets otherwise.
    private static func check(_ trip: LoadedTrip, _ options: ReplayOptions) throws(ReplayError) {
        guard let name = trip.reading.mismatch(options) else { return }
        throw .invalid(
            "the trip was loaded with other '\(name)' options than this replay's: load it again with them (a loaded trip fixes read, inputFormat, rules, window and memoryLimitFixes)"
        )
    }

    /// ``run(_:options:observer:)`` with options known to match the trip's.
    static func run<Observer: ReplayObserver>(_ trip: LoadedTrip, checked options: ReplayOptions, observer: inout Observer)
        throws(ReplayError) -> ReplayResult
    {
        var engine = Engine(trip: trip, options: options, observer: observer)
        defer { observer = engine.observer }
        guard let result = try engine.run() else { preconditionFailure("a replay from memory is never abandoned") }
        return result
    }
}
