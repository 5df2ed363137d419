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
public struct Fix: Hashable, Sendable {
    /// The position (validated: latitude in [-90, 90], longitude normalised).
    public var coordinate: Coordinate
    /// When it was taken, if the recording says.
    public var time: Timestamp?
    /// Height above the ellipsoid or mean sea level as the source wrote it, metres.
    public var elevation: Double?
    /// Horizontal accuracy (radius), metres, as reported.
    public var horizontalAccuracy: Double?
    /// Vertical accuracy, metres, as reported.
    public var verticalAccuracy: Double?
    /// Dilutions of precision.
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?
    /// Satellites used.
    public var satellites: Int?
    /// Fix kind.
    public var fixType: FixType?
    /// Speed over ground, metres per second.
    public var speed: Double?
    /// Course over ground, degrees clockwise from true north.
    public var course: Double?
    /// A name (waypoints, route points).
    public var name: String?
    /// The role of the phone that recorded it (CSV `role` column), e.g. "helper".
    public var role: String?
    /// The fulfilment state at the time (CSV `state` column), as written.
    public var state: String?

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
        self.coordinate = coordinate
        self.time = time
    }
}
