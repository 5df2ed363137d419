public import TraceDevice
public import TraceDomain
public import TraceEnergy
import TraceGeodesy
public import TraceIO
import TraceJSON
public import TraceSharing

/// Counts per role (hirer, helper, delegate), allocation-free.
public struct RoleCounts: Hashable, Sendable {
    private var values = (0, 0, 0)

    public init() {}

    public subscript(role: Role) -> Int {
        get {
            switch role {
            case .hirer: values.0
            case .helper: values.1
            case .delegate: values.2
            }
        }
        set {
            switch role {
            case .hirer: values.0 = newValue
            case .helper: values.1 = newValue
            case .delegate: values.2 = newValue
            }
        }
    }

    /// The sum over roles.
    public var total: Int { values.0 + values.1 + values.2 }

    public static func == (a: RoleCounts, b: RoleCounts) -> Bool { a.values == b.values }
    public func hash(into h: inout Hasher) {
        h.combine(values.0)
        h.combine(values.1)
        h.combine(values.2)
    }

    mutating func add(_ other: RoleCounts) {
        for r in Role.allCases { self[r] += other[r] }
    }
}

/// What the other parties saw of one sender's position: sampled at each raw fix of the sender,
/// for each viewer entitled to see that sender's location at that moment (after any update the
/// fix itself produced; network delay is taken as 0).
///
/// Display error is the distance between the sender's true position (the raw fix) and the last
/// position the viewer received from that sender; staleness is the time since that update. A
/// sample before the viewer received anything has neither and is counted in ``withoutUpdate``.
/// p95 uses the nearest rank at 0.1 m / 0.1 s resolution below 102.4 (rounded down) and within
/// 0.2 % above; means and maxima are exact.
public struct ViewMetrics: Hashable, Sendable {
    /// Samples with a last received position.
    public var samples: Int
    /// Samples where the viewer had received nothing yet.
    public var withoutUpdate: Int
    /// Metres; nil without samples.
    public var displayErrorMeanMetres: Double?
    public var displayErrorP95Metres: Double?
    public var displayErrorMaxMetres: Double?
    /// Seconds; nil without samples.
    public var stalenessMeanSeconds: Double?
    public var stalenessP95Seconds: Double?
    public var stalenessMaxSeconds: Double?
    /// The samples themselves, binned (``QuantileHistogram``): a corpus pools them to take its
    /// p95 over every sample of its trips, not over the trips' p95s.
    public var displayErrorHistogram: QuantileHistogram
    public var stalenessHistogram: QuantileHistogram

    init(error: QuantileHistogram, staleness: QuantileHistogram, withoutUpdate: Int) {
        displayErrorHistogram = error
        stalenessHistogram = staleness
        samples = error.count
        self.withoutUpdate = withoutUpdate
        displayErrorMeanMetres = error.mean
        displayErrorP95Metres = error.quantile(0.95)
        displayErrorMaxMetres = error.max
        stalenessMeanSeconds = staleness.mean
        stalenessP95Seconds = staleness.quantile(0.95)
        stalenessMaxSeconds = staleness.max
    }
}

/// What one viewer saw of one sender's position in one state (``ReplayResult/viewerViews``).
public struct ViewerView: Hashable, Sendable {
    public var state: FulfilmentState
    public var viewer: Role
    public var sender: Role
    public var view: ViewMetrics
}

/// A phone's energy in one part of the trip, in joules, by part (docs/battery-model.md, "Per
/// state"). The radio part of a state is the radio energy of the updates sent in it: their
/// promotions, transmissions and tails (a tail that outlasts the state included, the last one in
/// full), and the receptions of updates sent in it. The states add up to the phone's whole
/// estimate.
public struct EnergyParts: Hashable, Sendable {
    public var locationJoules = 0.0
    public var fixesJoules = 0.0
    public var radioJoules = 0.0

    public init() {}

    public var totalJoules: Double { locationJoules + fixesJoules + radioJoules }

    init(_ e: EnergyEstimate) {
        locationJoules = e.locationJoules
        fixesJoules = e.fixesJoules
        radioJoules = e.radio.totalJoules
    }

    static func - (a: EnergyParts, b: EnergyParts) -> EnergyParts {
        var d = EnergyParts()
        d.locationJoules = a.locationJoules - b.locationJoules
        d.fixesJoules = a.fixesJoules - b.fixesJoules
        d.radioJoules = a.radioJoules - b.radioJoules
        return d
    }

    static func += (a: inout EnergyParts, b: EnergyParts) {
        a.locationJoules += b.locationJoules
        a.fixesJoules += b.fixesJoules
        a.radioJoules += b.radioJoules
    }
}

/// One role's figures in one state (or, in ``ReplayResult/roleTotals``, over the whole trip).
public struct StateRoleMetrics: Hashable, Sendable {
    public var role: Role
    /// Raw fixes of this role's trace replayed in the state.
    public var rawFixes: Int
    /// Fixes the emulated phone delivered (location on, accuracy gate, delivery model).
    public var deliveredFixes: Int
    /// Updates the phone sent to the server: delivered fixes while another party's map shows its
    /// position (``LocationUse/shares``).
    public var sentUpdates: Int
    /// Updates this role's phone received (its radio's receptions: with the receiver radio on,
    /// ``ReplayOptions/receiverRadio``), in the state they were sent in.
    public var receivedUpdates: Int = 0
    /// Updates forwarded to each viewer (``RelayTable``).
    public var forwarded: RoleCounts
    /// Seconds in the state (the same for every role); for trip totals, the trip's duration.
    public var seconds: Double
    /// Metres travelled: the sum of steps between this role's consecutive raw fixes.
    public var distanceMetres: Double
    /// What viewers saw of this role's position.
    public var view: ViewMetrics
    /// This role's phone's energy in the state.
    public var energy: EnergyParts
    /// The roles whose maps show this role's live position in the state by the policy
    /// (``SharingPolicy/viewers(ofLocationFrom:in:for:)``), in ``Role`` order; for trip totals,
    /// those of any state entered.
    public var viewers: [Role] = []
}

extension StateRoleMetrics {
    /// The part of the phone's energy a throttling policy changes, joules: its delivered fixes
    /// and its radio (sends and receptions). The rest, ``tierJoules``, is the state's tier over
    /// the time in the state.
    public var policyJoules: Double { energy.fixesJoules + energy.radioJoules }

    /// The part of the phone's energy set by the state's tier and its length, not by how often the
    /// phone sends: the location part, joules.
    public var tierJoules: Double { energy.locationJoules }

    /// What one more update sent in the state costs this phone, joules: one more delivered fix
    /// (`fixMillijoules`) and the radio's share of one more event at the state's rate of sends and
    /// receptions (``TraceEnergy/RadioProfile/marginalJoules(events:over:)``); nil for a state of
    /// no time.
    public func marginalUpdateJoules(_ profile: EnergyProfile) -> Double? {
        guard let radio = profile.radio.marginalJoules(events: sentUpdates + receivedUpdates, over: seconds) else { return nil }
        return radio + profile.fixMillijoules / 1000
    }
}

/// One state's row of the report.
public struct StateMetrics: Hashable, Sendable {
    public var state: FulfilmentState
    /// Whether the request was in this state at any time.
    public var entered: Bool
    /// Seconds in the state.
    public var seconds: Double
    /// The policy's tier for the state.
    public var tier: AccuracyTier
    /// One entry per role of the replay: helper, hirer, then the delegate when it takes part.
    public var roles: [StateRoleMetrics]

    /// The figures of `role`, if it takes part.
    public subscript(role: Role) -> StateRoleMetrics? { roles.first { $0.role == role } }
}

/// One phone's battery estimate over the trip.
public struct PhoneEnergy: Hashable, Sendable {
    public var role: Role
    /// Whether the phone had a trace (without one, its location and receive costs still count).
    public var hasTrace: Bool
    public var estimate: EnergyEstimate
    /// The same phone's estimate under each spread profile (``ReplayOptions/energySpread``), in
    /// its order; empty when none was asked for.
    public var across: [EnergyEstimate] = []

    /// The spread of ``across``; nil when it is empty.
    public var spread: EnergySpread? { EnergySpread(phones: [across]) }
}

/// Which arrival the other party should see.
public enum ArrivalPoint: String, CaseIterable, Hashable, Sendable {
    case pickup, dropoff
}

/// Why a viewer did not see an arrival (``ArrivalVisibility/absence``).
public enum ArrivalAbsence: String, CaseIterable, Hashable, Sendable {
    /// The helper never came within the radius of the point.
    case neverArrived
    /// Expected: by the policy (location-sharing.txt's rule), the viewer's map does not show the
    /// helper's live position in the state the request was in when the helper arrived, nor in any
    /// later state of the trip, so no update could show the arrival.
    case notShownByDesign
    /// A failure: the viewer's map was to show the helper at or after the arrival, but no update
    /// forwarded to it placed the helper within the radius.
    case neverShown
}

/// How late a viewer's map showed the helper arriving.
///
/// The arrival is the first raw helper fix within the radius of the point (for the dropoff: the
/// first after the helper has left the pickup's radius following its arrival there). It became
/// visible at the first update forwarded to the viewer, at or after the arrival, that places the
/// helper within the radius; nil when that never happened (``absence`` says whether that was
/// expected).
public struct ArrivalVisibility: Hashable, Sendable {
    public var point: ArrivalPoint
    public var viewer: Role
    /// Nil when the helper never arrived.
    public var arrivedAt: Timestamp?
    public var visibleAt: Timestamp?
    /// The request's state when the helper arrived (the last timeline entry at or before the
    /// arrival; Finding Villager before the first); nil when the helper never arrived.
    public var state: FulfilmentState? = nil
    /// Whether the policy shows the helper's live position on the viewer's map in ``state`` or in
    /// a later state of the trip's timeline: whether the viewer could see the arrival at all.
    public var shownByPolicy = true
    /// What the viewer's map shows in ``state`` by the policy, in ``MapAnnotation`` order: the
    /// rule an expected absence follows from.
    public var viewerAnnotations: [MapAnnotation] = []

    public init(point: ArrivalPoint, viewer: Role, arrivedAt: Timestamp?, visibleAt: Timestamp?) {
        self.point = point
        self.viewer = viewer
        self.arrivedAt = arrivedAt
        self.visibleAt = visibleAt
    }

    /// Seconds between arrival and visibility; nil when either did not happen.
    public var lateSeconds: Double? {
        guard let a = arrivedAt, let v = visibleAt else { return nil }
        return v.seconds(since: a)
    }

    /// Why the viewer did not see the arrival; nil when it did.
    public var absence: ArrivalAbsence? {
        if arrivedAt == nil { return .neverArrived }
        if visibleAt != nil { return nil }
        return shownByPolicy ? .neverShown : .notShownByDesign
    }

    /// ``absence`` in words, `radiusMetres` being the arrival radius; nil when the viewer saw the
    /// arrival. E.g. "not shown by design: by the policy the hirer does not see the helper from In
    /// Task on (in In Task the hirer's map shows Hirer Location, Dropoff Point)".
    public func reason(radiusMetres: Double) -> String? {
        guard let absence else { return nil }
        let v = viewer.key, from = state.map { " from \($0.displayName) on" } ?? ""
        switch absence {
        case .neverArrived:
            return "the helper never came within \(DecimalText.fixed(radiusMetres, 0)) m"
        case .notShownByDesign:
            let shows = viewerAnnotations.isEmpty ? "nothing" : viewerAnnotations.map(\.displayName).joined(separator: ", ")
            let inState = state.map { "in \($0.displayName) " } ?? ""
            return "not shown by design: by the policy the \(v) does not see the helper\(from) (\(inState)the \(v)'s map shows \(shows))"
        case .neverShown:
            return
                "never, a failure: the \(v)'s map was to show the helper\(from), but no update placed the helper within \(DecimalText.fixed(radiusMetres, 0)) m"
        }
    }
}

/// What a trace file contributed and what could not be read from it.
public struct FileDiagnostics: Hashable, Sendable {
    public var path: String
    public var format: TraceFormat
    public var diagnostics: Diagnostics
    /// Track points without a time: they cannot be placed on the clock and were not replayed.
    public var untimedFixes: Int
    /// Fixes replayed out of time order that were skipped (only in files over the in-memory limit).
    public var outOfOrderFixes: Int
}

/// Points of one problem kind in a replay's traces, and what was done with them
/// (``ReplayResult/dataProblems``).
public struct DataProblem: Hashable, Sendable {
    public var kind: ProblemKind
    public var count: Int
    /// ``TraceIO/ProblemPolicy/treatment(of:)``, e.g. "dropped" or "a new segment at each".
    public var treatment: String

    /// E.g. "6 speed spikes dropped", "45 teleports: a new segment at each".
    public var text: String {
        let noun = Self.plural(kind, count)
        return treatment.hasPrefix("kept") || treatment == "dropped" ? "\(count) \(noun) \(treatment)" : "\(count) \(noun): \(treatment)"
    }

    /// "speed spike" → "speed spikes", "no time" → "points with no time", and so on.
    static func plural(_ kind: ProblemKind, _ n: Int) -> String {
        let one = n == 1
        switch kind {
        case .missingCoordinate: return one ? "point without a coordinate" : "points without a coordinate"
        case .invalidCoordinate: return one ? "invalid coordinate" : "invalid coordinates"
        case .unreadableRecord: return one ? "unreadable record" : "unreadable records"
        case .missingTime: return one ? "point with no time" : "points with no time"
        case .invalidTime: return one ? "unreadable time" : "unreadable times"
        case .implausibleTime: return one ? "time before 1970 or after 2100" : "times before 1970 or after 2100"
        case .timeWentBackwards: return one ? "time going backwards" : "times going backwards"
        case .duplicateTime: return one ? "duplicate time" : "duplicate times"
        case .invalidValue: return one ? "unreadable value" : "unreadable values"
        case .badChecksum: return one ? "bad checksum" : "bad checksums"
        case .speedSpike: return one ? "speed spike" : "speed spikes"
        case .teleport: return one ? "teleport" : "teleports"
        case .truncated: return one ? "truncated file" : "truncated files"
        }
    }

    /// The problems in one line, e.g. "6 speed spikes dropped, 45 teleports: a new segment at
    /// each"; "none" when there are none.
    public static func summary(_ problems: [DataProblem]) -> String {
        problems.isEmpty ? "none" : problems.map(\.text).joined(separator: ", ")
    }
}

/// A time with no fix of any trace for longer than the recording gap: the last fix before and the
/// first after.
public struct RecordingGap: Hashable, Sendable {
    public var from: Timestamp
    public var to: Timestamp
    public var seconds: Double { to.seconds(since: from) }

    public init(from: Timestamp, to: Timestamp) {
        self.from = from
        self.to = to
    }
}

/// The policy a replay used.
public struct PolicyLabel: Hashable, Sendable {
    /// The policy's name ("seed" for the default table).
    public var name: String
    /// The policy file version this TraceKit writes.
    public var fileVersion: Int
}

/// Everything a replay found. Units are in the names: seconds, metres, joules. Deterministic: the
/// same inputs give the same values, and ``json`` the same bytes.
public struct ReplayResult: Hashable, Sendable {
    /// The JSON schema this result is written in.
    public static let schema = "tracekit-replay/3"

    /// The TraceKit version that produced it.
    public var tracekitVersion: String
    public var policy: PolicyLabel
    /// E.g. "tracekit-energy 1, profile lte".
    public var energyModel: String
    /// The energy profile used (its constants and the assumed ones).
    public var energyProfile: EnergyProfile
    /// Whether receivers' radios were charged for updates they received.
    public var receiverRadio: Bool
    /// How the phones were emulated (``ReplayOptions/phone``): reports name it, with its seed when
    /// accuracy emulation is on, unless it passes fixes through
    /// (``PhoneConfiguration/isPassThrough``).
    public var phone: PhoneConfiguration
    public var scenario: ReplayScenario
    /// The replay's clock: the earliest fix or timeline entry, and the latest.
    public var start: Timestamp
    public var end: Timestamp
    /// Every state, in order (``StateMetrics/entered`` says whether it happened).
    public var states: [StateMetrics]
    /// Each role's figures over the whole trip.
    public var roleTotals: [StateRoleMetrics]
    /// One estimate per phone taking part.
    public var energy: [PhoneEnergy]
    public var arrivals: [ArrivalVisibility]
    public var files: [FileDiagnostics]
    /// Things the replay had to decide or could not do (e.g. an ignored cancellation).
    public var notes: [String]
    /// What makes a figure hard to believe, one line each (a recording gap, a span of many hours,
    /// a scenario item far from every fix): the CLI prints each on standard error.
    public var warnings: [String] = []
    /// What a picture of the trip needs; nil unless ``ReplayOptions/recordTrack`` was on. Not
    /// part of ``json``.
    public var track: ReplayTrack? = nil
    /// The recording gaps (no fix of any trace for longer than
    /// ``InferenceRules/recordingGapSeconds``), excluded from request time: the fixes either side.
    public var recordingGaps: [RecordingGap] = []
    /// How the other party's view was modelled (``ReplayOptions/network``, ``ReplayOptions/viewer``).
    public var view = ViewSettings(
        network: .ideal, networkProfile: EnergyProfile.lte.network, profileName: EnergyProfile.lte.name, seed: 0, viewer: .last)
    /// With ``ReplayOptions/viewerFigures``: what each viewer saw of each sender, per state (the
    /// samples of ``StateRoleMetrics/view`` told apart by viewer); empty otherwise. Not part of
    /// ``json``.
    public var viewerViews: [ViewerView] = []
    /// What the realistic network did; nil under the ideal network.
    public var networkFigures: NetworkFigures? = nil
    /// The whole recording replayed as each live state (``Replay/asEachState(_:scenario:options:span:)``),
    /// when asked for or when the recording has no credible pickup; nil otherwise.
    public var asEachState: [StateAnswer]? = nil
    /// The policy the traces were read under (``ReplayOptions/read``): what was done with each
    /// problem (``dataProblems``).
    public var problemPolicy = ProblemPolicy.default

    /// The data problems of every trace file together, by kind in ``ProblemKind`` order, each with
    /// what was done with it under ``problemPolicy``; empty when the traces were clean. Every
    /// report names them in its first lines, and marks the figures of a trip that has them.
    public var dataProblems: [DataProblem] {
        var counts: [ProblemKind: Int] = [:]
        for f in files { counts.merge(f.diagnostics.counts, uniquingKeysWith: +) }
        return counts.keys.sorted().map { DataProblem(kind: $0, count: counts[$0]!, treatment: problemPolicy.treatment(of: $0)) }
    }

    /// Seconds of request time: from ``start`` to ``end`` less the recording gaps.
    public var durationSeconds: Double { end.seconds(since: start) - excludedSeconds }

    /// Seconds in recording gaps.
    public var excludedSeconds: Double { recordingGaps.reduce(0) { $0 + $1.seconds } }

    /// The roles of the replay: helper, hirer, then the delegate when it takes part.
    public var roles: [Role] { roleTotals.map(\.role) }

    /// All phones' energy under each spread profile (``PhoneEnergy/across``); nil when none was
    /// priced.
    public var energySpread: EnergySpread? { EnergySpread(phones: energy.map(\.across).filter { !$0.isEmpty }) }

    /// The phone and energy part that cost the most, with its share of all phones' total; nil when
    /// nothing cost anything.
    public var dominantCost: (role: Role, part: EnergyPart, joules: Double, share: Double)? {
        let total = energy.reduce(0) { $0 + $1.estimate.totalJoules }
        guard total > 0 else { return nil }
        var best: (Role, EnergyPart, Double)?
        for phone in energy {
            for part in EnergyPart.allCases where phone.estimate.joules(part) > (best?.2 ?? 0) {
                best = (phone.role, part, phone.estimate.joules(part))
            }
        }
        guard let best else { return nil }
        return (best.0, best.1, best.2, best.2 / total)
    }

    /// The state in which a role's phone spent the most on a part.
    public func costliestState(of role: Role, part: EnergyPart) -> FulfilmentState? {
        var best: (FulfilmentState, Double)?
        for s in states {
            guard let m = s[role] else { continue }
            let j: Double =
                switch part {
                case .location: m.energy.locationJoules
                case .fixes: m.energy.fixesJoules
                case .radio: m.energy.radioJoules
                }
            if j > (best?.1 ?? 0) { best = (s.state, j) }
        }
        return best?.0
    }
}
