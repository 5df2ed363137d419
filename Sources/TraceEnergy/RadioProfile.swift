/// The constants of one cellular or Wi-Fi radio model (docs/battery-model.md, "Radio profiles"):
/// what a sent update costs on top of the radio's idle power.
///
/// The radio is idle until a send; it is then promoted (``promotionMilliwatts`` for
/// ``promotionSeconds``), transmits the update (``transmitMilliwatts`` for ``transmitSeconds``),
/// and stays connected through a tail before it demotes to idle again. The tail has up to two
/// stages: ``tailMilliwatts`` for ``tailSeconds``, then ``secondTailMilliwatts`` for
/// ``secondTailSeconds`` (3G's DCH tail, then its FACH tail; one-stage profiles have a second
/// stage of 0 s). Energies are above the radio's idle baseline, which is paid whether or not
/// anything is sent. Powers are milliwatts, durations seconds, energies joules; every value is
/// finite and at least 0 (profile files are validated when they are read).
public struct RadioProfile: Hashable, Sendable {
    /// The profile's name, e.g. "lte".
    public var name: String
    /// Power while the radio is promoted from idle to connected, in milliwatts.
    public var promotionMilliwatts: Double
    /// How long a promotion takes, in seconds.
    public var promotionSeconds: Double
    /// Power while an update is transmitted, in milliwatts.
    public var transmitMilliwatts: Double
    /// How long one update takes to transmit (t_tx), in seconds.
    public var transmitSeconds: Double
    /// Power in the tail's first stage (LTE's tail; 3G's DCH tail), in milliwatts.
    public var tailMilliwatts: Double
    /// Length of the tail's first stage, in seconds.
    public var tailSeconds: Double
    /// Power in the tail's second stage (3G's FACH tail; unused by the other profiles), in milliwatts.
    public var secondTailMilliwatts: Double
    /// Length of the tail's second stage, in seconds (0 for a one-stage tail).
    public var secondTailSeconds: Double

    /// A radio profile from its constants (milliwatts and seconds).
    public init(
        name: String, promotionMilliwatts: Double, promotionSeconds: Double,
        transmitMilliwatts: Double, transmitSeconds: Double,
        tailMilliwatts: Double, tailSeconds: Double,
        secondTailMilliwatts: Double = 0, secondTailSeconds: Double = 0
    ) {
        self.name = name
        self.promotionMilliwatts = promotionMilliwatts
        self.promotionSeconds = promotionSeconds
        self.transmitMilliwatts = transmitMilliwatts
        self.transmitSeconds = transmitSeconds
        self.tailMilliwatts = tailMilliwatts
        self.tailSeconds = tailSeconds
        self.secondTailMilliwatts = secondTailMilliwatts
        self.secondTailSeconds = secondTailSeconds
    }

    /// LTE, the default: promotion 1210 mW × 0.26 s, transmit 1200 mW, tail 1060 mW × 10.12 s
    /// (AT&T ARO `lte.conf`; Huang et al., MobiSys 2012). t_tx = 0.1 s is assumed.
    public static let lte = RadioProfile(
        name: "lte", promotionMilliwatts: 1210, promotionSeconds: 0.26,
        transmitMilliwatts: 1200, transmitSeconds: 0.1, tailMilliwatts: 1060, tailSeconds: 10.12)

    /// LTE with a modern modem's lower tail power: as ``lte`` but the tail at 500 mW (assumed from
    /// modern modem idle currents of 110–156 mA).
    public static let lteModern = RadioProfile(
        name: "lte-modern", promotionMilliwatts: 1210, promotionSeconds: 0.26,
        transmitMilliwatts: 1200, transmitSeconds: 0.1, tailMilliwatts: 500, tailSeconds: 10.12)

    /// 3G (ARO i997): promotion 650 mW × 2.0 s, then the DCH tail 1300 mW × 4 s, then the FACH tail
    /// 300 mW × 10 s. The sources give no transmit power for 3G (docs/battery-model.md, "Radio
    /// profiles"): the radio sends in DCH, so t_tx is charged at the DCH power, 1300 mW (assumed).
    public static let threeG = RadioProfile(
        name: "3g", promotionMilliwatts: 650, promotionSeconds: 2.0,
        transmitMilliwatts: 1300, transmitSeconds: 0.1, tailMilliwatts: 1300, tailSeconds: 4,
        secondTailMilliwatts: 300, secondTailSeconds: 10)

    /// Wi-Fi (ARO `WiFi.conf`): no promotion, 403 mW while active, a 0.25 s tail. ARO's Wi-Fi model
    /// has one active power, so the tail is charged at 403 mW too (assumed).
    public static let wifi = RadioProfile(
        name: "wifi", promotionMilliwatts: 0, promotionSeconds: 0,
        transmitMilliwatts: 403, transmitSeconds: 0.1, tailMilliwatts: 403, tailSeconds: 0.25)

    /// The built-in profiles, the default first.
    public static let builtIn: [RadioProfile] = [.lte, .lteModern, .threeG, .wifi]

    /// The whole tail, both stages, in seconds: a send within this long after the end of the
    /// previous transmission shares its tail.
    public var tailTotalSeconds: Double { tailSeconds + secondTailSeconds }

    /// Energy of one promotion, in joules.
    public var promotionJoules: Double { promotionMilliwatts * promotionSeconds / 1000 }

    /// Energy of one transmission, in joules.
    public var transmitJoules: Double { transmitMilliwatts * transmitSeconds / 1000 }

    /// Energy of a complete tail (both stages), in joules.
    public var fullTailJoules: Double { (tailMilliwatts * tailSeconds + secondTailMilliwatts * secondTailSeconds) / 1000 }

    /// Energy of a tail cut short after `seconds` (clamped to [0, ``tailTotalSeconds``]), in
    /// joules: the first stage's power until ``tailSeconds``, then the second stage's.
    public func tailJoules(after seconds: Double) -> Double {
        if seconds >= tailTotalSeconds { return fullTailJoules }
        let first = min(max(seconds, 0), tailSeconds)
        let second = max(seconds - tailSeconds, 0)
        return (tailMilliwatts * first + secondTailMilliwatts * second) / 1000
    }

    /// Energy of one isolated update (promotion, transmission, full tail), in joules. LTE:
    /// 1.210 W × 0.26 s + 1.2 W × 0.1 s + 1.06 W × 10.12 s ≈ 11.16 J.
    public var isolatedUpdateJoules: Double { promotionJoules + transmitJoules + fullTailJoules }

    /// The radio energy of one more update, in joules, where `events` updates (sent and
    /// received: they share the radio) come evenly spaced over `seconds`: E(n + 1) − E(n), with
    /// E(n) = ``averagePowerMilliwatts(sendingEvery:)`` at `seconds / n` × `seconds`. With no
    /// event, an isolated update's (``isolatedUpdateJoules``). When updates come often, each falls
    /// in the previous one's tail and one more costs little: LTE, 200 updates over 1,000 s (one
    /// every 5 s) gives 0.014 J, against 11.16 J for an isolated update.
    /// - Returns: nil when `seconds` is not finite and greater than 0, or the closed form has no
    ///   value (``averagePowerMilliwatts(sendingEvery:)``).
    public func marginalJoules(events: Int, over seconds: Double) -> Double? {
        guard seconds.isFinite, seconds > 0, events >= 0 else { return nil }
        guard events > 0 else { return isolatedUpdateJoules }
        guard let now = averagePowerMilliwatts(sendingEvery: seconds / Double(events)),
            let more = averagePowerMilliwatts(sendingEvery: seconds / Double(events + 1))
        else { return nil }
        return (more - now) * seconds / 1000
    }

    /// The long-run average radio power, in milliwatts, of sending one update every `period`
    /// seconds, in closed form; it agrees with ``RadioStateMachine`` fed the same sends.
    ///
    /// With t_tx = ``transmitSeconds``, T_tail = ``tailTotalSeconds`` and t_pro =
    /// ``promotionSeconds``:
    /// - `period < t_tx + T_tail`: every send falls in the previous tail (no promotion after the
    ///   first, which amortises away); each costs a transmission and the tail cut after
    ///   `period − t_tx` (none when sends come faster than they transmit).
    /// - `period ≥ t_pro + t_tx + T_tail`: every send is isolated: ``isolatedUpdateJoules`` / period.
    /// - In between, a promoted send's tail (which starts t_pro later) is still open at the next
    ///   send, whose own tail then runs out: the pattern repeats every two sends. If that next send
    ///   would arrive before the promoted transmission ends (possible only when T_tail < t_pro),
    ///   there is no short repeating pattern and the result is nil.
    ///
    /// LTE: every 5 / 15 / 30 / 60 / 300 s gives ≈ 1063 / 744 / 372 / 186 / 37 mW.
    /// - Returns: nil also when `period` is not finite and greater than 0.
    public func averagePowerMilliwatts(sendingEvery period: Double) -> Double? {
        guard period.isFinite, period > 0 else { return nil }
        if period < transmitSeconds + tailTotalSeconds {
            return (transmitJoules + tailJoules(after: period - transmitSeconds)) * 1000 / period
        }
        if period >= promotionSeconds + transmitSeconds + tailTotalSeconds {
            return isolatedUpdateJoules * 1000 / period
        }
        let afterPromoted = period - promotionSeconds - transmitSeconds
        guard afterPromoted >= 0 else { return nil }
        let twoSends = promotionJoules + 2 * transmitJoules + tailJoules(after: afterPromoted) + fullTailJoules
        return twoSends * 1000 / (2 * period)
    }
}
