/// The rules a point's values must meet, one definition for every reader and path (a general
/// path reports a value that breaks them; a fast path hands its point to the general path).
enum ValueRules {
    /// A course in degrees: [0, 360].
    @inline(__always) static func isCourse(_ v: Double) -> Bool { v >= 0 && v <= 360 }

    /// A satellite count read as a number: a whole number in [0, 1000).
    @inline(__always) static func isSatelliteCount(_ v: Double) -> Bool { v >= 0 && v == v.rounded() && v < 1000 }
}
