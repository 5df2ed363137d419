public import TraceJSON

/// The same trip priced under several energy profiles (the shipped device profiles, by default):
/// the range a report gives beside the chosen profile's figure, e.g. "20.0–42.9 mAh across 6
/// device profiles (galaxy-s5 … nexus-5)".
///
/// Each profile's figure comes from the same events (tier times, delivered fixes, sends and
/// receives) as the chosen profile's, priced with that profile's constants: the question it
/// answers is what this replay would cost on each device.
public struct EnergySpread: Hashable, Sendable {
    /// The profiles' names, in order.
    public var profiles: [String]
    /// Each profile's energy, joules.
    public var joules: [Double]
    /// Each profile's charge, mAh (at that profile's voltage).
    public var milliampHours: [Double]

    /// A spread from its columns (one entry per profile, in the same order).
    public init(profiles: [String], joules: [Double], milliampHours: [Double]) {
        self.profiles = profiles
        self.joules = joules
        self.milliampHours = milliampHours
    }

    /// The spread of one or more phones' estimates: `estimates[phone][profile]`, summed over the
    /// phones per profile; nil when there is no profile.
    public init?(phones estimates: [[EnergyEstimate]]) {
        guard let first = estimates.first, !first.isEmpty else { return nil }
        profiles = Self.shared(first.map(\.profile.name))
        joules = first.indices.map { i in estimates.reduce(0) { $0 + $1[i].totalJoules } }
        milliampHours = first.indices.map { i in estimates.reduce(0) { $0 + $1[i].milliampHours } }
    }

    /// The shipped device profiles' names, one array shared by every spread that prices them (a
    /// batch keeps one spread per trip).
    public static let deviceNames = EnergyProfile.devices.map(\.name)

    /// `names`, as the shared ``deviceNames`` when equal to them.
    public static func shared(_ names: [String]) -> [String] { names == deviceNames ? deviceNames : names }

    /// The profile with the smallest charge (the first of equals).
    public var lowest: Int { milliampHours.indices.min { milliampHours[$0] < milliampHours[$1] } ?? 0 }
    /// The profile with the largest charge (the first of equals).
    public var highest: Int { milliampHours.indices.max { milliampHours[$0] < milliampHours[$1] } ?? 0 }

    /// The smallest and the largest charge, mAh.
    public var lowestMilliampHours: Double { milliampHours[lowest] }
    public var highestMilliampHours: Double { milliampHours[highest] }

    /// "20.0–42.9": the lowest and highest charge, without the unit.
    public func range(decimals: Int = 1) -> String {
        "\(DecimalText.fixed(lowestMilliampHours, decimals))–\(DecimalText.fixed(highestMilliampHours, decimals))"
    }

    /// The spreads added profile by profile in their order (a corpus's trips: the same order
    /// gives the same sums); nil when there is none or their profiles differ.
    public static func sum(_ spreads: some Sequence<EnergySpread>) -> EnergySpread? {
        var total: EnergySpread?
        for s in spreads {
            guard let t = total else {
                total = s
                continue
            }
            guard let added = t + s else { return nil }
            total = added
        }
        return total
    }

    /// The two spreads added profile by profile (a corpus's trips); nil when their profiles differ.
    public static func + (a: EnergySpread, b: EnergySpread) -> EnergySpread? {
        guard a.profiles == b.profiles else { return nil }
        return EnergySpread(
            profiles: a.profiles, joules: zip(a.joules, b.joules).map(+), milliampHours: zip(a.milliampHours, b.milliampHours).map(+))
    }

    /// "20.0–42.9 mAh across 6 device profiles (galaxy-s5 … nexus-5)"; with one profile, "20.0 mAh
    /// on galaxy-s5". `decimals` for the charges.
    public func text(decimals: Int = 1) -> String {
        if profiles.count == 1 { return "\(DecimalText.fixed(lowestMilliampHours, decimals)) mAh on \(profiles[0])" }
        return "\(range(decimals: decimals)) mAh across \(profiles.count) device profiles (\(profiles[lowest]) … \(profiles[highest]))"
    }

    /// "20.0–42.9 mAh on 6 device profiles", without the profiles' names (``text(decimals:)`` has
    /// them).
    public func rangeText(decimals: Int = 1) -> String {
        profiles.count == 1
            ? "\(DecimalText.fixed(lowestMilliampHours, decimals)) mAh on \(profiles[0])"
            : "\(range(decimals: decimals)) mAh on \(profiles.count) device profiles"
    }

    /// The spread as JSON: `profiles`, `milliampHours`, `joules` (in the profiles' order), then
    /// `lowest` and `highest` (profile names).
    public var json: JSONValue {
        .object([
            ("profiles", .array(profiles.map { .string($0) })), ("milliampHours", .array(milliampHours.map { .number($0) })),
            ("joules", .array(joules.map { .number($0) })),
            ("lowest", .string(profiles[lowest])), ("highest", .string(profiles[highest])),
        ])
    }
}
