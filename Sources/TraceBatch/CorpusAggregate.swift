public import TraceDomain
import TraceSharing

/// Figures summed over a corpus, per state and role (and over the trips, `total`), for one
/// policy: how many trips had the row, the sums of the counts and of the energy, the largest of
/// the trips' p95s, and the p95 of the pooled samples (``views``, fed by ``pool(_:)``): the
/// corpus's display error and staleness p95 are those of every sample of its trips, not a mean
/// of the trips' p95s. Streaming and order-free: memory does not grow with the number of trips (a
/// few rows and their histograms), and the trips may be added in any order.
public struct CorpusAggregate: Hashable, Sendable {
    /// One (state, role) of the corpus.
    public struct Row: Hashable, Sendable {
        public var state: FulfilmentStateKey
        public var role: Role
        /// Trips with this row.
        public var trips = 0
        /// Sums over the trips: delivered, sent, forwarded and the energy metrics.
        public var sums: [GateMetric: Double] { exactSums.mapValues(\.value) }
        /// The sums kept exact (``ExactSum``), so that they do not depend on the trips' order.
        var exactSums: [GateMetric: ExactSum] = [:]
        /// The largest of the trips' values of each p95.
        public var p95Max: [GateMetric: Double] = [:]
        /// The samples of every trip pooled (``CorpusAggregate/pool(_:)``); nil when none were.
        public var views: PooledViews.Cell?

        /// The sum of a count or energy metric; the p95 of the pooled samples for a p95.
        public func value(_ m: GateMetric) -> Double? {
            switch m {
            case .displayErrorP95: views?.displayError.quantile(0.95)
            case .stalenessP95: views?.staleness.quantile(0.95)
            case .delivered, .sent, .forwarded, .energyTotal, .energyLocation, .energyFixes, .energyRadio: exactSums[m]?.value ?? 0
            }
        }

        /// Adds one trip's figures at this state and role.
        mutating func add(_ values: [GateMetric: Double]) {
            trips += 1
            for m in GateMetric.allCases {
                guard let v = values[m] else { continue }
                switch m {
                case .displayErrorP95, .stalenessP95:
                    p95Max[m] = max(p95Max[m] ?? v, v)
                case .delivered, .sent, .forwarded, .energyTotal, .energyLocation, .energyFixes, .energyRadio:
                    exactSums[m, default: ExactSum()].add(v)
                }
            }
        }
    }

    /// Trips added.
    public private(set) var trips = 0
    /// The view samples pooled over the trips.
    public private(set) var views = PooledViews()
    /// In order: by role (helper, hirer, delegate), by state, total last.
    public var rows: [Row] {
        storage.keys.sorted().map { row($0.state, $0.role)! }
    }

    private var storage: [PooledViews.Key: Row] = [:]

    public init() {}

    /// Helper, hirer, delegate.
    static func order(_ r: Role) -> Int {
        switch r {
        case .helper: 0
        case .hirer: 1
        case .delegate: 2
        }
    }

    /// Adds one trip's figures, in any order: the sums are exact (``ExactSum``) and rounded once
    /// when read, so a corpus's figures do not depend on the order its trips were added in.
    public mutating func add(_ t: TripMetrics) {
        trips += 1
        for r in t.rows {
            storage[PooledViews.Key(state: r.state, role: r.role), default: Row(state: r.state, role: r.role)].add(r.values)
        }
    }

    /// Pools one trip's (or many trips') view samples, in any order.
    public mutating func pool(_ v: PooledViews) { views.merge(v) }

    /// The row of `role` in `state`.
    public func row(_ state: FulfilmentStateKey, _ role: Role) -> Row? {
        let key = PooledViews.Key(state: state, role: role)
        guard var r = storage[key] else { return nil }
        r.views = views.cells[key]
        return r
    }
}
