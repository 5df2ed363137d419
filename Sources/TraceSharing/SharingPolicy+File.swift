public import TraceDomain
public import TraceJSON

/// A policy file that could not be used: where, which field, and why (one line). The project's
/// other JSON files (energy profiles, scenarios, baselines) report with the same type.
public typealias PolicyFileError = JSONFileError

/// Policy files: JSON, versioned, overriding any field of the seed table.
///
/// ```json
/// {
///   "format": "tracekit-policy",
///   "version": 3,
///   "name": "quieter en route",
///   "states": {
///     "enRoute": {
///       "tier": "nearestTenMeters",
///       "frameMetres": 500,
///       "distanceFilterMetres": 50,
///       "delivery": { "model": "androidFused", "intervalSeconds": 10, "minUpdateIntervalSeconds": null },
///       "accuracyGate": { "maximumMetres": 30, "withoutAccuracy": "deliver" },
///       "send": { "rule": "deadReckoning", "thresholdMetres": null, "heartbeatSeconds": 30 },
///       "shows": { "route": false, "routeLines": false, "destination": false },
///       "annotations": {
///         "hirer": ["helperLocation", { "annotation": "pickupPoint", "ridesOnly": true }],
///         "helper": ["helperLocation", "pickupPoint"]
///       }
///     }
///   }
/// }
/// ```
///
/// A policy written by `tracekit tune --out` also has a `tuned` member (version 3; ``PolicyTuning``):
/// `tracekitVersion`, `corpus` (an array of strings), `trips`, `requirements` (an array of
/// strings), `judged`, `objective` and `start`, all required within it. It records where the
/// policy came from and changes nothing in a replay.
///
/// Every member except `format` and `version` is optional: a state or field that is absent keeps
/// the seed's value; `"accuracyGate": null` removes a gate. States are keyed as in
/// ``FulfilmentState/key``; tiers by ``AccuracyTier/key`` or the Core Location name; annotations by
/// ``MapAnnotation/key``. Unknown members are errors (a typo must not be silently ignored).
///
/// `delivery` (``DeliveryModel``) is an object whose `model` is one of:
/// - `"coreLocation"` (the seed's, no other member);
/// - `"androidFused"` with `intervalSeconds` and optional `minUpdateIntervalSeconds` (absent or
///   `null`: Android's implicit minimum, the interval);
/// - `"speedElastic"` with optional `elasticityMultiplier` (default 1; 0 disables elasticity);
/// - `"distanceOrTime"` and `"distanceAndTime"` with `intervalSeconds`.
///
/// `accuracyGate` (``AccuracyGate``) is `null` or an object with `maximumMetres` and optional
/// `withoutAccuracy`: `"deliver"` (the default) or `"drop"`, for fixes that report no accuracy.
///
/// `send` (``SendRule``: which delivered fixes the app sends) is an object whose `rule` is one of:
/// - `"everyDelivered"` (the seed's, no other member);
/// - `"deadReckoning"` with optional `thresholdMetres` (absent or `null`: the state's distance
///   filter) and optional `heartbeatSeconds` (absent: ``SendRule/defaultHeartbeatSeconds``, 30).
///
/// Ranges (``SharingPolicy/Limits``): frame in [1, 20,000,000] m; distance filter 0 or in
/// [0.01, 100,000] m; intervals in [0.001, 86,400] s; the minimum update interval 0 or in
/// [0.001, 86,400] s and not above the interval (Android would silently lower it); elasticity
/// multiplier in [0, 100]; gate in [0.1, 100,000] m; dead-reckoning threshold in [0.01, 100,000] m
/// and heartbeat in [0.001, 86,400] s. Across fields:
/// `hirerLocation` must be `ridesOnly` (the document's privacy rule); no live location
/// (`helperLocation`, `hirerLocation`) and no `deadReckoning` rule where the tier is off (nothing
/// is sent there); `routeLines` only with `route`; no control characters in `name` (C0, DEL, C1: ``TraceJSON/ShownText/isControl(_:)``).
///
/// Versions 1 and 2 are still read. Version 2 files have no `send` (every delivered fix is sent);
/// a `send` in one is refused, naming the version it needs. Version 1 files have no `delivery`,
/// `accuracyGate` or `send`; their optional `minimumIntervalSeconds` becomes `distanceAndTime` and
/// `heartbeatSeconds` becomes `distanceOrTime` (the same rules); a state with both is refused, as
/// no single model is both.
extension SharingPolicy {
    /// The policy file version this TraceKit writes; it also reads versions 1 and 2.
    public static let fileVersion = 3

    /// The versions this TraceKit reads, oldest first.
    public static let readableFileVersions = 1...fileVersion

    /// Reads a policy file's bytes; `file` names it in errors.
    /// - Throws: ``PolicyFileError`` for a syntax error (line and column) or an invalid field
    ///   (line, column and path).
    public init(fileBytes bytes: [UInt8], file: String) throws(PolicyFileError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw PolicyFileError(file: file, line: error.line, column: error.column, field: "", message: error.message)
        }
        var reader = PolicyReader(file: file)
        self = try reader.policy(root)
    }

    /// The complete policy as a policy file of the current version (``fileVersion``, 3: every
    /// state, every field, the send rule included).
    public var fileJSON: JSONValue {
        let states = FulfilmentState.allCases.map { ($0.key, self[$0].fileRowJSON) }
        var members: [(String, JSONValue)] = [
            ("format", .string("tracekit-policy")), ("version", .number(Double(SharingPolicy.fileVersion))),
            ("name", .string(name)),
        ]
        if let t = tuning {
            members.append(
                (
                    "tuned",
                    .object([
                        ("tracekitVersion", .string(t.tracekitVersion)), ("corpus", .array(t.corpus.map { .string($0) })),
                        ("trips", .number(Double(t.trips))), ("requirements", .array(t.requirements.map { .string($0) })),
                        ("judged", .string(t.judged)), ("objective", .string(t.objective)), ("start", .string(t.start)),
                    ])
                ))
        }
        members.append(("states", .object(states)))
        return .object(members)
    }
}

extension StatePolicy {
    /// The row as a policy file's state object (every field).
    public var fileRowJSON: JSONValue {
        let row = self
        func rules(_ list: [AnnotationRule]) -> JSONValue {
            .array(
                list.map {
                    $0.ridesOnly
                        ? .object([("annotation", .string($0.annotation.key)), ("ridesOnly", .bool(true))]) : .string($0.annotation.key)
                })
        }
        return .object([
            ("tier", .string(row.tier.key)),
            ("frameMetres", .number(row.frame)),
            ("distanceFilterMetres", .number(row.distanceFilter)),
            ("delivery", row.delivery.fileJSON),
            (
                "accuracyGate",
                row.accuracyGate.map {
                    .object([
                        ("maximumMetres", .number($0.maximumAccuracy)),
                        ("withoutAccuracy", .string($0.deliversWithoutAccuracy ? "deliver" : "drop")),
                    ])
                } ?? .null
            ),
            ("send", row.send.fileJSON),
            (
                "shows",
                .object([
                    ("route", .bool(row.shows.route)), ("routeLines", .bool(row.shows.routeLines)),
                    ("destination", .bool(row.shows.destination)),
                ])
            ),
            ("annotations", .object([("hirer", rules(row.hirerAnnotations)), ("helper", rules(row.helperAnnotations))])),
        ])
    }
}

/// The readers of single policy-file fields, with the policy file's ranges and messages, for
/// files that list values of them (`tracekit tune`'s search space). Paths name the value in
/// the caller's file.
public struct PolicyFieldReader: Sendable {
    private let reader: PolicyReader

    /// A reader whose errors name `file`.
    public init(file: String) { reader = PolicyReader(file: file) }

    /// A `tier` value: a tier key or Core Location name.
    public func tier(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> AccuracyTier {
        try reader.row(.object([("tier", v)]), path, base: SharingPolicy.seed[.enRoute], prefixed: false).tier
    }

    /// A `distanceFilterMetres` value.
    public func distanceFilter(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> Double {
        try reader.distanceFilter(v, path)
    }

    /// A `delivery` object.
    public func delivery(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> DeliveryModel {
        try reader.delivery(v, path)
    }

    /// An `accuracyGate` object, or `null` for no gate.
    public func accuracyGate(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> AccuracyGate? {
        v.kind == .null ? nil : try reader.accuracyGate(v, path)
    }
}

extension SharingPolicy {
    /// The ranges a policy file's values must be in. The minima keep values that parse but mean
    /// nothing out of every replay (a frame of 5e-324 m, an interval of 1e-300 s): a map frame of
    /// at least 1 m, intervals and heartbeats of at least 1 ms, a distance filter of 0 (every fix)
    /// or at least 1 cm, an accuracy gate of at least 10 cm, a dead-reckoning threshold of at least
    /// 1 cm; the maxima are a day, 100 km and the Earth's half circumference for a frame.
    public enum Limits {
        public static let frame: ClosedRange<Double> = 1...20_000_000
        /// Delivery intervals, Android's minimum update interval (or 0), heartbeats; seconds.
        public static let interval: ClosedRange<Double> = 0.001...86_400
        /// The distance filter when not 0, metres.
        public static let distanceFilter: ClosedRange<Double> = 0.01...100_000
        public static let gate: ClosedRange<Double> = 0.1...100_000
        public static let threshold: ClosedRange<Double> = 0.01...100_000
    }
}

/// Validates a parsed policy document field by field.
private struct PolicyReader: JSONFieldReading, Sendable {
    /// A distance filter: 0 (every fix) or in ``SharingPolicy/Limits/distanceFilter``.
    func distanceFilter(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> Double {
        try zeroOrAtLeast(v, path, SharingPolicy.Limits.distanceFilter, unit: "metres")
    }

    /// A number that is 0 or in `range`.
    func zeroOrAtLeast(_ v: JSONValue, _ path: String, _ range: ClosedRange<Double>, unit: String) throws(PolicyFileError) -> Double {
        if case .number(0) = v.kind { return 0 }
        guard case .number(let x) = v.kind, !range.contains(x) else { return try number(v, path, in: range, unit: unit) }
        throw fail(
            v, path,
            "must be 0 or at least \(JSONWriter.number(range.lowerBound)) and at most \(JSONWriter.number(range.upperBound)) \(unit), got \(JSONWriter.number(x))"
        )
    }

    let file: String
    /// The version the file declares (one of ``SharingPolicy/readableFileVersions``), once read.
    var fileVersion = SharingPolicy.fileVersion

    mutating func policy(_ root: JSONValue) throws(PolicyFileError) -> SharingPolicy {
        let top = try members(root, "", allowed: ["format", "version", "name", "tuned", "states"])
        guard let format = root["format"] else {
            throw fail(root, "format", "missing; a policy file starts with \"format\": \"tracekit-policy\"")
        }
        guard try string(format, "format") == "tracekit-policy" else { throw fail(format, "format", "expected \"tracekit-policy\"") }
        guard let version = root["version"] else {
            throw fail(root, "version", "missing; this TraceKit reads \(Self.readable)")
        }
        let v = try number(version, "version", in: 1...1_000_000, unit: "")
        guard SharingPolicy.readableFileVersions.contains(where: { Double($0) == v }) else {
            throw fail(version, "version", "unsupported version \(JSONWriter.number(v)); this TraceKit reads \(Self.readable)")
        }
        fileVersion = Int(v)
        var policy = SharingPolicy.seed
        policy.name = try root["name"].map { (n) throws(PolicyFileError) in try string(n, "name") } ?? "unnamed"
        if let n = root["name"], policy.name.unicodeScalars.contains(where: ShownText.isControl) {
            throw fail(n, "name", "must not contain control characters (line breaks, tabs)")
        }
        _ = top
        if let t = root["tuned"] {
            guard fileVersion >= 3 else { throw fail(t, "tuned", "needs version 3; this file declares version \(fileVersion)") }
            policy.tuning = try tuning(t)
        }
        if let states = root["states"] {
            for (key, value) in try members(states, "states", allowed: FulfilmentState.allCases.map(\.key)) {
                let state = FulfilmentState(parsing: key)!
                policy[state] = try row(value, "states.\(key)", base: policy[state])
                try consistency(policy[state], value, "states.\(key)")
            }
        }
        return policy
    }

    /// "versions 1 to 3", for messages.
    static let readable =
        "versions \(SharingPolicy.readableFileVersions.lowerBound) to \(SharingPolicy.readableFileVersions.upperBound)"

    /// The `tuned` member (``PolicyTuning``).
    func tuning(_ v: JSONValue) throws(PolicyFileError) -> PolicyTuning {
        let keys = ["tracekitVersion", "corpus", "trips", "requirements", "judged", "objective", "start"]
        _ = try members(v, "tuned", allowed: keys)
        func required(_ key: String) throws(PolicyFileError) -> JSONValue {
            guard let x = v[key] else { throw fail(v, "tuned.\(key)", "missing") }
            return x
        }
        func strings(_ key: String) throws(PolicyFileError) -> [String] {
            let x = try required(key)
            guard case .array(let items) = x.kind else {
                throw fail(x, "tuned.\(key)", "expected an array of strings, found \(x.typeName)")
            }
            var list: [String] = []
            for (i, item) in items.enumerated() { list.append(try string(item, "tuned.\(key)[\(i)]")) }
            return list
        }
        return PolicyTuning(
            tracekitVersion: try string(try required("tracekitVersion"), "tuned.tracekitVersion"), corpus: try strings("corpus"),
            trips: Int(try number(try required("trips"), "tuned.trips", in: 0...1e12, unit: "")),
            requirements: try strings("requirements"), judged: try string(try required("judged"), "tuned.judged"),
            objective: try string(try required("objective"), "tuned.objective"), start: try string(try required("start"), "tuned.start"))
    }

    /// A state row over `base`; `prefixed`: member paths are `path.member` (false: `path` names
    /// the lone member's value, for ``PolicyFieldReader``).
    func row(_ v: JSONValue, _ path: String, base: StatePolicy, prefixed: Bool = true) throws(PolicyFileError) -> StatePolicy {
        var row = base
        let timing =
            fileVersion == 1
            ? ["minimumIntervalSeconds", "heartbeatSeconds"] : ["delivery", "accuracyGate"] + (fileVersion >= 3 ? ["send"] : [])
        let allowed = ["tier", "frameMetres", "distanceFilterMetres"] + timing + ["shows", "annotations"]
        if fileVersion < 3, let s = v["send"] {
            throw fail(s, "\(path).send", "a send rule needs version 3; this file declares version \(fileVersion)")
        }
        for (key, value) in try members(v, path, allowed: allowed) {
            let p = prefixed ? "\(path).\(key)" : path
            switch key {
            case "tier":
                let name = try string(value, p)
                guard let tier = AccuracyTier(parsing: name) else {
                    throw fail(
                        value, p, "unknown tier \"\(name)\"; expected one of \(AccuracyTier.allCases.map(\.key).joined(separator: ", "))")
                }
                row.tier = tier
            case "frameMetres": row.frame = try number(value, p, in: SharingPolicy.Limits.frame, unit: "metres")
            case "distanceFilterMetres": row.distanceFilter = try distanceFilter(value, p)
            case "delivery": row.delivery = try delivery(value, p)
            case "accuracyGate": row.accuracyGate = value.kind == .null ? nil : try accuracyGate(value, p)
            case "send": row.send = try send(value, p)
            case "minimumIntervalSeconds", "heartbeatSeconds":  // version 1
                if value.kind == .null { break }
                let seconds = try number(value, p, in: SharingPolicy.Limits.interval, unit: "seconds")
                if v["minimumIntervalSeconds"].map({ $0.kind != .null }) == true, v["heartbeatSeconds"].map({ $0.kind != .null }) == true {
                    throw fail(
                        value, p,
                        "a minimum interval and a heartbeat together are no longer supported; use version 2's delivery (distanceAndTime or distanceOrTime)"
                    )
                }
                row.delivery = key == "heartbeatSeconds" ? .distanceOrTime(interval: seconds) : .distanceAndTime(interval: seconds)
            case "shows":
                for (k, b) in try members(value, p, allowed: ["route", "routeLines", "destination"]) {
                    let flag = try bool(b, "\(p).\(k)")
                    switch k {
                    case "route": row.shows.route = flag
                    case "routeLines": row.shows.routeLines = flag
                    default: row.shows.destination = flag
                    }
                }
            default:  // "annotations"
                for (k, list) in try members(value, p, allowed: ["hirer", "helper"]) {
                    let rules = try annotationRules(list, "\(p).\(k)")
                    if k == "hirer" { row.hirerAnnotations = rules } else { row.helperAnnotations = rules }
                }
            }
        }
        return row
    }

    /// A `delivery` object: `model` and that model's members.
    func delivery(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> DeliveryModel {
        guard case .object = v.kind else { throw fail(v, path, "expected an object with a \"model\", found \(v.typeName)") }
        guard let m = v["model"] else {
            throw fail(v, "\(path).model", "missing; expected one of \(DeliveryModel.keys.joined(separator: ", "))")
        }
        let model = try string(m, "\(path).model")
        func interval(_ key: String = "intervalSeconds") throws(PolicyFileError) -> Double {
            guard let x = v[key] else { throw fail(v, "\(path).\(key)", "missing; the \(model) model needs it") }
            return try number(x, "\(path).\(key)", in: SharingPolicy.Limits.interval, unit: "seconds")
        }
        switch model {
        case "coreLocation":
            _ = try members(v, path, allowed: ["model"])
            return .coreLocation
        case "androidFused":
            _ = try members(v, path, allowed: ["model", "intervalSeconds", "minUpdateIntervalSeconds"])
            let every = try interval()
            guard let x = v["minUpdateIntervalSeconds"], x.kind != .null else {
                return .androidFused(interval: every, minUpdateInterval: nil)
            }
            let p = "\(path).minUpdateIntervalSeconds"
            let minimum = try zeroOrAtLeast(x, p, SharingPolicy.Limits.interval, unit: "seconds")
            guard minimum <= every else {
                throw fail(
                    x, p,
                    "\(JSONWriter.number(minimum)) s is above the interval \(JSONWriter.number(every)) s; Android would use the interval")
            }
            return .androidFused(interval: every, minUpdateInterval: minimum)
        case "speedElastic":
            _ = try members(v, path, allowed: ["model", "elasticityMultiplier"])
            let multiplier =
                try v["elasticityMultiplier"].map { (x) throws(PolicyFileError) in
                    try number(x, "\(path).elasticityMultiplier", in: 0...100, unit: "(a factor)")
                } ?? 1
            return .speedElastic(elasticityMultiplier: multiplier)
        case "distanceOrTime":
            _ = try members(v, path, allowed: ["model", "intervalSeconds"])
            return .distanceOrTime(interval: try interval())
        case "distanceAndTime":
            _ = try members(v, path, allowed: ["model", "intervalSeconds"])
            return .distanceAndTime(interval: try interval())
        default:
            throw fail(m, "\(path).model", "unknown model \"\(model)\"; expected one of \(DeliveryModel.keys.joined(separator: ", "))")
        }
    }

    /// An `accuracyGate` object.
    func accuracyGate(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> AccuracyGate {
        _ = try members(v, path, allowed: ["maximumMetres", "withoutAccuracy"])
        guard let m = v["maximumMetres"] else { throw fail(v, "\(path).maximumMetres", "missing") }
        var gate = AccuracyGate(maximumAccuracy: try number(m, "\(path).maximumMetres", in: SharingPolicy.Limits.gate, unit: "metres"))
        if let w = v["withoutAccuracy"] {
            switch try string(w, "\(path).withoutAccuracy") {
            case "deliver": gate.deliversWithoutAccuracy = true
            case "drop": gate.deliversWithoutAccuracy = false
            case let other: throw fail(w, "\(path).withoutAccuracy", "unknown value \"\(other)\"; expected deliver or drop")
            }
        }
        return gate
    }

    /// A `send` object: `rule` and that rule's members.
    func send(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> SendRule {
        guard case .object = v.kind else { throw fail(v, path, "expected an object with a \"rule\", found \(v.typeName)") }
        guard let r = v["rule"] else { throw fail(v, "\(path).rule", "missing; expected one of \(SendRule.keys.joined(separator: ", "))") }
        let rule = try string(r, "\(path).rule")
        switch rule {
        case "everyDelivered":
            _ = try members(v, path, allowed: ["rule"])
            return .everyDelivered
        case "deadReckoning":
            _ = try members(v, path, allowed: ["rule", "thresholdMetres", "heartbeatSeconds"])
            var threshold: Double?
            if let x = v["thresholdMetres"], x.kind != .null {
                threshold = try number(x, "\(path).thresholdMetres", in: SharingPolicy.Limits.threshold, unit: "metres")
            }
            let heartbeat =
                try v["heartbeatSeconds"].map { (x) throws(PolicyFileError) in
                    try number(x, "\(path).heartbeatSeconds", in: SharingPolicy.Limits.interval, unit: "seconds")
                } ?? SendRule.defaultHeartbeatSeconds
            return .deadReckoning(thresholdMetres: threshold, heartbeatSeconds: heartbeat)
        default:
            throw fail(r, "\(path).rule", "unknown rule \"\(rule)\"; expected one of \(SendRule.keys.joined(separator: ", "))")
        }
    }

    /// Rules that hold across fields of a row once it is assembled (file values over the seed):
    /// the document's privacy rule and what can work at all.
    func consistency(_ row: StatePolicy, _ v: JSONValue, _ path: String) throws(PolicyFileError) {
        for (role, rules) in [("hirer", row.hirerAnnotations), ("helper", row.helperAnnotations)] {
            let at = v["annotations"]?[role] ?? v
            if rules.contains(where: { $0.annotation == .hirerLocation && !$0.ridesOnly }) {
                throw fail(
                    at, "\(path).annotations.\(role)", "hirerLocation must be ridesOnly: the hirer's location is shown only for rides")
            }
            if row.tier == .off, let live = rules.first(where: { $0.annotation == .helperLocation || $0.annotation == .hirerLocation }) {
                throw fail(
                    at, "\(path).annotations.\(role)",
                    "\(live.annotation.key) is a live location, but the state's tier is off: no phone sends one")
            }
        }
        if row.tier == .off, case .deadReckoning = row.send {
            throw fail(
                v["send"] ?? v, "\(path).send", "a deadReckoning rule needs location, but the state's tier is off: nothing is sent there")
        }
        if row.shows.routeLines && !row.shows.route {
            throw fail(v["shows"] ?? v, "\(path).shows", "routeLines needs route: lines draw the route")
        }
    }

    func annotationRules(_ v: JSONValue, _ path: String) throws(PolicyFileError) -> [AnnotationRule] {
        guard case .array(let items) = v.kind else { throw fail(v, path, "expected an array of annotations, found \(v.typeName)") }
        var rules: [AnnotationRule] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            var ridesOnly = false
            let nameValue: JSONValue
            if case .object = item.kind {
                _ = try members(item, p, allowed: ["annotation", "ridesOnly"])
                guard let n = item["annotation"] else { throw fail(item, "\(p).annotation", "missing") }
                nameValue = n
                if let r = item["ridesOnly"] { ridesOnly = try bool(r, "\(p).ridesOnly") }
            } else {
                nameValue = item
            }
            let name = try string(nameValue, p)
            guard let annotation = MapAnnotation(parsing: name) else {
                throw fail(
                    nameValue, p,
                    "unknown annotation \"\(name)\"; expected one of \(MapAnnotation.allCases.map(\.key).joined(separator: ", "))")
            }
            guard !rules.contains(where: { $0.annotation == annotation }) else { throw fail(nameValue, p, "\"\(name)\" is listed twice") }
            rules.append(AnnotationRule(annotation, ridesOnly: ridesOnly))
        }
        return rules
    }
}

extension SendRule {
    /// The rule as a policy file's `send` object (a dead-reckoning threshold taken from the
    /// state's distance filter is written `null`).
    public var fileJSON: JSONValue {
        switch self {
        case .everyDelivered:
            return .object([("rule", .string(key))])
        case .deadReckoning(let threshold, let heartbeat):
            return .object([
                ("rule", .string(key)), ("thresholdMetres", threshold.map { .number($0) } ?? .null),
                ("heartbeatSeconds", .number(heartbeat)),
            ])
        }
    }
}

extension DeliveryModel {
    /// The model as a policy file's `delivery` object.
    public var fileJSON: JSONValue {
        switch self {
        case .coreLocation:
            return .object([("model", .string(key))])
        case .androidFused(let interval, let minimum):
            return .object([
                ("model", .string(key)), ("intervalSeconds", .number(interval)),
                ("minUpdateIntervalSeconds", minimum.map { .number($0) } ?? .null),
            ])
        case .speedElastic(let multiplier):
            return .object([("model", .string(key)), ("elasticityMultiplier", .number(multiplier))])
        case .distanceOrTime(let interval), .distanceAndTime(let interval):
            return .object([("model", .string(key)), ("intervalSeconds", .number(interval))])
        }
    }
}
