import TraceDevice
import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
public import TraceJSON
import TraceSharing

/// The result as JSON, schema `tracekit-replay/3` (documented in the README, "Replay: JSON"). Keys
/// and their order are stable, units are in the key names, times are ISO 8601 UTC, absent values
/// are null. The same result always writes the same bytes.
extension ReplayResult {
    public var json: JSONValue {
        .object(
            headJSON + [
                ("scenario", scenarioJSON),
                ("start", .string(start.iso8601)), ("end", .string(end.iso8601)), ("durationSeconds", .number(durationSeconds)),
                (
                    "states",
                    .array(
                        states.map { st in
                            .object([
                                ("state", .string(st.state.key)), ("name", .string(st.state.displayName)), ("entered", .bool(st.entered)),
                                ("seconds", .number(st.seconds)), ("tier", .string(st.tier.key)),
                                ("roles", .array(st.roles.map { $0.json(energyProfile) })),
                            ])
                        })
                ),
                ("totals", .array(roleTotals.map { $0.json(energyProfile) })),
            ] + energyJSON + [("arrivals", arrivalsJSON), ("files", filesJSON)] + [
                ("notes", .array(notes.map { .string($0) })),
                ("warnings", .array(warnings.map { .string($0) })),
                ("excludedSeconds", .number(excludedSeconds)),
                (
                    "recordingGaps",
                    .array(
                        recordingGaps.map { g in
                            .object([("from", .string(g.from.iso8601)), ("to", .string(g.to.iso8601)), ("seconds", .number(g.seconds))])
                        })
                ),
            ])
    }

    /// The members before the scenario: the schema, the version, the policy, the energy model,
    /// the phone pipeline and the view when they change anything, the network's figures, the
    /// answers as each state, the data problems.
    private var headJSON: [(String, JSONValue)] {
        var head: [(String, JSONValue)] = [
            ("schema", .string(ReplayResult.schema)),
            ("tracekitVersion", .string(tracekitVersion)),
            ("policy", .object([("name", .string(policy.name)), ("fileVersion", .number(Double(policy.fileVersion)))])),
            ("energyModel", .object([("label", .string(energyModel)), ("receiverRadio", .bool(receiverRadio))])),
        ]
        // The phone pipeline, only when it changes anything (a pass-through replay writes the
        // bytes it wrote before the pipeline existed): its configuration, seed included when
        // accuracy emulation is on, and its one-line summary.
        if !phone.isPassThrough, case .object(let members) = phone.json.kind {
            head.append(("phone", .object(members.map { ($0.key, $0.value) } + [("summary", .string(phone.summary))])))
        }
        // The view, unless it is the ideal one TraceKit measured before (whose bytes stay as they were).
        if !view.isIdeal { head.append(("view", view.json)) }
        if let n = networkFigures { head.append(("network", n.json)) }
        if let answers = asEachState { head.append(("asEachState", .array(answers.map(\.json)))) }
        // The data problems of every trace together and what was done with them (the files'
        // own counts and examples are under "files").
        head.append(
            (
                "data",
                .object([
                    ("onProblem", .string(problemPolicy.rawValue)),
                    (
                        "problems",
                        .array(
                            dataProblems.map {
                                .object([
                                    ("kind", .string($0.kind.rawValue)), ("count", .number(Double($0.count))),
                                    ("treatment", .string($0.treatment)),
                                ])
                            })
                    ),
                    ("summary", .string(DataProblem.summary(dataProblems))),
                ])
            ))
        return head
    }

    /// The scenario as the replay resolved it, each value with its provenance.
    private var scenarioJSON: JSONValue {
        let s = scenario
        func source<T>(_ s: Sourced<T>, _ value: [(String, JSONValue)]) -> JSONValue {
            .object(value + [("provenance", .string(s.provenance.rawValue)), ("detail", .string(s.detail))])
        }
        func point(_ s: Sourced<Coordinate>?) -> JSONValue {
            s.map { source($0, [("lat", .number($0.value.latitude)), ("lon", .number($0.value.longitude))]) } ?? .null
        }
        return .object([
            ("category", source(s.category, [("name", .string(s.category.value.name)), ("isRide", .bool(s.category.value.isRide))])),
            ("pickupHandedOff", source(s.pickupHandedOff, [("value", .bool(s.pickupHandedOff.value))])),
            ("pickup", point(s.pickup)), ("dropoff", point(s.dropoff)),
            (
                "traces",
                .array(
                    s.traces.map { t in
                        .object([
                            ("path", .string(t.path)), ("defaultRole", .string(t.defaultRole.key)),
                            ("provenance", .string(t.provenance.rawValue)),
                            (
                                "roles",
                                .array(
                                    t.roles.map {
                                        .object([
                                            ("role", .string($0.role.key)), ("fixes", .number(Double($0.fixes))),
                                            ("namedInTrace", .bool($0.namedInTrace)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
            (
                "timeline",
                .array(
                    s.timeline.map { e in
                        .object([
                            ("state", .string(e.state.key)), ("at", .string(e.time.iso8601)),
                            ("secondsFromStart", .number(e.time.seconds(since: start))),
                            ("provenance", .string(e.provenance.rawValue)), ("detail", .string(e.detail)),
                        ])
                    })
            ),
            ("cancelledAt", s.cancelledAt.map { source($0, [("at", .string($0.value.iso8601))]) } ?? .null),
            (
                "rules",
                .object([
                    ("dwellRadiusMetres", .number(s.rules.dwellRadiusMetres)), ("dwellSeconds", .number(s.rules.dwellSeconds)),
                    ("recordingGapSeconds", .number(s.rules.recordingGapSeconds)),
                ])
            ),
            ("inferred", .array(s.assumedItems.map { .string($0) })),
            (
                "pickupInference",
                .object([("how", .string(s.pickupInference.key)), ("confidence", .string(s.pickupInference.confidence))])
            ),
        ])
    }

    /// The energy per phone and, when priced, across the shipped device profiles.
    private var energyJSON: [(String, JSONValue)] {
        [
            (
                "energy",
                .array(
                    energy.map {
                        .object([("role", .string($0.role.key)), ("hasTrace", .bool($0.hasTrace)), ("estimate", $0.estimate.json)])
                    })
            ),
            (
                "energyAcrossDevices",
                energySpread.map { spread in
                    .object(
                        [("total", spread.json)]
                            + energy.compactMap { phone in phone.spread.map { (phone.role.key, $0.json) } })
                } ?? .null
            ),
        ]
    }

    /// When each party arrived at the pickup and dropoff, and when each viewer saw it.
    private var arrivalsJSON: JSONValue {
        func opt(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
        func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.iso8601) } ?? .null }
        return .array(
            arrivals.map { a in
                .object([
                    ("point", .string(a.point.rawValue)), ("viewer", .string(a.viewer.key)),
                    ("arrivedAt", time(a.arrivedAt)), ("visibleAt", time(a.visibleAt)), ("lateSeconds", opt(a.lateSeconds)),
                    ("state", a.state.map { .string($0.key) } ?? .null), ("shownByPolicy", .bool(a.shownByPolicy)),
                    ("absence", a.absence.map { .string($0.rawValue) } ?? .null),
                    ("reason", a.reason(radiusMetres: scenario.rules.dwellRadiusMetres).map { .string($0) } ?? .null),
                ])
            })
    }

    /// Each file read: its format, points read and dropped, and its problems.
    private var filesJSON: JSONValue {
        .array(
            files.map { f in
                .object([
                    ("path", .string(f.path)), ("format", .string(f.format.rawValue)),
                    ("pointsRead", .number(Double(f.diagnostics.pointsRead))),
                    ("pointsDropped", .number(Double(f.diagnostics.pointsDropped))),
                    ("untimedFixes", .number(Double(f.untimedFixes))), ("outOfOrderFixes", .number(Double(f.outOfOrderFixes))),
                    (
                        "problems",
                        .object(f.diagnostics.counts.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .number(Double($0.value))) })
                    ),
                    ("assumptions", .array(f.diagnostics.assumptions.map { .string($0) })),
                ])
            })
    }
}

extension StateRoleMetrics {
    /// One role's figures in one state (or its totals), `marginalUpdateJoules` under `profile`.
    func json(_ profile: EnergyProfile) -> JSONValue {
        func opt(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
        let m = self
        return .object([
            ("role", .string(m.role.key)), ("rawFixes", .number(Double(m.rawFixes))),
            ("deliveredFixes", .number(Double(m.deliveredFixes))), ("sentUpdates", .number(Double(m.sentUpdates))),
            ("forwarded", .object(Role.allCases.map { ($0.key, .number(Double(m.forwarded[$0]))) })),
            ("seconds", .number(m.seconds)), ("distanceMetres", .number(m.distanceMetres)),
            (
                "view",
                .object([
                    ("samples", .number(Double(m.view.samples))), ("withoutUpdate", .number(Double(m.view.withoutUpdate))),
                    (
                        "displayErrorMetres",
                        .object([
                            ("mean", opt(m.view.displayErrorMeanMetres)), ("p95", opt(m.view.displayErrorP95Metres)),
                            ("max", opt(m.view.displayErrorMaxMetres)),
                        ])
                    ),
                    (
                        "stalenessSeconds",
                        .object([
                            ("mean", opt(m.view.stalenessMeanSeconds)), ("p95", opt(m.view.stalenessP95Seconds)),
                            ("max", opt(m.view.stalenessMaxSeconds)),
                        ])
                    ),
                ])
            ),
            (
                "energyJoules",
                .object([
                    ("location", .number(m.energy.locationJoules)), ("fixes", .number(m.energy.fixesJoules)),
                    ("radio", .number(m.energy.radioJoules)), ("total", .number(m.energy.totalJoules)),
                ])
            ),
            (
                "energyControl",
                .object([
                    ("policyJoules", .number(m.policyJoules)), ("tierJoules", .number(m.tierJoules)),
                    ("marginalUpdateJoules", opt(m.marginalUpdateJoules(profile))),
                ])
            ),
            ("receivedUpdates", .number(Double(m.receivedUpdates))),
        ])
    }
}
