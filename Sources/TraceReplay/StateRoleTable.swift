import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// A value per fulfilment state and role (7 × 3), subscripted by `(FulfilmentState, Role)`:
/// the replay's meters without index arithmetic. Mutated in place through the subscript.
struct StateRoleTable<Cell> {
    private var cells: [Cell]

    init(repeating cell: Cell) {
        cells = Array(repeating: cell, count: FulfilmentState.allCases.count * Role.allCases.count)
    }

    @inline(__always)
    private static func index(_ state: FulfilmentState, _ role: Role) -> Int { state.rawValue * 3 + role.rawValue }

    @inline(__always)
    subscript(state: FulfilmentState, role: Role) -> Cell {
        get { cells[Self.index(state, role)] }
        _modify { yield &cells[Self.index(state, role)] }
    }
}

/// A value per fulfilment state, subscripted by the state.
struct StateTable<Value> {
    private var values: [Value]

    init(repeating value: Value) { values = Array(repeating: value, count: FulfilmentState.allCases.count) }

    @inline(__always)
    subscript(state: FulfilmentState) -> Value {
        get { values[state.rawValue] }
        _modify { yield &values[state.rawValue] }
    }
}

/// A value per role (hirer, helper, delegate), subscripted by the role.
struct RoleTable<Value> {
    private var values: [Value]

    init(repeating value: Value) { values = Array(repeating: value, count: Role.allCases.count) }

    @inline(__always)
    subscript(role: Role) -> Value {
        get { values[role.rawValue] }
        _modify { yield &values[role.rawValue] }
    }
}

extension RoleTable: Sendable where Value: Sendable {}
