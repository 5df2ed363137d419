import TraceDomain
import TraceGeodesy

/// Reads NMEA 0183 logs (`.nmea`, `.nma`), streamed in bounded memory (the 1 MiB window plus one
/// line, one epoch being assembled and at most ``maximumUndatedEpochs`` epochs waiting for a
/// date).
///
/// Sentences `$ttRMC`, `$ttGGA`, `$ttGLL`, `$ttGSA`, `$ttGST` and `$ttZDA` from any talker `tt`
/// (GP, GN, GL, GA, BD, QZ, …) are read; every other sentence (GSV, VTG, TXT, proprietary `$P…`)
/// is skipped and counted in one assumption at the end ("skipped 10334 other sentences (5178
/// GPGSV, …)"). The sentences of one epoch (the same `hhmmss.ss`; a sentence with an empty time
/// joins the epoch in progress unless that already has its type) become ONE fix:
/// - position from RMC (status `A`, mode not `N`), else from GGA (quality 1-5), else from GLL
///   (status `A`, mode not `N`); `ddmm.mmmm` and its hemisphere to degrees, rounded once
///   (``NMEAFields/coordinate(_:hemisphere:latitude:)``);
/// - time: the epoch's time of day, UTC, on a date from RMC (`ddmmyy`, years 80-99 = 19xx, 00-79
///   = 20xx), from a ZDA (`dd,mm,yyyy`; of the epoch when its time is the epoch's, else a date on
///   its own for its time of day), or from ``ReadOptions/date`` (`--date`) for the fixes before
///   any date in the file. An epoch without a date takes the last one's, the next day when its
///   time of day is more than 12 h before the last one's (midnight rollover, stated as an
///   assumption). Epochs before the first date wait for it (up to ``maximumUndatedEpochs``, about
///   11 MB) and are then dated back from it, latest first, a day earlier at each UTC midnight
///   their times of day cross; when none comes in time their fixes get no time, each an
///   ``ProblemKind/invalidTime`` problem ("without a date"), also stated as an assumption with
///   the advice to give `--date` (``Diagnostics/timeAdvice``): a date is never invented. Which
///   sentences gave the positions and the dates is said in ``Diagnostics/sources`` (``sourcesText``),
///   and fixes dated back in one assumption;
/// - elevation (m, above mean sea level), satellites and HDOP from GGA; PDOP, VDOP (and HDOP when
///   GGA has none) and the 2-D/3-D mode from GSA; DGPS/PPS fix kinds from GGA's quality;
///   horizontal accuracy √(σlat² + σlon²) and vertical accuracy σalt (m) from GST; speed from
///   RMC's knots (× 1852 / 3600 to m/s) and course from RMC.
/// GSA has no time: its DOPs go to the epoch in progress, or, when the file's first GSA came
/// before any timed sentence (receivers that send GSA ahead of RMC), to the next epoch; which
/// rule was used is stated as an assumption.
///
/// Epochs without a fix (RMC or GLL status `V`, GGA quality 0 or 6-8, empty fields) are not
/// points; they are counted in one assumption ("314 epochs without a fix"). A ZDA without a date
/// (empty fields, as some marine loggers write) is counted in the sources' assumption. A sentence whose `*hh` checksum does
/// not match is ignored and counted (``ProblemKind/badChecksum``; a ``TraceReadError`` under
/// ``ProblemPolicy/fail``); a sentence without a checksum is accepted and counted in an assumption.
/// Lines: `#` comments and blank lines are skipped, CRLF and LF may mix, bytes before the line's
/// last `$` are ignored (and counted). Items: one ``TraceItem/trackStart(name:)`` and one segment
/// before the first point; time order goes through the shared checks (times going backwards are
/// counted, not reordered).
///
/// Failures: a first non-comment, non-blank line that holds no `$` sentence is a
/// ``TraceReadError`` (the file is not NMEA); a later unreadable line (no `$`, no address, a
/// truncated RMC/GGA/GLL/GSA/GST/ZDA) is skipped and stated as an assumption, or is a ``TraceReadError``
/// under ``ProblemPolicy/fail``.
public struct NMEAReader: TraceReader {
    /// Always ``TraceFormat/nmea``.
    public let format = TraceFormat.nmea
    /// The most epochs held while waiting for the first date (RMC or ZDA).
    public static let maximumUndatedEpochs = 16_384
    /// Nanoseconds in 12 hours: the midnight-rollover threshold.
    static let halfDay: Int64 = 12 * 3_600 * 1_000_000_000

    private var scanner: RowScanner
    package var checker: PointChecker
    private var sentence = NMEASentence()
    private var finished = false
    private var sentencesRead = 0
    private var pendingStart = true
    private var queue = ItemQueue()

    /// The epoch being assembled (meaningful while `open`).
    private var epoch = NMEAEpoch(line: 0, timeOfDay: nil)
    private var open = false
    /// GSA: whether DOPs go to the next epoch (decided at the first GSA), and those held for it.
    private var dopsLead: Bool?
    private var heldDOP: NMEADOP?

    /// The last date and time of day given to a fix.
    private var anchorDay = 0
    private var anchorTime: Int64 = 0
    private var dated = false
    /// Fix epochs waiting for the first date, and whether waiting was given up.
    private var undated: [NMEAEpoch] = []
    private var undatedGivenUp = false

    /// `--date` (``ReadOptions/date``).
    private let givenDate: Int?
    /// The source of the date the fixes now take (the last anchor's).
    private var anchorSource = DateSource.rmc
    /// The first date: its day, source and line.
    private var firstDate: (day: Int, source: DateSource, line: Int)?
    /// Fixes dated by each source (``DateSource`` order), held fixes dated back, the midnights
    /// crossed going back, ZDAs without a date.
    private var datedFixes = ThreeCounts()
    private var backFilled = 0
    private var backRollovers = 0
    private var zdaWithoutDate = 0
    /// Fixes whose position came from RMC, GGA and GLL.
    private var positionFixes = ThreeCounts()

    private var voidEpochs = 0
    private var withoutDate = 0
    private var rollovers = 0
    private var unchecked = 0
    private var junkLines = 0
    private var skipped = 0
    private var skippedTypes: [(key: UInt64, length: Int, count: Int)] = []
    private var unreadable = 0
    private var firstUnreadable = ""

    /// Problems and assumptions so far; complete once ``next()`` has returned nil.
    public var diagnostics: Diagnostics { checker.diagnostics }

    init(source: ByteSource, options: ReadOptions) {
        scanner = RowScanner(source: source, delimiter: nil, quotes: false)
        checker = PointChecker(file: source.name, options: options)
        givenDate = options.date
    }

    /// Reads an NMEA log from memory (tests, small inputs).
    public init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = ReadOptions()) {
        self.init(source: ByteSource(bytes: bytes, name: name), options: options)
    }

    /// Opens an NMEA log ("-" for standard input).
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
            guard try scanner.nextRow() else {
                try finish()
                continue
            }
            try readLine()
        }
    }

    // MARK: - Lines

    private mutating func readLine() throws(TraceReadError) {
        let line = scanner.field(0)
        if line.first == UInt8(ascii: "#") { return }
        if let reason = sentence.parse(line, quoting: sentencesRead > 0) { return try unreadableLine(reason) }
        if sentencesRead == 0, !TextValue.isLetter(line[sentence.dollar + 1]) {
            // Before the first sentence the file may be anything: its line is not quoted.
            return try unreadableLine("the line's '$' is not followed by a talker's letters")
        }
        sentencesRead += 1
        switch sentence.checksum {
        case .valid: break
        case .absent: unchecked += 1
        case .bad(let written, let computed): return try badChecksum(written: written, computed: computed)
        }
        if sentence.hasLeadingJunk { junkLines += 1 }
        switch sentence.kind {
        case .rmc: try readRMC(line)
        case .gga: try readGGA(line)
        case .gsa: try readGSA(line)
        case .gst: try readGST(line)
        case .gll: try readGLL(line)
        case .zda: try readZDA(line)
        case .other: countSkipped()
        }
    }

    /// Field `i` of the current sentence (empty when it has fewer).
    @inline(__always) private func field(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard i < sentence.count else { return UnsafeBufferPointer(rebasing: line[0..<0]) }
        return UnsafeBufferPointer(rebasing: line[sentence.fields[i]])
    }

    /// A line that holds no usable sentence: fatal for the first one or under the fail policy.
    private mutating func unreadableLine(_ reason: String) throws(TraceReadError) {
        if sentencesRead == 0 {
            throw scanner.error("not an NMEA 0183 file: \(reason) (expected '$ttSSS,…*hh' sentences)")
        }
        if checker.policy == .fail { throw scanner.error(reason) }
        unreadable += 1
        if unreadable == 1 { firstUnreadable = "line \(scanner.line): \(reason)" }
    }

    /// A sentence shorter than its type's fields: unreadable (a cut line).
    private mutating func truncated(_ needed: Int) throws(TraceReadError) {
        try unreadableLine("\(sentence.addressText) has \(sentence.count - 1) fields, not \(needed - 1) (truncated?)")
    }

    private mutating func badChecksum(written: String, computed: UInt8) throws(TraceReadError) {
        let hex = Array("0123456789ABCDEF")
        func detail() -> String { "\(sentence.addressText) \(written), computed *\(hex[Int(computed >> 4)])\(hex[Int(computed & 15)])" }
        if checker.policy == .fail { throw scanner.error("\(ProblemKind.badChecksum.rawValue): \(detail())") }
        let keep = checker.diagnostics.wantsExample(of: .badChecksum)
        checker.diagnostics.record(Problem(kind: .badChecksum, line: keep ? scanner.line : 0, detail: keep ? detail() : ""))
    }

    private mutating func countSkipped() {
        skipped += 1
        let key = sentence.addressKey
        if let i = skippedTypes.firstIndex(where: { $0.key == key }) {
            skippedTypes[i].count += 1
        } else if skippedTypes.count < 16 {
            skippedTypes.append((key, sentence.addressLength, 1))
        }
    }

    // MARK: - Sentences

    /// Joins the epoch of a sentence of `part` with `time`: the epoch in progress when the times
    /// match (or one is empty and the epoch lacks `part`), else a new one after the current is
    /// finished. False when the epoch already has `part` (a second talker's copy: ignored).
    private mutating func join(_ part: NMEAEpoch.Parts, time: NMEAFields.Value<Int64>) throws(TraceReadError) -> Bool {
        let t = time.value
        if open {
            let same: Bool
            if let t, let et = epoch.timeOfDay { same = t == et } else { same = !epoch.parts.contains(part) }
            if same {
                if epoch.parts.contains(part) { return false }
                if epoch.timeOfDay == nil { epoch.timeOfDay = t }
                epoch.parts.insert(part)
                _ = epoch.take(time, kind: .invalidTime, line: scanner.line)
                return true
            }
            try finishEpoch()
        }
        epoch = NMEAEpoch(line: scanner.line, timeOfDay: t)
        epoch.parts = part
        open = true
        _ = epoch.take(time, kind: .invalidTime, line: scanner.line)
        if dopsLead == true, let held = heldDOP {
            epoch.dop = held
            epoch.parts.insert(.gsa)
            heldDOP = nil
        }
        return true
    }

    private mutating func readRMC(_ line: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        guard sentence.count >= 10 else { return try truncated(10) }
        guard try join(.rmc, time: NMEAFields.timeOfDay(field(line, 1))) else { return }
        let l = scanner.line
        let status = field(line, 2), mode = field(line, 12)
        epoch.rmcFix = status.count == 1 && status[0] == UInt8(ascii: "A") && !(mode.count == 1 && mode[0] == UInt8(ascii: "N"))
        epoch.rmcLine = l
        epoch.rmcLatitude = NMEAFields.coordinate(field(line, 3), hemisphere: field(line, 4), latitude: true)
        epoch.rmcLongitude = NMEAFields.coordinate(field(line, 5), hemisphere: field(line, 6), latitude: false)
        epoch.speed = epoch.take(NMEAFields.number(field(line, 7), "speed (kn)"), line: l).map { $0 * 1852 / 3600 }
        if let c = epoch.take(NMEAFields.number(field(line, 8), "course"), line: l) {
            if c <= 360 {
                epoch.course = c
            } else {
                epoch.problems.append(Problem(kind: .invalidValue, line: l, detail: "course \(c) outside [0, 360]"))
            }
        }
        if let date = epoch.take(NMEAFields.date(field(line, 9)), kind: .invalidTime, line: l) {
            epoch.date = date
            epoch.dateFromZDA = false
            epoch.dateLine = l
        }
    }

    private mutating func readGGA(_ line: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        guard sentence.count >= 10 else { return try truncated(10) }
        guard try join(.gga, time: NMEAFields.timeOfDay(field(line, 1))) else { return }
        let l = scanner.line
        let quality = NMEAFields.integer(field(line, 6), "fix quality").value ?? 0
        epoch.ggaQuality = quality
        epoch.ggaFix = (1...5).contains(quality)
        epoch.ggaLine = l
        epoch.ggaLatitude = NMEAFields.coordinate(field(line, 2), hemisphere: field(line, 3), latitude: true)
        epoch.ggaLongitude = NMEAFields.coordinate(field(line, 4), hemisphere: field(line, 5), latitude: false)
        epoch.satellites = epoch.take(NMEAFields.integer(field(line, 7), "satellites"), line: l)
        epoch.ggaHDOP = epoch.take(NMEAFields.number(field(line, 8), "HDOP"), line: l)
        if let altitude = epoch.take(NMEAFields.number(field(line, 9), "altitude", signed: true), line: l) {
            let unit = field(line, 10)
            if unit.isEmpty || (unit.count == 1 && unit[0] == UInt8(ascii: "M")) {
                epoch.elevation = altitude
            } else {
                epoch.problems.append(Problem(kind: .invalidValue, line: l, detail: "altitude unit '\(TextValue.shown(unit))' is not M"))
            }
        }
    }

    /// `$ttGLL,lat,N,lon,E,hhmmss.ss,status,mode`: a position and a time of day; status `A` (and a
    /// mode other than `N`) is a fix, `V` is not (counted with the epochs without a fix). The mode
    /// field (NMEA 2.3) may be absent.
    private mutating func readGLL(_ line: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        guard sentence.count >= 7 else { return try truncated(7) }
        guard try join(.gll, time: NMEAFields.timeOfDay(field(line, 5))) else { return }
        let status = field(line, 6), mode = field(line, 7)
        epoch.gllFix = status.count == 1 && status[0] == UInt8(ascii: "A") && !(mode.count == 1 && mode[0] == UInt8(ascii: "N"))
        epoch.gllLine = scanner.line
        epoch.gllLatitude = NMEAFields.coordinate(field(line, 1), hemisphere: field(line, 2), latitude: true)
        epoch.gllLongitude = NMEAFields.coordinate(field(line, 3), hemisphere: field(line, 4), latitude: false)
    }

    /// `$ttZDA,hhmmss.ss,dd,mm,yyyy,zh,zm`: the date of a time of day (UTC; the local zone fields
    /// are not needed). Of the epoch in progress when its time is the epoch's; otherwise a date on
    /// its own, which dates the fixes held for a date before it and the fixes after it.
    /// A ZDA whose date fields are empty (some marine loggers) gives nothing and is counted.
    private mutating func readZDA(_ line: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        guard sentence.count >= 5 else { return try truncated(5) }
        let time = NMEAFields.timeOfDay(field(line, 1))
        let day = NMEAFields.zdaDate(day: field(line, 2), month: field(line, 3), year: field(line, 4))
        switch (time, day) {
        case (.value(let t), .value(let d)):
            if open, epoch.timeOfDay == t {
                if epoch.date == nil {
                    epoch.date = d
                    epoch.dateFromZDA = true
                    epoch.dateLine = scanner.line
                }
                return
            }
            if open { try finishEpoch() }
            try anchor(day: d, timeOfDay: t, from: .zda, line: scanner.line)
        case (.problem(let detail), _), (_, .problem(let detail)):
            try unreadableLine("ZDA: \(detail)")
        default:
            zdaWithoutDate += 1
        }
    }

    private mutating func readGSA(_ line: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        guard sentence.count >= 18 else { return try truncated(18) }
        let l = scanner.line
        var dop = NMEADOP()
        func take(_ v: NMEAFields.Value<Double>) -> Double? {
            if case .problem(let d) = v { dop.problems.append(Problem(kind: .invalidValue, line: l, detail: d)) }
            return v.value
        }
        dop.mode = NMEAFields.integer(field(line, 2), "mode").value
        dop.pdop = take(NMEAFields.number(field(line, 15), "PDOP"))
        dop.hdop = take(NMEAFields.number(field(line, 16), "HDOP"))
        dop.vdop = take(NMEAFields.number(field(line, 17), "VDOP"))
        if dopsLead == nil {
            dopsLead = !open
            checker.diagnostics.assume(
                dopsLead!
                    ? "GSA has no time: its DOPs were taken for the epoch after it (the first GSA came before any timed sentence)"
                    : "GSA has no time: its DOPs were taken for the epoch in progress (the first GSA followed a timed sentence)")
        }
        if dopsLead! {
            if heldDOP == nil || !heldDOP!.hasValues { heldDOP = dop }
        } else if open && (!epoch.parts.contains(.gsa) || !epoch.dop.hasValues) {
            epoch.dop = dop
            epoch.parts.insert(.gsa)
        }
    }

    private mutating func readGST(_ line: UnsafeBufferPointer<UInt8>) throws(TraceReadError) {
        guard sentence.count >= 9 else { return try truncated(9) }
        guard try join(.gst, time: NMEAFields.timeOfDay(field(line, 1))) else { return }
        let l = scanner.line
        let latitude = epoch.take(NMEAFields.number(field(line, 6), "latitude error"), line: l)
        let longitude = epoch.take(NMEAFields.number(field(line, 7), "longitude error"), line: l)
        if let latitude, let longitude { epoch.horizontalAccuracy = (latitude * latitude + longitude * longitude).squareRoot() }
        epoch.verticalAccuracy = epoch.take(NMEAFields.number(field(line, 8), "altitude error"), line: l)
    }

    // MARK: - Epochs

    /// Finishes the epoch in progress: a fix (dated now, or held for a date), an epoch without a
    /// fix (counted), or nothing (GSA/GST alone).
    private mutating func finishEpoch() throws(TraceReadError) {
        open = false
        guard epoch.hasPositionSentence, epoch.hasFix else {
            // No fix, but a date for its time of day (a ZDA or an RMC of a void epoch) still dates
            // the fixes around it.
            if let day = epoch.date, let t = epoch.timeOfDay {
                try anchor(day: day, timeOfDay: t, from: epoch.dateFromZDA ? .zda : .rmc, line: epoch.dateLine)
            }
            if epoch.hasPositionSentence { voidEpochs += 1 }
            return
        }
        guard let t = epoch.timeOfDay else { return try emit(epoch, time: nil) }
        if !dated, epoch.date == nil, let day = givenDate {
            // --date: the first fix before any date in the file is on it.
            try anchor(day: day, timeOfDay: t, from: .option, line: 0)
        }
        if let day = epoch.date {
            try anchor(day: day, timeOfDay: t, from: epoch.dateFromZDA ? .zda : .rmc, line: epoch.dateLine)
            datedFixes[epoch.dateFromZDA ? DateSource.zda.rawValue : DateSource.rmc.rawValue] += 1
            try emit(epoch, day: day, timeOfDay: t)
        } else if dated {
            if t < anchorTime - NMEAReader.halfDay {
                anchorDay += 1
                rollovers += 1
            }
            anchorTime = t
            datedFixes[anchorSource.rawValue] += 1
            try emit(epoch, day: anchorDay, timeOfDay: t)
        } else if undatedGivenUp {
            try emit(epoch, time: nil, undated: true)
        } else {
            undated.append(epoch)
            if undated.count >= NMEAReader.maximumUndatedEpochs { try giveUpWaiting() }
        }
    }

    /// Where a fix's date came from.
    enum DateSource: Int {
        case rmc, zda, option
    }

    /// A date for `timeOfDay` (from an RMC, a ZDA or `--date`): the fixes held for a date are dated
    /// back from it (``releaseUndated(day:timeOfDay:)``), and the fixes after it take it, rolling
    /// over at midnight.
    private mutating func anchor(day: Int, timeOfDay: Int64, from source: DateSource, line: Int) throws(TraceReadError) {
        if !dated && !undated.isEmpty { try releaseUndated(day: day, timeOfDay: timeOfDay, from: source) }
        if !dated { firstDate = (day, source, line) }
        dated = true
        anchorDay = day
        anchorTime = timeOfDay
        anchorSource = source
    }

    /// Dates the held epochs back from the first date, latest first: each takes the date of the
    /// one after it, the day before when its time of day is more than 12 h after that one's (UTC
    /// midnight lies between them), so a log held over several midnights is dated day by day.
    private mutating func releaseUndated(day: Int, timeOfDay: Int64, from source: DateSource) throws(TraceReadError) {
        let held = undated
        undated = []
        var days = [Int](repeating: day, count: held.count)
        var d = day, later = timeOfDay
        for i in held.indices.reversed() {
            let t = held[i].timeOfDay!
            if t > later + NMEAReader.halfDay {
                d -= 1
                backRollovers += 1
            }
            days[i] = d
            later = t
        }
        backFilled += held.count
        datedFixes[source.rawValue] += held.count
        for (e, d) in zip(held, days) { try emit(e, day: d, timeOfDay: e.timeOfDay!) }
    }

    /// No date came within the bound (or the file ended): the held fixes get no time.
    private mutating func giveUpWaiting() throws(TraceReadError) {
        undatedGivenUp = true
        let held = undated
        undated = []
        for e in held { try emit(e, time: nil, undated: true) }
    }

    /// Checks an epoch with a fix and queues it (with the track and segment starts before the
    /// first).
    /// Emits `e` at `timeOfDay` on `day` (days since 1970-01-01), or without a time, as an
    /// ``ProblemKind/invalidTime`` problem, when that instant is beyond what a timestamp holds
    /// (midnight rollovers counted past 2262).
    private mutating func emit(_ e: NMEAEpoch, day: Int, timeOfDay: Int64) throws(TraceReadError) {
        let (scaled, o1) = Int64(day).multipliedReportingOverflow(by: NMEAFields.day)
        let (ns, o2) = scaled.addingReportingOverflow(timeOfDay)
        guard !o1 && !o2 else {
            var late = e
            late.problems.append(Problem(kind: .invalidTime, line: e.line, detail: "day \(day) after 1970 is beyond 2262"))
            return try emit(late, time: nil)
        }
        try emit(e, time: Timestamp(nanoseconds: ns))
    }

    private mutating func emit(_ e: NMEAEpoch, time: Timestamp?, undated: Bool = false) throws(TraceReadError) {
        var coordinate: Coordinate?
        // The position: RMC's when it has a fix and both values, else GGA's; when neither has
        // both, the problem of the first that claims a fix.
        // Then GLL's, when it is the only one with a fix or the only one with both values.
        let rmcUsable = e.rmcFix && e.rmcLatitude.value != nil && e.rmcLongitude.value != nil
        let ggaUsable = e.ggaFix && e.ggaLatitude.value != nil && e.ggaLongitude.value != nil
        let gllUsable = e.gllFix && e.gllLatitude.value != nil && e.gllLongitude.value != nil
        let useRMC = rmcUsable || (!ggaUsable && !gllUsable && e.rmcFix)
        let useGGA = !useRMC && (ggaUsable || (!gllUsable && e.ggaFix))
        let (latitude, longitude, line) =
            useRMC
            ? (e.rmcLatitude, e.rmcLongitude, e.rmcLine)
            : useGGA ? (e.ggaLatitude, e.ggaLongitude, e.ggaLine) : (e.gllLatitude, e.gllLongitude, e.gllLine)
        positionFixes[useRMC ? 0 : useGGA ? 1 : 2] += 1
        if case .problem(let d) = latitude {
            try checker.note(.invalidCoordinate, line: line, d)
        } else if case .problem(let d) = longitude {
            try checker.note(.invalidCoordinate, line: line, d)
        } else {
            coordinate = try checker.coordinate(latitude: latitude.value, longitude: longitude.value, line: line)
        }
        for p in e.problems { try checker.note(p.kind, line: p.line, p.detail) }
        for p in e.dop.problems { try checker.note(p.kind, line: p.line, p.detail) }
        if undated {
            withoutDate += 1
            try checker.note(
                .invalidTime, line: e.line, "time of day \(NMEAReader.clock(e.timeOfDay!)) without a date (no RMC or ZDA date)")
        }
        var fix: Fix?
        if let coordinate {
            var n = Fix.Numbers(coordinate: coordinate)
            n.time = time
            n.elevation = e.elevation
            n.hdop = e.ggaHDOP ?? e.dop.hdop
            n.pdop = e.dop.pdop
            n.vdop = e.dop.vdop
            n.satellites = e.satellites
            n.speed = e.speed
            n.course = e.course
            n.horizontalAccuracy = e.horizontalAccuracy
            n.verticalAccuracy = e.verticalAccuracy
            n.fixType = e.fixType
            fix = Fix(n)
        }
        guard let f = try checker.finish(fix, line: e.line, trackPoint: true) else { return }
        if pendingStart {
            queue.push(.trackStart(name: nil))
            queue.push(.segmentStart)
            pendingStart = false
        }
        queue.push(.trackPoint(f))
    }

    /// What to do about fixes without a date, in messages.
    public static let dateAdvice = "give their date with --date YYYY-MM-DD"

    /// "positions from GGA (500 fixes); dates from ZDA (500), the first (2024-05-01) at line 502;
    /// times of day from the position sentences": which sentences gave the fixes, their dates and
    /// times (``Diagnostics/sources``, shown by `info`); nil without a fix.
    var sourcesText: String? {
        let names = ["RMC", "GGA", "GLL"]
        let positions = zip(names, positionFixes.all).filter { $0.1 > 0 }.map { "\($0.0) (\($0.1) \($0.1 == 1 ? "fix" : "fixes"))" }
        guard !positions.isEmpty else { return nil }
        var dates: String
        if let first = firstDate {
            let sources = zip(["RMC", "ZDA", "--date"], datedFixes.all).filter { $0.1 > 0 }.map { "\($0.0) (\($0.1))" }
            let origin = first.source == .option ? "given with --date" : "at line \(first.line)"
            dates =
                sources.isEmpty
                ? "the first date (\(NMEAReader.dateText(first.day))) \(origin) came too late to date a fix"
                : "dates from \(sources.joined(separator: ", ")), the first (\(NMEAReader.dateText(first.day))) \(origin)"
        } else {
            dates = "no date in the file (no RMC date, no ZDA date)"
        }
        if zdaWithoutDate > 0 { dates += ", \(zdaWithoutDate) ZDA without a date" }
        return "positions from \(positions.joined(separator: ", ")); \(dates); times of day from the position sentences"
    }

    /// `YYYY-MM-DD` of days since 1970-01-01.
    public static func dateText(_ days: Int) -> String {
        let (y, m, d) = Timestamp.civilFromDays(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))"
    }

    /// `hh:mm:ss` of a time of day, for messages.
    static func clock(_ t: Int64) -> String {
        let s = t / 1_000_000_000
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
    }

    // MARK: - End

    private mutating func finish() throws(TraceReadError) {
        finished = true
        if open { try finishEpoch() }
        if !undated.isEmpty { try giveUpWaiting() }
        try checker.finishInput()
        let d = { (n: Int, one: String, many: String) in n == 1 ? one : many }
        checker.diagnostics.sources = sourcesText
        if backFilled > 0, let first = firstDate {
            checker.diagnostics.assume(
                "\(backFilled) \(d(backFilled, "fix", "fixes")) before the first date (\(NMEAReader.dateText(first.day)), line \(first.line)) \(d(backFilled, "was", "were")) dated back from it"
                    + (backRollovers > 0 ? ", across \(backRollovers) UTC \(d(backRollovers, "midnight", "midnights"))" : ""))
        }
        if voidEpochs > 0 {
            checker.diagnostics.assume(
                "\(voidEpochs) \(d(voidEpochs, "epoch", "epochs")) without a fix (RMC or GLL status V, GGA quality 0 or 6-8) \(d(voidEpochs, "was", "were")) not read as points"
            )
        }
        if withoutDate > 0 {
            checker.diagnostics.assume(
                "\(withoutDate) \(d(withoutDate, "fix has", "fixes have")) no time: no RMC or ZDA gave a date for \(d(withoutDate, "its", "their")) times of day"
                    + (undatedGivenUp && firstDate != nil ? " within \(NMEAReader.maximumUndatedEpochs) fixes" : "")
                    + "; \(NMEAReader.dateAdvice)"
            )
            checker.diagnostics.timeAdvice = NMEAReader.dateAdvice
        }
        if rollovers > 0 {
            checker.diagnostics.assume(
                "GGA/GST times of day earlier than the last one by over 12 h were read as the next day (\(rollovers) midnight \(d(rollovers, "rollover", "rollovers")))"
            )
        }
        if unchecked > 0 {
            checker.diagnostics.assume("\(unchecked) \(d(unchecked, "sentence", "sentences")) without a checksum were read unchecked")
        }
        if skipped > 0 {
            let top = skippedTypes.sorted { $0.count > $1.count }
            var kinds = top.prefix(6).map { "\($0.count) \(NMEASentence.addressText($0.key, length: $0.length))" }
            let rest = skipped - top.prefix(6).reduce(0) { $0 + $1.count }
            if rest > 0 { kinds.append("\(rest) of other types") }
            checker.diagnostics.assume(
                "skipped \(skipped) other \(d(skipped, "sentence", "sentences")) (\(kinds.joined(separator: ", ")))")
        }
        if junkLines > 0 {
            checker.diagnostics.assume("ignored the bytes before '$' on \(junkLines) \(d(junkLines, "line", "lines"))")
        }
        if unreadable > 0 {
            checker.diagnostics.assume("skipped \(unreadable) unreadable \(d(unreadable, "line", "lines")) (first: \(firstUnreadable))")
        }
    }
}

extension NMEAReader: CheckedTraceReader {}

/// Three counts kept inline (no array to check and grow per fix): the NMEA reader's tallies of
/// fixes by position sentence and by date source.
struct ThreeCounts {
    private var a = 0, b = 0, c = 0

    subscript(i: Int) -> Int {
        get { i == 0 ? a : i == 1 ? b : c }
        set {
            switch i {
            case 0: a = newValue
            case 1: b = newValue
            default: c = newValue
            }
        }
    }

    var all: [Int] { [a, b, c] }
}
