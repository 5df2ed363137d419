// The header: the delimiter, the columns and their units, the columns option.
extension CSVReader {
    /// How many lines before the header may be preamble (a logger's banner, export notes).
    static let preambleLimit = 64

    /// The advice an unmappable header's error ends with; a command line that maps columns
    /// says how instead (the CLI names its `--column` flag).
    public static let columnsAdvice = "map them with the columns option: "

    mutating func readHeader() throws(TraceReadError) {
        headerRead = true
        let (names, line) = try findHeaderLine()
        let normalised = mapColumns(names)
        try applyColumnOptions(names: names, line: line)
        localColumns.removeAll { $0 != columns[.time] && $0 != columns[.date] }
        if !localColumns.isEmpty {
            let named = localColumns.map { "'\(names[$0])'" }.joined(separator: " and ")
            let localTimes: String
            if let offset = columns[.utcOffset] {
                localTimes = "local times (\(named)) were read with the UTC offset of each row's '\(names[offset])'"
            } else if let seconds = options.zonelessUTCOffset {
                localTimes = "local times (\(named)) were read as \(CSVReader.offsetText(seconds)) (the UTC offset option)"
            } else {
                localTimes =
                    "local times (\(named)) without a UTC offset were read as UTC: give the offset (--utc-offset HOURS) or map an offset column"
            }
            checker.diagnostics.assume(localTimes)
            zonelessAssumed = true
        }

        if columns[.latitude] == nil || columns[.longitude] == nil {
            try unmappable(names, line: line, sample: sampleRow())
        }
        try settleForms(names: names, normalised: normalised)
    }

    /// Finds the header: the first line naming the latitude and longitude columns (or, with a
    /// columns option, the first line that is not a comment); `#` lines and up to
    /// ``preambleLimit`` other lines before it are comments and preamble. Sets the delimiter's
    /// decimal comma; returns the header's names and line.
    private mutating func findHeaderLine() throws(TraceReadError) -> (names: [String], line: Int) {
        var names: [String] = []
        var delimiter = UInt8(ascii: ",")
        var line = 0
        var skipped = 0, preamble = 0
        var first: (names: [String], line: Int)?
        var second: [String]?
        while true {
            scanner.delimiter = nil
            guard try scanner.nextRow() else {
                if let first { try unmappable(first.names, line: first.line, sample: second) }
                throw scanner.error("empty file: expected a header line naming the latitude and longitude columns", line: 1)
            }
            delimiter = scanner.detectDelimiter()
            scanner.delimiter = delimiter
            scanner.split()
            names = scanner.fields.indices.map { TextValue.string(scanner.field($0)) }
            line = scanner.line
            let comment = names.first?.hasPrefix("#") == true
            if comment { names[0] = TextValue.trimmed(String(names[0].dropFirst())) }
            let recognised = names.compactMap { CSVField.recognise(header: $0)?.field }
            if recognised.contains(.latitude) && recognised.contains(.longitude) { break }
            if !comment && !options.columns.isEmpty { break }
            if !comment {
                if first == nil {
                    first = (names, line)
                } else if second == nil {
                    second = names.map { TextValue.trimmed($0) }
                }
            }
            skipped += 1
            if !comment { preamble += 1 }
            if preamble > CSVReader.preambleLimit, let first {
                // No header within the preamble's limit: the first line was meant to be it.
                try unmappable(first.names, line: first.line, sample: second)
            }
        }
        if skipped > 0 {
            checker.diagnostics.assume("skipped \(skipped) line\(skipped == 1 ? "" : "s") before the header (comments or preamble)")
        }
        decimalComma = delimiter != UInt8(ascii: ",")
        return (names, line)
    }

    /// Maps each header name to a field and unit (the first column of a field is read, but a UTC
    /// date or time is preferred to a local one; `trk` beside `trkseg` is GPX's track number);
    /// returns the names normalised (lower case, no spaces, `_`, `-` or `.`).
    private mutating func mapColumns(_ names: [String]) -> [String] {
        var normalised: [String] = []
        for (i, n) in names.enumerated() {
            normalised.append(n.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" && $0 != "." })
            guard let (field, unit) = CSVField.recognise(header: n) else { continue }
            let local = (field == .time || field == .date) && CSVField.isLocal(header: n)
            if let first = columns[field], localColumns.contains(first), !local {
                // A UTC (or unmarked) date or time beside a local one: the UTC one is read.
                checker.diagnostics.assume(
                    "columns \(first + 1) and \(i + 1) both hold \(field.key); column \(i + 1) ('\(n)') is read, not the local one ('\(names[first])')"
                )
                localColumns.removeAll { $0 == first }
                columns[field] = i
                if let unit { units[field] = unit } else { units[field] = nil }
                continue
            }
            if let first = columns[field] {
                checker.diagnostics.assume(
                    "columns \(first + 1) and \(i + 1) both hold \(field.key); column \(first + 1) ('\(names[first])') is read")
                continue
            }
            columns[field] = i
            if let unit { units[field] = unit }
            if local { localColumns.append(i) }
        }
        // `trk` is a ground track (the course), except beside a `trkseg` column: GPX's names, where
        // it is the track number.
        if let c = columns[.course], normalised[c] == "trk", let s = columns[.segment], normalised[s] == "trkseg", columns[.track] == nil {
            columns[.track] = c
            columns[.course] = nil
            checker.diagnostics.assume("column '\(names[c])' read as track numbers (beside '\(names[s])', GPX's names), not as the course")
        }
        return normalised
    }

    /// Settles what the header and the first rows tell: the coordinate forms, the epoch's origin,
    /// six-digit dates, a units row, whether `track` is a course, UTC in a time column's name, a
    /// BT747 logger's km/h, and the track and segment the first point starts.
    private mutating func settleForms(names: [String], normalised: [String]) throws(TraceReadError) {
        latitudeForm = CoordinateForm(unit: units[.latitude]) ?? .undecided
        longitudeForm = CoordinateForm(unit: units[.longitude]) ?? .undecided
        epochOrigin = EpochOrigin(unit: units[.time])
        sixDigitDates = SixDigitDate(unit: units[.date])
        try readUnitsRow()
        // A column named just "track" holds track numbers or names unless its first value reads
        // as an angle with a fraction (a ground track, e.g. 247.5): then it is the course.
        // Mapped by hand (--column track=… or course=…), it is left as mapped.
        let mapped = options.columns.keys.contains { CSVField.option($0) == .track || CSVField.option($0) == .course }
        if !mapped, let t = columns[.track], normalised[t] == "track", columns[.course] == nil, let sample = try firstDataRow(),
            t < sample.count
        {
            let v = TextValue.trimmed(sample[t])
            if v.contains("."), let x = Double(v), x >= 0, x <= 360 {
                columns[.course] = t
                columns[.track] = nil
                checker.diagnostics.assume(
                    "column '\(names[t])' read as the course (its first value, \(v), is an angle), not as track numbers")
            } else if !v.isEmpty {
                checker.diagnostics.assume(
                    "column '\(names[t])' read as track numbers or names (its first value is '\(v.count > 24 ? String(v.prefix(24)) + "…" : v)'); map it with the columns option course=\(names[t]) if it is a ground track"
                )
            }
        }
        // Semicircles are FIT's: a FIT export counts its epoch numbers from FIT's origin too (a
        // column settled as semicircles by its first value does the same, in coordinateValue).
        if epochOrigin == .unix && units[.time] != "unix" && (latitudeForm == .semicircles || longitudeForm == .semicircles) {
            epochOrigin = .fit
        }
        if epochOrigin != .unix {
            checker.diagnostics.assume(
                "epoch times counted from \(epochOrigin == .gps ? "GPS's 1980-01-06 (leap seconds removed)" : "FIT's 1989-12-31")")
        }
        for f in [CSVField.time, .date] {
            if let i = columns[f], normalised[i].contains("utc") { headerSaysUTC = true }
        }
        // BT747 and MTK logger CSV (INDEX,RCR,DATE,TIME,VALID,…) write SPEED in km/h without saying so.
        if normalised.contains("rcr"), columns[.speed] != nil, units[.speed] == nil {
            units[.speed] = "km/h"
            checker.diagnostics.assume("BT747 logger CSV: SPEED read as km/h")
        }
        pendingTrack = columns[.track] == nil ? PendingTrack(name: nil) : nil
        pendingSegment = columns[.track] == nil
        fusedColumns = fusedLayout()
    }

    private mutating func applyColumnOptions(names: [String], line: Int) throws(TraceReadError) {
        guard !options.columns.isEmpty else { return }
        var unknown: [String] = []
        var problems: [String] = []
        for key in options.columns.keys.sorted() {
            let value = options.columns[key]!
            guard let field = CSVField.option(key) else {
                unknown.append("'\(key)'")
                continue
            }
            var index: Int?
            var trimmed = TextValue.trimmed(value)
            var transform: String?
            if let colon = trimmed.lastIndex(of: ":") {
                let word = trimmed[trimmed.index(after: colon)...].lowercased()
                if CSVReader.transforms.contains(word) {
                    transform = word
                    trimmed = TextValue.trimmed(String(trimmed[..<colon]))
                }
            }
            if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber), let n = Int(trimmed) {
                if n >= 1 && n <= names.count {
                    index = n - 1
                } else {
                    problems.append("column \(n) for \(field.key) does not exist (the header has \(names.count) columns)")
                }
            } else if let i = names.firstIndex(where: { TextValue.trimmed($0).lowercased() == trimmed.lowercased() }) {
                index = i
            } else {
                problems.append("no column '\(value)' for \(field.key) in the header")
            }
            if let index {
                for f in CSVField.allCases where columns[f] == index { columns[f] = nil }
                columns[field] = index
                units[field] = transform ?? CSVField.recognise(header: names[index])?.unit
            }
        }
        if !unknown.isEmpty {
            problems.insert(
                "unknown field\(unknown.count > 1 ? "s" : "") \(unknown.joined(separator: ", ")) in the columns option (known: \(CSVField.allCases.map(\.key).joined(separator: ", ")))",
                at: 0)
        }
        if !problems.isEmpty {
            var shown = names.prefix(12).map(Self.shownName).joined(separator: ", ")
            if names.count > 12 { shown += ", … (\(names.count) columns)" }
            var e = scanner.error(problems.joined(separator: "; ") + " (header: \(shown))", line: line)
            e.category = .options  // the option, not the file, is wrong
            throw e
        }
    }
}

// The header's neighbours: a units row under it, and what an unmappable header's error says.
extension CSVReader {
    /// Reads a units row under the header (`deg,deg,m,km/h,s`: every non-empty field a unit
    /// word, none a number) into ``units`` for the columns that state none; any other row is the
    /// first data row (``pendingRow``).
    mutating func readUnitsRow() throws(TraceReadError) {
        guard try scanner.nextRow() else { return }
        var found: [(CSVField, String)] = []
        var words = 0
        for i in scanner.fields.indices {
            var word = TextValue.string(TextValue.trimmed(scanner.field(i))).lowercased()
            if word.isEmpty { continue }
            if (word.hasPrefix("(") && word.hasSuffix(")")) || (word.hasPrefix("[") && word.hasSuffix("]")) {
                word = String(word.dropFirst().dropLast())
            }
            word = word.filter { $0 != " " }
            guard CSVReader.isUnitWord(word) else {
                pendingRow = true
                return
            }
            words += 1
            if let field = CSVField.allCases.first(where: { columns[$0] == i }) { found.append((field, word)) }
        }
        // A units row names the coordinates' unit: a data row of placeholders (`-,-,-`) or of
        // hemisphere letters alone (`,S,,W`) is not one.
        let coordinateWords = found.filter { $0.0 == .latitude || $0.0 == .longitude }
        guard words > 0, !coordinateWords.isEmpty,
            coordinateWords.allSatisfy({ ["deg", "degrees", "°", "dd"].contains($0.1) || CoordinateForm(unit: $0.1) != nil })
        else {
            pendingRow = true
            return
        }
        for (field, word) in found where units[field] == nil && !["-", "none", "text", "string", "date", "time"].contains(word) {
            if word == "utc" && (field == .time || field == .date) { headerSaysUTC = true } else { units[field] = word }
        }
        latitudeForm = CoordinateForm(unit: units[.latitude]) ?? latitudeForm
        longitudeForm = CoordinateForm(unit: units[.longitude]) ?? longitudeForm
        let origin = EpochOrigin(unit: units[.time])
        if origin != .unix { epochOrigin = origin }
        checker.diagnostics.assume("line \(scanner.line) is a units row")
    }

    /// Whether `word` is a unit a units row writes.
    static func isUnitWord(_ word: String) -> Bool {
        if TextValue.metres(per: word) != nil && !word.isEmpty { return true }
        if TextValue.metresPerSecond(per: word) != nil && !word.isEmpty { return true }
        if CoordinateForm(unit: word) != nil || TextTime.EpochUnit(hint: word) != nil { return true }
        return [
            "deg", "degrees", "°", "-", "s", "sec", "utc", "iso8601", "iso", "date", "time", "hh:mm:ss", "yyyy-mm-dd", "fit", "gps",
            "semicircles", "bpm", "rpm", "w", "%", "hpa", "c", "°c", "count", "text", "string", "none",
        ].contains(word)
    }

    /// The first data row's fields, trimmed, left to be read as a row (nil at the end of the file).
    mutating func firstDataRow() throws(TraceReadError) -> [String]? {
        if !pendingRow {
            guard try scanner.nextRow() else { return nil }
            pendingRow = true
        }
        return scanner.fields.indices.map { TextValue.string(TextValue.trimmed(scanner.field($0))) }
    }

    /// The current row's fields, as the first data row to guess columns from; nil at the end.
    mutating func sampleRow() -> [String]? {
        guard (try? scanner.nextRow()) == true else { return nil }
        return scanner.fields.indices.map { TextValue.string(TextValue.trimmed(scanner.field($0))) }
    }

    /// A column's name as a message quotes it: its first 24 characters (a header is quoted to
    /// help map it, and a file read as CSV may be no CSV at all).
    static func shownName(_ name: String) -> String { name.count > 24 ? String(name.prefix(24)) + "…" : name }

    /// Throws the error of a header whose latitude and longitude columns cannot be found: the
    /// columns found, and the mapping that would read them (a guess from the first data row:
    /// the first two columns holding decimal numbers within ±90 and ±180, else their names as
    /// placeholders).
    func unmappable(_ names: [String], line: Int, sample: [String]?) throws(TraceReadError) -> Never {
        let named = Set(names.compactMap { CSVField.recognise(header: $0)?.field })
        let missing = [CSVField.latitude, .longitude].filter { columns[$0] == nil && !named.contains($0) }
        let shown = names.enumerated().map { "\($0.offset + 1) '\(Self.shownName($0.element))'" }
        var list = shown.prefix(12).joined(separator: ", ")
        if shown.count > 12 { list += ", … (\(shown.count) columns)" }
        var latitude = "NAME", longitude = "NAME"
        if let sample {
            var candidates: [Int] = []
            for (i, v) in sample.enumerated() where i < names.count && v.contains(".") {
                if let d = Double(v), d.isFinite, abs(d) <= 180 { candidates.append(i) }
            }
            if candidates.count >= 2, let lat = candidates.first(where: { abs(Double(sample[$0])!) <= 90 }) {
                let lon = candidates.first { $0 != lat }!
                let label = { (i: Int) in names[i].isEmpty ? String(i + 1) : names[i] }
                (latitude, longitude) = (label(lat), label(lon))
            }
        }
        let missingText = (missing.isEmpty ? [CSVField.latitude, .longitude] : missing).map(\.label).joined(separator: " or ")
        throw scanner.error(
            "no \(missingText) column among the columns found (\(list)); \(CSVReader.columnsAdvice)latitude=\(latitude),longitude=\(longitude)",
            line: line)
    }
}
