public import TraceGeodesy

/// What a phone does with one fix: whether it delivers an update, and the position and accuracy
/// it reports for the fix (after accuracy emulation and smoothing; the fix itself when both are
/// off or location is off).
public struct PhoneOutcome: Hashable, Sendable {
    /// Whether the app receives this fix as a location update.
    public var delivered: Bool
    /// The position the phone reports.
    public var coordinate: Coordinate
    /// The horizontal accuracy it reports, metres, in the configuration's convention; nil when
    /// the fix passes through without one.
    public var accuracy: Double?

    /// An outcome with these values.
    public init(delivered: Bool, coordinate: Coordinate, accuracy: Double?) {
        self.delivered = delivered
        self.coordinate = coordinate
        self.accuracy = accuracy
    }
}
