import TraceGeodesy
import TraceIO
import TraceJSON
import TracePlatform

/// Writes a trip's folder: one GPX per party (`helper.gpx`, `hirer.gpx`, `delegate.gpx`) with
/// TraceIO's GPX writer, and the scenario sidecar `<name>.scenario.json` (schema
/// `tracekit-scenario/1`, the replay command's input contract).
enum TripWriter {
    /// The files written, relative to `folder`, with their sizes in bytes.
    static func write(_ trip: Trip, into folder: String) throws(GeneratorError) -> [(file: String, bytes: Int)] {
        let dir = folder + "/" + trip.name
        try makeDirectory(folder)
        try makeDirectory(dir)
        var written: [(String, Int)] = []
        for (role, fixes) in trip.traces {
            let file = role.key + ".gpx"
            let bytes = try writeFile(dir + "/" + file) { sink throws(TraceWriteError) in
                var writer = try makeTraceWriter(.gpx, to: sink)
                try writer.write(.trackStart(name: "\(trip.name): \(role.key)"))
                for fix in fixes { try writer.write(.trackPoint(fix)) }
                try writer.finish()
            }
            written.append((trip.name + "/" + file, bytes))
        }
        let sidecar = trip.name + ".scenario.json"
        let text = JSONWriter.string(scenario(trip)) + "\n"
        try writeText(dir + "/" + sidecar, text)
        written.append((trip.name + "/" + sidecar, text.utf8.count))
        return written
    }

    /// The sidecar's JSON: schema, category, pickupHandedOff, pickup, dropoff, traces (relative
    /// to the sidecar), timeline (FulfilmentState keys and ISO 8601 UTC instants).
    static func scenario(_ trip: Trip) -> JSONValue {
        func point(_ c: Coordinate) -> JSONValue {
            JSONValue.object([("lat", JSONValue.number(c.latitude)), ("lon", JSONValue.number(c.longitude))])
        }
        return JSONValue.object([
            ("schema", JSONValue.string("tracekit-scenario/1")),
            ("category", JSONValue.string(trip.category.name)),
            ("pickupHandedOff", JSONValue.bool(trip.pickupHandedOff)),
            ("pickup", point(trip.pickup)),
            ("dropoff", point(trip.dropoff)),
            ("traces", JSONValue.object(trip.traces.map { ($0.role.key, JSONValue.string($0.role.key + ".gpx")) })),
            (
                "timeline",
                JSONValue.array(
                    trip.timeline.map {
                        JSONValue.object([("state", JSONValue.string($0.state.key)), ("at", JSONValue.string($0.at.iso8601))])
                    })
            ),
        ])
    }

    private static func makeDirectory(_ path: String) throws(GeneratorError) {
        do throws(Errno) { try Platform.makeFolder(path, permissions: 0o755) } catch {
            if error != .exists { throw GeneratorError("\(path): cannot create the folder: \(error)") }
        }
    }

    /// Writes `text` (UTF-8) to `path` atomically.
    private static func writeText(_ path: String, _ text: String) throws(GeneratorError) {
        do { try AtomicFile.write(path, text) } catch { throw GeneratorError(error.description) }
    }

    /// Writes `path` atomically through a ``ByteSink``; returns the bytes written.
    private static func writeFile(_ path: String, _ body: (ByteSink) throws(TraceWriteError) -> Void) throws(GeneratorError) -> Int {
        do { return try AtomicFile.write(path, body) } catch { throw GeneratorError(error.description) }
    }
}

/// A failure the generator reports on one line.
struct GeneratorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
