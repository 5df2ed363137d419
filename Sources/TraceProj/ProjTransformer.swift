import CProj

/// A transformation between two coordinate reference systems, backed by PROJ.
///
/// Owns its own `PJ_CONTEXT` (never PROJ's shared default context), with network access disabled
/// (`proj_context_set_enable_network(ctx, 0)`: no grid is ever downloaded) and a log handler that
/// collects PROJ's messages per call. A class because it owns those C resources: it is `final`,
/// not `Sendable`, and must be used from one thread at a time; create one per worker.
public final class ProjTransformer {
    /// The source CRS definition as given.
    public let source: String
    /// The target CRS definition as given.
    public let target: String
    private let context: OpaquePointer
    private let transformation: OpaquePointer
    private let log: ProjLog

    /// Creates the transformation from `source` to `target`, each any definition PROJ accepts
    /// ("EPSG:4326", "EPSG:32633", a PROJ string, WKT, PROJJSON).
    ///
    /// Calls `proj_context_create`, `proj_create_crs_to_crs` and `proj_normalize_for_visualization`.
    /// - Throws: ``ProjError/invalidCRS(source:target:message:)`` with PROJ's message when either
    ///   definition is not understood or no transformation exists; ``ProjError/contextUnavailable``
    ///   when PROJ cannot allocate a context.
    public init(from source: String, to target: String) throws(ProjError) {
        self.source = source
        self.target = target
        // proj_context_create returns NULL only when out of memory.
        guard let ctx = proj_context_create() else { throw .contextUnavailable }
        let log = ProjLog()
        proj_log_level(ctx, PJ_LOG_ERROR)
        proj_log_func(ctx, Unmanaged.passUnretained(log).toOpaque(), projLogHandler)
        proj_context_set_enable_network(ctx, 0)
        // NULL on failure; the reason is in the log and in the context's errno.
        // On the failure paths `log` must outlive the context that holds it as app data.
        guard let raw = proj_create_crs_to_crs(ctx, source, target, nil) else {
            let message = withExtendedLifetime(log) {
                defer { proj_context_destroy(ctx) }
                return log.take(orErrorOf: ctx)
            }
            throw .invalidCRS(source: source, target: target, message: message)
        }
        let normalized = proj_normalize_for_visualization(ctx, raw)
        proj_destroy(raw)
        guard let normalized else {
            let message = withExtendedLifetime(log) {
                defer { proj_context_destroy(ctx) }
                return log.take(orErrorOf: ctx)
            }
            throw .invalidCRS(source: source, target: target, message: message)
        }
        self.context = ctx
        self.transformation = normalized
        self.log = log
    }

    deinit {
        proj_destroy(transformation)
        // The log handler's app data must stay valid until the context is gone: `log` is a stored
        // property, released only after this deinit returns.
        proj_context_destroy(context)
    }

    /// PROJ's reason for failing on `point`: the point is transformed again on its own (failures
    /// are rare) with the log and errno cleared, so the reason is that point's and no other's.
    private func reason(transforming point: ProjPoint) -> String {
        log.clear()
        proj_errno_reset(transformation)
        var coord = PJ_COORD()
        coord.xy = PJ_XY(x: point.x, y: point.y)
        _ = proj_trans(transformation, PJ_FWD, coord)  // fails again; the reason is what we want
        return log.take(orErrorOf: context, transformation)
    }

    /// Transforms one point.
    ///
    /// Calls `proj_trans_generic` for one point (after `proj_errno_reset`).
    /// - Throws: ``ProjError/notFinite`` for NaN or infinite input (PROJ is not called);
    ///   ``ProjError/pointFailed(message:)`` with PROJ's reason when PROJ returns `HUGE_VAL`
    ///   (for example a point outside the projection's domain).
    public func transform(_ point: ProjPoint) throws(ProjError) -> ProjPoint {
        guard point.x.isFinite, point.y.isFinite else { throw .notFinite }
        let batch = transform([point])
        if let p = batch.points[0] { return p }
        throw .pointFailed(message: batch.failures.first?.message ?? "unknown PROJ error")
    }

    /// Transforms many points in one `proj_trans_generic` call.
    ///
    /// Points PROJ cannot transform (it returns `HUGE_VAL` for them), and non-finite inputs, are
    /// `nil` in ``TransformBatch/points`` and listed in ``TransformBatch/failures`` with that
    /// point's own reason (each failed point is transformed again alone, with the log and errno
    /// cleared, to get it); no infinity is ever returned as a coordinate. O(n).
    public func transform(_ points: [ProjPoint]) -> TransformBatch {
        var buffer = points
        log.clear()
        proj_errno_reset(transformation)
        let stride = MemoryLayout<ProjPoint>.stride
        buffer.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return }
            let raw = UnsafeMutableRawPointer(base)
            let xs = raw.advanced(by: MemoryLayout<ProjPoint>.offset(of: \.x)!).assumingMemoryBound(to: Double.self)
            let ys = raw.advanced(by: MemoryLayout<ProjPoint>.offset(of: \.y)!).assumingMemoryBound(to: Double.self)
            // Returns the number of points processed; per-point failures are marked with HUGE_VAL.
            _ = proj_trans_generic(
                transformation, PJ_FWD,
                xs, stride, b.count, ys, stride, b.count,
                nil, 0, 0, nil, 0, 0)
        }
        var failures: [TransformFailure] = []
        var result: [ProjPoint?] = []
        result.reserveCapacity(buffer.count)
        for (i, p) in buffer.enumerated() {
            if p.x.isFinite && p.y.isFinite {
                result.append(p)
                continue
            }
            result.append(nil)
            let input = points[i]
            let why = input.x.isFinite && input.y.isFinite ? reason(transforming: input) : "input coordinate is not finite"
            failures.append(TransformFailure(index: i, message: why))
        }
        return TransformBatch(points: result, failures: failures)
    }
}

/// The outcome of a batch transformation.
public struct TransformBatch: Sendable, Equatable {
    /// The transformed points, index for index with the input; `nil` where the point failed.
    public let points: [ProjPoint?]
    /// The points that failed, in input order, with PROJ's reason.
    public let failures: [TransformFailure]
    /// Whether every point was transformed.
    public var allSucceeded: Bool { failures.isEmpty }
}

/// A point of a batch that PROJ could not transform.
public struct TransformFailure: Sendable, Equatable {
    /// Index of the point in the input.
    public let index: Int
    /// PROJ's reason (the logged message, or the error string of its errno).
    public let message: String
}

/// Collects PROJ log messages for one context; cleared before each call so no stale message is
/// ever reported.
private final class ProjLog {
    var messages: [String] = []

    func clear() { messages.removeAll(keepingCapacity: true) }

    /// The logged messages joined, or the error string for the context's (or the object's) errno,
    /// and clears the log.
    func take(orErrorOf ctx: OpaquePointer, _ object: OpaquePointer? = nil) -> String {
        defer { clear() }
        if !messages.isEmpty { return messages.joined(separator: "; ") }
        let code = object.map { proj_errno($0) } ?? proj_context_errno(ctx)
        // proj_context_errno_string may return NULL.
        if code != 0, let s = proj_context_errno_string(ctx, code) { return String(cString: s) }
        return "PROJ reported no reason"
    }
}

/// PROJ's log callback (`PJ_LOG_FUNCTION`): app data is the context's `ProjLog`.
private let projLogHandler: PJ_LOG_FUNCTION = { appData, _, message in
    guard let appData, let message else { return }
    Unmanaged<ProjLog>.fromOpaque(appData).takeUnretainedValue().messages.append(String(cString: message))
}
