/// An Android device's `power_profile.xml` as it stands: the currents its maker measured, by key
/// (`<item name="KEY">VALUE</item>`) and list (`<array name="KEY"><value>…</value>…</array>`),
/// which Android's BatteryStats multiplies by the time each component spends in a state
/// (source.android.com, "Power values"; read to understand, never copied).
///
/// One rule per quirk of the real files (`../shared/energy/power-profiles/PROVENANCE.md`):
/// - **Units.** Every value is a current in mA, but `battery.capacity` (mAh) and the `*.voltage`
///   keys (mV; a value under 100 is volts, as one file writes it: ``volts(_:)``), whatever a
///   units comment says (several files say "mAh" for currents).
/// - **A key given twice** (an item or a list): the later one is kept, as Android's parser keeps
///   it; ``duplicatedKeys`` names them.
/// - **Placeholder zeros.** A value of 0 for a component is "not measured" (a file whose modem
///   controller is all zeros ships the older radio keys instead): ``current(_:)`` and
///   ``currents(_:)`` give nil for it, so the older generation's key is used.
/// - **The 2017 renaming of the CPU keys** (AOSP b/67752294): in a file with `cpu.suspend`,
///   `cpu.idle` is the kernel's idle loop; in one without, `cpu.idle` is the suspended current
///   and `cpu.awake` the idle loop (``cpuSuspendMilliamps``, ``cpuIdleMilliamps``).
///
/// Both generations of the radio and GPS keys are read, with BatteryStats' precedence
/// (``radioActiveMilliamps``, ``gnssMilliamps``): `radio.active` and `gps.on` first; else
/// `modem.controller.{rx,tx}` and `gps.signalqualitybased` (with `gps.voltage` and
/// `modem.controller.voltage`, ``componentVolts``).
public struct AndroidPowerProfile: Hashable, Sendable {
    /// The items, by key (the later of a key given twice).
    public private(set) var items: [String: Double] = [:]
    /// The lists, by key (the later of a key given twice).
    public private(set) var arrays: [String: [Double]] = [:]
    /// Keys given more than once, in the order their second one came.
    public private(set) var duplicatedKeys: [String] = []

    /// A profile from its items and lists, as a file would give them (the shipped device
    /// profiles: ``AndroidDevice``).
    public init(items: [String: Double], arrays: [String: [Double]] = [:]) {
        self.items = items
        self.arrays = arrays
    }

    /// Reads a `power_profile.xml`.
    /// - Throws: ``AndroidPowerProfileError``: one line naming the file, the line and the problem.
    public init(xml bytes: [UInt8], file: String) throws(AndroidPowerProfileError) {
        var scanner = PowerProfileScanner(bytes: bytes, file: file)
        var sawDevice = false
        var openArray: (name: String, values: [Double], line: Int)?
        var openItem: (name: String, line: Int, valued: Bool)?
        while let token = try scanner.next() {
            switch token {
            case .open(let tag, let name, let selfClosing):
                switch tag {
                case "device":
                    guard !sawDevice else { throw scanner.error("a second <device>") }
                    sawDevice = true
                case "item":
                    guard sawDevice, openArray == nil, openItem == nil else { throw scanner.error("<item> outside <device>, or inside another element") }
                    guard let name, !name.isEmpty else { throw scanner.error("<item> without a name") }
                    if selfClosing { throw scanner.error("item '\(name)' has no value") }
                    openItem = (name, scanner.line, false)
                case "array":
                    guard sawDevice, openArray == nil, openItem == nil else { throw scanner.error("<array> outside <device>, or inside another element") }
                    guard let name, !name.isEmpty else { throw scanner.error("<array> without a name") }
                    if selfClosing { note(name, array: []) } else { openArray = (name, [], scanner.line) }
                case "value":
                    guard openArray != nil, !selfClosing else { throw scanner.error("<value> outside an <array>") }
                default:
                    throw scanner.error("unexpected <\(tag)>: a power profile holds <device>, <item>, <array> and <value>")
                }
            case .text(let text):
                let trimmed = text.trimmingWhitespace
                if trimmed.isEmpty { continue }
                guard let value = Double(trimmed), value.isFinite else {
                    let what = openItem.map { "item '\($0.name)'" } ?? openArray.map { "array '\($0.name)'" } ?? "text"
                    throw scanner.error("\(what): '\(trimmed)' is not a number")
                }
                if let item = openItem {
                    guard !item.valued else { throw scanner.error("item '\(item.name)' has two values") }
                    if items[item.name] != nil { duplicatedKeys.append(item.name) }
                    items[item.name] = value
                    openItem!.valued = true
                } else if openArray != nil, scanner.insideValue {
                    openArray!.values.append(value)
                } else {
                    throw scanner.error("a number outside an <item> or a <value>")
                }
            case .close(let tag):
                switch tag {
                case "item":
                    guard let item = openItem else { throw scanner.error("</item> without <item>") }
                    if !item.valued { throw scanner.error("item '\(item.name)' has no value") }
                    openItem = nil
                case "array":
                    guard let array = openArray else { throw scanner.error("</array> without <array>") }
                    note(array.name, array: array.values)
                    openArray = nil
                case "value", "device": break
                default: throw scanner.error("unexpected </\(tag)>")
                }
            }
        }
        guard sawDevice else { throw scanner.error("no <device> element: not a power_profile.xml") }
        if let item = openItem { throw AndroidPowerProfileError(file: file, line: item.line, message: "item '\(item.name)' is not closed") }
        if let array = openArray { throw AndroidPowerProfileError(file: file, line: array.line, message: "array '\(array.name)' is not closed") }
    }

    private mutating func note(_ name: String, array: [Double]) {
        if arrays[name] != nil { duplicatedKeys.append(name) }
        arrays[name] = array
    }

    /// The current of `key`, mA; nil when the file does not give it or gives 0 (a placeholder).
    public func current(_ key: String) -> Double? {
        guard let v = items[key], v != 0 else { return nil }
        return v
    }

    /// The list `key`; nil when the file does not give it, or every value is 0 (a placeholder).
    public func currents(_ key: String) -> [Double]? {
        guard let a = arrays[key], a.contains(where: { $0 != 0 }) else { return nil }
        return a
    }

    /// The voltage of `key`, volts: files write millivolts (3700), one writes volts (3.70); a value
    /// under 100 is taken as volts (a phone's battery is 3 to 5 V). Nil when absent or 0.
    public func volts(_ key: String) -> Double? {
        guard let v = current(key) else { return nil }
        return v < 100 ? v : v / 1000
    }

    /// `battery.capacity`, mAh: the battery the percentages refer to.
    public var batteryCapacityMilliampHours: Double? { current("battery.capacity") }

    /// The current while the device is suspended: `cpu.suspend`, or in a file of before the 2017
    /// renaming (no `cpu.suspend`), `cpu.idle`.
    public var cpuSuspendMilliamps: Double? { items["cpu.suspend"] != nil ? current("cpu.suspend") : current("cpu.idle") }

    /// The current of the kernel's idle loop: `cpu.idle` in a file with `cpu.suspend`, else
    /// `cpu.awake`.
    public var cpuIdleMilliamps: Double? { items["cpu.suspend"] != nil ? current("cpu.idle") : current("cpu.awake") }

    /// The signal-strength levels BatteryStats reads `modem.controller.tx` at (none, poor,
    /// moderate, good, great).
    public static let signalStrengthLevels = 5

    /// The current BatteryStats charges an app's mobile-radio active time at, mA
    /// (`MobileRadioPowerCalculator`): `radio.active` when the file gives it; else the mean of
    /// `modem.controller.rx` and `modem.controller.tx` at each of the five signal levels (a list
    /// shorter than five repeats its last value, as Android's `PowerProfile` reads a level past
    /// the end; a single item serves every level). Nil when the file gives neither.
    public var radioActiveMilliamps: Double? {
        if let active = current("radio.active") { return active }
        guard let rx = current("modem.controller.rx") else { return nil }
        let tx = currents("modem.controller.tx") ?? current("modem.controller.tx").map { [$0] }
        guard let tx, let last = tx.last else { return nil }
        var sum = rx
        for level in 0..<Self.signalStrengthLevels { sum += level < tx.count ? tx[level] : last }
        return sum / Double(Self.signalStrengthLevels + 1)
    }

    /// The GNSS current BatteryStats charges an app's GPS time at, mA (`GnssPowerCalculator`):
    /// `gps.on` when the file gives it; else the mean of `gps.signalqualitybased` (BatteryStats
    /// weighs each level by the time the receiver spent at it, which a replay does not know: equal
    /// time in each is assumed). Nil when the file gives neither.
    public var gnssMilliamps: Double? {
        if let on = current("gps.on") { return on }
        guard let levels = currents("gps.signalqualitybased") else { return nil }
        return levels.reduce(0, +) / Double(levels.count)
    }

    /// The voltages a phone's battery may have, volts: 2.5 to 5 V. A `*.voltage` outside it is
    /// not a battery's (one file writes 620 for its modem) and is not used.
    public static let batteryVolts: ClosedRange<Double> = 2.5...5

    /// The first of `gps.voltage`, `modem.controller.voltage` and `wifi.controller.voltage` within
    /// ``batteryVolts``, with its key; nil when none is (files of before 2017 give none).
    public var componentVolts: (volts: Double, key: String)? {
        for key in ["gps.voltage", "modem.controller.voltage", "wifi.controller.voltage"] {
            if let v = volts(key), Self.batteryVolts.contains(v) { return (v, key) }
        }
        return nil
    }

    /// The current of a processor woken to take one fix, mA: the kernel's idle loop
    /// (``cpuIdleMilliamps``), plus the CPU running at its lowest speed: the smallest `cpu.active`
    /// (an item in files since 2017, a list per speed before; the smallest entry is the lowest
    /// speed whatever order the list is in), `cpu.cluster_power.cluster0` and the smallest
    /// `cpu.core_power.cluster0` (the first cluster is the efficient one). Nil when the file
    /// gives no running current.
    public var cpuWakeMilliamps: Double? {
        let running = [
            currents("cpu.active")?.min() ?? current("cpu.active"), current("cpu.cluster_power.cluster0"),
            currents("cpu.core_power.cluster0")?.min(),
        ].compactMap { $0 }
        guard !running.isEmpty else { return nil }
        return running.reduce(cpuIdleMilliamps ?? 0, +)
    }

    /// Checks that the file gives what a location-sharing estimate needs: the battery's capacity,
    /// a GNSS current and a cellular radio current.
    /// - Throws: ``AndroidPowerProfileError`` naming the first missing key (line 0: the file).
    public func checkComplete(file: String) throws(AndroidPowerProfileError) {
        func missing(_ what: String) -> AndroidPowerProfileError {
            AndroidPowerProfileError(file: file, line: 0, message: "no \(what) (or only a placeholder 0): not a complete power profile")
        }
        guard batteryCapacityMilliampHours != nil else { throw missing("battery.capacity") }
        guard gnssMilliamps != nil else { throw missing("gps.on or gps.signalqualitybased") }
        guard radioActiveMilliamps != nil else { throw missing("radio.active or modem.controller.rx and modem.controller.tx") }
    }
}

/// Why a `power_profile.xml` could not be read: the file, the line (0: the file as a whole) and
/// the problem, in one line.
public struct AndroidPowerProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// The few shapes of XML a power profile is made of: the declaration, comments, elements with a
/// `name` attribute, and text. Entities are not expanded (the files have none in values).
struct PowerProfileScanner {
    enum Token {
        case open(String, name: String?, selfClosing: Bool)
        case close(String)
        case text(String)
    }

    let bytes: [UInt8]
    let file: String
    var i = 0
    var line = 1
    /// Whether the last element opened was a `<value>` not yet closed.
    var insideValue = false

    init(bytes: [UInt8], file: String) {
        // A byte-order mark is skipped.
        self.bytes = bytes
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    func error(_ message: String) -> AndroidPowerProfileError { AndroidPowerProfileError(file: file, line: line, message: message) }

    /// Advances past `bytes[i]`, counting lines.
    private mutating func step() {
        if bytes[i] == 0x0A { line += 1 }
        i += 1
    }

    /// Skips to just past `end`; false at the end of the file.
    private mutating func skip(past end: [UInt8]) -> Bool {
        while i < bytes.count {
            if bytes[i...].starts(with: end) {
                for _ in end { step() }
                return true
            }
            step()
        }
        return false
    }

    mutating func next() throws(AndroidPowerProfileError) -> Token? {
        while i < bytes.count {
            if bytes[i] != UInt8(ascii: "<") {
                var text: [UInt8] = []
                while i < bytes.count && bytes[i] != UInt8(ascii: "<") {
                    text.append(bytes[i])
                    step()
                }
                return .text(String(decoding: text, as: UTF8.self))
            }
            let start = line
            if bytes[i...].starts(with: Array("<!--".utf8)) {
                guard skip(past: Array("-->".utf8)) else {
                    throw AndroidPowerProfileError(file: file, line: start, message: "a comment that is not closed")
                }
                continue
            }
            if bytes[i...].starts(with: Array("<?".utf8)) || bytes[i...].starts(with: Array("<!".utf8)) {
                guard skip(past: Array(">".utf8)) else { throw AndroidPowerProfileError(file: file, line: start, message: "a declaration that is not closed") }
                continue
            }
            step()  // "<"
            var tag: [UInt8] = []
            while i < bytes.count && bytes[i] != UInt8(ascii: ">") {
                tag.append(bytes[i])
                step()
            }
            guard i < bytes.count else { throw AndroidPowerProfileError(file: file, line: start, message: "a tag that is not closed") }
            step()  // ">"
            var body = String(decoding: tag, as: UTF8.self).trimmingWhitespace
            if body.hasPrefix("/") {
                let name = String(body.dropFirst()).trimmingWhitespace
                if name == "value" { insideValue = false }
                return .close(name)
            }
            let selfClosing = body.hasSuffix("/")
            if selfClosing { body = String(body.dropLast()) }
            let element = String(body.prefix { !$0.isWhitespace })
            insideValue = element == "value" && !selfClosing
            return .open(element, name: Self.attribute("name", in: body), selfClosing: selfClosing)
        }
        return nil
    }

    /// The value of `attribute` in a tag's text (quoted with " or ').
    static func attribute(_ attribute: String, in tag: String) -> String? {
        let chars = Array(tag), key = Array(attribute + "=")
        guard chars.count > key.count else { return nil }
        for start in 1...(chars.count - key.count) where chars[start - 1].isWhitespace && Array(chars[start..<start + key.count]) == key {
            let rest = chars[(start + key.count)...]
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
            return String(rest.dropFirst().prefix { $0 != quote })
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line ends.
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
