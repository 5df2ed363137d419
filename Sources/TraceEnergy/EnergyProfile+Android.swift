public import TraceDomain
import TraceJSON

/// An Android `power_profile.xml` as an energy profile: BatteryStats' arithmetic (each current ×
/// the time the component spends in its state) on the times TraceKit's model keeps each component
/// in that state (docs/battery-model.md, "Android power profiles").
///
/// The mapping, one rule per component:
/// - **Location.** BestForNavigation, Best and NearestTenMeters keep GNSS on (Core Location's
///   GPS-class accuracies; Android's high-accuracy priority): each is charged at
///   ``AndroidPowerProfile/gnssMilliamps`` × the profile's voltage. HundredMeters, Kilometer and
///   ThreeKilometers are Wi-Fi and cell positioning, for which no profile gives a figure (the
///   scans they take depend on the location provider): they keep the model's assumed powers.
/// - **Radio.** BatteryStats charges an app's mobile-radio active time at
///   ``AndroidPowerProfile/radioActiveMilliamps``; the active time is the radio state machine's:
///   promotion, transmission and tail, with ``RadioProfile/lte``'s durations (ARO's measured LTE
///   timers). So every radio stage is charged at that current × the voltage.
/// - **Fixes.** Each delivered fix wakes the processor for ``fixWakeSeconds`` (assumed) at
///   ``AndroidPowerProfile/cpuWakeMilliamps``; a file without CPU currents keeps the model's
///   assumed E_fix.
/// - **Voltage.** ``AndroidPowerProfile/componentVolts`` when the file gives one, else the model's
///   nominal 3.85 V (assumed). Every current is turned into power at this one voltage and the
///   charge back at the same voltage, so the mAh are exactly Σ current × time, as BatteryStats
///   adds them up; the voltage only sets the joules, and the mAh of the assumed Wi-Fi and cell
///   powers.
/// - **Battery.** `battery.capacity` is the battery the percentages refer to.
extension EnergyProfile {
    /// How long the processor is awake for one delivered fix, in seconds (0.1; assumed, as the
    /// model's E_fix assumes).
    public static let fixWakeSeconds = 0.1

    /// The tiers that keep GNSS on: charged at the profile's GNSS current.
    public static let gnssTiers: [AccuracyTier] = [.bestForNavigation, .best, .nearestTenMeters]

    /// The energy profile of an Android device's power profile; `name` names it in reports.
    /// - Throws: ``AndroidPowerProfileError`` when the file lacks the battery's capacity, a GNSS
    ///   current or a radio current (``AndroidPowerProfile/checkComplete(file:)``).
    public init(android p: AndroidPowerProfile, name: String, file: String) throws(AndroidPowerProfileError) {
        try p.checkComplete(file: file)
        let gnss = p.gnssMilliamps!, active = p.radioActiveMilliamps!
        let fromFile = p.componentVolts
        let volts = fromFile?.volts ?? EnergyProfile.lte.nominalVolts
        let radioMilliwatts = active * volts
        let lte = RadioProfile.lte
        let radio = RadioProfile(
            name: name, promotionMilliwatts: radioMilliwatts, promotionSeconds: lte.promotionSeconds,
            transmitMilliwatts: radioMilliwatts, transmitSeconds: lte.transmitSeconds,
            tailMilliwatts: radioMilliwatts, tailSeconds: lte.tailSeconds)
        self.init(radio: radio, network: .lte, radioAssumptions: [.promotionDuration, .transmitDuration, .tailDuration])
        base = "android"
        nominalVolts = volts
        referenceBatteryMilliampHours = p.batteryCapacityMilliampHours!
        var measured: Set<EnergyConstant> = [.referenceBattery]
        for tier in Self.gnssTiers {
            let constant = EnergyConstant(locationPowerOf: tier)!
            self[constant] = gnss * volts
            measured.insert(constant)
        }
        if let cpu = p.cpuWakeMilliamps { fixMillijoules = cpu * volts * Self.fixWakeSeconds }
        if fromFile == nil { assumed.insert(.nominalVoltage) }
        assumed.subtract(measured)

        var how: [String] = []
        how.append(
            p.current("gps.on") != nil
                ? "GNSS \(Self.text(gnss)) mA (gps.on)"
                : "GNSS \(Self.text(gnss)) mA (the mean of gps.signalqualitybased: equal time at each level assumed)")
        how.append(
            p.current("radio.active") != nil
                ? "radio \(Self.text(active)) mA (radio.active) over the radio's active time"
                : "radio \(Self.text(active)) mA (the mean of modem.controller.rx and .tx, as BatteryStats) over the radio's active time")
        if let cpu = p.cpuWakeMilliamps {
            how.append("each fix \(Self.text(cpu)) mA for \(Self.text(Self.fixWakeSeconds)) s (CPU idle loop and lowest speed)")
        } else {
            how.append("each fix the model's assumed \(Self.text(fixMillijoules)) mJ (no CPU currents)")
        }
        how.append(fromFile.map { "\(Self.text($0.volts)) V (\($0.key))" } ?? "\(Self.text(volts)) V (assumed: the file gives no voltage)")
        how.append("battery \(DecimalText.grouped(Self.text(referenceBatteryMilliampHours))) mAh")
        derivation = how
    }

    /// A profile from a `power_profile.xml`'s bytes, named after the file (its base name without
    /// `.xml`).
    /// - Throws: ``AndroidPowerProfileError``: one line naming the file, the line (or the missing
    ///   key) and the problem.
    public init(androidXML bytes: [UInt8], file: String) throws(AndroidPowerProfileError) {
        let p = try AndroidPowerProfile(xml: bytes, file: file)
        var name = Substring(file.split(separator: "/").last ?? Substring(file))
        if name.hasSuffix(".xml") { name = name.dropLast(4) }
        try self.init(android: p, name: String(name), file: file)
        for key in p.duplicatedKeys { derivation.append("\(key) given twice: the later value kept") }
    }

    /// Whether `bytes` look like XML (their first character other than white space and a
    /// byte-order mark is `<`) rather than a JSON profile file.
    public static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "<")
    }

    /// A number as a profile's derivation prints it: up to 2 decimals, trailing zeros dropped.
    static func text(_ x: Double) -> String {
        var s = DecimalText.fixed(x, 2)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}
