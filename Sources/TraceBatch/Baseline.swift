import TraceDomain
import TraceEnergy
public import TraceJSON
public import TraceReplay
import TraceSharing

/// What a batch was measured with: the instrument (TraceKit, the energy model) and the thing
/// measured (the policy, the energy profile).
public struct BaselineHeader: Hashable, Sendable {
    public var tracekitVersion: String
    /// The energy model's name and version ("tracekit-energy", 1): numbers from another model are
    /// not comparable, so a baseline of another model is refused.
    public var energyModelName: String
    public var energyModelVersion: Int
    /// The label with the profile, e.g. "tracekit-energy 1, profile lte".
    public var energyLabel: String
    public var receiverRadio: Bool
    public var policyName: String
    /// The policy file version this TraceKit writes.
    public var policyFileVersion: Int
    /// How the other party's view was modelled (``TraceReplay/ViewSettings/summary``): the
    /// network, its seed, the viewer. A baseline without one was measured with the ideal view,
    /// ``idealView``.
    public var view: String

    /// The view of a baseline that names none: TraceKit's before the network model.
    public static let idealView = ViewSettings(
        network: .ideal, networkProfile: EnergyProfile.lte.network, profileName: EnergyProfile.lte.name, seed: 0, viewer: .last
    ).summary

    public init(
        tracekitVersion: String, energyModelName: String, energyModelVersion: Int, energyLabel: String,
        receiverRadio: Bool, policyName: String, policyFileVersion: Int, view: String = BaselineHeader.idealView
    ) {
        self.view = view
        self.tracekitVersion = tracekitVersion
        self.energyModelName = energyModelName
        self.energyModelVersion = energyModelVersion
        self.energyLabel = energyLabel
        self.receiverRadio = receiverRadio
        self.policyName = policyName
        self.policyFileVersion = policyFileVersion
    }

    /// The header of a batch replayed with `options`.
    public init(_ options: ReplayOptions) {
        self.init(
            tracekitVersion: options.tracekitVersion, energyModelName: EnergyProfile.modelName,
            energyModelVersion: EnergyProfile.modelVersion, energyLabel: options.energyProfile.label,
            receiverRadio: options.receiverRadio, policyName: options.policy.name, policyFileVersion: SharingPolicy.fileVersion,
            view: ViewSettings(options).summary)
    }
}

extension BaselineHeader {
    /// Its members in a baseline or a shard line: `tracekitVersion`, `energyModel` (`name`,
    /// `version`, `label`, `receiverRadio`), `policy` (`name`, `fileVersion`), `view`.
    public var jsonMembers: [(String, JSONValue)] {
        [
            ("tracekitVersion", .string(tracekitVersion)),
            (
                "energyModel",
                .object([
                    ("name", .string(energyModelName)), ("version", .number(Double(energyModelVersion))),
                    ("label", .string(energyLabel)), ("receiverRadio", .bool(receiverRadio)),
                ])
            ),
            ("policy", .object([("name", .string(policyName)), ("fileVersion", .number(Double(policyFileVersion)))])),
            ("view", .string(view)),
        ]
    }

    /// Reads ``jsonMembers`` from object `root` (at `path`; a missing `view` is ``idealView``).
    public init(members root: JSONValue, _ path: String, reader: some JSONFieldReading) throws(JSONFileError) {
        let p = path.isEmpty ? "" : path + "."
        let energy = try reader.object(root["energyModel"], p + "energyModel", allowed: ["name", "version", "label", "receiverRadio"])
        let policy = try reader.object(root["policy"], p + "policy", allowed: ["name", "fileVersion"])
        self.init(
            tracekitVersion: try reader.string(root["tracekitVersion"], p + "tracekitVersion"),
            energyModelName: try reader.string(energy["name"], p + "energyModel.name"),
            energyModelVersion: try reader.int(energy["version"], p + "energyModel.version"),
            energyLabel: try reader.string(energy["label"], p + "energyModel.label"),
            receiverRadio: try reader.bool(energy["receiverRadio"], p + "energyModel.receiverRadio"),
            policyName: try reader.string(policy["name"], p + "policy.name"),
            policyFileVersion: try reader.int(policy["fileVersion"], p + "policy.fileVersion"),
            view: try root["view"].map { (v) throws(JSONFileError) in try reader.string(v, p + "view") } ?? BaselineHeader.idealView)
    }
}

/// A baseline: the gate's figures per trip, state and role, with what they were measured with and
/// the tolerances to compare them by, and the view samples of all its trips pooled per state and
/// role (for the corpus's p95s before). JSON schema `tracekit-baseline/3` (README, "Batch and the
/// CI gate"); deterministic: the same batch writes the same bytes.
public struct Baseline: Hashable, Sendable {
    public static let schema = "tracekit-baseline/3"

    public var header: BaselineHeader
    public var tolerances: Tolerances
    /// By trip name, in the batch's order.
    public var trips: [(id: String, metrics: TripMetrics)]
    /// The view samples of every trip, pooled per state and role (`corpus` in the file).
    public var views: PooledViews

    public init(header: BaselineHeader, tolerances: Tolerances, trips: [(id: String, metrics: TripMetrics)], views: PooledViews) {
        self.header = header
        self.tolerances = tolerances
        self.trips = trips
        self.views = views
    }

    public static func == (a: Baseline, b: Baseline) -> Bool {
        a.header == b.header && a.tolerances == b.tolerances && a.views == b.views && a.trips.count == b.trips.count
            && zip(a.trips, b.trips).allSatisfy { $0.id == $1.id && $0.metrics == $1.metrics }
    }

    public func hash(into h: inout Hasher) {
        h.combine(header)
        h.combine(tolerances)
        h.combine(views)
        for t in trips {
            h.combine(t.id)
            h.combine(t.metrics)
        }
    }

    /// The figures of trip `id`.
    public func metrics(of id: String) -> TripMetrics? { trips.first { $0.id == id }?.metrics }

    public var json: JSONValue {
        .object(
            [("schema", .string(Baseline.schema))] + header.jsonMembers + [
                ("tolerances", tolerances.json),
                (
                    "trips",
                    .array(
                        trips.map { t in
                            .object([
                                ("trip", .string(t.id)),
                                ("rows", t.metrics.json),
                            ])
                        })
                ),
                ("corpus", views.json),
            ])
    }

    /// The largest baseline file read, bytes (256 MiB: about 48,000 trips of the bundled corpus's
    /// kind, 5.3 KB each); `batch` and `merge` refuse to write a larger one.
    public static let maximumFileSize = 256 << 20

    /// Reads a baseline file's bytes (at most ``maximumFileSize``); `file` names it in errors.
    /// - Throws: ``GateFileError`` for a file that is not JSON, not a baseline, of another schema,
    ///   or with a bad member (naming line, column and member).
    public init(fileBytes bytes: [UInt8], file: String) throws(GateFileError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, limit: Self.maximumFileSize)
        } catch {
            throw GateFileError(
                file: file, line: error.line, column: error.column, field: "", message: "not a baseline (invalid JSON: \(error.message))")
        }
        self = try BaselineReader(file: file).baseline(root)
    }
}

private struct BaselineReader: JSONFieldReading {
    let file: String

    func baseline(_ root: JSONValue) throws(GateFileError) -> Baseline {
        guard case .object = root.kind else {
            throw fail(root, "", "not a baseline: expected an object with \"schema\": \"\(Baseline.schema)\"")
        }
        guard let schema = root["schema"] else {
            throw fail(root, "schema", "missing: not a TraceKit baseline (expected \"\(Baseline.schema)\")")
        }
        let name = try string(schema, "schema")
        guard name == Baseline.schema else {
            if name == "tracekit-baseline/2" {
                throw fail(
                    schema, "schema",
                    "baseline schema \"\(name)\" has no pooled view samples; this TraceKit (\"\(Baseline.schema)\") takes the corpus's display error and staleness p95 over every sample of the trips, not as the trips' mean: \(GateComparison.refreshAdvice)"
                )
            }
            if name == "tracekit-baseline/1" {
                throw fail(
                    schema, "schema",
                    "baseline schema \"\(name)\" charges a radio tail to the state it ran into, this TraceKit (\"\(Baseline.schema)\") to the state of its send (docs/battery-model.md, \"Per state\"): \(GateComparison.refreshAdvice)"
                )
            }
            throw fail(
                schema, "schema",
                "unsupported baseline schema \"\(name)\"; this TraceKit reads \"\(Baseline.schema)\": \(GateComparison.refreshAdvice)"
            )
        }
        _ = try object(root, "", allowed: ["schema", "tracekitVersion", "energyModel", "policy", "view", "tolerances", "trips", "corpus"])
        let header = try BaselineHeader(members: root, "", reader: self)
        var tolerances = Tolerances.defaults
        if let t = root["tolerances"] { tolerances = try tolerances.overriding(with: t, file: file, path: "tolerances") }
        guard let tripsValue = root["trips"] else { throw fail(root, "trips", "missing") }
        guard case .array(let items) = tripsValue.kind else {
            throw fail(tripsValue, "trips", "expected an array, found \(tripsValue.typeName)")
        }
        var trips: [(id: String, metrics: TripMetrics)] = []
        var seen = Set<String>()
        for (i, item) in items.enumerated() {
            let p = "trips[\(i)]"
            _ = try object(item, p, allowed: ["trip", "rows"])
            let id = try string(item["trip"], "\(p).trip")
            guard seen.insert(id).inserted else { throw fail(item["trip"], "\(p).trip", "trip \"\(id)\" is listed twice") }
            trips.append((id, try TripMetrics(json: item["rows"], "\(p).rows", reader: self)))
        }
        return Baseline(
            header: header, tolerances: tolerances, trips: trips, views: try PooledViews(json: root["corpus"], "corpus", reader: self))
    }
}
