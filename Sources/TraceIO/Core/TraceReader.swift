/// A streaming reader of one trace file: items in file order, one at a time, in bounded memory.
///
/// A reader is one pass over one stream: its copies share the underlying file and buffers, so
/// keep and advance a single copy.
public protocol TraceReader {
    /// The format being read.
    var format: TraceFormat { get }
    /// The next item, or nil at the end of the file.
    /// - Throws: ``TraceReadError`` for a fatal problem (the file is not of its format, or a
    ///   per-point problem under ``ProblemPolicy/fail``).
    mutating func next() throws(TraceReadError) -> TraceItem?
    /// What was reported so far (complete once `next()` has returned nil).
    var diagnostics: Diagnostics { get }
    /// Reads the next items, at most `limit` (at least 1), into `batch`, which is emptied first:
    /// exactly the items (and diagnostics, and errors) that as many calls of ``next()`` would
    /// give, in columns (``FixBatch``). Returns how many it read: 0 at the end of the file. The
    /// two may be mixed. The default calls ``next()``; the GPX and CSV readers fill the columns
    /// straight from their fast paths, which saves most of the cost of handing items out one by
    /// one (especially through `any TraceReader`).
    /// - Throws: as ``next()``; the items read before the error are in `batch`.
    mutating func read(into batch: inout FixBatch, limit: Int) throws(TraceReadError) -> Int
}

/// How to read.
public struct ReadOptions: Sendable {
    /// What to do with a per-point problem (``ProblemPolicy/default``: `filter`).
    public var policy: ProblemPolicy = .default
    /// The UTC offset, in seconds east of Greenwich, of times written without a zone. Nil: read
    /// them as UTC and report that assumption.
    public var zonelessUTCOffset: Int?
    /// CSV: explicit columns for fields, overriding header detection. Keys are field names
    /// ("latitude", "longitude", "time", "date", "elevation", "accuracy", "speed", "course",
    /// "role", "state", "track", "segment"); values are header names (case-insensitive) or
    /// 1-based column numbers.
    public var columns: [String: String] = [:]
    /// The fastest motion a track is believed, metres per second (``ImpliedMotion``): a track
    /// point that implies a faster one is a ``ProblemKind/speedSpike`` or a
    /// ``ProblemKind/teleport``. Nil (or a value that is not a finite number above 0) turns the
    /// check off.
    public var maximumSpeed: Double? = ImpliedMotion.defaultMaximumSpeed
    /// NMEA: the date (days since 1970-01-01, UTC) of a log's fixes that come before any date in
    /// the file (`--date`): the first such fix is on it, later ones roll over at UTC midnight.
    /// Dates in the file take over from where they appear. Nil: such fixes wait for the file's
    /// first date (``NMEAReader``).
    public var date: Int?

    public init(
        policy: ProblemPolicy = .default, zonelessUTCOffset: Int? = nil, columns: [String: String] = [:],
        maximumSpeed: Double? = ImpliedMotion.defaultMaximumSpeed
    ) {
        self.policy = policy
        self.zonelessUTCOffset = zonelessUTCOffset
        self.columns = columns
        self.maximumSpeed = maximumSpeed
    }
}

/// Opens a trace file ("-" for standard input) with the reader for `format`, or, when none is
/// given, for the format its content and name say (``TraceFormat/choose(name:head:file:)``: XML
/// with a `<gpx>` or `<kml>` root, NMEA sentences and JSON are read as what they are whatever
/// the name, standard input included; other content as the extension says), stating in the
/// diagnostics when the content decided. Under the `filter` (the default) and `skip` policies the
/// reader comes inside the motion stage, which drops the speed spikes its checks find and starts
/// a new segment at each teleport (``ImpliedMotion``).
/// - Throws: ``TraceReadError`` when the file cannot be opened or its format is unknown.
public func openTrace(_ path: String, format: TraceFormat? = nil, options: ReadOptions = ReadOptions()) throws(TraceReadError)
    -> any TraceReader
{
    let source = try ByteSource(path: path)
    var assumption: String?
    let chosen: TraceFormat
    if let format {
        chosen = format
    } else {
        (chosen, assumption) = try TraceFormat.choose(
            name: path == "-" ? nil : path, head: try source.head(TraceFormat.sniffLength), file: source.name)
    }
    switch chosen {
    case .gpx: return staged(GPXReader(source: source, options: options), assuming: assumption)
    case .csv: return staged(CSVReader(source: source, options: options), assuming: assumption)
    case .plt: return staged(PLTReader(source: source, options: options), assuming: assumption)
    case .rec: return staged(RECReader(source: source, options: options), assuming: assumption)
    case .nmea: return staged(NMEAReader(source: source, options: options), assuming: assumption)
    case .kml: return staged(KMLReader(source: source, options: options), assuming: assumption)
    case .ndjson: return staged(NDJSONReader(source: source, options: options), assuming: assumption)
    case .geojson: return staged(JSONTraceReader(source: source, options: options, format: .geojson), assuming: assumption)
    case .json: return staged(JSONTraceReader(source: source, options: options, format: .json), assuming: assumption)
    }
}

/// `reader` as ``openTrace(_:format:options:)`` hands it out: with `assumption` (how its format
/// was chosen) stated first in its diagnostics, inside the motion stage (``MotionStage``) when its
/// motion check has actions to take (the `filter` and `skip` policies), else as it is.
func staged<Reader: CheckedTraceReader>(_ reader: Reader, assuming assumption: String? = nil) -> any TraceReader {
    var reader = reader
    if let assumption { reader.checker.diagnostics.assume(assumption) }
    return reader.checker.motionMarks ? MotionStage(reader) : reader
}
