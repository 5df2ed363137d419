import TraceDomain
import TraceJSON

extension SharingPolicy {
    /// The columns of the policy table, in the seed's order.
    public static let tableHeader = [
        "State", "Shows", "Map frame", "Accuracy", "Distance filter", "Delivery", "Accuracy gate", "Send", "Hirer sees", "Helper sees",
    ]

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
                row.tier == .off ? "—" : row.delivery.summary,
                row.tier == .off ? "—" : row.accuracyGate?.summary ?? "none",
                row.tier == .off ? "—" : row.send.summary(in: row),
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

    static func describe(_ rules: [AnnotationRule]) -> String {
        rules.isEmpty ? "None" : rules.map { $0.annotation.displayName + ($0.ridesOnly ? " (rides only)" : "") }.joined(separator: "\\")
    }

    /// The differences from `self` to `other`, one line each, in state order ("En Route: distance
    /// filter 30 m → 50 m"), comparing every field of every row (also fields the table hides,
    /// such as the filter of a state whose tier is off); empty when the tables are equal. Names are
    /// not compared.
    public func differences(to other: SharingPolicy) -> [String] {
        var lines: [String] = []
        for state in FulfilmentState.allCases {
            let a = self[state], b = other[state]
            var cells: [(String, String, String)] = [
                ("accuracy", a.tier.coreLocationName, b.tier.coreLocationName),
                ("map frame", "\(JSONWriter.number(a.frame)) m", "\(JSONWriter.number(b.frame)) m"),
                ("distance filter", "\(JSONWriter.number(a.distanceFilter)) m", "\(JSONWriter.number(b.distanceFilter)) m"),
                ("delivery", a.delivery.summary, b.delivery.summary),
                ("accuracy gate", a.accuracyGate?.summary ?? "none", b.accuracyGate?.summary ?? "none"),
                ("send", a.send.summary, b.send.summary),
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

extension DeliveryModel {
    /// The model in a few words for tables and diffs, e.g. "Android fused: interval 10 s, min
    /// update 10 s (implicit)".
    public var summary: String {
        func s(_ x: Double) -> String { "\(JSONWriter.number(x)) s" }
        switch self {
        case .coreLocation: return "Core Location"
        case .androidFused(let interval, let minimum):
            let m = effectiveMinUpdateInterval ?? interval
            return "Android fused: interval \(s(interval)), min update \(s(m))\(minimum == nil ? " (implicit)" : "")"
        case .speedElastic(let multiplier): return "speed-elastic, multiplier \(JSONWriter.number(multiplier))"
        case .distanceOrTime(let interval): return "distance or \(s(interval))"
        case .distanceAndTime(let interval): return "distance and \(s(interval))"
        }
    }
}

extension AccuracyGate {
    /// The gate in a few words, e.g. "≤ 20 m; none: delivered".
    public var summary: String {
        "≤ \(JSONWriter.number(maximumAccuracy)) m; none: \(deliversWithoutAccuracy ? "delivered" : "dropped")"
    }
}
