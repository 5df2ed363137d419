import TraceIO
import TraceJSON
import TraceReplay
import TraceSharing

/// `replay --geojson FILE`: streams each delivered update as a GeoJSON Point feature while the
/// replay runs (bounded memory however many there are), then the pickup and dropoff.
///
/// Update properties, in this order: `kind` "update", `role`, `state` (a ``FulfilmentState`` key),
/// `time` (ISO 8601 UTC), `sent` (bool), `forwardedTo` (viewer role keys), `accuracyMetres` (null
/// when the trace gives none). Point properties: `kind` "pickup" or "dropoff", `provenance`,
/// `detail`. Positions are [longitude, latitude] (RFC 7946).
struct GeoJSONUpdates: ReplayObserver {
    let writer: GeoJSONPointWriter

    mutating func delivered(_ u: DeliveredUpdate) {
        writer.point(
            u.coordinate,
            properties: [
                ("kind", .string("update")), ("role", .string(u.role.key)), ("state", .string(u.state.key)),
                ("time", .string(u.time.iso8601)), ("sent", .bool(u.sent)),
                ("forwardedTo", .array(u.forwardedTo.map { .string($0.key) })),
                ("accuracyMetres", u.accuracyMetres.map { .number($0) } ?? .null),
            ])
    }

    /// Adds the pickup and dropoff of `result` and closes the collection.
    func finish(_ result: ReplayResult) throws(CLIError) {
        for (kind, point) in [("pickup", result.scenario.pickup), ("dropoff", result.scenario.dropoff)] {
            guard let p = point else { continue }
            writer.point(
                p.value,
                properties: [("kind", .string(kind)), ("provenance", .string(p.provenance.rawValue)), ("detail", .string(p.detail))])
        }
        do {
            try writer.finish()
        } catch {
            throw .io(error.description)
        }
    }
}
