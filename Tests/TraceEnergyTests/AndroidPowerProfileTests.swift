import Foundation
import Testing
import TraceEnergy

/// `power_profile.xml` read as it stands (``AndroidPowerProfile``): both key generations, one rule
/// per quirk, and a broken file in one line.
@Suite("Energy: Android power_profile.xml")
struct AndroidPowerProfileTests {
    static func read(_ xml: String) throws -> AndroidPowerProfile {
        try AndroidPowerProfile(xml: Array(xml.utf8), file: "p.xml")
    }

    static let older = """
        <?xml version="1.0" encoding="utf-8"?>
        <!-- All values are in mAh except as noted -->
        <device name="Android">
          <item name="none">0</item>
          <item name="gps.on">20.9</item>
          <item name="radio.active">185.6</item>
          <array name="radio.on"> <!-- signal bins -->
            <value>2.5</value>
            <value>1.2</value>
          </array>
          <item name="cpu.idle">3.5</item>
          <item name="cpu.awake">10.43</item>
          <item name="battery.capacity">3100</item>
        </device>
        """

    static let newer = """
        <device name="Android">
          <item name="battery.capacity">3700</item>
          <item name="cpu.suspend">5.6</item>
          <item name="cpu.idle">5.4</item>
          <array name="gps.signalqualitybased"><value>24</value><value>6</value></array>
          <item name="gps.voltage">3700</item>
          <item name="modem.controller.idle">100</item>
          <item name="modem.controller.rx">91</item>
          <array name="modem.controller.tx">
            <value>96</value><value>133</value><value>183</value><value>225</value><value>295</value>
          </array>
          <item name="modem.controller.voltage">3.7</item>
        </device>
        """

    @Test("the older keys: gps.on, radio.active and radio.on; cpu.idle is the suspended current, cpu.awake the idle loop; a 'mAh' units comment changes nothing")
    func olderGeneration() throws {
        let p = try Self.read(Self.older)
        #expect(p.batteryCapacityMilliampHours == 3100)
        #expect(p.gnssMilliamps == 20.9 && p.componentVolts == nil)
        #expect(p.radioActiveMilliamps == 185.6 && p.currents("radio.on") == [2.5, 1.2])
        #expect(p.cpuSuspendMilliamps == 3.5 && p.cpuIdleMilliamps == 10.43)
        #expect(p.items.count == 6 && p.arrays.count == 1 && p.duplicatedKeys.isEmpty)
        try p.checkComplete(file: "p.xml")
    }

    @Test("the newer keys: gps.signalqualitybased with gps.voltage, the modem controller; cpu.suspend and cpu.idle; volts in mV or V")
    func newerGeneration() throws {
        let p = try Self.read(Self.newer)
        #expect(p.gnssMilliamps == 15 && p.volts("gps.voltage") == 3.7 && p.componentVolts?.key == "gps.voltage")
        #expect(p.radioActiveMilliamps == 1023.0 / 6)
        #expect(p.current("modem.controller.idle") == 100 && p.volts("modem.controller.voltage") == 3.7)
        #expect(p.cpuSuspendMilliamps == 5.6 && p.cpuIdleMilliamps == 5.4)
        try p.checkComplete(file: "p.xml")
    }

    @Test("placeholder zeros fall back to the older keys; a key given twice keeps the later value and is named")
    func quirks() throws {
        let p = try Self.read(
            """
            <device name="Android">
              <item name="battery.capacity">3350</item>
              <item name="gps.on">59.91</item>
              <item name="radio.active">134.84</item>
              <item name="modem.controller.rx">0</item>
              <array name="modem.controller.tx"><value>0</value><value>0</value></array>
              <item name="gps.on">61</item>
              <array name="radio.on"><value>1</value></array>
              <array name="radio.on"><value>2</value><value>2</value></array>
            </device>
            """)
        #expect(p.radioActiveMilliamps == 134.84 && p.currents("radio.on") == [2, 2])
        #expect(p.gnssMilliamps == 61)
        #expect(p.duplicatedKeys == ["gps.on", "radio.on"])
        #expect(p.current("modem.controller.rx") == nil && p.items["modem.controller.rx"] == 0)
    }

    @Test(
        "a broken file fails in one line naming the file, the line and the problem",
        arguments: [
            ("<device><item name=\"gps.on\">x</item></device>", "p.xml:1: item 'gps.on': 'x' is not a number"),
            ("<device>\n<item name=\"gps.on\">1", "p.xml:2: item 'gps.on' is not closed"),
            ("<device>\n\n<item name=\"a\"></item></device>", "p.xml:3: item 'a' has no value"),
            ("<resources><item name=\"a\">1</item></resources>", "p.xml:1: unexpected <resources>: a power profile holds <device>, <item>, <array> and <value>"),
            ("<!-- only a comment", "p.xml:1: a comment that is not closed"),
            ("", "p.xml:1: no <device> element: not a power_profile.xml"),
        ])
    func broken(xml: String, message: String) {
        #expect(throws: (any Error).self) { try Self.read(xml) }
        do {
            _ = try Self.read(xml)
        } catch {
            #expect((error as? AndroidPowerProfileError)?.description == message)
        }
    }

    @Test("a file without what an estimate needs names the first missing key")
    func incomplete() throws {
        let noGPS = try Self.read("<device><item name=\"battery.capacity\">3000</item><item name=\"radio.active\">100</item></device>")
        #expect(throws: AndroidPowerProfileError(file: "p.xml", line: 0, message: "no gps.on or gps.signalqualitybased (or only a placeholder 0): not a complete power profile")) {
            try noGPS.checkComplete(file: "p.xml")
        }
        let zeroBattery = try Self.read("<device><item name=\"battery.capacity\">0</item></device>")
        #expect(throws: AndroidPowerProfileError(file: "p.xml", line: 0, message: "no battery.capacity (or only a placeholder 0): not a complete power profile")) {
            try zeroBattery.checkComplete(file: "p.xml")
        }
    }

    /// `../shared/energy/power-profiles`, beside the package.
    static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/energy/power-profiles")

    /// The values `../shared/energy/power-profiles/PROVENANCE.md` lists for each file: the
    /// battery, GNSS (`gps.on`, or the signal-quality levels), the radio (`radio.active`, or the
    /// modem controller's rx and tx levels) and the suspended CPU.
    static let shared: [(file: String, capacity: Double, gps: [Double], active: Double?, rx: Double?, tx: [Double]?, suspend: Double)] = [
        ("google-coral.xml", 3700, [24, 6], nil, 91, [96, 133, 183, 225, 295], 5.6),
        ("sony-pdx206.xml", 4000, [58.28, 12.49], 108.48, 84.82, Array(repeating: 84.19, count: 5), 2.90),
        ("lge-hammerhead.xml", 2300, [76.23], 185.19, nil, nil, 3.2),
        ("oneplus-bacon.xml", 3100, [20.9], 185.6, nil, nil, 3.5),
        ("samsung-klte.xml", 2800, [1], 125, nil, nil, 3.1),
        ("xiaomi-sagit.xml", 3350, [59.91], 134.84, nil, nil, 7.46),
    ]

    @Test(
        "each real file reads with the values its provenance lists",
        .enabled(
            if: FileManager.default.fileExists(atPath: profiles.appendingPathComponent("google-coral.xml").path),
            "../shared/energy/power-profiles not found: the real files are not read"),
        arguments: shared.map(\.file))
    func realFiles(file: String) throws {
        let row = try #require(Self.shared.first { $0.file == file })
        let path = Self.profiles.appendingPathComponent(file).path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let p = try AndroidPowerProfile(xml: bytes, file: path)
        #expect(p.batteryCapacityMilliampHours == row.capacity)
        #expect((p.currents("gps.signalqualitybased") ?? p.current("gps.on").map { [$0] }) == row.gps)
        #expect(p.cpuSuspendMilliamps == row.suspend)
        #expect(p.current("radio.active") == row.active)
        #expect(p.current("modem.controller.rx") == row.rx && p.currents("modem.controller.tx") == row.tx)
        // BatchStats' radio current: radio.active first, else the controller's mean.
        let expected = row.active ?? (row.rx! + row.tx!.reduce(0, +)) / 6
        #expect(abs(p.radioActiveMilliamps! - expected) < 1e-12)
        try p.checkComplete(file: path)
    }
}
