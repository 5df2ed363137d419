/// A real Android device whose `power_profile.xml` TraceKit ships as an energy profile: the
/// currents its maker measured that the battery model uses, with where they come from.
///
/// The numbers are the files' own, not rounded or corrected (the Galaxy S5's `gps.on` of 1 mA is
/// what Samsung shipped, far below the other phones'; it is kept and said). The files are those of
/// `Energy/power-profiles/README.md`; four are copied there under their Apache-2.0 licence, and
/// the other two (whose licence evidence is weaker) are cited, number by number.
public struct AndroidDevice: Hashable, Sendable {
    /// The profile's name on the command line, e.g. "pixel-4-xl".
    public var name: String
    /// The device as sold, e.g. "Google Pixel 4 XL (coral), 2019".
    public var device: String
    /// Who measured the currents.
    public var measuredBy: String
    /// Where the file is: repository, commit and path.
    public var citation: String
    /// The keys the battery model reads, as the file writes them.
    public var items: [String: Double]
    /// The lists the battery model reads (only the entries it uses, said in ``note``).
    public var arrays: [String: [Double]]
    /// What to know about the numbers.
    public var note: String

    /// The profile as ``AndroidPowerProfile``.
    public var powerProfile: AndroidPowerProfile { AndroidPowerProfile(items: items, arrays: arrays) }

    /// The six shipped devices, newest first; the order of ``EnergyProfile/devices``.
    public static let all: [AndroidDevice] = [
        AndroidDevice(
            name: "pixel-4-xl", device: "Google Pixel 4 XL (coral), 2019", measuredBy: "Google, in AOSP device/google/coral",
            citation: "LineageOS/android_device_google_coral@34b4f98c coral/overlay/frameworks/base/core/res/res/xml/power_profile.xml",
            items: [
                "battery.capacity": 3700, "gps.voltage": 3700, "modem.controller.rx": 91, "modem.controller.voltage": 3700,
                "cpu.suspend": 5.6, "cpu.idle": 5.4, "cpu.active": 8.4, "cpu.cluster_power.cluster0": 2,
            ],
            arrays: [
                "gps.signalqualitybased": [24, 6], "modem.controller.tx": [96, 133, 183, 225, 295],
                "cpu.core_power.cluster0": [39.44],
            ],
            note: "cpu.core_power.cluster0: its lowest speed's (300 MHz) of 18"),
        AndroidDevice(
            name: "xperia-5-ii", device: "Sony Xperia 5 II (PDX-206), 2020", measuredBy: "Sony (Sony Open Devices)",
            citation: "sonyxperiadev/device-sony-pdx206@d04215b9 overlay/frameworks/base/core/res/res/xml/power_profile.xml",
            items: [
                "battery.capacity": 4000, "gps.voltage": 3.70, "radio.active": 108.48, "modem.controller.rx": 84.82,
                "modem.controller.voltage": 620, "cpu.suspend": 2.90, "cpu.idle": 28.88, "cpu.active": 0.01,
            ],
            arrays: [
                "gps.signalqualitybased": [58.28, 12.49], "modem.controller.tx": [84.19, 84.19, 84.19, 84.19, 84.19],
                "cpu.core_power.cluster0": [30.87],
            ],
            note: "both key generations (radio.active wins, as in BatteryStats); gps.voltage written in volts; "
                + "modem.controller.voltage 620 is not a battery's and is not used; cpu.core_power.cluster0: its lowest of 8"),
        AndroidDevice(
            name: "mi-6", device: "Xiaomi Mi 6 (sagit), 2017", measuredBy: "Xiaomi (stock firmware)",
            citation: "LineageOS/android_device_xiaomi_msm8998-common@93672c80 overlay/frameworks/base/core/res/res/xml/power_profile.xml",
            items: [
                "battery.capacity": 3350, "gps.on": 59.91, "radio.active": 134.84, "modem.controller.rx": 0, "modem.controller.tx": 0,
                "modem.controller.voltage": 0, "cpu.suspend": 7.46, "cpu.idle": 9.85,
            ],
            arrays: ["cpu.core_power.cluster0": [28.48]],
            note: "modem.controller.* are placeholder zeros (radio.active is used); cpu.core_power.cluster0: its lowest of 22"),
        AndroidDevice(
            name: "galaxy-s5", device: "Samsung Galaxy S5 (SM-G900F, klte), 2014", measuredBy: "Samsung (stock firmware)",
            citation: "LineageOS/android_device_samsung_klte-common@0d1f6afd overlay/frameworks/base/core/res/res/xml/power_profile.xml",
            items: ["battery.capacity": 2800, "gps.on": 1, "radio.active": 125, "cpu.idle": 3.1],
            arrays: ["cpu.active": [56]],
            note: "gps.on is 1 mA, far below the other phones' 21–76 mA: what Samsung shipped, kept as written, so this "
                + "profile's GNSS tiers cost almost nothing; cpu.active: its lowest of 15 (listed highest first); no cpu.awake"),
        AndroidDevice(
            name: "oneplus-one", device: "OnePlus One (bacon), 2014", measuredBy: "Cyanogen, with a Monsoon power monitor",
            citation: "LineageOS/android_device_oneplus_bacon@7a4af4ba overlay/frameworks/base/core/res/res/xml/power_profile.xml",
            items: ["battery.capacity": 3100, "gps.on": 20.9, "radio.active": 185.6, "cpu.idle": 3.5, "cpu.awake": 10.43],
            arrays: ["cpu.active": [92.6]],
            note: "the units comment says mAh, the values are mA; cpu.idle and cpu.awake in their names of before 2017; "
                + "cpu.active: its lowest of 12"),
        AndroidDevice(
            name: "nexus-5", device: "LG/Google Nexus 5 (hammerhead), 2013", measuredBy: "LG and Google, in AOSP device/lge/hammerhead",
            citation: "LineageOS/android_device_lge_hammerhead@512a72b7 overlay/frameworks/base/core/res/res/xml/power_profile.xml",
            items: ["battery.capacity": 2300, "gps.on": 76.23, "radio.active": 185.19, "cpu.idle": 3.2, "cpu.awake": 17.4],
            arrays: ["cpu.active": [57.9]],
            note: "the units comment says mAh, the values are mA; cpu.idle and cpu.awake in their names of before 2017; "
                + "cpu.active: its lowest of 14"),
    ]
}

extension EnergyProfile {
    /// The shipped device profiles (``AndroidDevice/all``), newest first: the spread every report
    /// gives beside the chosen profile's figure.
    public static let devices: [EnergyProfile] = AndroidDevice.all.map { device in
        do {
            return try EnergyProfile(android: device.powerProfile, name: device.name, file: device.name)
        } catch {
            preconditionFailure("shipped device profile \(device.name): \(error)")
        }
    }
}
