// The header: the delimiter, the columns and their units, the columns option.
extension CSVReader {
    mutating func readHeader() throws(TraceReadError) {
        headerRead = true
        guard try scanner.nextRow() else {
            throw scanner.error("empty file: expected a header line naming the latitude and longitude columns", line: 1)
        }
        let delimiter = scanner.detectDelimiter()
        scanner.delimiter = delimiter
        scanner.split()
        decimalComma = delimiter != UInt8(ascii: ",")
        var names: [String] = []
        for i in scanner.fields.indices { names.append(TextValue.string(scanner.field(i))) }
        if let first = names.first, first.hasPrefix("#") { names[0] = TextValue.trimmed(String(first.dropFirst())) }
        let line = scanner.line

        var normalised: [String] = []
        for (i, n) in names.enumerated() {
            normalised.append(n.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" && $0 != "." })
            guard let (field, unit) = CSVField.recognise(header: n) else { continue }
            if let first = columns[field] {
                checker.diagnostics.assume(
                    "columns \(first + 1) and \(i + 1) both hold \(field.key); column \(first + 1) ('\(names[first])') is read")
                continue
            }
            columns[field] = i
            if let unit { units[field] = unit }
        }
        try applyColumnOptions(names: names, line: line)

        let shownHeader = names.filter { !$0.isEmpty }.joined(separator: String(UnicodeScalar(delimiter)))
        let missing = [CSVField.latitude, .longitude].filter { columns[$0] == nil }
        if !missing.isEmpty {
            throw scanner.error(
                "no \(missing.map(\.label).joined(separator: " or ")) column in the header '\(shownHeader.count > 200 ? String(shownHeader.prefix(200)) + "…" : shownHeader)': "
                    + "expected lat/latitude and lon/lng/long/longitude (any case), or name the columns with the columns option",
                line: line)
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
            let trimmed = TextValue.trimmed(value)
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
                units[field] = CSVField.recognise(header: names[index])?.unit
            }
        }
        if !unknown.isEmpty {
            problems.insert(
                "unknown field\(unknown.count > 1 ? "s" : "") \(unknown.joined(separator: ", ")) in the columns option (known: \(CSVField.allCases.map(\.key).joined(separator: ", ")))",
                at: 0)
        }
        if !problems.isEmpty {
            var e = scanner.error(problems.joined(separator: "; ") + " (header: \(names.joined(separator: ", ")))", line: line)
            e.category = .options  // the option, not the file, is wrong
            throw e
        }
    }
}
