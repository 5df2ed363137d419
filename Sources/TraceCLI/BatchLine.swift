import TraceBatch
import TraceDomain
import TraceEnergy
import TraceIO
import TraceJSON
import TraceReplay

/// What every line of one batch says of the batch (`batch` in a line): enough for `tracekit
/// merge` to write the reports one `tracekit batch` over the whole corpus writes.
struct BatchLineHeader: Hashable, Sendable {
    /// The corpus's name: the command line's inputs as given, or `--corpus NAME` (which trips
    /// streamed one by one with `--trip` and shards that mount the corpus elsewhere state alike).
    var inputs: [String]
    /// Trips in the whole batch (before `--shard`): the indices run 0..<trips.
    var trips: Int
    /// The run's worker threads (shown in the table's first line; shards may differ).
    var jobs: Int
    var header: BaselineHeader
    /// The `--compare` policy's name.
    var policyB: String?
    /// Joules per mAh of the energy profile's battery.
    var joulesPerMilliampHour: Double
    /// The options that shape the trips before any replay: reading, inference and splitting
    /// (``reading(_:split:)``); "" in a line written before they were named.
    var reading = ""

    /// One text of the options that decide what the trips are: the input format, the problem
    /// policy, the speed limit, the UTC offset, the column names, the dwell and the recording gap,
    /// the date of undated NMEA fixes when given, and `--split` with its stay rules. Shards that differ in it are not one batch.
    static func reading(_ o: ReplayOptions, split: SplitOptions, asEachState: Bool = false) -> String {
        let r = o.read
        let columns = r.columns.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        var parts = [
            "input \(o.inputFormat?.rawValue ?? "by name")", "on-problem \(r.policy.rawValue)",
            "max speed \(r.maximumSpeed.map { JSONWriter.number($0) + " m/s" } ?? "off")",
            "utc offset \(r.zonelessUTCOffset.map(String.init) ?? "none")", "columns \(columns.isEmpty ? "none" : columns)",
            "dwell \(JSONWriter.number(o.rules.dwellRadiusMetres)) m for \(JSONWriter.number(o.rules.dwellSeconds)) s",
            "gap \(JSONWriter.number(o.rules.recordingGapSeconds)) s",
        ]
        if let days = r.date { parts.append("date \(NMEAReader.dateText(days))") }
        let t = split.rules
        parts.append(
            split.split
                ? "split (stay \(JSONWriter.number(t.staySeconds)) s within \(JSONWriter.number(t.stayRadiusMetres)) m)" : "no split")
        parts.append(asEachState ? "as each state: every trip" : "as each state: trips without a credible pickup")
        return parts.joined(separator: " · ")
    }

    /// The same batch, whatever its `jobs`.
    func sameBatch(as o: BatchLineHeader) -> Bool {
        var a = self
        a.jobs = o.jobs
        return a == o
    }
}

/// One line of `batch --jsonl`, schema `tracekit-batch-trip/3`: a trip's index in the batch's
/// order, its name, the batch it belongs to, and everything the reports and the gate keep of it
/// (``TripReport``, the gate's figures, its view samples, `--compare`'s side), with the whole
/// replay (`tracekit-replay/3`) for other readers. README, "Scale-out".
package enum BatchLine {
    static let schema = "tracekit-batch-trip/3"

    /// A parsed line: its index, its batch, and the trip's outcome with its view samples.
    struct Parsed {
        var index: Int
        var batch: BatchLineHeader
        var run: TripRun
    }

    // MARK: Writing

    static func json(_ b: BatchLineHeader) -> JSONValue {
        .object(
            [
                ("inputs", .array(b.inputs.map { .string($0) })), ("trips", .number(Double(b.trips))),
                ("jobs", .number(Double(b.jobs))),
            ] + b.header.jsonMembers + [
                ("compare", b.policyB.map { .string($0) } ?? .null),
                ("joulesPerMilliampHour", .number(b.joulesPerMilliampHour)), ("reading", .string(b.reading)),
            ])
    }

    /// The members every line starts with.
    static func head(index: Int, batch: BatchLineHeader, trip: BatchTrip, status: String) -> [(String, JSONValue)] {
        [
            ("schema", .string(schema)), ("index", .number(Double(index))), ("trip", .string(trip.id)), ("path", .string(trip.path)),
            ("kind", .string(trip.kind.rawValue)), ("batch", json(batch)), ("status", .string(status)),
        ]
    }

    /// The line of a replayed trip; `result` and `resultB` give the whole replays.
    static func json(
        index: Int, batch: BatchLineHeader, trip: BatchTrip, report r: TripReport, result: ReplayResult, resultB: ReplayResult?
    )
        -> JSONValue
    {
        var members = head(index: index, batch: batch, trip: trip, status: "replayed")
        var report: [(String, JSONValue)] = [
            ("fixes", .number(Double(r.fixes))), ("seconds", .number(r.seconds)), ("category", .string(r.category)),
            ("phones", .number(Double(r.phones))),
            (
                "perPhone",
                .array(
                    r.perPhone.map { p in
                        .object([
                            ("role", .string(p.role.key)), ("sent", .number(Double(p.sent))), ("joules", .number(p.joules)),
                            ("milliampHours", .number(p.milliampHours)),
                        ])
                    })
            ),
            (
                "worstView",
                .object([("displayErrorP95", json(r.worstView.displayErrorP95)), ("stalenessP95", json(r.worstView.stalenessP95))])
            ),
            ("inferred", .array(r.inferred.map { .string($0) })),
            ("dataProblems", .array(r.dataProblems.map { .string($0) })),
            ("asEachState", .array(r.asEachState.map { .string($0) })),
        ]
        if let s = r.spread { report.append(("energyAcrossDevices", s.json)) }
        if let m = r.maxima { report.append(("maxima", json(m))) }
        if let svg = r.svg { report.append(("svg", .string(svg))) }
        members += [
            ("policy", .string(result.policy.name)), ("report", .object(report)), ("gate", r.metrics.json),
            ("views", (r.views ?? PooledViews()).json), ("replay", result.json),
        ]
        if let resultB, let mb = r.metricsB {
            members.append(
                (
                    "compare",
                    .object([
                        ("policy", .string(resultB.policy.name)), ("gate", mb.json), ("views", (r.viewsB ?? PooledViews()).json),
                        ("maxima", json(r.maximaB ?? ViewMaxima())), ("replay", resultB.json),
                    ])
                ))
        }
        return .object(members)
    }

    /// The line of a trip that failed.
    static func json(index: Int, batch: BatchLineHeader, trip: BatchTrip, error: BatchTripError) -> JSONValue {
        .object(
            head(index: index, batch: batch, trip: trip, status: "failed") + [
                ("error", .object([("category", .string(error.category.rawValue)), ("message", .string(error.message))]))
            ])
    }

    static func json(_ f: WorstViewFigure?) -> JSONValue {
        guard let f else { return .null }
        return .object([("value", .number(f.value)), ("state", .string(f.state.key)), ("sender", .string(f.sender.key))])
    }

    /// `[{"state", "role", "displayErrorMax", "stalenessMax"}]` (null: no sample), by role then state.
    static func json(_ m: ViewMaxima) -> JSONValue {
        let keys = Set(m.displayErrorMax.keys).union(m.stalenessMax.keys).sorted {
            PooledViews.Key(state: $0.state, role: $0.role) < PooledViews.Key(state: $1.state, role: $1.role)
        }
        return .array(
            keys.map { k in
                .object([
                    ("state", .string(k.state.key)), ("role", .string(k.role.key)),
                    ("displayErrorMax", m.displayErrorMax[k].map { .number($0) } ?? .null),
                    ("stalenessMax", m.stalenessMax[k].map { .number($0) } ?? .null),
                ])
            })
    }

    // MARK: Reading

    /// Reads line `number` of `file` as ``parse(_:file:number:)`` does: nil when it is a batch
    /// line, else the one-line error. The merge fuzzer's entry (Fuzz/Merge).
    package static func check(_ text: String, file: String, number: Int) -> String? {
        do {
            _ = try parse(text, file: file, number: number)
            return nil
        } catch { return error.message }
    }

    /// Reads line `number` of `file`.
    /// - Throws: ``CLIError`` 65 with one line naming the file and the line: not JSON (a truncated
    ///   line), not a batch line (a foreign one), another schema, or a bad member.
    static func parse(_ text: String, file: String, number: Int) throws(CLIError) -> Parsed {
        let place = "\(file):\(number)"
        let root: JSONValue
        do {
            root = try JSONParser.parse(Array(text.utf8), limit: MergeCommand.lineLimit)
        } catch {
            throw .data("\(place): not a \(schema) line (invalid JSON at column \(error.column): \(error.message); a truncated line?)")
        }
        guard case .object = root.kind, let s = root["schema"], case .string(let name) = s.kind else {
            throw .data("\(place): not a \(schema) line (no \"schema\" member): a foreign line")
        }
        guard name == schema else {
            if name == "tracekit-batch-trip/1" {
                throw .data(
                    "\(place): a tracekit-batch-trip/1 line carries neither the report's figures nor the view samples; this TraceKit merges \(schema): rerun the shard with this TraceKit"
                )
            }
            if name == "tracekit-batch-trip/2" {
                throw .data(
                    "\(place): a tracekit-batch-trip/2 line carries neither the trip's data problems nor its answer as each state; this TraceKit merges \(schema): rerun the shard with this TraceKit"
                )
            }
            throw .data("\(place): not a \(schema) line (schema \"\(JSONLineReader(file: place).shown(name))\"): a foreign line")
        }
        do {
            return try JSONLineReader(file: place).parsed(root)
        } catch {
            // One line: the place, the column, the member, the reason.
            throw .data("\(place):\(error.column): \(error.field.isEmpty ? "" : error.field + ": ")\(error.message)")
        }
    }
}

/// Reads one line's members; errors name the member (the caller adds the file and line).
private struct JSONLineReader: JSONFieldReading {
    let file: String

    func parsed(_ root: JSONValue) throws(JSONFileError) -> BatchLine.Parsed {
        let common = ["schema", "index", "trip", "path", "kind", "batch", "status"]
        let status = try string(root["status"], "status")
        let index = try int(root["index"], "index", limit: 1e15)
        let id = try string(root["trip"], "trip")
        let path = try string(root["path"], "path")
        let kindText = try string(root["kind"], "kind")
        guard let kind = BatchTrip.Kind(rawValue: kindText) else {
            throw fail(root["kind"], "kind", "expected sidecar or trace, found \"\(shown(kindText))\"")
        }
        let batch = try header(root["batch"])
        guard index >= 0 && index < batch.trips else {
            throw fail(root["index"], "index", "\(index) is outside the batch's \(batch.trips) trips")
        }
        let trip = BatchTrip(id: id, path: path, kind: kind)
        switch status {
        case "failed":
            _ = try object(root, "", allowed: common + ["error"])
            let e = try object(root["error"], "error", allowed: ["category", "message"])
            let c = try string(e["category"], "error.category")
            guard let category = BatchTripError.Category(rawValue: c) else {
                throw fail(e["category"], "error.category", "expected cannotOpen, data, usage or io, found \"\(shown(c))\"")
            }
            let error = BatchTripError(category, try string(e["message"], "error.message"))
            return BatchLine.Parsed(index: index, batch: batch, run: TripRun(trip: trip, outcome: .failure(error)))
        case "replayed":
            _ = try object(root, "", allowed: common + ["policy", "report", "gate", "views", "replay", "compare"])
            var r = try report(root["report"], metrics: try TripMetrics(json: root["gate"], "gate", reader: self))
            r.views = try PooledViews(json: root["views"], "views", reader: self)
            if let c = root["compare"] {
                _ = try object(c, "compare", allowed: ["policy", "gate", "views", "maxima", "replay"])
                r.metricsB = try TripMetrics(json: c["gate"], "compare.gate", reader: self)
                r.viewsB = try PooledViews(json: c["views"], "compare.views", reader: self)
                r.maximaB = try maxima(c["maxima"], "compare.maxima")
            }
            guard (r.metricsB != nil) == (batch.policyB != nil) else {
                throw fail(
                    root, "compare",
                    batch.policyB == nil ? "present, but the batch compared no policy" : "missing: the batch compared a policy")
            }
            return BatchLine.Parsed(index: index, batch: batch, run: TripRun(trip: trip, outcome: .success(r)))
        default:
            throw fail(root["status"], "status", "expected replayed or failed, found \"\(shown(status))\"")
        }
    }

    func header(_ v: JSONValue?) throws(JSONFileError) -> BatchLineHeader {
        let b = try object(
            v, "batch",
            allowed: [
                "inputs", "trips", "jobs", "tracekitVersion", "energyModel", "policy", "view", "compare", "joulesPerMilliampHour",
                "reading",
            ])
        var inputs: [String] = []
        for (i, x) in try array(b["inputs"], "batch.inputs").enumerated() { inputs.append(try string(x, "batch.inputs[\(i)]")) }
        let compare: String? =
            switch b["compare"]?.kind {
            case .null?: nil
            default: try string(b["compare"], "batch.compare")
            }
        func count(_ key: String) throws(JSONFileError) -> Int {
            let n = try int(b[key], "batch.\(key)", limit: 1e15)
            guard n >= 1 else { throw fail(b[key], "batch.\(key)", "must be at least 1, got \(n)") }
            return n
        }
        return BatchLineHeader(
            inputs: inputs, trips: try count("trips"), jobs: try count("jobs"),
            header: try BaselineHeader(members: b, "batch", reader: self), policyB: compare,
            joulesPerMilliampHour: try nonNegative(b["joulesPerMilliampHour"], "batch.joulesPerMilliampHour"),
            reading: b["reading"] == nil ? "" : try string(b["reading"], "batch.reading"))
    }

    func report(_ v: JSONValue?, metrics: TripMetrics) throws(JSONFileError) -> TripReport {
        let o = try object(
            v, "report",
            allowed: [
                "fixes", "seconds", "category", "phones", "perPhone", "worstView", "inferred", "dataProblems", "asEachState",
                "energyAcrossDevices", "maxima", "svg",
            ])
        var phones: [TripPhone] = []
        for (i, p) in try array(o["perPhone"], "report.perPhone").enumerated() {
            let q = "report.perPhone[\(i)]"
            _ = try object(p, q, allowed: ["role", "sent", "joules", "milliampHours"])
            phones.append(
                TripPhone(
                    role: try role(p["role"], "\(q).role"), sent: try int(p["sent"], "\(q).sent", limit: 1e15),
                    joules: try nonNegative(p["joules"], "\(q).joules"),
                    milliampHours: try nonNegative(p["milliampHours"], "\(q).milliampHours")))
        }
        let w = try object(o["worstView"], "report.worstView", allowed: ["displayErrorP95", "stalenessP95"])
        var inferred: [String] = []
        for (i, x) in try array(o["inferred"], "report.inferred").enumerated() { inferred.append(try string(x, "report.inferred[\(i)]")) }
        // Absent from lines written before it was named.
        var problems: [String] = []
        if o["dataProblems"] != nil {
            for (i, x) in try array(o["dataProblems"], "report.dataProblems").enumerated() {
                problems.append(try string(x, "report.dataProblems[\(i)]"))
            }
        }
        var report = TripReport(
            metrics: metrics, fixes: try int(o["fixes"], "report.fixes", limit: 1e15),
            seconds: try nonNegative(o["seconds"], "report.seconds"),
            category: try string(o["category"], "report.category"), phones: try int(o["phones"], "report.phones"), perPhone: phones,
            worstView: WorstView(
                displayErrorP95: try figure(w["displayErrorP95"], "report.worstView.displayErrorP95"),
                stalenessP95: try figure(w["stalenessP95"], "report.worstView.stalenessP95")),
            maxima: try o["maxima"].map { (m) throws(JSONFileError) in try maxima(m, "report.maxima") }, inferred: inferred,
            svg: try o["svg"].map { (s) throws(JSONFileError) in try string(s, "report.svg") })
        report.dataProblems = problems
        if o["asEachState"] != nil {
            for (i, x) in try array(o["asEachState"], "report.asEachState").enumerated() {
                report.asEachState.append(try string(x, "report.asEachState[\(i)]"))
            }
        }
        if let s = o["energyAcrossDevices"] {
            report.spread = try spread(s, "report.energyAcrossDevices")
        }
        return report
    }

    /// An ``EnergySpread`` as ``EnergySpread/json`` writes it: the profiles, their mAh and joules
    /// (as many of each), and the names of the lowest and highest (checked against the figures).
    func spread(_ v: JSONValue, _ path: String) throws(JSONFileError) -> EnergySpread {
        let o = try object(v, path, allowed: ["profiles", "milliampHours", "joules", "lowest", "highest"])
        var profiles: [String] = [], mAh: [Double] = [], joules: [Double] = []
        for (i, x) in try array(o["profiles"], "\(path).profiles").enumerated() { profiles.append(try string(x, "\(path).profiles[\(i)]")) }
        for (i, x) in try array(o["milliampHours"], "\(path).milliampHours").enumerated() {
            mAh.append(try nonNegative(x, "\(path).milliampHours[\(i)]"))
        }
        for (i, x) in try array(o["joules"], "\(path).joules").enumerated() { joules.append(try nonNegative(x, "\(path).joules[\(i)]")) }
        guard !profiles.isEmpty, mAh.count == profiles.count, joules.count == profiles.count else {
            throw fail(v, path, "expected as many milliampHours and joules as profiles, and at least one profile")
        }
        let s = EnergySpread(profiles: EnergySpread.shared(profiles), joules: joules, milliampHours: mAh)
        guard try string(o["lowest"], "\(path).lowest") == profiles[s.lowest],
            try string(o["highest"], "\(path).highest") == profiles[s.highest]
        else { throw fail(v, path, "lowest and highest do not name the profiles of the smallest and largest milliampHours") }
        return s
    }

    func role(_ v: JSONValue?, _ path: String) throws(JSONFileError) -> Role {
        let key = try string(v, path)
        guard let r = Role(parsing: key) else { throw fail(v, path, "unknown role \"\(shown(key))\"; expected helper, hirer, delegate") }
        return r
    }

    func figure(_ v: JSONValue?, _ path: String) throws(JSONFileError) -> WorstViewFigure? {
        guard let v else { throw fail(nil, path, "missing (null when no viewer received an update)") }
        if case .null = v.kind { return nil }
        let o = try object(v, path, allowed: ["value", "state", "sender"])
        let key = try string(o["state"], "\(path).state")
        guard let state = FulfilmentState(parsing: key) else { throw fail(o["state"], "\(path).state", "unknown state \"\(shown(key))\"") }
        return WorstViewFigure(
            value: try nonNegative(o["value"], "\(path).value"), state: state, sender: try role(o["sender"], "\(path).sender"))
    }

    func maxima(_ v: JSONValue?, _ path: String) throws(JSONFileError) -> ViewMaxima {
        var m = ViewMaxima()
        for (i, item) in try array(v, path).enumerated() {
            let q = "\(path)[\(i)]"
            _ = try object(item, q, allowed: ["state", "role", "displayErrorMax", "stalenessMax"])
            let (state, role) = try PooledViews.place(item, q, reader: self)
            let key = ViewMaxima.Key(state: state, role: role)
            for (member, isError) in [("displayErrorMax", true), ("stalenessMax", false)] {
                guard let x = item[member] else { throw fail(item, "\(q).\(member)", "missing (null without a sample)") }
                if case .null = x.kind { continue }
                let value = try nonNegative(x, "\(q).\(member)")
                if isError { m.displayErrorMax[key] = value } else { m.stalenessMax[key] = value }
            }
        }
        return m
    }
}
