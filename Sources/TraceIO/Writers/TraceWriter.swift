import TracePlatform

/// Where writers put bytes: a file descriptor, buffered in 64 KiB blocks.
public final class ByteSink {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes written so far.
    public private(set) var count = 0
    /// The name used in errors.
    public let name: String

    /// Writes to `fd` (not closed by the sink).
    public init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        count += bytes.count
    }

    func flushIfFull() throws(TraceWriteError) {
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes everything buffered.
    /// - Throws: ``TraceWriteError`` with the system's reason.
    public func flush() throws(TraceWriteError) {
        do { try buffer.withUnsafeBytes { try Platform.writeAll(fd, $0) } } catch {
            throw TraceWriteError(file: name, message: "write failed: \(error)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A write failure.
public struct TraceWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String
    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }
    public var description: String { "\(file): \(message)" }
}

/// A streaming writer: items in, bytes out, in bounded memory.
public protocol TraceWriter {
    /// Writes one item.
    mutating func write(_ item: TraceItem) throws(TraceWriteError)
    /// Closes every open element and flushes.
    mutating func finish() throws(TraceWriteError)
    /// Items the format cannot hold, by kind ("waypoint", "route point"), counted so they are
    /// reported rather than silently lost.
    var notWritten: [String: Int] { get }
}

/// The writer for `format` (`json` is written as GeoJSON).
/// - Throws: ``TraceWriteError`` for a format TraceKit does not write (PLT, REC, NMEA, KML).
public func makeTraceWriter(_ format: TraceFormat, to sink: ByteSink) throws(TraceWriteError) -> any TraceWriter {
    switch format {
    case .gpx: return GPXWriter(sink: sink)
    case .csv: return CSVWriter(sink: sink)
    case .geojson, .json: return try GeoJSONWriter(sink: sink)
    case .ndjson: return NDJSONWriter(sink: sink)
    case .plt, .rec, .nmea, .kml:
        throw TraceWriteError(
            file: sink.name, message: "TraceKit reads \(format.rawValue) but does not write it; write gpx, csv, geojson or ndjson")
    }
}

/// Numbers as text: the shortest decimal that reads back to the same double (exact round trip).
func decimal(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return x.description
}

/// XML text with `&`, `<`, `>` and quotes escaped, and CR as `&#xD;` (so it survives line-end
/// normalisation). Characters XML 1.0 cannot hold at all (other C0 controls, U+FFFE, U+FFFF) are
/// left out and counted in `dropped`. Used by the GPX writer and by reports that write SVG.
public func xmlEscaped(_ s: String, dropped: inout Int) -> String {
    var out = ""
    for c in s.unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\r": out += "&#xD;"
        case "\t", "\n": out.unicodeScalars.append(c)
        default:
            if c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF { dropped += 1 } else { out.unicodeScalars.append(c) }
        }
    }
    return out
}
