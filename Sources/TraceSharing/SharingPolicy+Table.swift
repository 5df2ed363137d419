import TraceJSON

extension SharingPolicy {
    /// The columns of the policy table, in the seed's order.
    public static let tableHeader = ["State", "Shows", "Map frame", "Accuracy", "Distance filter", "Platform rules", "Hirer sees", "Helper sees"]

    /// One row of cells per state, in state order, worded as the seed words them.
    public var tableRows: [[String]] {
        FulfilmentState.allCases.map { state in
            let row = self[state]
            return [
                state.displayName,
                Self.describe(row.shows),
                "\(JSONWriter.number(row.frame)) m",
                row.tier.coreLocationName,
                row.tier == .off ? "—" : "\(JSONWriter.number(row.distanceFilter)) m",
                Self.describeRules(row),
                Self.describe(row.hirerAnnotations),
                Self.describe(row.helperAnnotations),
            ]
        }
    }

    static func describe(_ shows: ShownContent) -> String {
        var parts: [String] = []
        if shows.route { parts.append(shows.routeLines ? "Route with lines" : "Route") } else { parts.append("No route lines") }
        if shows.destination { parts.append("Destination") }
        return parts.joined(separator: ", ")
    }

    static func describeRules(_ row: StatePolicy) -> String {
        var parts: [String] = []
        if let m = row.minimumInterval { parts.append("min interval \(JSONWriter.number(m)) s") }
        if let h = row.heartbeat { parts.append("heartbeat \(JSONWriter.number(h)) s") }
        return parts.isEmpty ? "—" : parts.joined(separator: ", ")
    }

    static func describe(_ rules: [AnnotationRule]) -> String {
        rules.isEmpty ? "None" : rules.map { $0.annotation.displayName + ($0.ridesOnly ? " (rides only)" : "") }.joined(separator: "\\")
    }

    /// The differences from `self` to `other`, one line each, in state order ("En Route: distance
    /// filter 30 m → 50 m"); empty when the tables are equal (names are not compared).
    public func differences(to other: SharingPolicy) -> [String] {
        var lines: [String] = []
        let a = tableRows, b = other.tableRows
        for (i, state) in FulfilmentState.allCases.enumerated() {
            for (j, column) in Self.tableHeader.enumerated().dropFirst() where a[i][j] != b[i][j] {
                lines.append("\(state.displayName): \(column.lowercased()) \(a[i][j]) → \(b[i][j])")
            }
        }
        return lines
    }
}
