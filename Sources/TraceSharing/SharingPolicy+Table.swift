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
    /// filter 30 m → 50 m"), comparing every field of every row (also fields the table hides,
    /// such as the filter of a state whose tier is off); empty when the tables are equal. Names are
    /// not compared.
    public func differences(to other: SharingPolicy) -> [String] {
        var lines: [String] = []
        func seconds(_ x: Double?) -> String { x.map { "\(JSONWriter.number($0)) s" } ?? "none" }
        for state in FulfilmentState.allCases {
            let a = self[state], b = other[state]
            var cells: [(String, String, String)] = [
                ("accuracy", a.tier.coreLocationName, b.tier.coreLocationName),
                ("map frame", "\(JSONWriter.number(a.frame)) m", "\(JSONWriter.number(b.frame)) m"),
                ("distance filter", "\(JSONWriter.number(a.distanceFilter)) m", "\(JSONWriter.number(b.distanceFilter)) m"),
                ("minimum interval", seconds(a.minimumInterval), seconds(b.minimumInterval)),
                ("heartbeat", seconds(a.heartbeat), seconds(b.heartbeat)),
                ("route", String(a.shows.route), String(b.shows.route)),
                ("route lines", String(a.shows.routeLines), String(b.shows.routeLines)),
                ("destination", String(a.shows.destination), String(b.shows.destination)),
            ]
            cells.append(("hirer sees", Self.describe(a.hirerAnnotations), Self.describe(b.hirerAnnotations)))
            cells.append(("helper sees", Self.describe(a.helperAnnotations), Self.describe(b.helperAnnotations)))
            for (what, x, y) in cells where x != y {
                lines.append("\(state.displayName): \(what) \(x) → \(y)")
            }
        }
        return lines
    }
}
