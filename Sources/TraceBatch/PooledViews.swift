public import TraceDomain
public import TraceJSON
public import TraceReplay

/// The view samples (display error and staleness, binned in ``TraceReplay/QuantileHistogram``s)
/// per state and role, and over the trip (``FulfilmentStateKey/total``): of one trip, or of many
/// pooled with ``merge(_:)``. A corpus's p95 is the p95 of this pool: every sample of every
/// trip, at the histogram's resolution, not a mean of the trips' p95s.
///
/// The histograms carry no sum (``Cell/init(_:)``), so a pool is the same value whatever the
/// order of its trips. Memory: two histograms per state and role, each a few KB at most (30 KB for values up to
/// 10 km), whatever the number of trips pooled. Merging is exact and order-free for the counts,
/// bins and maxima, so the p95s of a pool do not depend on the order of its trips.
public struct PooledViews: Hashable, Sendable {
    /// The histograms of one state and role.
    public struct Cell: Hashable, Sendable {
        /// Metres.
        public var displayError = QuantileHistogram()
        /// Seconds.
        public var staleness = QuantileHistogram()

        public init() {}

        public init(displayError: QuantileHistogram, staleness: QuantileHistogram) {
            self.displayError = displayError
            self.staleness = staleness
        }

        mutating func merge(_ o: Cell) {
            displayError.merge(o.displayError)
            staleness.merge(o.staleness)
        }
    }

    public struct Key: Hashable, Sendable, Comparable {
        public var state: FulfilmentStateKey
        public var role: Role

        public init(state: FulfilmentStateKey, role: Role) {
            self.state = state
            self.role = role
        }

        /// By role (helper, hirer, delegate), then state, total last (as ``CorpusAggregate/rows``).
        public static func < (a: Key, b: Key) -> Bool {
            a.role != b.role ? CorpusAggregate.order(a.role) < CorpusAggregate.order(b.role) : a.state < b.state
        }
    }

    public private(set) var cells: [Key: Cell] = [:]

    public init() {}

    /// The samples of a replay: each state entered and the trip's totals, per role (the rows of
    /// ``TripMetrics/init(_:)``).
    public init(_ r: ReplayResult) {
        for role in r.roles {
            for st in r.states where st.entered {
                guard let m = st[role] else { continue }
                cells[Key(state: .state(st.state), role: role)] = Cell(m.view)
            }
            if let t = r.roleTotals.first(where: { $0.role == role }) { cells[Key(state: .total, role: role)] = Cell(t.view) }
        }
    }

    /// Adds `other`'s samples, state by state and role by role.
    public mutating func merge(_ other: PooledViews) {
        for (k, c) in other.cells { cells[k, default: Cell()].merge(c) }
    }

    public subscript(state: FulfilmentStateKey, role: Role) -> Cell? { cells[Key(state: state, role: role)] }

    /// The pooled p95 of `metric` (display error or staleness) at a state and role; nil without
    /// samples or for another metric.
    public func p95(_ metric: GateMetric, _ state: FulfilmentStateKey, _ role: Role) -> Double? {
        guard let c = self[state, role] else { return nil }
        switch metric {
        case .displayErrorP95: return c.displayError.quantile(0.95)
        case .stalenessP95: return c.staleness.quantile(0.95)
        case .delivered, .sent, .forwarded, .energyTotal, .energyLocation, .energyFixes, .energyRadio: return nil
        }
    }

    /// `[{"state", "role", "displayError": H, "staleness": H}]` in ``Key`` order, each H
    /// ``json(_:)``.
    public var json: JSONValue {
        .array(
            cells.keys.sorted().map { k in
                let c = cells[k]!
                return .object([
                    ("state", .string(k.state.key)), ("role", .string(k.role.key)),
                    ("displayError", Self.json(c.displayError)), ("staleness", Self.json(c.staleness)),
                ])
            })
    }

    /// A histogram as `{"n": samples, "max": largest, "bins": "BIN:SAMPLES,…"}`
    /// (``QuantileHistogram/compact``: the non-empty bins only, increasing, in one string so that
    /// a pretty-printed file keeps a histogram on one line). No sum: a pool keeps none
    /// (``Cell/init(_:)``), and read back the sum is 0.
    public static func json(_ h: QuantileHistogram) -> JSONValue {
        .object([
            ("n", .number(Double(h.count))), ("max", .number(h.maximum)),
            ("bins", .string(h.compact.map { "\($0.bin):\($0.count)" }.joined(separator: ","))),
        ])
    }

    /// Reads ``json`` back; `reader` names the file in errors.
    public init(json v: JSONValue?, _ path: String, reader: some JSONFieldReading) throws(JSONFileError) {
        for (i, item) in try reader.array(v, path).enumerated() {
            let p = "\(path)[\(i)]"
            _ = try reader.object(item, p, allowed: ["state", "role", "displayError", "staleness"])
            let (state, role) = try Self.place(item, p, reader: reader)
            let key = Key(state: state, role: role)
            guard cells[key] == nil else { throw reader.fail(item, p, "\(state.key), \(role.key) is listed twice") }
            cells[key] = Cell(
                displayError: try Self.histogram(item["displayError"], "\(p).displayError", reader: reader),
                staleness: try Self.histogram(item["staleness"], "\(p).staleness", reader: reader))
        }
    }

    /// The `state` and `role` members of a row.
    public static func place(_ item: JSONValue, _ p: String, reader: some JSONFieldReading) throws(JSONFileError) -> (
        FulfilmentStateKey, Role
    ) {
        let stateKey = try reader.string(item["state"], "\(p).state")
        guard let state = FulfilmentStateKey(key: stateKey) else {
            throw reader.fail(
                item["state"], "\(p).state",
                "unknown state \"\(reader.shown(stateKey))\"; expected one of \(FulfilmentState.allCases.map(\.key).joined(separator: ", ")), total"
            )
        }
        let roleKey = try reader.string(item["role"], "\(p).role")
        guard let role = Role(parsing: roleKey) else {
            throw reader.fail(item["role"], "\(p).role", "unknown role \"\(reader.shown(roleKey))\"; expected helper, hirer, delegate")
        }
        return (state, role)
    }

    static func histogram(_ v: JSONValue?, _ p: String, reader: some JSONFieldReading) throws(JSONFileError) -> QuantileHistogram {
        let o = try reader.object(v, p, allowed: ["n", "max", "bins"])
        let text = try reader.string(o["bins"], "\(p).bins")
        var bins: [(bin: Int, count: Int)] = []
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) where !text.isEmpty {
            let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let b = Int(parts[0]), let n = Int(parts[1]) else {
                throw reader.fail(
                    o["bins"], "\(p).bins", "expected BIN:SAMPLES pairs separated by commas, found \"\(reader.shown(String(pair)))\"")
            }
            bins.append((b, n))
        }
        guard
            let h = QuantileHistogram(
                count: try reader.int(o["n"], "\(p).n", limit: 9e15), sum: 0,
                maximum: try reader.nonNegative(o["max"], "\(p).max"), bins: bins)
        else {
            throw reader.fail(o, p, "not a histogram: bins must increase, hold samples, add up to n and end at the bin of max")
        }
        return h
    }
}

extension PooledViews.Cell {
    /// Without the sums (``TraceReplay/QuantileHistogram/withoutSum``): a pool's bytes must not
    /// depend on the order its trips finished in, and a corpus shows no mean of its samples.
    init(_ v: ViewMetrics) {
        self.init(displayError: v.displayErrorHistogram.withoutSum, staleness: v.stalenessHistogram.withoutSum)
    }
}
