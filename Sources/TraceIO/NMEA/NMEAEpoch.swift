/// The DOPs and fix mode of one GSA sentence (GSA carries no time; ``NMEAReader`` decides which
/// epoch they belong to).
struct NMEADOP {
    var pdop: Double?
    var hdop: Double?
    var vdop: Double?
    /// GSA fix mode: 1 no fix, 2 2-D, 3 3-D.
    var mode: Int?
    /// Unreadable values, noted on the fix that takes these DOPs.
    var problems: [Problem] = []

    /// Whether it carries any DOP (a no-fix GSA has its fields empty).
    var hasValues: Bool { pdop != nil || hdop != nil || vdop != nil }
}

/// One epoch being assembled: what the RMC, GGA, GLL, GSA, GST and ZDA sentences of one time of
/// day say.
/// The first sentence of each type wins (a second talker's copy of the same epoch is ignored).
struct NMEAEpoch {
    /// The sentence types an epoch holds.
    struct Parts: OptionSet {
        let rawValue: UInt8
        static let rmc = Parts(rawValue: 1)
        static let gga = Parts(rawValue: 2)
        static let gsa = Parts(rawValue: 4)
        static let gst = Parts(rawValue: 8)
        static let gll = Parts(rawValue: 16)
    }

    var parts: Parts = []
    /// The line of the epoch's first sentence (the fix's line in problems).
    var line = 0
    /// Nanoseconds since midnight, UTC; nil while no sentence gave a readable time.
    var timeOfDay: Int64?
    /// Days since 1970-01-01, from RMC or a ZDA of the same time of day.
    var date: Int?
    /// Whether ``date`` came from a ZDA (else from RMC), and the line of its sentence.
    var dateFromZDA = false
    var dateLine = 0

    /// RMC: status `A` (and a mode other than `N`), its position and line.
    var rmcFix = false
    var rmcLatitude = NMEAFields.Value<Double>.empty
    var rmcLongitude = NMEAFields.Value<Double>.empty
    var rmcLine = 0
    /// GGA: a fix quality of 1 to 5, its position and line.
    var ggaFix = false
    var ggaQuality = 0
    var ggaLatitude = NMEAFields.Value<Double>.empty
    var ggaLongitude = NMEAFields.Value<Double>.empty
    var ggaLine = 0
    /// GLL: status `A` (and a mode other than `N`), its position and line.
    var gllFix = false
    var gllLatitude = NMEAFields.Value<Double>.empty
    var gllLongitude = NMEAFields.Value<Double>.empty
    var gllLine = 0

    var speed: Double?
    var course: Double?
    var elevation: Double?
    var ggaHDOP: Double?
    var satellites: Int?
    var dop = NMEADOP()
    var horizontalAccuracy: Double?
    var verticalAccuracy: Double?
    /// Unreadable values and times, noted on the fix (an epoch without a fix is no point: they
    /// are not reported).
    var problems: [Problem] = []

    init(line: Int, timeOfDay: Int64?) {
        self.line = line
        self.timeOfDay = timeOfDay
    }

    /// Whether any sentence says the receiver had a fix.
    var hasFix: Bool { rmcFix || ggaFix || gllFix }

    /// Whether it holds a sentence that can give a position (an epoch of GSA or GST alone is
    /// not counted, neither as a fix nor as an epoch without one).
    var hasPositionSentence: Bool { !parts.isDisjoint(with: [.rmc, .gga, .gll]) }

    /// Keeps `value` or notes its problem (`kind`, at `line`).
    mutating func take<T>(_ value: NMEAFields.Value<T>, kind: ProblemKind = .invalidValue, line: Int) -> T? {
        switch value {
        case .empty: return nil
        case .value(let v): return v
        case .problem(let detail):
            problems.append(Problem(kind: kind, line: line, detail: detail))
            return nil
        }
    }

    /// The fix kind: DGPS or PPS from GGA's quality, else 2-D or 3-D from GSA's mode.
    var fixType: FixType? {
        switch ggaQuality {
        case 2: return .dgps
        case 3: return .pps
        default:
            switch dop.mode {
            case 2: return .twoD
            case 3: return .threeD
            default: return nil
            }
        }
    }
}
