public import TraceJSON

/// One phone's battery estimate (docs/battery-model.md, "The model"): the parts kept separate, the
/// total in joules and mAh, and what produced it. It is an estimate: print ``label`` (model,
/// version and profile) and the profile's ``EnergyProfile/assumed`` constants with it.
public struct EnergyEstimate: Hashable, Sendable {
    /// The constants that produced it.
    public var profile: EnergyProfile
    /// The time covered, in seconds.
    public var durationSeconds: Double
    /// Time per accuracy tier, in seconds (MetricKit's buckets and off).
    public var tierSeconds: TierSeconds
    /// Distance travelled, in metres.
    public var distanceMetres: Double
    /// Fixes delivered to the app.
    public var deliveredFixes: Int
    /// Updates sent.
    public var sent: Int
    /// Updates received.
    public var received: Int
    /// Times the radio was promoted from idle.
    public var radioPromotions: Int
    /// E_location = Σ P_loc(tier) × seconds in the tier, in joules.
    public var locationJoules: Double
    /// E_fixes = delivered fixes × E_fix, in joules.
    public var fixesJoules: Double
    /// E_radio, in joules, by part (the last tail charged in full).
    public var radio: RadioEnergy

    /// An estimate from its parts (joules, seconds, metres).
    public init(
        profile: EnergyProfile, durationSeconds: Double, tierSeconds: TierSeconds, distanceMetres: Double,
        deliveredFixes: Int, sent: Int, received: Int, radioPromotions: Int,
        locationJoules: Double, fixesJoules: Double, radio: RadioEnergy
    ) {
        self.profile = profile
        self.durationSeconds = durationSeconds
        self.tierSeconds = tierSeconds
        self.distanceMetres = distanceMetres
        self.deliveredFixes = deliveredFixes
        self.sent = sent
        self.received = received
        self.radioPromotions = radioPromotions
        self.locationJoules = locationJoules
        self.fixesJoules = fixesJoules
        self.radio = radio
    }

    /// "tracekit-energy 1, profile lte": print it with every result.
    public var label: String { profile.label }

    /// One part's energy, in joules.
    public func joules(_ part: EnergyPart) -> Double {
        switch part {
        case .location: locationJoules
        case .fixes: fixesJoules
        case .radio: radio.totalJoules
        }
    }

    /// E_total = E_location + E_fixes + E_radio, in joules.
    public var totalJoules: Double { locationJoules + fixesJoules + radio.totalJoules }

    /// The total as battery charge, in mAh (joules / (3.6 × nominal volts); 13.86 J per mAh).
    public var milliampHours: Double { totalJoules / profile.joulesPerMilliampHour }

    /// The charge as a percentage of the profile's reference battery
    /// (``EnergyProfile/referenceBatteryMilliampHours``, 3,500 mAh by default, assumed): 53.9 mAh
    /// is 1.54 %.
    public var percentOfReferenceBattery: Double { profile.percentOfReferenceBattery(milliampHours: milliampHours) }

    /// The shortest time covered for which rates (``milliampHoursPerHour``, ``averageMilliwatts``)
    /// are given: 300 s. A replay charges one-off costs whatever its length, above all the last
    /// send's radio promotion and tail, charged in full even past the end (≈ 11 J with `lte`, the
    /// costliest of the built-in profiles: 1210 mW × 0.26 s + 1060 mW × 10.12 s). Over 300 s that
    /// adds at most ≈ 37 mW (9.6 mAh/h) to a rate, a quarter of GNSS at Nearest Ten Meters
    /// (145 mW), and an hour is extrapolated from a twelfth of it; over a few seconds such a rate
    /// would be thousands of times what the phone draws.
    public static let minimumRateSeconds = 300.0

    /// Why the rates are not given (too little time covered), or nil when they are, e.g. "44 s
    /// covered; rates need at least 300 s".
    public var rateWithheld: String? {
        guard !(durationSeconds >= Self.minimumRateSeconds) else { return nil }
        let d = durationSeconds
        let covered: String
        if !d.isFinite || d < 0 {
            covered = "\(d) s"
        } else if d > 0 && d < 0.0005 {
            covered = "under 0.001 s"
        } else if d > 0 && d < 1 {
            covered = "\(DecimalText.fixed(d, 3)) s"
        } else {
            // Whole seconds as such; else one decimal, rounded down (299.96 s is not "300 s").
            covered = d == d.rounded() ? "\(DecimalText.fixed(d, 0)) s" : "\(DecimalText.fixed((d * 10).rounded(.down) / 10, 1)) s"
        }
        return "\(covered) covered; rates need at least \(DecimalText.fixed(Self.minimumRateSeconds, 0)) s"
    }

    /// Charge per hour of the time covered, in mAh/h; nil when less than ``minimumRateSeconds``
    /// is covered (``rateWithheld`` says so).
    public var milliampHoursPerHour: Double? { rateWithheld == nil ? milliampHours * 3600 / durationSeconds : nil }

    /// The average power over the time covered, in milliwatts; nil when less than
    /// ``minimumRateSeconds`` is covered (``rateWithheld`` says so).
    public var averageMilliwatts: Double? { rateWithheld == nil ? totalJoules * 1000 / durationSeconds : nil }

    /// The largest part and its share of the total; nil when the total is 0. Ties go to the
    /// first in ``EnergyPart`` order.
    public var dominant: Dominance? {
        let total = totalJoules
        guard total > 0 else { return nil }
        var best = EnergyPart.location
        for part in EnergyPart.allCases where joules(part) > joules(best) { best = part }
        return Dominance(part: best, joules: joules(best), share: joules(best) / total)
    }

    /// The estimate as JSON: model, version, profile and its assumed battery constants (not the
    /// network's), time per tier
    /// (MetricKit names, seconds), distance, counts, the parts and totals, the rates or (`null`)
    /// why they are withheld (`rateWithheld`), then the reference battery (mAh) and the charge as a
    /// percentage of it (added after the other keys). Keys and order are stable; units are in the
    /// key names.
    public var json: JSONValue {
        var tiers: [(String, JSONValue)] = []
        for tier in TierSeconds.metricKitOrder { tiers.append((tier.metricKitName ?? tier.key, .number(tierSeconds[tier]))) }
        tiers.append(("off", .number(tierSeconds[.off])))
        let optional: (Double?) -> JSONValue = { $0.map { .number($0) } ?? .null }
        return .object([
            ("model", .string(EnergyProfile.modelName)), ("modelVersion", .number(Double(EnergyProfile.modelVersion))),
            ("profile", .string(profile.name)), ("estimate", .bool(true)),
            // The battery model's assumptions; the network's constants are the view's, not the estimate's.
            ("assumed", .array(profile.assumed.filter { $0.group != "network" }.sorted().map { .string($0.path) })),
            ("durationSeconds", .number(durationSeconds)), ("tierSeconds", .object(tiers)),
            ("distanceMetres", .number(distanceMetres)),
            ("deliveredFixes", .number(Double(deliveredFixes))), ("sent", .number(Double(sent))),
            ("received", .number(Double(received))), ("radioPromotions", .number(Double(radioPromotions))),
            ("locationJoules", .number(locationJoules)), ("fixesJoules", .number(fixesJoules)),
            (
                "radioJoules",
                .object([
                    ("promotion", .number(radio.promotionJoules)), ("transmit", .number(radio.transmitJoules)),
                    ("tail", .number(radio.tailJoules)), ("total", .number(radio.totalJoules)),
                ])
            ),
            ("totalJoules", .number(totalJoules)), ("milliampHours", .number(milliampHours)),
            ("milliampHoursPerHour", optional(milliampHoursPerHour)), ("averageMilliwatts", optional(averageMilliwatts)),
            ("rateWithheld", rateWithheld.map { .string($0) } ?? .null),
            ("dominant", dominant.map { .object([("part", .string($0.part.rawValue)), ("share", .number($0.share))]) } ?? .null),
            ("referenceBatteryMilliampHours", .number(profile.referenceBatteryMilliampHours)),
            ("percentOfReferenceBattery", .number(percentOfReferenceBattery)),
        ])
    }
}

/// The separate parts of an estimate.
public enum EnergyPart: String, CaseIterable, Hashable, Sendable {
    /// E_location: the location hardware, by tier.
    case location
    /// E_fixes: waking the processor for each delivered fix.
    case fixes
    /// E_radio: promotions, transmissions and tails.
    case radio
}

/// Which part of an estimate is largest.
public struct Dominance: Hashable, Sendable {
    /// The largest part.
    public var part: EnergyPart
    /// Its energy, in joules.
    public var joules: Double
    /// Its share of the total, in [0, 1].
    public var share: Double
}
