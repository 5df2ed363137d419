import CGeos

/// Sole owner of one `GEOSGeometry*`, destroyed with `GEOSGeom_destroy_r` unless ownership was
/// handed to GEOS (for example as a member of a new collection) with ``release()``.
///
/// Keeps its context alive, so the handle is valid when the geometry is destroyed. Internal: it
/// makes the conversion code leak-free on every early exit.
final class OwnedGeometry {
    let context: GeometryContext
    private var owned: OpaquePointer?

    init(_ pointer: OpaquePointer, context: GeometryContext) {
        self.context = context
        owned = pointer
    }

    /// The geometry; only valid before ``release()``.
    var pointer: OpaquePointer {
        guard let owned else { preconditionFailure("OwnedGeometry used after release()") }
        return owned
    }

    /// Gives up ownership, returning the pointer; the caller (or GEOS) must free it.
    func release() -> OpaquePointer {
        let p = pointer
        owned = nil
        return p
    }

    deinit {
        if let owned { GEOSGeom_destroy_r(context.handle, owned) }
    }
}
