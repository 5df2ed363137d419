import CGeos

/// A GEOS context: the handle every GEOS operation runs in, and the owner of its message handlers.
///
/// Wraps one `GEOSContextHandle_t` from `GEOS_init_r`, released with `GEOS_finish_r` when the
/// context is deinitialised. Every operation is a method on the context (WKT, simplification,
/// buffer, envelope, distance, prepared polygons, geographic helpers) and uses only GEOS's
/// reentrant `_r` functions.
///
/// Threading: a GEOS context must be used by one thread at a time, so `GeometryContext` is
/// deliberately not `Sendable`. Create one per thread or task (creation is cheap, microseconds);
/// the geometry values it returns are plain `Sendable` Swift values and may travel freely.
///
/// Messages: the context installs error and notice handlers
/// (`GEOSContext_setErrorMessageHandler_r`, `GEOSContext_setNoticeMessageHandler_r`) that append
/// to a message sink. Pending error messages are cleared immediately before each GEOS call and
/// read immediately after it, so a thrown ``GeometryError`` carries only the message of the call
/// that failed. Notices (GEOS's non-fatal diagnostics, e.g. why a geometry is invalid) are
/// collected per operation into ``notices``.
public final class GeometryContext {
    /// The GEOS context handle (`GEOSContextHandle_t`), valid until `deinit`.
    let handle: OpaquePointer
    /// Receives GEOS's messages; outlives the handle (released after `GEOS_finish_r`).
    private let sink: MessageSink

    /// Notices GEOS emitted during the most recent operation on this context, oldest first; empty
    /// when it emitted none. Reset at the start of every operation.
    public private(set) var notices: [String] = []

    /// Creates a GEOS context and installs its message handlers.
    ///
    /// Calls `GEOS_init_r`, then `GEOSContext_setErrorMessageHandler_r` and
    /// `GEOSContext_setNoticeMessageHandler_r`. O(1).
    /// - Throws: ``GeometryError/geos(function:message:)`` naming `GEOS_init_r` if GEOS returns a
    ///   NULL handle (allocation failure).
    public init() throws(GeometryError) {
        // GEOS_init_r: NULL means the context could not be allocated; no handler exists yet to
        // report why.
        guard let handle = GEOS_init_r() else {
            throw .geos(function: "GEOS_init_r", message: "GEOS returned a NULL context handle")
        }
        let sink = MessageSink()
        self.handle = handle
        self.sink = sink
        // Unretained: `self.sink` keeps the sink alive until after GEOS_finish_r in deinit.
        let userdata = Unmanaged.passUnretained(sink).toOpaque()
        // Both setters return the previously installed handler (NULL when there was none), not a
        // status, so there is no failure sentinel to check.
        _ = GEOSContext_setErrorMessageHandler_r(
            handle,
            { message, userdata in
                guard let message, let userdata else { return }
                Unmanaged<MessageSink>.fromOpaque(userdata).takeUnretainedValue()
                    .recordError(String(cString: message))
            }, userdata)
        _ = GEOSContext_setNoticeMessageHandler_r(
            handle,
            { message, userdata in
                guard let message, let userdata else { return }
                Unmanaged<MessageSink>.fromOpaque(userdata).takeUnretainedValue()
                    .recordNotice(String(cString: message))
            }, userdata)
    }

    deinit {
        // GEOS_finish_r returns nothing; after it no handler can fire, so the sink may go.
        GEOS_finish_r(handle)
    }

    // MARK: - Call discipline (internal)

    /// Runs one public operation: resets ``notices`` before, collects GEOS's notices after.
    func operation<R>(_ body: () throws(GeometryError) -> R) throws(GeometryError) -> R {
        _ = sink.takeNotices()
        sink.clearErrors()
        defer { notices = sink.takeNotices() }
        return try body()
    }

    /// The error for a failed call of `function`, with GEOS's message for that call.
    private func failure(_ function: String, message: String?) -> GeometryError {
        .geos(function: function, message: message ?? "GEOS reported failure without a message")
    }

    /// Calls a GEOS function whose failure sentinel is NULL; returns the non-NULL result.
    /// Pending errors are cleared before the call and read after it.
    func nonNull<T>(_ function: String, _ call: () -> T?) throws(GeometryError) -> T {
        sink.clearErrors()
        let result = call()
        let message = sink.takeErrorMessage()
        guard let result else { throw failure(function, message: message) }
        return result
    }

    /// Calls a GEOS function that returns an `int` status whose failure sentinel is `sentinel`
    /// (0 for most functions, -1 for counts and type ids); returns the status.
    @discardableResult
    func status(_ function: String, failsWith sentinel: Int32 = 0, _ call: () -> Int32) throws(GeometryError) -> Int32 {
        sink.clearErrors()
        let result = call()
        let message = sink.takeErrorMessage()
        guard result != sentinel else { throw failure(function, message: message) }
        return result
    }

    /// Calls a GEOS predicate returning `char`: 1 true, 0 false, 2 (any other value) on exception.
    func predicate(_ function: String, _ call: () -> CChar) throws(GeometryError) -> Bool {
        sink.clearErrors()
        let result = call()
        let message = sink.takeErrorMessage()
        switch result {
        case 1: return true
        case 0: return false
        default: throw failure(function, message: message)  // 2: GEOS caught an exception
        }
    }

    /// Calls a GEOS function returning a NULL-terminated string allocated by GEOS, copies it, and
    /// frees GEOS's buffer with `GEOSFree_r`. NULL is the failure sentinel.
    func ownedString(_ function: String, _ call: () -> UnsafeMutablePointer<CChar>?) throws(GeometryError) -> String {
        let buffer = try nonNull(function, call)
        defer { GEOSFree_r(handle, buffer) }
        return String(cString: buffer)
    }

    /// Whether an error or notice is pending in the sink (tests check none is left behind).
    var hasPendingMessages: Bool { sink.hasPendingMessages }
}

/// A GEOS context is confined to one thread at a time.
@available(*, unavailable, message: "GeometryContext wraps a GEOS context, which is confined to one thread")
extension GeometryContext: Sendable {}
