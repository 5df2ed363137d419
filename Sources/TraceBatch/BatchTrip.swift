import TraceDomain
import TraceIO
import TracePlatform
public import TraceReplay
import TraceSharing

/// One trip of a batch: a scenario sidecar that names its traces, or a trace file (replayed with
/// its own sidecar `NAME.scenario.json` when one exists, else with everything inferred).
public struct BatchTrip: Hashable, Sendable {
    /// What kind of file the trip is.
    public enum Kind: String, Hashable, Sendable {
        /// A `*.scenario.json` sidecar: its `traces` member names the traces.
        case sidecar
        /// A trace file (any readable format, ``TripDiscovery/traceExtensions``), the helper's.
        case trace
    }

    /// The trip's name in reports and baselines: its path relative to the folder or manifest that
    /// listed it (as given on the command line for a file named there).
    public var id: String
    /// The file to open: `id` resolved against the folder or manifest; "-" for a trip whose
    /// trace is read from standard input (``standardInput(named:)``).
    public var path: String
    public var kind: Kind
    /// One trip of a split recording (``split(rules:options:)``): replay only the fixes timed
    /// within it (``ReplayOptions/window``). Nil: the whole file.
    public var window: ClosedRange<Int64>?
    /// A split recording with no trip: replaying it fails, saying so.
    public var noTrip = false
    /// Where the traces its sidecar names may lead: by default inside the sidecar's folder, and
    /// inside the corpus folder the trip was found under (``TripDiscovery``).
    public var sidecarPaths: SidecarPaths

    public init(
        id: String, path: String, kind: Kind, window: ClosedRange<Int64>? = nil, sidecarPaths: SidecarPaths = .sidecarFolder
    ) {
        self.id = id
        self.path = path
        self.kind = kind
        self.window = window
        self.sidecarPaths = sidecarPaths
    }

    /// A trip whose one trace is read from standard input (a request's pings streamed by an
    /// engine such as Spark), named `id` as the file of that name in the corpus would be. It is
    /// read as that file would be: in the format its name's extension says (unless the batch
    /// reads every file in one format), as the helper's trace with the roles and states its rows
    /// give, and without a sidecar.
    public static func standardInput(named id: String) -> BatchTrip {
        BatchTrip(id: id, path: "-", kind: .trace)
    }

    /// Whether the trace is read from standard input.
    public var isStandardInput: Bool { path == "-" }

    /// The trips of this file's recording (``TripSplit/find(_:options:rules:)`` on the helper's
    /// trace, or on a sidecar's traces), one batch trip each, named `ID#NN` in time order (NN
    /// padded to two digits or more): stable across runs for the same file and rules. A file with
    /// no trip, or one that cannot be read, stays one batch trip, which fails with the reason when
    /// it is replayed.
    public func split(rules: TripRules, options: ReplayOptions) -> [BatchTrip] {
        guard let (inputs, _) = try? resolved() else { return [self] }
        let helpers = inputs.filter { $0.defaultRole == .helper }
        guard let found = try? TripSplit.find(helpers.isEmpty ? inputs : helpers, options: options, rules: rules) else { return [self] }
        guard !found.trips.isEmpty else {
            var none = self
            none.noTrip = true  // replaying it says why
            return [none]
        }
        let width = max(2, String(found.trips.count).count)
        return found.trips.map { t in
            let n = String(t.index)
            return BatchTrip(
                id: "\(id)#\(String(repeating: "0", count: width - n.count))\(n)", path: path, kind: kind,
                window: t.start.nanoseconds...t.end.nanoseconds, sidecarPaths: sidecarPaths)
        }
    }

    /// The trip's sidecar: the trip itself, or the one beside its trace when it can be read.
    var sidecar: String? {
        switch kind {
        case .sidecar: return path
        case .trace:
            let candidate = Replay.sidecarPath(besides: path)
            return !isStandardInput && Platform.isReadable(candidate) ? candidate : nil
        }
    }

    /// Every file the trip reads, without opening a trace: the trip's file, its sidecar and the
    /// traces the sidecar names (none when the sidecar cannot be read or parsed: its replay says
    /// why). For the files a command must not overwrite (the command line's output check).
    /// - Throws: ``BatchTripError`` `.data` for a trace path ``sidecarPaths`` refuses, as the
    ///   replay would.
    public func files() throws(BatchTripError) -> [String] {
        guard !isStandardInput else { return [] }
        guard let sidecar else { return [path] }
        var files = kind == .trace ? [path, sidecar] : [sidecar]
        guard let bytes = try? BatchFile.read(sidecar) else { return files }
        do {
            files += try ScenarioSpec.tracePaths(sidecarBytes: bytes, file: sidecar, paths: sidecarPaths)
        } catch {
            throw BatchTripError(.data, error.description)
        }
        return files
    }

    /// The traces and scenario the trip replays: a sidecar's, or the trace with its sidecar beside it.
    func resolved() throws(BatchTripError) -> (inputs: [TraceInput], spec: ScenarioSpec) {
        var spec = ScenarioSpec()
        var inputs: [TraceInput] = []
        if kind == .trace { inputs = [TraceInput(path: path, defaultRole: .helper, provenance: .flag)] }
        if let sidecar {
            let bytes = try BatchFile.read(sidecar)
            do {
                spec = try ScenarioSpec(sidecarBytes: bytes, file: sidecar, paths: sidecarPaths)
            } catch {
                throw BatchTripError(.data, error.description)
            }
            if kind == .sidecar && spec.traces.isEmpty {
                throw BatchTripError(.data, "\(sidecar): names no traces (a sidecar replayed on its own needs a \"traces\" member)")
            }
        }
        if kind == .sidecar {
            for role in Role.allCases {
                guard let t = spec.traces[role] else { continue }
                inputs.append(TraceInput(path: t.value, defaultRole: role, provenance: t.provenance))
            }
        }
        return (inputs, spec)
    }

    /// Replays the trip with `options`.
    ///
    /// A sidecar trip reads the sidecar and replays the traces it names; a trace trip replays the
    /// trace as the helper's, with `NAME.scenario.json` beside it when that exists (as `tracekit
    /// replay TRACE` does).
    /// - Throws: ``BatchTripError`` naming the file and the problem.
    public func replay(options: ReplayOptions) throws(BatchTripError) -> ReplayResult {
        var none = NoReplayObserver()
        return try replay(options: options, observer: &none)
    }

    /// ``replay(options:)``, showing `observer` each delivered update.
    public func replay<Observer: ReplayObserver>(options: ReplayOptions, observer: inout Observer) throws(BatchTripError) -> ReplayResult {
        let (inputs, spec, options) = try prepared(options)
        do {
            return try Replay.run(inputs, scenario: spec, options: options, observer: &observer)
        } catch {
            throw BatchTripError(error)
        }
    }

    /// The trip replayed as each live state (``TraceReplay/Replay/asEachState(_:options:)``), from
    /// `loaded` (this trip held in memory with `options`) or else loaded now; a trip too large to
    /// hold reads its files again over `result`'s span (a replay of it with `options`).
    /// - Throws: ``BatchTripError``, as ``replay(options:)`` would.
    public func asEachState(options: ReplayOptions, loaded: LoadedTrip?, of result: ReplayResult) throws(BatchTripError) -> [StateAnswer] {
        do {
            if let loaded { return try Replay.asEachState(loaded, options: self.options(options)) }
            if let trip = try load(options: options) { return try Replay.asEachState(trip, options: self.options(options)) }
            let (inputs, spec, options) = try prepared(options)
            return try Replay.asEachState(inputs, scenario: spec, options: options, span: (result.start, result.end))
        } catch let error as BatchTripError {
            throw error
        } catch let error as ReplayError {
            throw BatchTripError(error)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Replays `trip`, this trip held in memory by ``load(options:)``, under `options` (the trip's
    /// window set: ``options(_:)``).
    /// - Throws: ``BatchTripError``, as ``replay(options:)`` would.
    public func replay(_ trip: LoadedTrip, options: ReplayOptions) throws(BatchTripError) -> ReplayResult {
        do {
            return try Replay.run(trip, options: self.options(options))
        } catch {
            throw BatchTripError(error)
        }
    }

    /// Reads the trip once and holds it in memory (``TraceReplay/LoadedTrip``), to be replayed
    /// with ``TraceReplay/Replay/run(_:options:)`` under options that differ from `options` only
    /// in what a loaded trip does not fix (the policy, the energy profile, the view…); nil when
    /// its fixes would take more than ``TraceReplay/ReplayOptions/memoryLimitTripBytes``.
    /// ``options(_:)`` gives the options to replay it with (the trip's window set).
    /// - Throws: ``BatchTripError``, as ``replay(options:)`` would.
    public func load(options: ReplayOptions) throws(BatchTripError) -> LoadedTrip? {
        let (inputs, spec, options) = try prepared(options)
        do {
            return try Replay.load(inputs, scenario: spec, options: options)
        } catch {
            throw BatchTripError(error)
        }
    }

    /// `options` as this trip replays with them: its window (a trip of a split recording) set,
    /// and for a trip on standard input without a format, the format its name's extension says.
    public func options(_ options: ReplayOptions) -> ReplayOptions {
        var o = options
        if let window { o.window = window }
        if isStandardInput && o.inputFormat == nil { o.inputFormat = TraceFormat(pathExtension: id) }
        return o
    }

    /// The inputs, scenario and options the trip replays with.
    private func prepared(_ options: ReplayOptions) throws(BatchTripError) -> ([TraceInput], ScenarioSpec, ReplayOptions) {
        var (inputs, spec) = try resolved()
        if kind == .sidecar { inputs = [] }  // the sidecar names them
        if noTrip {
            throw BatchTripError(
                .data, "\(path): no trip to replay: the recording never went farther than the long stay's radius between its gaps and stays"
            )
        }
        if window != nil {
            do throws(ReplayError) {
                try Replay.checkSplittable(spec)
            } catch {
                throw BatchTripError(.data, "\(path): \(error)")
            }
        }
        return (inputs, spec, self.options(options))
    }
}

/// Why a trip could not be replayed: the kind of failure (as the exit statuses of `tracekit
/// replay` classify it) and one line naming the file and the problem.
public struct BatchTripError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Category: String, Hashable, Sendable {
        /// A file could not be opened (replay's exit status 66).
        case cannotOpen
        /// The content is wrong: a bad line, a bad sidecar, no timed fix (65).
        case data
        /// No reader applies or the reading options do not fit (64).
        case usage
        /// Reading failed (74).
        case io
    }

    public var category: Category
    public var message: String

    public init(_ category: Category, _ message: String) {
        self.category = category
        self.message = message
    }

    package init(_ e: ReplayError) {
        switch e {
        case .read(let r): self.init(reading: r)
        case .invalid(let m): self.init(.data, m)
        }
    }

    init(reading e: TraceReadError) {
        switch e.category {
        case .cannotOpen: self.init(.cannotOpen, e.description)
        case .unknownFormat, .unreadableFormat, .options: self.init(.usage, e.description)
        case .data, .truncated: self.init(.data, e.description)
        case .io: self.init(.io, e.description)
        }
    }

    public var description: String { message }
}
