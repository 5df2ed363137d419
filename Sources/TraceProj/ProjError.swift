/// A failure reported by PROJ, with PROJ's own words.
public enum ProjError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `proj_context_create` returned NULL (out of memory).
    case contextUnavailable
    /// A CRS definition could not be used: `proj_create_crs_to_crs` (or the axis normalisation
    /// that follows it) returned NULL. `message` is what PROJ logged or its error string.
    case invalidCRS(source: String, target: String, message: String)
    /// A single point could not be transformed (PROJ returned `HUGE_VAL`).
    case pointFailed(message: String)
    /// An input coordinate was NaN or infinite; PROJ was not called.
    case notFinite

    public var description: String {
        switch self {
        case .contextUnavailable: "PROJ could not create a context"
        case .invalidCRS(let s, let t, let m): "cannot transform from '\(s)' to '\(t)': \(m)"
        case .pointFailed(let m): "point not transformed: \(m)"
        case .notFinite: "coordinate is not finite"
        }
    }
}
