/// Why a geometry operation failed.
///
/// Errors that come from GEOS carry the name of the C function that reported the failure and the
/// message GEOS passed to the context's error handler during that call (never a message left over
/// from an earlier call). Errors detected in Swift, before GEOS is called, are ``invalidInput(_:)``
/// and ``emptyGeometry``.
public enum GeometryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A GEOS C function returned its failure sentinel (NULL, 0, -1 or 2, depending on the function).
    /// `function` is the C function's name, `message` the text GEOS reported for that call (or a
    /// note that GEOS reported none).
    case geos(function: String, message: String)
    /// `GEOSWKTReader_read_r` rejected the text; `message` is GEOS's parse or construction error.
    case invalidWKT(message: String)
    /// The operation has no meaningful result for an empty geometry (an envelope, a distance).
    case emptyGeometry
    /// An argument was rejected in Swift before GEOS was called: a non-finite coordinate, a ring
    /// with fewer than 4 points or not closed, a negative tolerance, and so on.
    case invalidInput(String)

    public var description: String {
        switch self {
        case .geos(let function, let message): "\(function) failed: \(message)"
        case .invalidWKT(let message): "invalid WKT: \(message)"
        case .emptyGeometry: "the geometry is empty"
        case .invalidInput(let reason): "invalid input: \(reason)"
        }
    }
}
