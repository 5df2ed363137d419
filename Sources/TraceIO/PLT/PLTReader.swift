import TraceDomain
import TraceGeodesy

/// Reads OziExplorer track files (`.plt`, also the Microsoft GeoLife files), streamed in bounded
/// memory (the 1 MiB window plus one line).
///
/// Layout: six header lines (`OziExplorer Track Point File Version 2.x` or `Geolife trajectory`;
/// the datum; `Altitude is in Feet`; a reserved line; the track line `0,width,colour,name,…`;
/// the point count), then one point per line:
/// `latitude, longitude, break, altitude, days, date, time`.
/// - Coordinates in degrees (WGS 84; another datum is read as WGS 84 and stated as an assumption).
/// - `break` = 1 starts a new segment (``TraceItem/segmentStart``).
/// - Altitude in feet (metres if line 3 says so), converted to metres; -777 means none.
/// - Time: the OLE automation day number (days since 1899-12-30 00:00). It is snapped to the
///   nearest whole second when that second lies within the number's written precision (7
///   decimals of a day are 8.6 ms), so `39307.3279977` is 2007-08-13T07:52:19Z exactly. The
///   date and time text columns are localised (`13-août-07`) and only used when the day number
///   is missing or unreadable. Times have no zone: ``ReadOptions/zonelessUTCOffset`` applies,
///   else they are read as UTC and that is stated as an assumption.
/// - The track name (line 5) may be Latin-1 (read as such when it is not UTF-8).
/// - A header point count (line 6) that differs from the points in the file is stated as an
///   assumption ("the header says 2390 points but the file has 44"); 0 means not given (GeoLife).
///
/// Items: one ``TraceItem/trackStart(name:)`` (the track name) and one segment, before the first
/// point. Failures: a first line that is not an OziExplorer or GeoLife header, or fewer than six
/// header lines, is a ``TraceReadError``; per-point problems go through the shared checks.
public struct PLTReader: TraceReader {
    /// Always ``TraceFormat/plt``.
    public let format = TraceFormat.plt
    private var scanner: RowScanner
    package var checker: PointChecker
    private let options: ReadOptions
    private var headerRead = false
    private var finished = false
    private var feet = true
    private var headerCount = 0
    private var rows = 0
    private var trackName: String?
    private var pendingTrack = true
    private var pendingSegment = true
    private var queue = ItemQueue()
    private var iso: [UInt8] = []

    /// OLE automation day number of 1970-01-01.
    static let unixEpochDay = 25569

    /// Problems and assumptions so far; complete once ``next()`` has returned nil.
    public var diagnostics: Diagnostics { checker.diagnostics }

    init(source: ByteSource, options: ReadOptions) {
        scanner = RowScanner(source: source, delimiter: UInt8(ascii: ","), quotes: false)
        checker = PointChecker(file: source.name, options: options)
        self.options = options
    }

    /// Reads a PLT file from memory (tests, small inputs).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    /// Opens a PLT file ("-" for standard input).
    /// - Throws: ``TraceReadError`` when the file cannot be opened.
    public init(path: String, options: ReadOptions = ReadOptions()) throws(TraceReadError) {
        self.init(source: try ByteSource(path: path), options: options)
    }

    /// The next item in file order, or nil at the end.
    /// - Throws: ``TraceReadError`` as described for the type (file, line, column, message).
    public mutating func next() throws(TraceReadError) -> TraceItem? {
        while true {
            if let item = queue.pop() { return item }
            if finished { return nil }
            if !headerRead {
                try readHeader()
                continue
            }
            guard try scanner.nextRow() else {
                if headerCount > 0 && headerCount != rows {
                    checker.diagnostics.assume("the header says \(headerCount) points but the file has \(rows)")
                }
                try checker.finishInput()
                finished = true
                continue
            }
            try readPoint()
        }
    }

    private mutating func readHeader() throws(TraceReadError) {
        headerRead = true
        scanner.skipBlankRows = false
        var lines: [String] = []
        for i in 1...6 {
            guard try scanner.nextRow() else {
                throw scanner.error(
                    i == 1
                        ? "empty file: expected an OziExplorer track header" : "truncated header: expected 6 header lines, found \(i - 1)",
                    line: max(i, 1))
            }
            if i == 1 {
                let first = TextValue.trimmed(scanner.row)
                // A file that is not a track may be anything: its line is not quoted (README,
                // "Hardening: hostile input").
                guard TextValue.hasPrefix(first, "OziExplorer Track Point File") || TextValue.hasPrefix(first, "Geolife trajectory") else {
                    throw scanner.error(
                        "not an OziExplorer track file: line 1 is not 'OziExplorer Track Point File Version 2.x'", line: scanner.line)
                }
            }
            if i == 5 {
                let name = TextValue.trimmed(scanner.field(3))
                trackName = name.isEmpty ? nil : TextValue.string(name)
            }
            lines.append(TextValue.string(TextValue.trimmed(scanner.row)))
        }
        scanner.skipBlankRows = true
        let datum = lines[1]
        let compact = datum.lowercased().filter { $0 != " " && $0 != "-" }
        if compact != "wgs84" {
            checker.diagnostics.assume("datum '\(datum.prefix(40))' was read as WGS 84 (coordinates not converted)")
        }
        let altitudeLine = lines[2].lowercased()
        feet = !(altitudeLine.contains("meter") || altitudeLine.contains("metre"))
        headerCount = Int(TextValue.trimmed(lines[5])) ?? 0
    }

    private mutating func readPoint() throws(TraceReadError) {
        rows += 1
        let line = scanner.line
        var values = Fix(coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0))
        var fix: Fix?
        var coordinateNoted = false
        func number(_ i: Int) -> (text: UnsafeBufferPointer<UInt8>, value: Double?) {
            let t = TextValue.trimmed(scanner.field(i))
            return (t, TextValue.double(t))
        }
        let lat = number(0), lon = number(1)
        for (c, what) in [(lat, "latitude"), (lon, "longitude")] where !c.text.isEmpty && c.value == nil && !coordinateNoted {
            try checker.note(.invalidCoordinate, line: line, "\(what) \(TextValue.notANumber(c.text))")
            coordinateNoted = true
        }
        if TextValue.trimmed(scanner.field(2)).elementsEqual([UInt8(ascii: "1")]) && rows > 1 {
            pendingSegment = true
            try checker.startSegment()
        }
        let altitude = number(3)
        if !altitude.text.isEmpty {
            if let a = altitude.value {
                if a != -777 { values.elevation = feet ? a * 0.3048 : a }
            } else {
                try checker.note(.invalidValue, line: line, "altitude \(TextValue.notANumber(altitude.text))")
            }
        }
        try readTime(into: &values, line: line)
        if !coordinateNoted, let c = try checker.coordinate(latitude: lat.value, longitude: lon.value, line: line) {
            values.coordinate = c
            fix = values
        }
        guard let f = try checker.finish(fix, line: line, trackPoint: true) else { return }
        if pendingTrack {
            queue.push(.trackStart(name: trackName))
            pendingTrack = false
            pendingSegment = true
        }
        if pendingSegment {
            queue.push(.segmentStart)
            pendingSegment = false
        }
        queue.push(.trackPoint(f))
    }

    private mutating func readTime(into values: inout Fix, line: Int) throws(TraceReadError) {
        let days = TextValue.trimmed(scanner.field(4))
        var ts = days.isEmpty ? nil : PLTReader.oleTime(days)
        if ts == nil {
            let d = TextValue.trimmed(scanner.field(5)), t = TextValue.trimmed(scanner.field(6))
            iso.removeAll(keepingCapacity: true)
            if !d.isEmpty && !t.isEmpty && TextTime.appendDate(d, to: &iso) {
                iso.append(UInt8(ascii: "T"))
                if TextTime.appendTimeOfDay(t, to: &iso) { ts = TextTime.parse(iso)?.timestamp }
            }
        }
        guard var ts else {
            if !days.isEmpty { try checker.note(.invalidTime, line: line, "day number '\(TextValue.shown(days))'") }
            return
        }
        if let offset = options.zonelessUTCOffset {
            guard let shifted = ts.adding(seconds: -offset) else {
                try checker.note(.invalidTime, line: line, "the time shifted by the UTC offset leaves 1677–2262")
                return
            }
            ts = shifted
        } else {
            checker.diagnostics.assume("PLT times (no zone) were read as UTC")
        }
        values.time = ts
    }

    /// The time of an OLE automation day number (days since 1899-12-30 00:00, fraction = time of
    /// day), snapped to the whole second when it is within the number's written precision.
    static func oleTime(_ t: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        // Int64 nanoseconds hold about ±106,751 days around 1970 (day 25,569).
        guard let v = TextValue.double(t), abs(v - Double(unixEpochDay)) < 106_000 else { return nil }
        let dot = t.firstIndex(of: UInt8(ascii: "."))
        let decimals = dot.map { t.count - $0 - 1 } ?? 0
        let whole = v.rounded(.down)
        let wholeSeconds = (Int64(whole) - Int64(unixEpochDay)) * 86400
        var fraction = (v - whole) * 86400
        if decimals < 12 {
            var resolution = 86400.0
            for _ in 0..<decimals { resolution /= 10 }
            let snapped = fraction.rounded()
            if abs(fraction - snapped) <= resolution / 2 { fraction = snapped }
        }
        return Timestamp(nanoseconds: wholeSeconds * 1_000_000_000 + Int64((fraction * 1e9).rounded()))
    }
}

extension PLTReader: CheckedTraceReader {}
