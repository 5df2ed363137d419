public import TraceDomain
public import TraceReplay
import TraceSharing

/// A figure the gate compares per trip, state and role: every one is "lower is better" (fewer
/// updates, a smaller error, fresher views, less energy).
public enum GateMetric: String, CaseIterable, Hashable, Sendable {
    case delivered, sent, forwarded, displayErrorP95, stalenessP95, energyTotal, energyLocation, energyFixes, energyRadio

    /// Words for a diff line: "updates sent".
    public var label: String {
        switch self {
        case .delivered: "updates delivered"
        case .sent: "updates sent"
        case .forwarded: "updates forwarded"
        case .displayErrorP95: "display error p95"
        case .stalenessP95: "staleness p95"
        case .energyTotal: "energy"
        case .energyLocation: "energy, location"
        case .energyFixes: "energy, fixes"
        case .energyRadio: "energy, radio"
        }
    }

    /// The unit ("" for counts of updates).
    public var unit: String {
        switch self {
        case .delivered, .sent, .forwarded: ""
        case .displayErrorP95: "m"
        case .stalenessP95: "s"
        case .energyTotal, .energyLocation, .energyFixes, .energyRadio: "J"
        }
    }

    /// The unit of an absolute tolerance, in words: "updates", "m", "s", "J".
    public var toleranceUnit: String { unit.isEmpty ? "updates" : unit }

    /// Decimals shown in reports.
    public var decimals: Int {
        switch self {
        case .delivered, .sent, .forwarded: 0
        case .displayErrorP95, .stalenessP95, .energyTotal, .energyLocation, .energyFixes, .energyRadio: 1
        }
    }

    /// The metric's group: updates, view or energy.
    public var group: GateMetricGroup {
        switch self {
        case .delivered, .sent, .forwarded: .updates
        case .displayErrorP95, .stalenessP95: .view
        case .energyTotal, .energyLocation, .energyFixes, .energyRadio: .energy
        }
    }

    /// The figure in `m`; nil when it has no value (no view sample).
    public func value(_ m: StateRoleMetrics) -> Double? {
        switch self {
        case .delivered: Double(m.deliveredFixes)
        case .sent: Double(m.sentUpdates)
        case .forwarded: Double(m.forwarded.total)
        case .displayErrorP95: m.view.displayErrorP95Metres
        case .stalenessP95: m.view.stalenessP95Seconds
        case .energyTotal: m.energy.totalJoules
        case .energyLocation: m.energy.locationJoules
        case .energyFixes: m.energy.fixesJoules
        case .energyRadio: m.energy.radioJoules
        }
    }
}

/// The metric groups: updates (delivered, sent, forwarded), view (the p95s), energy (total and
/// parts).
public enum GateMetricGroup: String, CaseIterable, Hashable, Sendable {
    case updates, view, energy

    public var metrics: [GateMetric] { GateMetric.allCases.filter { $0.group == self } }
}

/// The gate's figures of one role in one state (or over the trip: `state` nil).
public struct GateRow: Hashable, Sendable {
    /// A state, or ``FulfilmentStateKey/total`` for the role's figures over the trip.
    public var state: FulfilmentStateKey
    public var role: Role
    /// By metric; a metric without a value (a p95 without samples) is absent.
    public var values: [GateMetric: Double]

    public init(state: FulfilmentStateKey, role: Role, values: [GateMetric: Double]) {
        self.state = state
        self.role = role
        self.values = values
    }

    /// "En Route, helper" or "Total, helper".
    public var place: String { "\(state.displayName), \(role.key)" }
}

/// A state of the trip, or the whole trip ("total").
public enum FulfilmentStateKey: Hashable, Sendable, Comparable {
    case state(FulfilmentState)
    case total

    /// The key in files: a ``FulfilmentState/key`` or "total".
    public var key: String {
        switch self {
        case .state(let s): s.key
        case .total: "total"
        }
    }

    public var displayName: String {
        switch self {
        case .state(let s): s.displayName
        case .total: "Total"
        }
    }

    public init?(key: String) {
        if key == "total" {
            self = .total
        } else if let s = FulfilmentState(parsing: key) {
            self = .state(s)
        } else {
            return nil
        }
    }

    public static func < (a: FulfilmentStateKey, b: FulfilmentStateKey) -> Bool {
        switch (a, b) {
        case (.state(let x), .state(let y)): x < y
        case (.state, .total): true
        case (.total, _): false
        }
    }
}

/// The gate's figures of one trip: per role, each state entered, then the trip's totals.
public struct TripMetrics: Hashable, Sendable {
    public var rows: [GateRow]

    public init(rows: [GateRow]) { self.rows = rows }

    /// The figures of a replay: for each role (helper, hirer, delegate when present), each state
    /// the request entered, then the totals.
    public init(_ r: ReplayResult) {
        var rows: [GateRow] = []
        for role in r.roles {
            for st in r.states where st.entered {
                guard let m = st[role] else { continue }
                rows.append(GateRow(state: .state(st.state), role: role, values: Self.values(m)))
            }
            if let t = r.roleTotals.first(where: { $0.role == role }) {
                rows.append(GateRow(state: .total, role: role, values: Self.values(t)))
            }
        }
        self.rows = rows
    }

    static func values(_ m: StateRoleMetrics) -> [GateMetric: Double] {
        var v: [GateMetric: Double] = [:]
        for metric in GateMetric.allCases { v[metric] = metric.value(m) }
        return v
    }

    /// The row of `role` in `state`.
    public func row(_ state: FulfilmentStateKey, _ role: Role) -> GateRow? {
        rows.first { $0.state == state && $0.role == role }
    }
}
