public import TraceDomain
public import TraceJSON
public import TraceSharing

/// What `tracekit tune` may change: per live state, the values of each tuned field. A candidate
/// row is the start policy's row with one value of each axis; every other field (map frame,
/// annotations, what each role sees, the send rule) is the start's, so nothing the user's document
/// fixes is ever tuned. The start's own row is always a candidate too.
///
/// The default (``defaults(for:emulation:)``), for every state whose tier is not off in the start:
/// - distance filter: 0, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300 m;
/// - delivery: Core Location; distance or time with a 30 s and a 60 s heartbeat; Android fused
///   at a 10 s and a 30 s interval (the implicit minimum); speed-elastic (multiplier 1);
/// - accuracy gate: none, or 50 m (fixes without an accuracy delivered);
/// - tier: only with accuracy emulation on: best for navigation, best, nearest ten metres,
///   hundred metres, kilometre. Without emulation the recorded fixes keep their accuracy, so a
///   coarser tier would cost less and lose nothing: the tier is not tuned.
///
/// 132 candidate rows per state without emulation (11 × 6 × 2), 660 with it.
public struct TuneSpace: Hashable, Sendable {
    /// The values of each field tuned in one state.
    public struct Axes: Hashable, Sendable {
        public var distanceFilters: [Double]
        public var deliveries: [DeliveryModel]
        public var accuracyGates: [AccuracyGate?]
        /// Empty: the start's tier.
        public var tiers: [AccuracyTier]

        public init(distanceFilters: [Double], deliveries: [DeliveryModel], accuracyGates: [AccuracyGate?], tiers: [AccuracyTier] = []) {
            self.distanceFilters = distanceFilters
            self.deliveries = deliveries
            self.accuracyGates = accuracyGates
            self.tiers = tiers
        }

        /// Candidate rows per state.
        public var count: Int { distanceFilters.count * deliveries.count * accuracyGates.count * max(tiers.count, 1) }
    }

    /// The states tuned, with their axes (states absent keep the start's row).
    public var states: [(state: FulfilmentState, axes: Axes)]

    public static func == (a: TuneSpace, b: TuneSpace) -> Bool {
        a.states.map(\.state) == b.states.map(\.state) && a.states.map(\.axes) == b.states.map(\.axes)
    }
    public func hash(into h: inout Hasher) {
        for s in states {
            h.combine(s.state)
            h.combine(s.axes)
        }
    }

    public init(states: [(state: FulfilmentState, axes: Axes)]) { self.states = states }

    /// The default axes (see the type's documentation).
    public static func defaultAxes(emulation: Bool) -> Axes {
        Axes(
            distanceFilters: [0, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300],
            deliveries: [
                .coreLocation, .distanceOrTime(interval: 30), .distanceOrTime(interval: 60),
                .androidFused(interval: 10, minUpdateInterval: nil), .androidFused(interval: 30, minUpdateInterval: nil),
                .speedElastic(elasticityMultiplier: 1),
            ],
            accuracyGates: [nil, AccuracyGate(maximumAccuracy: 50)],
            tiers: emulation ? [.bestForNavigation, .best, .nearestTenMeters, .hundredMeters, .kilometer] : [])
    }

    /// The default space for `policy`: every state whose tier is not off.
    public static func defaults(for policy: SharingPolicy, emulation: Bool) -> TuneSpace {
        TuneSpace(states: FulfilmentState.allCases.filter { policy[$0].tier != .off }.map { ($0, defaultAxes(emulation: emulation)) })
    }

    /// The candidate rows of `state` over `base` (the incumbent's row): the start's row first,
    /// then every combination of the axes in order (tier, filter, delivery, gate), without repeats.
    public func candidates(_ state: FulfilmentState, start: StatePolicy, base: StatePolicy) -> [StatePolicy] {
        guard let axes = states.first(where: { $0.state == state })?.axes else { return [base] }
        var rows = [start]
        var seen: Set<StatePolicy> = [start]
        for tier in axes.tiers.isEmpty ? [base.tier] : axes.tiers {
            for filter in axes.distanceFilters {
                for delivery in axes.deliveries {
                    for gate in axes.accuracyGates {
                        var row = base
                        row.tier = tier
                        row.distanceFilter = filter
                        row.delivery = delivery
                        row.accuracyGate = gate
                        if seen.insert(row).inserted { rows.append(row) }
                    }
                }
            }
        }
        return rows
    }

    /// The file format's name and version.
    public static let format = "tracekit-tune-space"
    public static let fileVersion = 1

    /// Reads a space file over the default for `policy`:
    ///
    /// ```json
    /// {
    ///   "format": "tracekit-tune-space", "version": 1,
    ///   "distanceFilterMetres": [0, 25, 50, 100],
    ///   "delivery": [{ "model": "coreLocation" }, { "model": "distanceOrTime", "intervalSeconds": 30 }],
    ///   "accuracyGate": [null, { "maximumMetres": 30 }],
    ///   "states": { "enRoute": { "distanceFilterMetres": [10, 20, 30] }, "inTask": false }
    /// }
    /// ```
    ///
    /// The top-level axes replace the default's in every tuned state; a state's own members
    /// replace them in that state; `false` leaves a state at the start's row. Values use the
    /// policy file's syntax and ranges (`tier` too: a list of tier keys, accepted only with
    /// accuracy emulation on). Every list must be non-empty; unknown members are errors.
    /// - Throws: ``PolicyFileError`` naming the line, column and field.
    public init(fileBytes bytes: [UInt8], file: String, policy: SharingPolicy, emulation: Bool) throws(PolicyFileError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw PolicyFileError(file: file, line: error.line, column: error.column, field: "", message: error.message)
        }
        let reader = SpaceReader(file: file, fields: PolicyFieldReader(file: file), emulation: emulation)
        self = try reader.space(root, policy: policy)
    }
}

/// Validates a space file field by field.
private struct SpaceReader: JSONFieldReading {
    let file: String
    let fields: PolicyFieldReader
    let emulation: Bool
    static let axisKeys = ["distanceFilterMetres", "delivery", "accuracyGate", "tier"]

    func space(_ root: JSONValue, policy: SharingPolicy) throws(PolicyFileError) -> TuneSpace {
        _ = try members(root, "", allowed: ["format", "version"] + Self.axisKeys + ["states"])
        guard let format = root["format"], try string(format, "format") == TuneSpace.format else {
            throw fail(root["format"] ?? root, "format", "expected \"\(TuneSpace.format)\"")
        }
        guard let version = root["version"], try number(version, "version", in: 1...1_000_000, unit: "") == Double(TuneSpace.fileVersion)
        else {
            throw fail(root["version"] ?? root, "version", "expected \(TuneSpace.fileVersion)")
        }
        let base = try axes(root, "", over: TuneSpace.defaultAxes(emulation: emulation))
        var chosen = FulfilmentState.allCases.filter { policy[$0].tier != .off }.map { (state: $0, axes: base) }
        if let states = root["states"] {
            for (key, value) in try members(states, "states", allowed: FulfilmentState.allCases.map(\.key)) {
                let state = FulfilmentState(parsing: key)!
                let path = "states.\(key)"
                if case .bool(let tuned) = value.kind {
                    if !tuned { chosen.removeAll { $0.state == state } }
                    guard !tuned || policy[state].tier != .off else { throw offState(value, path, state) }
                    continue
                }
                guard policy[state].tier != .off else { throw offState(value, path, state) }
                _ = try members(value, path, allowed: Self.axisKeys)
                let a = try axes(value, path, over: base)
                if let i = chosen.firstIndex(where: { $0.state == state }) { chosen[i].axes = a } else { chosen.append((state, a)) }
            }
        }
        chosen.sort { $0.state < $1.state }
        return TuneSpace(states: chosen)
    }

    func offState(_ v: JSONValue, _ path: String, _ state: FulfilmentState) -> PolicyFileError {
        fail(v, path, "location is off in \(state.displayName) in the start policy: no phone sends there, so there is nothing to tune")
    }

    /// The axes of object `v` over `base`.
    func axes(_ v: JSONValue, _ path: String, over base: TuneSpace.Axes) throws(PolicyFileError) -> TuneSpace.Axes {
        var a = base
        func p(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        func list(_ key: String) throws(PolicyFileError) -> [(JSONValue, String)]? {
            guard let x = v[key] else { return nil }
            guard case .array(let items) = x.kind else { throw fail(x, p(key), "expected an array of values, found \(x.typeName)") }
            guard !items.isEmpty else { throw fail(x, p(key), "empty: list at least one value") }
            return items.enumerated().map { ($1, "\(p(key))[\($0)]") }
        }
        if let items = try list("distanceFilterMetres") {
            a.distanceFilters = []
            for (x, at) in items { a.distanceFilters.append(try fields.distanceFilter(x, at)) }
        }
        if let items = try list("delivery") {
            a.deliveries = []
            for (x, at) in items { a.deliveries.append(try fields.delivery(x, at)) }
        }
        if let items = try list("accuracyGate") {
            a.accuracyGates = []
            for (x, at) in items { a.accuracyGates.append(try fields.accuracyGate(x, at)) }
        }
        if let items = try list("tier") {
            guard emulation else {
                throw fail(
                    v["tier"], p("tier"),
                    "tiers are tuned only with accuracy emulation on (--emulate-accuracy): without it the recorded fixes keep their accuracy, so a coarser tier would look free"
                )
            }
            a.tiers = []
            for (x, at) in items {
                let tier = try fields.tier(x, at)
                guard tier != .off else { throw fail(x, at, "off is not a tier to tune: it would stop sharing the state's location") }
                a.tiers.append(tier)
            }
        }
        return a
    }
}
