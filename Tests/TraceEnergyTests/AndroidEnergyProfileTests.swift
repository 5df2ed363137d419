import Foundation
import Testing
import TraceDomain
import TraceEnergy

/// A `power_profile.xml` as an energy profile (``EnergyProfile/init(android:name:file:)``):
/// BatteryStats' currents, each × the time the model keeps its component in that state.
@Suite("Energy: Android power profiles as energy profiles")
struct AndroidEnergyProfileTests {
    /// An old-generation file: GNSS 50 mA, radio 200 mA, CPU idle loop 10 mA and lowest speed
    /// 40 mA, no voltage (so 3.85 V is assumed), a 3,000 mAh battery.
    static let plain = """
        <device name="Android">
          <item name="battery.capacity">3000</item>
          <item name="gps.on">50</item>
          <item name="radio.active">200</item>
          <item name="cpu.idle">2</item>
          <item name="cpu.awake">10</item>
          <array name="cpu.active"><value>90</value><value>40</value><value>60</value></array>
        </device>
        """

    static func profile(_ xml: String, file: String = "p.xml") throws -> EnergyProfile {
        try EnergyProfile(androidXML: Array(xml.utf8), file: file)
    }

    @Test("each current becomes power at the profile's voltage; the assumed constants are said")
    func mapping() throws {
        let p = try Self.profile(Self.plain)
        #expect(p.name == "p" && p.base == "android")
        #expect(p.nominalVolts == 3.85 && p.assumed.contains(.nominalVoltage))
        for tier in EnergyProfile.gnssTiers { #expect(p.locationMilliwatts(tier) == 50 * 3.85) }
        // The Wi-Fi and cell tiers keep the model's assumed powers.
        for tier in [AccuracyTier.hundredMeters, .kilometer, .threeKilometers] {
            #expect(p.locationMilliwatts(tier) == EnergyProfile.lte.locationMilliwatts(tier))
            #expect(p.assumed.contains(EnergyConstant(locationPowerOf: tier)!))
        }
        #expect(!p.assumed.contains(.bestPower) && !p.assumed.contains(.referenceBattery))
        // Every radio stage at radio.active; ARO's LTE timers.
        #expect(p.radio.promotionMilliwatts == 200 * 3.85 && p.radio.transmitMilliwatts == 200 * 3.85 && p.radio.tailMilliwatts == 200 * 3.85)
        #expect(p.radio.promotionSeconds == RadioProfile.lte.promotionSeconds && p.radio.tailSeconds == RadioProfile.lte.tailSeconds)
        #expect(p.assumed.isSuperset(of: [.promotionDuration, .transmitDuration, .tailDuration]))
        // A fix: the idle loop (cpu.awake in a file of before 2017) and the lowest cpu.active.
        #expect(abs(p.fixMillijoules - (10 + 40) * 3.85 * 0.1) < 1e-12)
        #expect(p.referenceBatteryMilliampHours == 3000)
        #expect(p.derivation.contains("GNSS 50 mA (gps.on)") && p.derivation.contains("battery 3,000 mAh"))
    }

    /// The energy of `seconds` in Nearest Ten Meters, `fixes` delivered fixes and isolated sends at
    /// the given times, under `profile`.
    static func estimate(_ profile: EnergyProfile, seconds: Double = 600, fixes: Int = 20, sends: [Double] = [0, 100, 200, 300])
        -> EnergyEstimate
    {
        var m = EnergyMeter(profile: profile, start: 0, tier: .nearestTenMeters)
        for _ in 0..<fixes { m.deliverFix() }
        for t in sends { m.send(at: t) }
        return m.estimate(at: seconds)
    }

    @Test("the mAh are Σ current × time, as BatteryStats adds them, whatever the voltage")
    func batteryStatsArithmetic() throws {
        for volts in ["", "<item name=\"gps.voltage\">3700</item>", "<item name=\"gps.voltage\">4.4</item>"] {
            let p = try Self.profile(Self.plain.replacingOccurrences(of: "</device>", with: volts + "</device>"))
            let e = Self.estimate(p)
            // 600 s of GNSS at 50 mA; 20 fixes of 0.1 s at 50 mA; 4 isolated sends, each keeping
            // the radio active for its promotion, transmission and tail at 200 mA.
            let active = RadioProfile.lte.promotionSeconds + RadioProfile.lte.transmitSeconds + RadioProfile.lte.tailSeconds
            let expected = (50 * 600 + 50 * 20 * 0.1 + 200 * 4 * active) / 3600
            #expect(abs(e.milliampHours - expected) < 1e-9, "\(volts)")
        }
    }

    @Test("doubling gps.on doubles the location part of the GNSS tiers and nothing else")
    func doubleGNSS() throws {
        let a = Self.estimate(try Self.profile(Self.plain))
        let b = Self.estimate(try Self.profile(Self.plain.replacingOccurrences(of: ">50<", with: ">100<")))
        #expect(abs(b.locationJoules - 2 * a.locationJoules) < 1e-9)
        #expect(b.fixesJoules == a.fixesJoules && b.radio == a.radio)
    }

    @Test("doubling the radio current doubles the radio part and nothing else")
    func doubleRadio() throws {
        let a = Self.estimate(try Self.profile(Self.plain))
        let b = Self.estimate(try Self.profile(Self.plain.replacingOccurrences(of: ">200<", with: ">400<")))
        #expect(abs(b.radio.totalJoules - 2 * a.radio.totalJoules) < 1e-9)
        #expect(b.locationJoules == a.locationJoules && b.fixesJoules == a.fixesJoules)
    }

    @Test("a controller-only file: the radio at the mean of rx and the five tx levels, as BatteryStats")
    func modemController() throws {
        let xml = """
            <device>
              <item name="battery.capacity">3700</item>
              <array name="gps.signalqualitybased"><value>24</value><value>6</value></array>
              <item name="gps.voltage">3700</item>
              <item name="modem.controller.rx">91</item>
              <array name="modem.controller.tx"><value>96</value><value>133</value><value>183</value></array>
            </device>
            """
        let p = try Self.profile(xml)
        // A list of three levels repeats its last for levels 3 and 4.
        #expect(abs(p.radio.tailMilliwatts - (91 + 96 + 133 + 183 + 183 + 183) / 6 * 3.7) < 1e-9)
        #expect(p.locationMilliwatts(.best) == 15 * 3.7 && p.nominalVolts == 3.7 && !p.assumed.contains(.nominalVoltage))
        // No CPU currents: the model's assumed E_fix.
        #expect(p.fixMillijoules == EnergyProfile.lte.fixMillijoules && p.assumed.contains(.fixEnergy))
    }

    @Test("a file without a value the estimate needs fails in one line naming the key")
    func incomplete() throws {
        let noRadio = Self.plain.replacingOccurrences(of: "<item name=\"radio.active\">200</item>", with: "")
        #expect(throws: AndroidPowerProfileError.self) { try Self.profile(noRadio, file: "x/phone.xml") }
        do throws(AndroidPowerProfileError) {
            _ = try EnergyProfile(androidXML: Array(noRadio.utf8), file: "x/phone.xml")
        } catch {
            #expect(
                error.description
                    == "x/phone.xml: no radio.active or modem.controller.rx and modem.controller.tx (or only a placeholder 0): not a complete power profile"
            )
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a voltage outside a battery's range is not used (the Xperia's modem: 620)")
    func implausibleVoltage() throws {
        let xml = Self.plain.replacingOccurrences(of: "</device>", with: "<item name=\"modem.controller.voltage\">620</item></device>")
        let p = try Self.profile(xml)
        #expect(p.nominalVolts == 3.85 && p.assumed.contains(.nominalVoltage))
    }

    @Test("the shipped devices: named, complete, and the numbers their provenance lists")
    func shipped() throws {
        #expect(EnergyProfile.devices.map(\.name) == ["pixel-4-xl", "xperia-5-ii", "mi-6", "galaxy-s5", "oneplus-one", "nexus-5"])
        for d in EnergyProfile.devices { #expect(EnergyProfile.builtIn(named: d.name) == d) }
        let byName = Dictionary(uniqueKeysWithValues: EnergyProfile.devices.map { ($0.name, $0) })
        // Battery, GNSS (mA), radio active (mA), voltage: from ../shared/energy/power-profiles/PROVENANCE.md.
        let expected: [(String, Double, Double, Double, Double)] = [
            ("pixel-4-xl", 3700, 15, (91 + 96 + 133 + 183 + 225 + 295) / 6, 3.7),
            ("xperia-5-ii", 4000, (58.28 + 12.49) / 2, 108.48, 3.7),
            ("mi-6", 3350, 59.91, 134.84, 3.85),
            ("galaxy-s5", 2800, 1, 125, 3.85),
            ("oneplus-one", 3100, 20.9, 185.6, 3.85),
            ("nexus-5", 2300, 76.23, 185.19, 3.85),
        ]
        for (name, battery, gnss, radio, volts) in expected {
            let p = try #require(byName[name])
            #expect(p.referenceBatteryMilliampHours == battery, "\(name)")
            #expect(p.nominalVolts == volts, "\(name)")
            #expect(abs(p.locationMilliwatts(.nearestTenMeters) - gnss * volts) < 1e-9, "\(name)")
            #expect(abs(p.radio.tailMilliwatts - radio * volts) < 1e-9, "\(name)")
        }
    }

    /// The repository's copies (`Energy/power-profiles`) and the corpus beside the package.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shared = root.deletingLastPathComponent().appendingPathComponent("shared/energy/power-profiles")
    static let copies: [(file: String, device: String)] = [
        ("google-coral.xml", "pixel-4-xl"), ("lge-hammerhead.xml", "nexus-5"), ("oneplus-bacon.xml", "oneplus-one"),
        ("xiaomi-sagit.xml", "mi-6"),
    ]

    /// The profile read from `url`, named as the shipped device, without its derivation.
    static func read(_ url: URL, as device: String) throws -> EnergyProfile {
        let bytes = Array(try Data(contentsOf: url))
        var p = try EnergyProfile(android: AndroidPowerProfile(xml: bytes, file: url.path), name: device, file: url.path)
        p.derivation = []
        return p
    }

    static func withoutDerivation(_ name: String) throws -> EnergyProfile {
        var p = try #require(EnergyProfile.builtIn(named: name))
        p.derivation = []
        return p
    }

    @Test("each shipped device is its repository copy, read as it stands", arguments: copies)
    func copiesMatch(file: String, device: String) throws {
        let read = try Self.read(Self.root.appendingPathComponent("Energy/power-profiles/\(file)"), as: device)
        #expect(read == (try Self.withoutDerivation(device)))
    }

    @Test(
        "each shipped device is the real file, read as it stands",
        .enabled(
            if: FileManager.default.fileExists(atPath: shared.appendingPathComponent("sony-pdx206.xml").path),
            "../shared/energy/power-profiles not found: the Xperia's and the Galaxy's files are not read"),
        arguments: copies + [("sony-pdx206.xml", "xperia-5-ii"), ("samsung-klte.xml", "galaxy-s5")])
    func realFilesMatch(file: String, device: String) throws {
        let read = try Self.read(Self.shared.appendingPathComponent(file), as: device)
        #expect(read == (try Self.withoutDerivation(device)))
    }

    @Test("the same events priced under other profiles: each equals a meter of that profile alone")
    func across() throws {
        var m = EnergyMeter(profile: .lte, start: 0, tier: .best, across: EnergyProfile.devices)
        var alone = EnergyProfile.devices.map { EnergyMeter(profile: $0, start: 0, tier: .best) }
        for t in [0.0, 3, 9, 40, 41, 200] {
            m.deliverFix()
            m.send(at: t)
            for i in alone.indices {
                alone[i].deliverFix()
                alone[i].send(at: t)
            }
        }
        m.receive(at: 300)
        for i in alone.indices { alone[i].receive(at: 300) }
        let estimates = m.estimates(acrossAt: 400)
        #expect(estimates == alone.map { $0.estimate(at: 400) })
        let spread = try #require(EnergySpread(phones: [estimates]))
        #expect(spread.profiles == EnergyProfile.devices.map(\.name))
        #expect(spread.milliampHours[spread.lowest] == spread.milliampHours.min())
        #expect(spread.text(decimals: 1).hasSuffix("across 6 device profiles (\(spread.profiles[spread.lowest]) … \(spread.profiles[spread.highest]))"))
    }

    @Test("one more update costs little when updates share the radio's tail, an isolated update's when none came")
    func marginal() throws {
        let lte = RadioProfile.lte
        let often = try #require(lte.marginalJoules(events: 200, over: 1000))
        #expect(abs(often - 0.014) < 0.0005)
        #expect(lte.marginalJoules(events: 0, over: 60) == lte.isolatedUpdateJoules)
        // One every 60 s: each pays its own promotion and tail.
        #expect(abs(try #require(lte.marginalJoules(events: 10, over: 600)) - lte.isolatedUpdateJoules) < 1e-9)
        #expect(lte.marginalJoules(events: 3, over: 0) == nil)
    }
}
