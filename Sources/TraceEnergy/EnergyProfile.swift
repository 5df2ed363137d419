public import TraceDomain
import TraceJSON

/// Every constant of TraceKit's battery model (docs/battery-model.md, "Default constants"), with
/// the model's name and version.
///
/// The estimate is E_total = E_location + E_fixes + E_radio:
/// - E_location = Σ P_loc(tier) × time in the tier (mW × s = mJ), P_loc = 0 when location is off;
/// - E_fixes = delivered fixes × E_fix;
/// - E_radio from ``RadioStateMachine`` over the send times, with this profile's ``radio``;
/// - charge in mAh = E_total (J) / (3.6 × ``nominalVolts``), 13.86 J per mAh at 3.85 V;
/// - share of the battery in % = charge / ``referenceBatteryMilliampHours`` × 100.
///
/// The built-in profiles (``lte``, the default, ``lteModern``, ``threeG``, ``wifi``) share the
/// location and fix constants and differ in the radio. Many defaults are engineering assumptions
/// rather than measurements; ``assumed`` lists them, and reports must say so. A profile file
/// (`EnergyProfile+File.swift`) starts from a built-in profile and can override any constant.
public struct EnergyProfile: Hashable, Sendable {
    /// The model's name, printed with every result.
    public static let modelName = "tracekit-energy"
    /// The model's version, printed with every result; it changes whenever a formula changes.
    public static let modelVersion = 1

    /// The profile's name, e.g. "lte" or a profile file's `name`.
    public var name: String
    /// The built-in profile it started from, e.g. "lte".
    public var base: String
    /// P_loc for BestForNavigation, in milliwatts (425; assumed).
    public var bestForNavigationMilliwatts: Double = 425
    /// P_loc for Best, in milliwatts (290; assumed).
    public var bestMilliwatts: Double = 290
    /// P_loc for NearestTenMeters, in milliwatts (145; assumed).
    public var nearestTenMetersMilliwatts: Double = 145
    /// P_loc for HundredMeters, in milliwatts (30; assumed).
    public var hundredMetersMilliwatts: Double = 30
    /// P_loc for Kilometer, in milliwatts (8; assumed).
    public var kilometerMilliwatts: Double = 8
    /// P_loc for ThreeKilometers, in milliwatts (2; assumed).
    public var threeKilometersMilliwatts: Double = 2
    /// E_fix, the energy of one delivered fix, in millijoules (50; assumed: about 100 ms of
    /// processor wake at about 0.5 W).
    public var fixMillijoules: Double = 50
    /// The battery's nominal voltage, in volts (3.85): 1 mAh = 3.6 × volts joules.
    public var nominalVolts: Double = 3.85
    /// The reference battery's capacity, in mAh (3,500; assumed: a typical current phone's), which
    /// reports express each phone's charge against (``percentOfReferenceBattery(milliampHours:)``).
    /// It prices no joule.
    public var referenceBatteryMilliampHours: Double = 3500
    /// The radio's constants.
    public var radio: RadioProfile
    /// The network's constants (``NetworkProfile``): delay and loss between sender and viewer.
    public var network: NetworkProfile
    /// The constants whose value is an engineering assumption ("assumed" in docs/battery-model.md,
    /// "Default constants"), not a measurement. A profile file may restate this list; otherwise a
    /// constant it sets leaves it.
    public var assumed: Set<EnergyConstant>
    /// How the constants were derived from their source, one phrase each (an Android power
    /// profile's currents and the rule applied to each, ``init(android:name:file:)``); empty for
    /// the built-in radio profiles and JSON profile files.
    public var derivation: [String] = []

    /// A profile with the default location and fix constants (docs/battery-model.md, "Default
    /// constants") and the given radio; ``name`` and ``base`` are the radio's name. ``assumed``
    /// lists the location powers, E_fix, the reference battery, the network constants and `radioAssumptions` (by default
    /// t_tx, which the model assumes for every radio).
    public init(radio: RadioProfile, network: NetworkProfile, radioAssumptions: Set<EnergyConstant> = [.transmitDuration]) {
        self.name = radio.name
        self.base = radio.name
        self.radio = radio
        self.network = network
        self.assumed = radioAssumptions.union([
            .bestForNavigationPower, .bestPower, .nearestTenMetersPower, .hundredMetersPower,
            .kilometerPower, .threeKilometersPower, .fixEnergy, .referenceBattery,
            .uplinkLatency, .backendMedian, .backendSpread, .lossProbability,
        ])
    }

    /// The default: LTE radio (ARO `lte.conf`), the default location and fix constants
    /// (docs/battery-model.md, "Default constants").
    public static let lte = EnergyProfile(radio: .lte, network: .lte)
    /// LTE with a modern modem's 500 mW tail (assumed).
    public static let lteModern = EnergyProfile(radio: .lteModern, network: .lte, radioAssumptions: [.transmitDuration, .tailPower])
    /// 3G (ARO i997), two-stage tail; its transmit power is assumed (``RadioProfile/threeG``).
    public static let threeG = EnergyProfile(radio: .threeG, network: .threeG, radioAssumptions: [.transmitDuration, .transmitPower])
    /// Wi-Fi (ARO `WiFi.conf`); its tail power is assumed (``RadioProfile/wifi``).
    public static let wifi = EnergyProfile(radio: .wifi, network: .wifi, radioAssumptions: [.transmitDuration, .tailPower])

    /// The built-in profiles, the default first.
    public static let builtIn: [EnergyProfile] = [.lte, .lteModern, .threeG, .wifi]

    /// The built-in profile named `name` ("lte", "lte-modern", "3g", "wifi", or a shipped device
    /// profile's name, ``devices``), or nil.
    public static func builtIn(named name: String) -> EnergyProfile? {
        builtIn.first { $0.name == name } ?? devices.first { $0.name == name }
    }

    /// The names ``builtIn(named:)`` takes, the radio profiles first.
    public static var builtInNames: [String] { builtIn.map(\.name) + devices.map(\.name) }

    /// "tracekit-energy 1, profile lte": the model and profile, to print with every result.
    public var label: String { "\(EnergyProfile.modelName) \(EnergyProfile.modelVersion), profile \(name)" }

    /// P_loc for `tier`, in milliwatts; 0 when location is off.
    public func locationMilliwatts(_ tier: AccuracyTier) -> Double {
        guard let constant = EnergyConstant(locationPowerOf: tier) else { return 0 }
        return self[constant]
    }

    /// Joules in one mAh of charge at ``nominalVolts``: 3.6 × volts (13.86 J at 3.85 V).
    public var joulesPerMilliampHour: Double { 3.6 * nominalVolts }

    /// `milliampHours` as a percentage of ``referenceBatteryMilliampHours``: 53.9 mAh is 1.54 % of
    /// 3,500 mAh.
    public func percentOfReferenceBattery(milliampHours: Double) -> Double {
        milliampHours / referenceBatteryMilliampHours * 100
    }

    /// The value of one constant, in its ``EnergyConstant/unit``.
    public subscript(constant: EnergyConstant) -> Double {
        get {
            switch constant {
            case .bestForNavigationPower: bestForNavigationMilliwatts
            case .bestPower: bestMilliwatts
            case .nearestTenMetersPower: nearestTenMetersMilliwatts
            case .hundredMetersPower: hundredMetersMilliwatts
            case .kilometerPower: kilometerMilliwatts
            case .threeKilometersPower: threeKilometersMilliwatts
            case .fixEnergy: fixMillijoules
            case .nominalVoltage: nominalVolts
            case .referenceBattery: referenceBatteryMilliampHours
            case .promotionPower: radio.promotionMilliwatts
            case .promotionDuration: radio.promotionSeconds
            case .transmitPower: radio.transmitMilliwatts
            case .transmitDuration: radio.transmitSeconds
            case .tailPower: radio.tailMilliwatts
            case .tailDuration: radio.tailSeconds
            case .secondTailPower: radio.secondTailMilliwatts
            case .secondTailDuration: radio.secondTailSeconds
            case .uplinkLatency: network.uplinkSeconds
            case .backendMedian: network.backendMedianSeconds
            case .backendSpread: network.backendSigma
            case .lossProbability: network.lossProbability
            }
        }
        set {
            switch constant {
            case .bestForNavigationPower: bestForNavigationMilliwatts = newValue
            case .bestPower: bestMilliwatts = newValue
            case .nearestTenMetersPower: nearestTenMetersMilliwatts = newValue
            case .hundredMetersPower: hundredMetersMilliwatts = newValue
            case .kilometerPower: kilometerMilliwatts = newValue
            case .threeKilometersPower: threeKilometersMilliwatts = newValue
            case .fixEnergy: fixMillijoules = newValue
            case .nominalVoltage: nominalVolts = newValue
            case .referenceBattery: referenceBatteryMilliampHours = newValue
            case .promotionPower: radio.promotionMilliwatts = newValue
            case .promotionDuration: radio.promotionSeconds = newValue
            case .transmitPower: radio.transmitMilliwatts = newValue
            case .transmitDuration: radio.transmitSeconds = newValue
            case .tailPower: radio.tailMilliwatts = newValue
            case .tailDuration: radio.tailSeconds = newValue
            case .secondTailPower: radio.secondTailMilliwatts = newValue
            case .secondTailDuration: radio.secondTailSeconds = newValue
            case .uplinkLatency: network.uplinkSeconds = newValue
            case .backendMedian: network.backendMedianSeconds = newValue
            case .backendSpread: network.backendSigma = newValue
            case .lossProbability: network.lossProbability = newValue
            }
        }
    }
}

/// One overridable constant of an ``EnergyProfile``: its place in a profile file and its unit.
public enum EnergyConstant: String, CaseIterable, Hashable, Sendable, Comparable {
    case bestForNavigationPower, bestPower, nearestTenMetersPower, hundredMetersPower, kilometerPower, threeKilometersPower
    case fixEnergy, nominalVoltage, referenceBattery
    case promotionPower, promotionDuration, transmitPower, transmitDuration, tailPower, tailDuration, secondTailPower, secondTailDuration
    case uplinkLatency, backendMedian, backendSpread, lossProbability

    /// The constant for P_loc of `tier`; nil for off (always 0 mW).
    public init?(locationPowerOf tier: AccuracyTier) {
        switch tier {
        case .off: return nil
        case .threeKilometers: self = .threeKilometersPower
        case .kilometer: self = .kilometerPower
        case .hundredMeters: self = .hundredMetersPower
        case .nearestTenMeters: self = .nearestTenMetersPower
        case .best: self = .bestPower
        case .bestForNavigation: self = .bestForNavigationPower
        }
    }

    /// The object it sits in within a profile file ("locationMilliwatts", "radio" or "network"), or
    /// nil at the top.
    public var group: String? {
        switch self {
        case .bestForNavigationPower, .bestPower, .nearestTenMetersPower, .hundredMetersPower, .kilometerPower, .threeKilometersPower:
            "locationMilliwatts"
        case .fixEnergy, .nominalVoltage, .referenceBattery: nil
        case .promotionPower, .promotionDuration, .transmitPower, .transmitDuration, .tailPower, .tailDuration, .secondTailPower,
            .secondTailDuration:
            "radio"
        case .uplinkLatency, .backendMedian, .backendSpread, .lossProbability: "network"
        }
    }

    /// Its member name within ``group``, e.g. "tailMilliwatts" or "best".
    public var member: String {
        switch self {
        case .bestForNavigationPower: AccuracyTier.bestForNavigation.key
        case .bestPower: AccuracyTier.best.key
        case .nearestTenMetersPower: AccuracyTier.nearestTenMeters.key
        case .hundredMetersPower: AccuracyTier.hundredMeters.key
        case .kilometerPower: AccuracyTier.kilometer.key
        case .threeKilometersPower: AccuracyTier.threeKilometers.key
        case .fixEnergy: "fixMillijoules"
        case .nominalVoltage: "nominalVolts"
        case .referenceBattery: "referenceBatteryMilliampHours"
        case .promotionPower: "promotionMilliwatts"
        case .promotionDuration: "promotionSeconds"
        case .transmitPower: "transmitMilliwatts"
        case .transmitDuration: "transmitSeconds"
        case .tailPower: "tailMilliwatts"
        case .tailDuration: "tailSeconds"
        case .secondTailPower: "secondTailMilliwatts"
        case .secondTailDuration: "secondTailSeconds"
        case .uplinkLatency: "uplinkSeconds"
        case .backendMedian: "backendMedianSeconds"
        case .backendSpread: "backendSigma"
        case .lossProbability: "lossProbability"
        }
    }

    /// Its path in a profile file, e.g. "radio.tailMilliwatts" or "fixMillijoules".
    public var path: String { group.map { "\($0).\(member)" } ?? member }

    /// Its unit: "mW", "s", "mJ", "V", "mAh", or "" (a ratio or a probability).
    public var unit: String {
        switch self {
        case .bestForNavigationPower, .bestPower, .nearestTenMetersPower, .hundredMetersPower, .kilometerPower, .threeKilometersPower,
            .promotionPower, .transmitPower, .tailPower, .secondTailPower:
            "mW"
        case .promotionDuration, .transmitDuration, .tailDuration, .secondTailDuration, .uplinkLatency, .backendMedian: "s"
        case .fixEnergy: "mJ"
        case .nominalVoltage: "V"
        case .referenceBattery: "mAh"
        case .backendSpread, .lossProbability: ""
        }
    }

    /// Declaration order.
    public static func < (a: EnergyConstant, b: EnergyConstant) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
