public import TraceJSON

/// How far a figure may move before the gate calls it a change: a relative and an absolute
/// allowance, both of which a change must exceed.
///
/// For these "lower is better" figures a **regression** is `new > old × (1 + relative)` and
/// `new − old > absolute`; an **improvement** is `new < old × (1 − relative)` and
/// `old − new > absolute`. The absolute part keeps small numbers from failing on a one-update
/// change (2 → 3 is +50 %); the relative part keeps large ones from failing on noise.
public struct Tolerance: Hashable, Sendable {
    /// A fraction: 0.05 is 5 %.
    public var relative: Double
    /// In the metric's unit: updates, metres, seconds or joules.
    public var absolute: Double

    public init(relative: Double, absolute: Double) {
        self.relative = relative
        self.absolute = absolute
    }

    /// What a move from `old` to `new` is under this tolerance.
    public func verdict(old: Double, new: Double) -> GateVerdict {
        if new > old * (1 + relative) && new - old > absolute { return .regression }
        if new < old * (1 - relative) && old - new > absolute { return .improvement }
        return new == old ? .unchanged : .withinTolerance
    }
}

/// What the gate made of one figure.
public enum GateVerdict: String, Hashable, Sendable {
    case unchanged
    /// Moved, by no more than its tolerance.
    case withinTolerance
    /// Worse beyond the tolerance: fails the gate.
    case regression
    /// Better beyond the tolerance: passes, but fails under `--strict` (refresh the baseline).
    case improvement
    /// Measured now, absent in the baseline, or the other way round (a view that gained or lost
    /// its samples): reported; fails under `--strict`.
    case appeared, disappeared
}

/// The tolerance of every metric.
///
/// Defaults (``defaults``): update counts 5 % and 2 updates; display error p95 10 % and 1 m;
/// staleness p95 10 % and 1 s; energy (total and each part) 5 % and 0.5 J. Counts move by whole
/// updates, so 2 absorbs a fix that lands on the other side of a filter's threshold; a p95 is a
/// quantile at 0.1 m / 0.1 s resolution, so 1 m and 1 s absorb a neighbouring sample; 0.5 J keeps
/// a short state's fraction of a joule from failing on a few percent while trips cost hundreds.
public struct Tolerances: Hashable, Sendable {
    /// The schema of a tolerance file.
    public static let schema = "tracekit-tolerances/1"

    public var byMetric: [GateMetric: Tolerance]

    public static let defaults = Tolerances(byMetric: [
        .delivered: Tolerance(relative: 0.05, absolute: 2),
        .sent: Tolerance(relative: 0.05, absolute: 2),
        .forwarded: Tolerance(relative: 0.05, absolute: 2),
        .displayErrorP95: Tolerance(relative: 0.10, absolute: 1),
        .stalenessP95: Tolerance(relative: 0.10, absolute: 1),
        .energyTotal: Tolerance(relative: 0.05, absolute: 0.5),
        .energyLocation: Tolerance(relative: 0.05, absolute: 0.5),
        .energyFixes: Tolerance(relative: 0.05, absolute: 0.5),
        .energyRadio: Tolerance(relative: 0.05, absolute: 0.5),
    ])

    public init(byMetric: [GateMetric: Tolerance]) { self.byMetric = byMetric }

    public subscript(metric: GateMetric) -> Tolerance {
        get { byMetric[metric] ?? Tolerances.defaults.byMetric[metric]! }
        set { byMetric[metric] = newValue }
    }

    /// As JSON: `{"sent": {"relative": 0.05, "absolute": 2}, …}`, every metric in order.
    public var json: JSONValue {
        .object(
            GateMetric.allCases.map { m in
                (m.rawValue, .object([("relative", .number(self[m].relative)), ("absolute", .number(self[m].absolute))]))
            })
    }

    /// These tolerances with the metrics `members` gives replaced (the `tolerances` object of a
    /// baseline or of a tolerance file); `file` names it in errors.
    /// - Throws: ``GateFileError`` naming the member.
    public func overriding(with value: JSONValue, file: String, path: String) throws(GateFileError) -> Tolerances {
        guard case .object(let members) = value.kind else {
            throw GateFileError(file: file, value, path, "expected an object of metrics, found \(value.typeName)")
        }
        var t = self
        for (key, item) in members {
            let where_ = path.isEmpty ? key : "\(path).\(key)"
            guard let metric = GateMetric(rawValue: key) else {
                throw GateFileError(
                    file: file, item, where_,
                    "unknown metric; expected one of \(GateMetric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard case .object(let parts) = item.kind else {
                throw GateFileError(file: file, item, where_, "expected {\"relative\", \"absolute\"}, found \(item.typeName)")
            }
            var tol = t[metric]
            for (name, v) in parts {
                guard case .number(let x) = v.kind, x >= 0 else {
                    throw GateFileError(file: file, v, "\(where_).\(name)", "expected a number ≥ 0")
                }
                switch name {
                case "relative": tol.relative = x
                case "absolute": tol.absolute = x
                default: throw GateFileError(file: file, v, "\(where_).\(name)", "unknown member; expected relative, absolute")
                }
            }
            t[metric] = tol
        }
        return t
    }

    /// These tolerances with a tolerance file's applied:
    /// `{"schema": "tracekit-tolerances/1", "tolerances": {"sent": {"relative": 0.1, "absolute": 5}}}`
    /// (metrics not named keep their tolerance; either part may be left out).
    /// - Throws: ``GateFileError``.
    public func overriding(fileBytes bytes: [UInt8], file: String) throws(GateFileError) -> Tolerances {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch {
            throw GateFileError(file: file, line: error.line, column: error.column, field: "", message: error.message)
        }
        guard case .object(let members) = root.kind else { throw GateFileError(file: file, root, "", "expected an object") }
        for (key, v) in members where key != "schema" && key != "tolerances" {
            throw GateFileError(file: file, v, key, "unknown member; expected schema, tolerances")
        }
        guard let schema = root["schema"], case .string(let name) = schema.kind else {
            throw GateFileError(file: file, root, "schema", "missing; a tolerance file starts with \"schema\": \"\(Tolerances.schema)\"")
        }
        guard name == Tolerances.schema else {
            throw GateFileError(
                file: file, schema, "schema", "unsupported schema \"\(name)\"; this TraceKit reads \"\(Tolerances.schema)\"")
        }
        guard let t = root["tolerances"] else { return self }
        return try overriding(with: t, file: file, path: "tolerances")
    }

    /// These tolerances with `change` applied: its metric's relative and absolute tolerance, each
    /// where it gives one.
    public func overriding(_ change: ToleranceOverride) -> Tolerances {
        var t = self
        var tolerance = t[change.metric]
        if let r = change.relative { tolerance.relative = r }
        if let a = change.absolute { tolerance.absolute = a }
        t[change.metric] = tolerance
        return t
    }

    /// These tolerances with one override written `METRIC=REL,ABS` applied (``ToleranceOverride``).
    /// - Returns: the reason when the text is malformed.
    public func overriding(flag text: String) -> Result<Tolerances, ToleranceFlagError> {
        do { return .success(overriding(try ToleranceOverride(parsing: text))) } catch { return .failure(error) }
    }
}

/// One metric's tolerance changed: the relative part, the absolute part, or both (a part not
/// given keeps the tolerance it changes).
public struct ToleranceOverride: Hashable, Sendable {
    public var metric: GateMetric
    public var relative: Double?
    public var absolute: Double?

    /// Reads `METRIC=REL,ABS`: REL a fraction (0.05) or a percentage (5%), ABS in the metric's
    /// unit; either may be empty to keep it.
    /// - Throws: ``ToleranceFlagError`` with the reason when the text is malformed.
    public init(parsing text: String) throws(ToleranceFlagError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ToleranceFlagError(text: text, message: "expected METRIC=REL,ABS, e.g. sent=5%,2") }
        guard let metric = GateMetric(rawValue: String(parts[0])) else {
            throw ToleranceFlagError(
                text: text,
                message: "unknown metric '\(parts[0])'; expected one of \(GateMetric.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let values = parts[1].split(separator: ",", omittingEmptySubsequences: false)
        guard values.count == 2 else {
            throw ToleranceFlagError(text: text, message: "expected REL,ABS after '=', e.g. 5%,2 (either may be empty)")
        }
        self.metric = metric
        if !values[0].isEmpty {
            let percent = values[0].hasSuffix("%")
            guard let x = Double(percent ? values[0].dropLast() : values[0]), x.isFinite, x >= 0 else {
                throw ToleranceFlagError(
                    text: text, message: "'\(values[0])' is not a relative tolerance ≥ 0 (a fraction such as 0.05, or 5%)")
            }
            relative = percent ? x / 100 : x
        }
        if !values[1].isEmpty {
            guard let x = Double(values[1]), x.isFinite, x >= 0 else {
                throw ToleranceFlagError(text: text, message: "'\(values[1])' is not an absolute tolerance ≥ 0 in \(metric.toleranceUnit)")
            }
            absolute = x
        }
    }
}

/// A tolerance override (``ToleranceOverride``) that could not be read: the text and the reason.
public struct ToleranceFlagError: Error, Hashable, Sendable {
    public var text: String
    public var message: String
}

/// A baseline or tolerance file that cannot be used: one line naming the file, the place and the
/// reason (or, for a baseline of another model, why it is refused). The same type as a policy
/// file's error, so a command reports them alike.
public typealias GateFileError = JSONFileError
