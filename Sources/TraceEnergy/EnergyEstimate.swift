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

    /// Charge per hour of the time covered, in mAh/h; nil when no time is covered.
    public var milliampHoursPerHour: Double? { durationSeconds > 0 ? milliampHours * 3600 / durationSeconds : nil }

    /// The average power over the time covered, in milliwatts; nil when no time is covered.
    public var averageMilliwatts: Double? { durationSeconds > 0 ? totalJoules * 1000 / durationSeconds : nil }

    /// The largest part and its share of the total; nil when the total is 0. Ties go to the
    /// first in ``EnergyPart`` order.
    public var dominant: Dominance? {
        let total = totalJoules
        guard total > 0 else { return nil }
        var best = EnergyPart.location
        for part in EnergyPart.allCases where joules(part) > joules(best) { best = part }
        return Dominance(part: best, joules: joules(best), share: joules(best) / total)
    }

    /// The estimate as JSON: model, version, profile and its assumed constants, time per tier
    /// (MetricKit names, seconds), distance, counts, the parts and totals. Keys and order are
    /// stable; units are in the key names.
    public var json: JSONValue {
        var tiers: [(String, JSONValue)] = []
        for tier in TierSeconds.metricKitOrder { tiers.append((tier.metricKitName ?? tier.key, .number(tierSeconds[tier]))) }
        tiers.append(("off", .number(tierSeconds[.off])))
        let optional: (Double?) -> JSONValue = { $0.map { .number($0) } ?? .null }
        return .object([
            ("model", .string(EnergyProfile.modelName)), ("modelVersion", .number(Double(EnergyProfile.modelVersion))),
            ("profile", .string(profile.name)), ("estimate", .bool(true)),
            ("assumed", .array(profile.assumed.sorted().map { .string($0.path) })),
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
            ("dominant", dominant.map { .object([("part", .string($0.part.rawValue)), ("share", .number($0.share))]) } ?? .null),
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
