import TraceDomain

// The general row path: a row split by the row scanner, read field by field (position, time,
// values, structure) into ``CSVReader/row``, its problems kept as notes for ``check()``.
extension CSVReader {
    /// The trimmed value of `field` in the current row; empty when the column is absent or, for a
    /// number or time, holds a placeholder.
    @inline(__always) private func text(_ field: CSVField) -> UnsafeBufferPointer<UInt8> {
        guard let i = columns[field] else { return UnsafeBufferPointer(start: nil, count: 0) }
        let t = TextValue.trimmed(scanner.field(i))
        // Placeholders ("-", "NaN", "null", "N/A", "none") mean no value only where a value is a
        // number or a time; in text fields (names, roles, states, fix "none") they are the value.
        return field.holdsText || !CSVReader.isPlaceholder(t) ? t : UnsafeBufferPointer(start: nil, count: 0)
    }

    /// `-`, `NaN`, `null`, `N/A`, `NA`, `none`: no value.
    static func isPlaceholder(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
        // Every placeholder starts with `-` or `n`: most values are rejected by their first byte.
        guard !t.isEmpty && t.count <= 4 && (t[0] == UInt8(ascii: "-") || t[0] | 0x20 == UInt8(ascii: "n")) else { return false }
        return TextValue.equals(t, "-") || TextValue.equals(t, "nan") || TextValue.equals(t, "null") || TextValue.equals(t, "n/a")
            || TextValue.equals(t, "na") || TextValue.equals(t, "none")
    }

    /// Reads the scanner's current row into ``row``. False when all its fields are empty.
    mutating func parseRow() -> Bool {
        var empty = true
        for r in scanner.fields where !r.isEmpty { empty = false; break }
        if empty { return false }
        if let first = scanner.fields.first, scanner.field(0).first == UInt8(ascii: "#"), !first.isEmpty {
            commentRows += 1  // a comment line
            return false
        }
        row = Row(line: scanner.line)

        if columns[.track] != nil {
            let v = text(.track)
            if lastTrack == nil || !lastTrack!.elementsEqual(v) {
                row.startsTrack = true
                row.trackName = v.isEmpty ? nil : TextValue.string(v)
                lastTrack = Array(v)
                if columns[.segment] != nil { lastSegment = Array(text(.segment)) }
            }
        }
        if columns[.segment] != nil && !row.startsTrack {
            let v = text(.segment)
            if lastSegment == nil || !lastSegment!.elementsEqual(v) {
                row.startsSegment = lastSegment != nil
                lastSegment = Array(v)
            }
        }
        if columns[.pointType] != nil {
            let v = text(.pointType)
            if !(v.isEmpty || TextValue.equals(v, "TRACKPOINT") || TextValue.equals(v, "TRKPT") || TextValue.equals(v, "POINT")) {
                row.kind = .marker
                if TextValue.hasPrefix(v, "SEGMENT_START") { row.startsSegment = true }
                markerRows += 1
                let name = TextValue.shown(v)
                if markerTypes.count < 8 && !markerTypes.contains(name) { markerTypes.append(name) }
                return true
            }
        }

        // Position.
        let latText = text(.latitude), lonText = text(.longitude)
        if !latText.isEmpty {
            switch coordinate(
                latText, hemisphere: text(.latitudeHemisphere), positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), what: "latitude")
            {
            case .success(let v): row.latitude = coordinateValue(v, .latitude, integral: !latText.contains(UInt8(ascii: ".")))
            case .failure(let n): row.coordinateProblem = n
            }
        }
        if !lonText.isEmpty && row.coordinateProblem == nil {
            switch coordinate(
                lonText, hemisphere: text(.longitudeHemisphere), positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), what: "longitude"
            ) {
            case .success(let v):
                if row.coordinateProblem == nil {
                    row.longitude = coordinateValue(v, .longitude, integral: !lonText.contains(UInt8(ascii: ".")))
                }
            case .failure(let n): row.coordinateProblem = n
            }
        }

        readTime()
        readValues()
        return true
    }

    /// A coordinate with an optional hemisphere letter (`31.77N`, `N 31.77`, `122.4W`, trailing
    /// `°`) and an optional hemisphere column value.
    private func coordinate(
        _ t: UnsafeBufferPointer<UInt8>, hemisphere: UnsafeBufferPointer<UInt8>, positive: UInt8, negative: UInt8, what: String
    ) -> Result<Double, Note> {
        if hemisphere.isEmpty, let v = plainNumber(t) { return .success(v) }
        var lo = 0, hi = t.count
        var letter: UInt8?
        if hi >= 2 && t[hi - 2] == 0xC2 && t[hi - 1] == 0xB0 { hi -= 2 }  // a trailing degree sign
        while hi > lo && TextValue.isSpace(t[hi - 1]) { hi -= 1 }
        if hi > lo && TextValue.isLetter(t[lo]) { letter = t[lo] & ~0x20; lo += 1 }
        if hi > lo && TextValue.isLetter(t[hi - 1]) && letter == nil { letter = t[hi - 1] & ~0x20; hi -= 1 }
        while lo < hi && TextValue.isSpace(t[lo]) { lo += 1 }
        while hi > lo && TextValue.isSpace(t[hi - 1]) { hi -= 1 }
        if hi >= lo + 2 && t[hi - 2] == 0xC2 && t[hi - 1] == 0xB0 { hi -= 2 }
        guard let v = TextValue.double(UnsafeBufferPointer(rebasing: t[lo..<hi]), decimalComma: decimalComma) else {
            return .failure(Note(kind: .invalidCoordinate, detail: "\(what) \(TextValue.notANumber(t))"))
        }
        var sign = 0.0
        if let letter {
            if letter == positive {
                sign = 1
            } else if letter == negative {
                sign = -1
            } else {
                return .failure(
                    Note(kind: .invalidCoordinate, detail: "\(what) '\(TextValue.shown(t))' has hemisphere \(UnicodeScalar(letter))"))
            }
        }
        if !hemisphere.isEmpty {
            let h = hemisphere[0] & ~0x20
            let s: Double = h == positive ? 1 : h == negative ? -1 : 0
            if s == 0 || (sign != 0 && s != sign) {
                return .failure(Note(kind: .invalidCoordinate, detail: "\(what) hemisphere '\(TextValue.shown(hemisphere))'"))
            }
            sign = s
        }
        return .success(sign == 0 ? v : sign * abs(v))
    }

    /// `t` read as a plain decimal number when it is one: starting with a digit, sign or point
    /// and ending with a digit (so no hemisphere letter, unit or degree sign), without a decimal
    /// comma, and finite. It is then what the general readers (``coordinate(_:hemisphere:positive:negative:what:)``,
    /// ``measure(_:nonNegative:factor:)``) read too, without their unit and letter handling; nil
    /// leaves the text to them.
    @inline(__always) private func plainNumber(_ t: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !decimalComma, let first = t.first, let last = t.last, last &- UInt8(ascii: "0") < 10,
            first &- UInt8(ascii: "0") < 10 || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        else { return nil }
        guard let v = DecimalParser.parseDouble(t), v.isFinite else { return nil }
        return v
    }

    /// Reads ``row``'s time from the time and date columns (ISO 8601, epoch numbers, or a date
    /// plus a time of day), or notes why it is unreadable.
    private mutating func readTime() {
        let hasTime = columns[.time] != nil, hasDate = columns[.date] != nil
        guard hasTime || hasDate else { return }
        let t = text(.time), d = text(.date)
        if t.isEmpty && d.isEmpty { return }
        var parsed: (timestamp: Timestamp, hadZone: Bool)?
        if !t.isEmpty && d.isEmpty && TextTime.isEpochNumber(t) {
            if let (counted, unit) = TextTime.epoch(t, unit: TextTime.EpochUnit(hint: units[.time])), let ts = epochOrigin.unixTime(counted)
            {
                row.values.time = ts
                if unit != statedEpochUnit {
                    checker.diagnostics.assume("epoch times in \(unit.rawValue)")
                    statedEpochUnit = unit
                }
                return
            }
        } else if let whole = Timestamp.parseISO8601(t) {
            // The usual case, read straight from the field: a complete ISO 8601 time reads the
            // same through ``composedTime(_:date:hasTime:)``.
            parsed = whole
        } else {
            parsed = composedTime(t, date: d, hasTime: hasTime)
        }
        if let parsed {
            var ts = parsed.timestamp
            var rowOffset: Int?
            if !parsed.hadZone && columns[.utcOffset] != nil {
                let o = text(.utcOffset)
                if !o.isEmpty {
                    if let seconds = utcOffsetSeconds(o) {
                        rowOffset = seconds
                    } else {
                        row.notes.append(Note(kind: .invalidValue, detail: "UTC offset '\(TextValue.shown(o))'"))
                    }
                }
            }
            if !parsed.hadZone && !headerSaysUTC {
                if let offset = rowOffset ?? options.zonelessUTCOffset {
                    guard let shifted = ts.adding(seconds: -offset) else {
                        row.timeUnreadable = true
                        row.notes.append(
                            Note(kind: .invalidTime, detail: "'\(TextValue.shown(t))' shifted by the UTC offset leaves 1677–2262"))
                        return
                    }
                    ts = shifted
                } else if !zonelessAssumed {
                    checker.diagnostics.assume("CSV times without a zone were read as UTC")
                    zonelessAssumed = true
                }
            }
            row.values.time = ts
            return
        }
        row.timeUnreadable = true
        var shown = t.isEmpty ? "" : "'\(TextValue.shown(t))'"
        if !d.isEmpty { shown = "date '\(TextValue.shown(d))'" + (t.isEmpty ? "" : " time " + shown) }
        if hasDate && d.isEmpty && !t.isEmpty && !TextTime.isEpochNumber(t) { shown += " (no date)" }
        if hasTime && t.isEmpty { shown += " (no time of day)" }
        row.notes.append(Note(kind: .invalidTime, detail: shown))
    }

    /// A time composed through ``TextTime``: the time field as a date and time, else the date
    /// field plus the time field as a time of day (the date field alone without a time column).
    /// Nil when unreadable.
    private mutating func composedTime(_ t: UnsafeBufferPointer<UInt8>, date d: UnsafeBufferPointer<UInt8>, hasTime: Bool) -> (
        timestamp: Timestamp, hadZone: Bool
    )? {
        iso.removeAll(keepingCapacity: true)
        var ok = false
        if !t.isEmpty {
            ok = TextTime.appendDateTime(t, to: &iso)
            if !ok && !d.isEmpty {
                iso.removeAll(keepingCapacity: true)
                ok = TextTime.appendDate(d, to: &iso)
                if !ok, let date = sixDigitDate(d) {
                    iso = date
                    ok = true
                }
                if ok {
                    iso.append(UInt8(ascii: "T"))
                    ok = TextTime.appendTimeOfDay(t, to: &iso)
                }
            }
        } else {
            ok = !hasTime && TextTime.appendDateTime(d, to: &iso)
        }
        return ok ? TextTime.parse(iso) : nil
    }

    /// A number with an optional unit; `factor` maps the unit (the value's, else the header's)
    /// to SI. Notes unreadable values in ``row``.
    private mutating func measure(_ field: CSVField, nonNegative: Bool, factor: (String) -> Double?) -> Double? {
        let t = text(field)
        guard !t.isEmpty else { return nil }
        // A plain number with no unit in the header: every factor is 1 for the unit "".
        if units[field] == nil, let v = plainNumber(t), !nonNegative || v >= 0 { return v }
        guard let (v, valueUnit) = TextValue.numberWithUnit(t, decimalComma: decimalComma) else {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) \(TextValue.notANumber(t))"))
            return nil
        }
        let unit = valueUnit.isEmpty ? (units[field] ?? "") : valueUnit
        guard let f = factor(unit) else {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) '\(TextValue.shown(t))': unknown unit '\(unit)'"))
            return nil
        }
        if nonNegative && v < 0 {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) \(v) is negative"))
            return nil
        }
        guard (v * f).isFinite else {
            row.notes.append(Note(kind: .invalidValue, detail: "\(field.label) '\(TextValue.shown(t))' is out of range"))
            return nil
        }
        return v * f
    }

    /// Reads ``row``'s other values (elevation, accuracies, speed, course, dops, satellites,
    /// fix, texts), noting unreadable ones.
    private mutating func readValues() {
        let length: (String) -> Double? = { TextValue.metres(per: $0) }
        let plain: (String) -> Double? = { $0.isEmpty ? 1 : nil }
        let degrees: (String) -> Double? = {
            switch $0 {
            case "", "deg", "degrees", "°": 1
            default: nil
            }
        }
        if columns[.elevation] != nil {
            let v = measure(.elevation, nonNegative: false, factor: length)
            row.values.elevation = v
        }
        if columns[.accuracy] != nil {
            let v = measure(.accuracy, nonNegative: true, factor: length)
            row.values.horizontalAccuracy = v
        }
        if columns[.verticalAccuracy] != nil {
            let v = measure(.verticalAccuracy, nonNegative: true, factor: length)
            row.values.verticalAccuracy = v
        }
        if columns[.speed] != nil {
            let v = measure(.speed, nonNegative: true, factor: { TextValue.metresPerSecond(per: $0) })
            row.values.speed = v
        }
        if columns[.course] != nil, let c = measure(.course, nonNegative: false, factor: degrees) {
            if ValueRules.isCourse(c) {
                row.values.course = c
            } else {
                row.notes.append(Note(kind: .invalidValue, detail: "course \(c) outside [0, 360]"))
            }
        }
        if columns[.hdop] != nil {
            let v = measure(.hdop, nonNegative: true, factor: plain)
            row.values.hdop = v
        }
        if columns[.vdop] != nil {
            let v = measure(.vdop, nonNegative: true, factor: plain)
            row.values.vdop = v
        }
        if columns[.pdop] != nil {
            let v = measure(.pdop, nonNegative: true, factor: plain)
            row.values.pdop = v
        }
        if columns[.satellites] != nil {
            let t = text(.satellites)
            if !t.isEmpty {
                if let n = TextValue.leadingCount(t), n < 1000 {
                    row.values.satellites = n
                } else {
                    row.notes.append(Note(kind: .invalidValue, detail: "satellites '\(TextValue.shown(t))'"))
                }
            }
        }
        if columns[.fixType] != nil {
            let t = text(.fixType)
            if !t.isEmpty {
                if let f = FixType(rawValue: TextValue.string(t).lowercased()) {
                    row.values.fixType = f
                } else {
                    row.notes.append(Note(kind: .invalidValue, detail: "fix '\(TextValue.shown(t))' (expected none, 2d, 3d, dgps or pps)"))
                }
            }
        }
        if columns[.name] != nil || columns[.role] != nil || columns[.state] != nil {
            row.values.setLabels(
                name: columns[.name] != nil ? textValue(.name) : nil,
                role: columns[.role] != nil ? textValue(.role) : nil,
                state: columns[.state] != nil ? textValue(.state) : nil)
        }
    }

    /// A text field's value; nil when empty.
    private func textValue(_ field: CSVField) -> String? {
        let t = text(field)
        return t.isEmpty ? nil : TextValue.string(t)
    }
}
