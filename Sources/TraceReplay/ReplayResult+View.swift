public import TraceDomain
public import TraceEnergy
public import TraceJSON
public import TraceSharing

/// How a replay modelled the other party's view: the network, its seed, the viewer.
public struct ViewSettings: Hashable, Sendable {
    public var network: NetworkModel
    /// The network's constants (the energy profile's), used when ``network`` is realistic.
    public var networkProfile: NetworkProfile
    /// The energy profile's name, which names the network's constants.
    public var profileName: String
    /// The seed of the network's draws (the replay's seed, ``ReplayOptions/phone``).
    public var seed: UInt64
    public var viewer: ViewerModel
    /// Whether ``viewer`` was not chosen but paired with a send rule that predicts
    /// (``ViewerModel/paired(with:send:)``): reports name the pairing.
    public var pairedWithSendRule = false
    /// The send rule that replaced every state's (``ReplayOptions/send``); nil: the policy's.
    public var send: SendRule?

    /// The settings of a replay with `options`.
    public init(_ options: ReplayOptions) {
        network = options.network
        networkProfile = options.energyProfile.network
        profileName = options.energyProfile.name
        seed = options.phone.seed
        viewer = options.viewer
        pairedWithSendRule = options.chosenViewer == nil && viewer.predicts
        send = options.send
    }

    public init(
        network: NetworkModel, networkProfile: NetworkProfile, profileName: String, seed: UInt64, viewer: ViewerModel,
        send: SendRule? = nil
    ) {
        self.send = send
        self.network = network
        self.networkProfile = networkProfile
        self.profileName = profileName
        self.seed = seed
        self.viewer = viewer
    }

    /// The view TraceKit measured before it modelled the network (ideal network, the marker at the
    /// last received position, the policy's send rules): reports then leave the view out, so they
    /// are byte for byte what they were.
    public var isIdeal: Bool { network == .ideal && viewer == .last && send == nil }

    /// One line for reports, e.g. "network realistic (lte: uplink 35 ms, backend median 250 ms
    /// σ 0.5, loss 1 %), seed 20240501 · viewer extrapolates up to 30 s".
    public var summary: String {
        let n: String
        switch network {
        case .ideal: n = "network ideal (no delay, no loss, sampled at the sender's fixes)"
        case .realistic:
            let p = networkProfile
            n =
                "network realistic (\(profileName): uplink \(Self.ms(p.uplinkSeconds)), backend median \(Self.ms(p.backendMedianSeconds)) σ \(JSONWriter.number(p.backendSigma)), loss \(JSONWriter.number(p.lossProbability * 100)) %), seed \(seed)"
        }
        let paired = pairedWithSendRule ? " (paired with the dead-reckoning send rule)" : ""
        return "\(n) · viewer \(viewer.summary)\(paired)" + (send.map { " · send \($0.summary) in every state" } ?? "")
    }

    private static func ms(_ s: Double) -> String { "\(JSONWriter.number((s * 1000).rounded())) ms" }

    /// The settings as JSON.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("network", .string(network.rawValue))]
        if network == .realistic {
            members += [
                ("profile", .string(profileName)),
                ("uplinkSeconds", .number(networkProfile.uplinkSeconds)),
                ("backendMedianSeconds", .number(networkProfile.backendMedianSeconds)),
                ("backendSigma", .number(networkProfile.backendSigma)),
                ("lossProbability", .number(networkProfile.lossProbability)),
                ("seed", .string(String(seed))),
            ]
        }
        switch viewer {
        case .last: members.append(("viewer", .string("last")))
        case .extrapolate(let s):
            members += [("viewer", .string("extrapolate")), ("extrapolationSeconds", .number(s))]
        }
        if pairedWithSendRule { members.append(("viewerPairedWithSendRule", .bool(true))) }
        if let send { members.append(("send", send.fileJSON)) }
        members.append(("summary", .string(summary)))
        return .object(members)
    }
}

/// What the realistic network did over a replay.
public struct NetworkFigures: Hashable, Sendable {
    /// Updates sent towards a viewer (one per update and viewer).
    public var toViewers: Int
    /// Of those, lost on the way.
    public var lost: Int
    /// Arrived after a later update from the same sender had been shown, so discarded.
    public var overtaken: Int
    /// Still on their way when the replay ended (or the request was cancelled): never shown.
    public var inFlightAtEnd: Int
    /// Delay from the send to the arrival of the updates not lost, seconds (to 0.1 ms below
    /// 0.1 s, 0.2 % above; the maximum exact): median,
    /// 95th percentile, maximum; nil when none.
    public var delayMedianSeconds: Double?
    public var delayP95Seconds: Double?
    public var delayMaxSeconds: Double?

    init(_ t: NetworkTally) {
        toViewers = t.toViewers
        lost = t.lost
        overtaken = t.overtaken
        inFlightAtEnd = t.inFlightAtEnd
        delayMedianSeconds = t.delay.quantile(0.5).map { $0 / 1000 }
        delayP95Seconds = t.delay.quantile(0.95).map { $0 / 1000 }
        delayMaxSeconds = t.delay.max.map { $0 / 1000 }
    }

    /// One line for reports.
    public var summary: String {
        var s = "\(toViewers) updates towards viewers, \(lost) lost, \(overtaken) overtaken and discarded"
        if inFlightAtEnd > 0 { s += ", \(inFlightAtEnd) still on their way at the end" }
        if let m = delayMedianSeconds, let p = delayP95Seconds, let x = delayMaxSeconds {
            s += "; delay median \(Self.seconds(m)), p95 \(Self.seconds(p)), max \(Self.seconds(x))"
        }
        return s
    }

    private static func seconds(_ x: Double) -> String {
        let r = (x * 100).rounded() / 100
        return "\(r) s"
    }

    public var json: JSONValue {
        .object([
            ("toViewers", .number(Double(toViewers))), ("lost", .number(Double(lost))), ("overtaken", .number(Double(overtaken))),
            ("inFlightAtEnd", .number(Double(inFlightAtEnd))),
            ("delayMedianSeconds", delayMedianSeconds.map(JSONValue.number) ?? .null),
            ("delayP95Seconds", delayP95Seconds.map(JSONValue.number) ?? .null),
            ("delayMaxSeconds", delayMaxSeconds.map(JSONValue.number) ?? .null),
        ])
    }
}

/// One figure of the worst view: its value, and the state and sender it was measured on.
public struct WorstViewFigure: Hashable, Sendable {
    public var value: Double
    public var state: FulfilmentState
    /// The phone whose position was seen (the viewers are those entitled to see it then).
    public var sender: Role

    public init(value: Double, state: FulfilmentState, sender: Role) {
        self.value = value
        self.state = state
        self.sender = sender
    }
}

/// The worst view any party had of another during the trip (``ReplayResult/worstView``).
public struct WorstView: Hashable, Sendable {
    /// The largest display error p95 (metres) of any state and sender; nil when no viewer
    /// received an update.
    public var displayErrorP95: WorstViewFigure?
    /// The largest staleness p95 (seconds) of any state and sender; nil likewise.
    public var stalenessP95: WorstViewFigure?

    public init(displayErrorP95: WorstViewFigure? = nil, stalenessP95: WorstViewFigure? = nil) {
        self.displayErrorP95 = displayErrorP95
        self.stalenessP95 = stalenessP95
    }
}

extension ReplayResult {
    /// The worst view the other parties had: over the states entered and each sender's figures
    /// in them (``StateRoleMetrics/view``), the largest display error p95 and the largest
    /// staleness p95, each with its state and sender. Ties go to the earlier state, then to the
    /// sender listed first (helper, hirer, delegate).
    public var worstView: WorstView {
        var worst = WorstView()
        for st in states where st.entered {
            for m in st.roles {
                if let p = m.view.displayErrorP95Metres, p > (worst.displayErrorP95?.value ?? -1) {
                    worst.displayErrorP95 = WorstViewFigure(value: p, state: st.state, sender: m.role)
                }
                if let p = m.view.stalenessP95Seconds, p > (worst.stalenessP95?.value ?? -1) {
                    worst.stalenessP95 = WorstViewFigure(value: p, state: st.state, sender: m.role)
                }
            }
        }
        return worst
    }
}
