public import TraceDomain
public import TraceGeodesy

/// The kind of position fix a receiver reports (GPX `<fix>`).
public enum FixType: String, Hashable, Sendable, CaseIterable {
    case none
    case twoD = "2d"
    case threeD = "3d"
    case dgps
    case pps
}

/// One validated position fix with whatever a recording carried about it. Units are SI and
/// explicit: metres, metres per second, degrees; times are UTC.
///
/// Stored compactly (about 110 bytes rather than the 240 that plain optionals take): the position
/// and the optional numbers sit in a plain value (``Numbers``: plain fields with one bit each
/// saying whether they are present), and the rarely present texts share one reference. Readers
/// hand out millions of fixes, so the size of a copy is much of the cost of reading; a reader's
/// fast path fills a ``Numbers`` (nothing to retain or release) and wraps it (``init(_:)``).
/// Every property reads and writes as a plain optional; equality and hashing are those of the
/// optionals.
public struct Fix: Hashable, Sendable {
    /// The position and the numbers.
    private(set) var numbers: Numbers
    private var labels: Labels?

    /// The position and the optional numbers of a fix, without its texts: a plain value.
    struct Numbers: Hashable, Sendable {
        /// The position (validated: latitude in [-90, 90], longitude normalised).
        var coordinate: Coordinate
        // The values behind the optionals; each is 0 while absent, so that the synthesised equality
        // and hashing see exactly what the optionals would.
        private var timeValue: Int64 = 0
        private var elevationValue = 0.0, horizontalAccuracyValue = 0.0, verticalAccuracyValue = 0.0
        private var hdopValue = 0.0, vdopValue = 0.0, pdopValue = 0.0, speedValue = 0.0, courseValue = 0.0
        private var satellitesValue = 0
        private var present = Present(rawValue: 0)  // not `[]`: an array literal, made and released per value
        private var fixTypeValue: FixType = .none

        /// A position with no other value.
        init(coordinate: Coordinate) {
            self.coordinate = coordinate
        }

        @inline(__always) private func get<T>(_ value: T, _ flag: Present) -> T? { present.contains(flag) ? value : nil }
        @inline(__always) private static func set<T>(_ value: inout T, _ present: inout Present, _ new: T?, _ flag: Present, absent: T) {
            if let new {
                value = new
                present.insert(flag)
            } else {
                value = absent
                present.remove(flag)
            }
        }

        var time: Timestamp? {
            get { get(Timestamp(nanoseconds: timeValue), .time) }
            @inline(__always) set { Self.set(&timeValue, &present, newValue?.nanoseconds, .time, absent: 0) }
        }
        var elevation: Double? {
            get { get(elevationValue, .elevation) }
            set { Self.set(&elevationValue, &present, newValue, .elevation, absent: 0) }
        }
        var horizontalAccuracy: Double? {
            get { get(horizontalAccuracyValue, .horizontalAccuracy) }
            set { Self.set(&horizontalAccuracyValue, &present, newValue, .horizontalAccuracy, absent: 0) }
        }
        var verticalAccuracy: Double? {
            get { get(verticalAccuracyValue, .verticalAccuracy) }
            set { Self.set(&verticalAccuracyValue, &present, newValue, .verticalAccuracy, absent: 0) }
        }
        var hdop: Double? {
            get { get(hdopValue, .hdop) }
            set { Self.set(&hdopValue, &present, newValue, .hdop, absent: 0) }
        }
        var vdop: Double? {
            get { get(vdopValue, .vdop) }
            set { Self.set(&vdopValue, &present, newValue, .vdop, absent: 0) }
        }
        var pdop: Double? {
            get { get(pdopValue, .pdop) }
            set { Self.set(&pdopValue, &present, newValue, .pdop, absent: 0) }
        }
        var satellites: Int? {
            get { get(satellitesValue, .satellites) }
            set { Self.set(&satellitesValue, &present, newValue, .satellites, absent: 0) }
        }
        var fixType: FixType? {
            get { get(fixTypeValue, .fixType) }
            set { Self.set(&fixTypeValue, &present, newValue, .fixType, absent: .none) }
        }
        var speed: Double? {
            get { get(speedValue, .speed) }
            set { Self.set(&speedValue, &present, newValue, .speed, absent: 0) }
        }
        var course: Double? {
            get { get(courseValue, .course) }
            set { Self.set(&courseValue, &present, newValue, .course, absent: 0) }
        }

        /// The horizontal accuracy, or 0 when there is none (what the motion check takes).
        @inline(__always) var horizontalAccuracyOrZero: Double { horizontalAccuracyValue }

        /// What ``FixBatch``'s columns store of these numbers: the presence bits and the values
        /// behind them (0 when absent), and whether that is every value (nothing else present).
        @inline(__always)
        var batchColumns:
            (present: UInt16, time: Int64, elevation: Double, horizontalAccuracy: Double, hdop: Double, speed: Double, fits: Bool)
        {
            // The columns' bits as one constant (an option set literal is an array the optimizer
            // does not always remove: it allocated per point in one build).
            let columns = Fix.presentTime | Fix.presentElevation | Fix.presentHorizontalAccuracy | Fix.presentHDOP | Fix.presentSpeed
            return (
                present.rawValue, timeValue, elevationValue, horizontalAccuracyValue, hdopValue, speedValue,
                present.rawValue & ~columns == 0
            )
        }

        /// Sets measure `m` to `v` (readers: one switch instead of one per reader).
        @inline(__always) mutating func set(_ m: Measure, _ v: Double) {
            switch m {
            case .elevation: elevation = v
            case .horizontalAccuracy: horizontalAccuracy = v
            case .verticalAccuracy: verticalAccuracy = v
            case .hdop: hdop = v
            case .vdop: vdop = v
            case .pdop: pdop = v
            case .speed: speed = v
            case .course: course = v
            }
        }
    }

    /// Which optional values are present.
    private struct Present: OptionSet, Hashable, Sendable {
        let rawValue: UInt16
        static let time = Present(rawValue: Fix.presentTime)
        static let elevation = Present(rawValue: Fix.presentElevation)
        static let horizontalAccuracy = Present(rawValue: Fix.presentHorizontalAccuracy)
        static let verticalAccuracy = Present(rawValue: 1 << 3)
        static let hdop = Present(rawValue: Fix.presentHDOP)
        static let vdop = Present(rawValue: 1 << 5)
        static let pdop = Present(rawValue: 1 << 6)
        static let speed = Present(rawValue: Fix.presentSpeed)
        static let course = Present(rawValue: 1 << 8)
        static let satellites = Present(rawValue: 1 << 9)
        static let fixType = Present(rawValue: 1 << 10)
    }

    /// The texts, shared between copies and replaced (never changed in place) when one is set.
    private final class Labels: Hashable, Sendable {
        let name: String?, role: String?, state: String?
        init(name: String?, role: String?, state: String?) {
            self.name = name
            self.role = role
            self.state = state
        }
        static func == (a: Labels, b: Labels) -> Bool { a.name == b.name && a.role == b.role && a.state == b.state }
        func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(role)
            hasher.combine(state)
        }
    }

    /// The position (validated: latitude in [-90, 90], longitude normalised).
    public var coordinate: Coordinate {
        get { numbers.coordinate }
        set { numbers.coordinate = newValue }
    }
    /// When it was taken, if the recording says.
    public var time: Timestamp? {
        get { numbers.time }
        set { numbers.time = newValue }
    }
    /// Height above the ellipsoid or mean sea level as the source wrote it, metres.
    public var elevation: Double? {
        get { numbers.elevation }
        set { numbers.elevation = newValue }
    }
    /// Horizontal accuracy (radius), metres, as reported.
    public var horizontalAccuracy: Double? {
        get { numbers.horizontalAccuracy }
        set { numbers.horizontalAccuracy = newValue }
    }
    /// Vertical accuracy, metres, as reported.
    public var verticalAccuracy: Double? {
        get { numbers.verticalAccuracy }
        set { numbers.verticalAccuracy = newValue }
    }
    /// Horizontal dilution of precision.
    public var hdop: Double? {
        get { numbers.hdop }
        set { numbers.hdop = newValue }
    }
    /// Vertical dilution of precision.
    public var vdop: Double? {
        get { numbers.vdop }
        set { numbers.vdop = newValue }
    }
    /// Position dilution of precision.
    public var pdop: Double? {
        get { numbers.pdop }
        set { numbers.pdop = newValue }
    }
    /// Satellites used.
    public var satellites: Int? {
        get { numbers.satellites }
        set { numbers.satellites = newValue }
    }
    /// Fix kind.
    public var fixType: FixType? {
        get { numbers.fixType }
        set { numbers.fixType = newValue }
    }
    /// Speed over ground, metres per second.
    public var speed: Double? {
        get { numbers.speed }
        set { numbers.speed = newValue }
    }
    /// Course over ground, degrees clockwise from true north.
    public var course: Double? {
        get { numbers.course }
        set { numbers.course = newValue }
    }
    /// A name (waypoints, route points).
    public var name: String? {
        get { labels?.name }
        set { setLabels(name: newValue, role: role, state: state) }
    }
    /// The role of the phone that recorded it (CSV `role` column), e.g. "helper".
    public var role: String? {
        get { labels?.role }
        set { setLabels(name: name, role: newValue, state: state) }
    }
    /// The fulfilment state at the time (CSV `state` column), as written.
    public var state: String? {
        get { labels?.state }
        set { setLabels(name: name, role: role, state: newValue) }
    }

    /// The optional numbers a reader stores by column or element (``set(_:_:)``).
    enum Measure {
        case elevation, horizontalAccuracy, verticalAccuracy, hdop, vdop, pdop, speed, course
    }

    /// Sets measure `m` to `v` (readers: one switch instead of one per reader).
    @inline(__always) mutating func set(_ m: Measure, _ v: Double) {
        numbers.set(m, v)
    }

    /// The presence bits ``FixBatch`` stores (``batchColumns``), as constants its inlinable
    /// accessors can use in a client's code.
    @inlinable static var presentTime: UInt16 { 1 << 0 }
    @inlinable static var presentElevation: UInt16 { 1 << 1 }
    @inlinable static var presentHorizontalAccuracy: UInt16 { 1 << 2 }
    @inlinable static var presentHDOP: UInt16 { 1 << 4 }
    @inlinable static var presentSpeed: UInt16 { 1 << 7 }

    /// What ``FixBatch``'s columns store of this fix: the presence bits and the values behind
    /// them (0 when absent), and whether that is every value (no texts, nothing else present).
    @inline(__always)
    var batchColumns: (present: UInt16, time: Int64, elevation: Double, horizontalAccuracy: Double, hdop: Double, speed: Double, fits: Bool)
    {
        var c = numbers.batchColumns
        c.fits = c.fits && labels == nil
        return c
    }

    /// Sets the three texts at once (one allocation, or none when all are nil).
    public mutating func setLabels(name: String?, role: String?, state: String?) {
        labels = name == nil && role == nil && state == nil ? nil : Labels(name: name, role: role, state: state)
    }

    /// This fix without any non-finite optional value (writers use it: NaN or infinity has no
    /// place in GPX, CSV or JSON; readers never produce one).
    public var finiteValues: Fix {
        var f = self
        func keep(_ x: Double?) -> Double? { x.flatMap { $0.isFinite ? $0 : nil } }
        f.elevation = keep(elevation)
        f.horizontalAccuracy = keep(horizontalAccuracy)
        f.verticalAccuracy = keep(verticalAccuracy)
        f.hdop = keep(hdop)
        f.vdop = keep(vdop)
        f.pdop = keep(pdop)
        f.speed = keep(speed)
        f.course = keep(course)
        return f
    }

    /// A fix at `coordinate`, with nothing else known.
    public init(coordinate: Coordinate, time: Timestamp? = nil) {
        numbers = Numbers(coordinate: coordinate)
        numbers.time = time
    }

    /// A fix with `numbers` and no texts.
    @inline(__always)
    init(_ numbers: Numbers) {
        self.numbers = numbers
    }
}
