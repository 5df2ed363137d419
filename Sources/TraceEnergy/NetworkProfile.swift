/// The network constants of one radio model: what happens to an update between the sender's radio
/// and the viewer's app (README, "The other party's view"; docs/battery-model.md, "Network").
///
/// An update sent at time t reaches the viewer at
/// `t + radio wait + uplinkSeconds + backend-and-downlink delay`, or never:
/// - the radio wait is the battery model's own: from the send to the end of its transmission,
///   as ``RadioStateMachine`` schedules it (promotion from idle, ``RadioProfile/promotionSeconds``,
///   then ``RadioProfile/transmitSeconds``; or a transmission queued behind the one in progress),
///   so the delay and the energy come from one radio state;
/// - `uplinkSeconds` is the one-way latency from the connected radio to the backend;
/// - the backend-and-downlink delay (the backend, the push or socket hop, the viewer's downlink)
///   is log-normal: median ``backendMedianSeconds``, log-space standard deviation
///   ``backendSigma`` (0 makes it the median exactly);
/// - each update is lost on its way to each viewer with probability ``lossProbability``,
///   independently per viewer.
///
/// Every constant is an engineering assumption (the built-in profiles mark them assumed): the
/// sources measure round trips of the radio and the core network, not a ride app's backend.
public struct NetworkProfile: Hashable, Sendable {
    /// One-way latency from a connected radio to the backend, in seconds.
    public var uplinkSeconds: Double
    /// Median of the backend-and-downlink delay, in seconds.
    public var backendMedianSeconds: Double
    /// Log-space standard deviation of the backend-and-downlink delay (dimensionless, at most 3).
    public var backendSigma: Double
    /// Probability that an update is lost on its way to one viewer, in [0, 1].
    public var lossProbability: Double

    /// A network profile from its constants.
    public init(uplinkSeconds: Double, backendMedianSeconds: Double, backendSigma: Double, lossProbability: Double) {
        self.uplinkSeconds = uplinkSeconds
        self.backendMedianSeconds = backendMedianSeconds
        self.backendSigma = backendSigma
        self.lossProbability = lossProbability
    }

    /// LTE (and LTE modern, the same network): 35 ms uplink (half of a round trip of about 70 ms
    /// to a nearby server), a 250 ms median backend-and-downlink delay with σ 0.5, 1 % loss. All
    /// assumed.
    public static let lte = NetworkProfile(uplinkSeconds: 0.035, backendMedianSeconds: 0.25, backendSigma: 0.5, lossProbability: 0.01)

    /// 3G: 100 ms uplink, a 400 ms median backend-and-downlink delay with σ 0.6, 2 % loss. All
    /// assumed.
    public static let threeG = NetworkProfile(uplinkSeconds: 0.1, backendMedianSeconds: 0.4, backendSigma: 0.6, lossProbability: 0.02)

    /// Wi-Fi: 10 ms uplink, a 200 ms median backend-and-downlink delay with σ 0.5, 0.5 % loss.
    /// All assumed.
    public static let wifi = NetworkProfile(uplinkSeconds: 0.01, backendMedianSeconds: 0.2, backendSigma: 0.5, lossProbability: 0.005)

    /// The largest ``backendSigma`` a profile file may set: beyond it the delay's tail is no longer
    /// a network's (σ 3 puts the 99.9th percentile at 10,000 times the median).
    public static let maximumBackendSigma = 3.0
}
