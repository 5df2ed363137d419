public import TraceGeodesy
public import TraceJSON

/// Streams a GeoJSON FeatureCollection (RFC 7946) of Point features with properties, one feature
/// per line: for reports whose features are points with their own properties (a replay's
/// delivered updates), where ``makeTraceWriter(_:to:)``'s GeoJSON writer writes a trace's tracks
/// and waypoints.
///
/// Positions are [longitude, latitude] (RFC 7946 §3.1.1) in the shortest decimal that reads back
/// to the same double, as the trace writer writes them. Property values are written compactly in
/// the order given: scalars and arrays of scalars (a nested object or array of objects is written
/// as ``JSONWriter`` writes it, over several lines). Memory does not grow with the features: they
/// go to the sink, which writes in 64 KiB blocks.
public final class GeoJSONPointWriter {
    private let sink: ByteSink
    private var first = true
    private var failure: TraceWriteError?
    /// Features written so far.
    public private(set) var features = 0

    /// Starts the collection on `sink`.
    public init(sink: ByteSink) {
        self.sink = sink
        sink.write("{\"type\":\"FeatureCollection\",\"features\":[")
    }

    /// Writes one Point feature. A write failure is remembered and thrown by ``finish()``.
    public func point(_ c: Coordinate, properties: [(String, JSONValue)]) {
        guard failure == nil else { return }
        sink.write(first ? "\n" : ",\n")
        first = false
        var text =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(geoJSONPosition(c, elevation: nil))},\"properties\":{"
        text += properties.map { JSONWriter.quoted($0.0) + ":" + JSONWriter.string($0.1) }.joined(separator: ",")
        text += "}}"
        sink.write(text)
        features += 1
        do {
            try sink.flushIfFull()
        } catch {
            failure = error
        }
    }

    /// Closes the collection and flushes.
    /// - Throws: ``TraceWriteError`` for the first failed write.
    public func finish() throws(TraceWriteError) {
        if let failure { throw failure }
        sink.write("\n]}\n")
        try sink.flush()
    }
}

/// A GeoJSON position: [longitude, latitude] or [longitude, latitude, elevation].
func geoJSONPosition(_ c: Coordinate, elevation: Double?) -> String {
    var pos = "[\(decimal(c.longitude)),\(decimal(c.latitude))"
    if let e = elevation, e.isFinite { pos += ",\(decimal(e))" }
    return pos + "]"
}
