/// A per-point problem a reader found. None is hidden: each is counted in ``Diagnostics``.
public enum ProblemKind: String, CaseIterable, Hashable, Sendable, Comparable {
    /// The point has no latitude or longitude (it is dropped).
    case missingCoordinate = "missing coordinate"
    /// A latitude outside [-90, 90], a longitude beyond ±360° (within that, longitudes are
    /// normalised to (-180, 180]), or a coordinate that is not a finite number (dropped).
    case invalidCoordinate = "invalid coordinate"
    /// A record of a line-per-record format (NDJSON, OwnTracks .rec) that could not be read at all
    /// after the file's first record: not JSON, a truncated last line, or a number JSON does not
    /// allow or a double cannot hold (`NaN`, `1e400`, `0x1p3`). The point it may hold is dropped
    /// and counted, with the line and the reason.
    case unreadableRecord = "unreadable record"
    /// The point has no time (kept).
    case missingTime = "no time"
    /// The time could not be read (the point is kept without a time).
    case invalidTime = "unreadable time"
    /// The time is before 1970 or after 2100 (kept; the time is kept too).
    case implausibleTime = "time before 1970 or after 2100"
    /// The time is earlier than the previous point's in the same segment (kept).
    case timeWentBackwards = "time goes backwards"
    /// The time equals the previous point's in the same segment (kept).
    case duplicateTime = "duplicate time"
    /// An optional value (elevation, accuracy, speed, …) could not be read or is out of range
    /// (the point is kept without it).
    case invalidValue = "unreadable value"
    /// An NMEA sentence whose `*hh` checksum does not match its bytes (the sentence is ignored;
    /// its epoch's other sentences may still give the fix).
    case badChecksum = "bad checksum"
    /// A track point that jumps away from the fixes around it and back, faster than
    /// ``ReadOptions/maximumSpeed`` both ways while the fixes before and after it are within it
    /// (``ImpliedMotion``). Kept under `report`; dropped under `filter` (the default) and `skip`
    /// (by the stage ``openTrace`` puts over the reader).
    case speedSpike = "speed spike"
    /// A track point that jumps away faster than ``ReadOptions/maximumSpeed`` and does not come
    /// back: the track goes on from it (``ImpliedMotion``). Kept under every policy but `fail`;
    /// under `filter` (the default) and `skip` a new segment starts at it, so the jump is not a
    /// step of the track.
    case teleport = "teleport"
    /// The file ends before its document does (an app killed while recording, a copy cut short:
    /// mid-element, mid-attribute, mid-string, mid-number), after its GPX or KML root element or
    /// the kind of its JSON document was read. Counted once, at the line where the file ends; the
    /// detail says what the cut fell inside and how many incomplete points (the point element, or
    /// JSON element, the cut falls in: never complete) were dropped. Every complete point before
    /// the cut is kept under every policy but `fail`, which refuses the file as before
    /// (``TraceReadError/Category/truncated``).
    case truncated = "truncated file"

    /// Whether the point is dropped: only when it has no usable position.
    public var dropsPoint: Bool { self == .missingCoordinate || self == .invalidCoordinate || self == .unreadableRecord }

    public static func < (a: ProblemKind, b: ProblemKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One reported problem: where and what.
public struct Problem: Hashable, Sendable, CustomStringConvertible {
    public var kind: ProblemKind
    /// 1-based line of the point in the file.
    public var line: Int
    /// Details, e.g. "latitude 91.2".
    public var detail: String

    public var description: String { "line \(line): \(kind.rawValue)\(detail.isEmpty ? "" : ": " + detail)" }
}

/// What to do with a per-point problem.
///
/// A file cut off mid-write (``ProblemKind/truncated``) keeps every point completed before the
/// cut under `report`, `filter` and `skip` alike (a demanding user's recording cut by a killed
/// app is read, and the cut said); `fail` refuses it.
public enum ProblemPolicy: String, CaseIterable, Sendable {
    /// Keep what is usable: drop only points without a usable position; count every problem. Speed
    /// spikes and teleports are kept as they are, so a replay takes them as motion (the raw trace).
    case report
    /// As a phone's location stack would (the default): a speed spike is dropped and a teleport
    /// starts a new segment, so neither becomes a step of the track; every other problem as under
    /// `report`. Everything is counted.
    case filter
    /// Drop every point that has any problem; count them.
    case skip
    /// Stop at the first problem with an error naming it.
    case fail

    /// The default of every reader and command: ``filter``.
    public static let `default` = ProblemPolicy.filter

    /// Whether the motion check acts (``ImpliedMotion``): speed spikes dropped, a new segment at
    /// each teleport (``filter`` and ``skip``).
    public var actsOnMotion: Bool { self == .filter || self == .skip }

    /// What a reader did with the points that had a problem of `kind` under this policy, for
    /// reports: "dropped", "kept", "kept without the value", "kept without a time",
    /// "a new segment at each", "replayed as motion", "sentences ignored", "the points before the
    /// cut kept".
    public func treatment(of kind: ProblemKind) -> String {
        if kind.dropsPoint { return "dropped" }
        switch kind {
        case .speedSpike: return actsOnMotion ? "dropped" : "kept, replayed as motion"
        case .teleport: return actsOnMotion ? "a new segment at each" : "kept, replayed as motion"
        case .badChecksum: return "sentences ignored"
        case .truncated: return "the points before the cut kept"
        case _ where self == .skip: return "dropped"
        case .invalidValue: return "kept without the value"
        case .missingTime, .invalidTime: return "kept without a time"
        default: return "kept"
        }
    }
}

extension Diagnostics {
    /// Counts an unreadable record at `line` (``ProblemKind/unreadableRecord``): a point read and
    /// dropped, and the problem with its reason.
    mutating func unreadableRecord(line: Int, _ reason: String) {
        pointsRead += 1
        pointsDropped += 1
        record(Problem(kind: .unreadableRecord, line: line, detail: reason))
    }
}

/// The truth about what a reader could not take: problem counts, the first examples of each,
/// points dropped, and the assumptions it made (such as reading zone-less times as UTC).
public struct Diagnostics: Hashable, Sendable {
    /// How many of each problem.
    public private(set) var counts: [ProblemKind: Int] = [:]
    /// The first ``examplesPerKind`` problems of each kind, in file order.
    public private(set) var examples: [Problem] = []
    /// Points read (before any was dropped).
    public internal(set) var pointsRead = 0
    /// Points dropped because of a problem.
    public internal(set) var pointsDropped = 0
    /// Assumptions made, each stated once (e.g. "times without a zone were read as UTC").
    public private(set) var assumptions: [String] = []
    /// What would give the points without a time one, when the reader knows (e.g. "give their
    /// date with --date YYYY-MM-DD" for NMEA times of day without a date); said when nothing in a
    /// trip has a time.
    public internal(set) var timeAdvice: String?
    /// Which parts of the file gave the points' positions, dates and times, when the format has
    /// a choice (NMEA's sentence types): a fact about the file, not a problem or an assumption.
    public internal(set) var sources: String?

    /// How many examples of each kind are kept.
    public static let examplesPerKind = 5

    public init() {}

    /// Whether nothing was reported.
    public var isClean: Bool { counts.isEmpty && assumptions.isEmpty }

    /// Counts `problem`; keeps it as an example while fewer than ``examplesPerKind`` of its kind are kept.
    mutating func record(_ problem: Problem) {
        counts[problem.kind, default: 0] += 1
        // Line 0 marks a problem counted without an example (its kind had enough, or the same
        // point already gave one).
        if problem.line > 0 && examples.lazy.filter({ $0.kind == problem.kind }).count < Diagnostics.examplesPerKind {
            examples.append(problem)
        }
    }

    /// Whether another example of `kind` would be kept (callers compute line numbers only then).
    func wantsExample(of kind: ProblemKind) -> Bool {
        examples.lazy.filter { $0.kind == kind }.count < Diagnostics.examplesPerKind
    }

    /// Records an assumption once.
    public mutating func assume(_ text: String) {
        if !assumptions.contains(text) { assumptions.append(text) }
    }

    /// A short human summary, one line per problem kind and assumption; empty when clean.
    public var summaryLines: [String] {
        var lines: [String] = []
        for kind in counts.keys.sorted() {
            let first = examples.first { $0.kind == kind }
            lines.append(
                "\(counts[kind]!) × \(kind.rawValue)\(kind.dropsPoint ? " (dropped)" : "")"
                    + (first.map { ", first at line \($0.line)\($0.detail.isEmpty ? "" : " (\($0.detail))")" } ?? ""))
        }
        for a in assumptions { lines.append("assumed: \(a)") }
        return lines
    }
}

/// A fatal reading error: the file cannot be read as its format.
public struct TraceReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's name as given ("<stdin>" for standard input).
    public var file: String
    /// 1-based line and column (column in bytes; 0 when unknown).
    public var line: Int
    public var column: Int
    /// What was wrong or expected.
    public var message: String
    /// What kind of failure: the file could not be opened, its format could not be chosen, or
    /// its content is wrong (the default).
    public var category: Category

    /// Kinds of reading failure, for callers that map them to exit statuses.
    public enum Category: Hashable, Sendable {
        /// The file could not be opened (missing, a directory, no permission).
        case cannotOpen
        /// No format was named, and neither the path's extension nor the content's first bytes
        /// name one (``TraceFormat/choose(name:head:file:)``).
        case unknownFormat
        /// The format named is one TraceKit writes but does not read.
        case unreadableFormat
        /// The content is not of its format, or a per-point problem under the `fail` policy.
        case data
        /// The content ends before its document does (``ProblemKind/truncated``): the reader
        /// could not recover (the cut falls before a GPX or KML root element, or before the kind
        /// of a JSON document is known) or the policy is `fail`. Bad content, as ``data``.
        case truncated
        /// Reading failed (an I/O error from the system).
        case io
        /// The reading options do not fit the file (e.g. a CSV column mapping naming no column).
        case options
    }

    public init(file: String, line: Int, column: Int, message: String, category: Category = .data) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.category = category
    }

    /// The same error, saying the input ended before its document did (``Category/truncated``).
    var cut: TraceReadError {
        var e = self
        e.category = .truncated
        return e
    }

    public var description: String {
        if line == 0 { return "\(file): \(message)" }
        return column > 0 ? "\(file):\(line):\(column): \(message)" : "\(file):\(line): \(message)"
    }
}
