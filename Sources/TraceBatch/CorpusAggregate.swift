public import TraceDomain
import TraceSharing

/// Figures summed over a corpus, per state and role (and over the trips, `total`), for one
/// policy: how many trips had the row, the sums of the counts and of the energy, and the mean and
/// largest of the trips' p95s (a p95 of p95s would mean nothing; the trips' samples are not kept).
/// Streaming: memory does not grow with the number of trips.
public struct CorpusAggregate: Hashable, Sendable {
    /// One (state, role) of the corpus.
    public struct Row: Hashable, Sendable {
        public var state: FulfilmentStateKey
        public var role: Role
        /// Trips with this row.
        public var trips = 0
        /// Sums over the trips: delivered, sent, forwarded and the energy metrics.
        public var sums: [GateMetric: Double] = [:]
        /// Over trips with a value: how many, the sum (for the mean) and the largest, of each p95.
        public var p95Count: [GateMetric: Int] = [:]
        public var p95Sum: [GateMetric: Double] = [:]
        public var p95Max: [GateMetric: Double] = [:]

        /// The sum of a count or energy metric; the mean of the trips' values of a p95.
        public func value(_ m: GateMetric) -> Double? {
            switch m {
            case .displayErrorP95, .stalenessP95:
                guard let n = p95Count[m], n > 0 else { return nil }
                return p95Sum[m]! / Double(n)
            case .delivered, .sent, .forwarded, .energyTotal, .energyLocation, .energyFixes, .energyRadio:
                return sums[m] ?? 0
            }
        }
    }

    /// Trips added.
    public private(set) var trips = 0
    /// In order: by role (helper, hirer, delegate), by state, total last.
    public var rows: [Row] {
        storage.values.sorted { a, b in a.role != b.role ? order(a.role) < order(b.role) : a.state < b.state }
    }

    private var storage: [Key: Row] = [:]

    private struct Key: Hashable, Sendable {
        var state: FulfilmentStateKey
        var role: Role
    }

    public init() {}

    private func order(_ r: Role) -> Int {
        switch r {
        case .helper: 0
        case .hirer: 1
        case .delegate: 2
        }
    }

    /// Adds one trip's figures.
    public mutating func add(_ t: TripMetrics) {
        trips += 1
        for r in t.rows {
            let key = Key(state: r.state, role: r.role)
            var row = storage[key] ?? Row(state: r.state, role: r.role)
            row.trips += 1
            for m in GateMetric.allCases {
                guard let v = r.values[m] else { continue }
                switch m {
                case .displayErrorP95, .stalenessP95:
                    row.p95Count[m, default: 0] += 1
                    row.p95Sum[m, default: 0] += v
                    row.p95Max[m] = max(row.p95Max[m] ?? v, v)
                case .delivered, .sent, .forwarded, .energyTotal, .energyLocation, .energyFixes, .energyRadio:
                    row.sums[m, default: 0] += v
                }
            }
            storage[key] = row
        }
    }

    /// The row of `role` in `state`.
    public func row(_ state: FulfilmentStateKey, _ role: Role) -> Row? { storage[Key(state: state, role: role)] }
}
