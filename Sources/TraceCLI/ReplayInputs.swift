import TraceDevice
import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceJSON
import TracePlatform
import TraceProj
import TraceReplay
import TraceSharing
import TraceSmoothing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The options that say what to replay and how to read and price it: shared by `replay` and
/// `compare`, and in part by `batch`.
struct ReplayInputs: OptionGroup {
    var scenario: String?
    /// `--allow-outside-paths`: a sidecar's traces (and a manifest's lines) may lead anywhere.
    var allowOutsidePaths = false
    var category: RequestCategory?
    var handedOff = false
    var pickup: Coordinate?
    var dropoff: Coordinate?
    var timeline: Timeline?
    var hirer: String?
    var delegate: String?
    var energyProfile: String?
    var receiverRadio = Switch.on
    var emulateAccuracy = AccuracyNoise.off
    var tau = PositiveSeconds(rawValue: 60)
    /// The accuracy emulation's seed (documented in the help and the README; any fixed value
    /// would do, this one is the date of the first demo trip).
    var seed: UInt64 = 20_240_501
    var smooth = OnlineSmoothing.off
    var delivery: DeliveryModel?
    var network = NetworkModel.realistic
    /// Nil: paired with the send rules (``ViewerModel/paired(with:send:)``).
    var viewer: ViewerModel?
    var send: SendRule?
    /// `--as-each-state`: also replay the whole recording as each live state.
    var asEachState = false
    var reading = ReadingOptions()

    static let options: [Option<ReplayInputs>] = [
        .value(
            "scenario", \.scenario, valueName: "FILE",
            help: "A scenario sidecar (schema tracekit-scenario/1); default: TRACE's .scenario.json when it exists."),
        .flag(
            "allow-outside-paths", \.allowOutsidePaths,
            help:
                "Let a scenario sidecar name traces outside its folder (absolute paths, '..', symbolic links out), and batch and tune corpora read them outside the corpus folder and a manifest's folder. Without it such a path is refused (65) before anything is opened."
        ),
        .value(
            "category", \.category, valueName: "NAME",
            help: "The request category: ride, babysitting, dog walking, delivery, or another (non-ride) name."),
        .flag(
            "handed-off", \.handedOff, help: "Pickup is handed off to a third party: the delegate's phone sources the hirer's locations."),
        .value("pickup", \.pickup, valueName: "LAT,LON", help: "The pickup point, decimal degrees."),
        .value("dropoff", \.dropoff, valueName: "LAT,LON", help: "The dropoff point, decimal degrees."),
        .value(
            "timeline", \.timeline, valueName: "STATE@TIME,…",
            help:
                "The state timeline, e.g. enRoute@2024-05-01T10:00:00Z,atPickup@2024-05-01T10:12:00Z; states after its last entry are inferred, unless it reaches completed or the sidecar cancels the request."
        ),
        .value("hirer", \.hirer, valueName: "FILE", help: "The hirer's trace."),
        .value("delegate", \.delegate, valueName: "FILE", help: "The delegate's trace (the third-party pickup)."),
        .value(
            "energy-profile", \.energyProfile, valueName: "FILE",
            help: "An energy profile: a built-in radio profile (lte, lte-modern, 3g, wifi), a shipped device "
                + "(pixel-4-xl, xperia-5-ii, mi-6, galaxy-s5, oneplus-one, nexus-5), an Android power_profile.xml, "
                + "or a TraceKit profile file (JSON)."),
        .value("receiver-radio", \.receiverRadio, valueName: "ON|OFF", help: "Charge each viewer's radio for the updates it receives."),
        .value(
            "emulate-accuracy", \.emulateAccuracy, valueName: "NOISE",
            help:
                "Degrade each fix to its state's tier when the tier is coarser than the recording, with seeded white or Gauss–Markov noise (the seed is printed)."
        ),
        .value("tau", \.tau, valueName: "SECONDS", help: "The Gauss–Markov noise's correlation time."),
        .value(
            "seed", \.seed, valueName: "N",
            help:
                "The seed of the accuracy emulation and of the network's delays and losses (0 to 2^64-1): the same seed gives the same numbers."
        ),
        .value(
            "smooth", \.smooth, valueName: "MODE",
            help: "Smooth each phone's fixes (online Kalman filter for the state's tier and this travel mode) before its distance filter."),
        .value(
            "delivery", \.delivery, valueName: "MODEL[:N]",
            help:
                "Replace every state's delivery model: coreLocation, androidFused:INTERVAL, speedElastic[:MULTIPLIER], distanceOrTime:INTERVAL, distanceAndTime:INTERVAL."
        ),
        .value(
            "network", \.network, valueName: "MODEL",
            help:
                "How updates reach the viewers: realistic (the energy profile's radio wait, uplink, seeded backend delay and loss; the views sampled every second) or ideal (instant, lossless, sampled at the sender's fixes)."
        ),
        .value(
            "viewer", \.viewer, valueName: "MODEL",
            help:
                "What a viewer's map draws between updates: extrapolate[:SECONDS] (along the update's velocity for at most SECONDS after its fix, default 10) or last (the last received position). Default: extrapolate when a sharing state's send rule is deadReckoning (a rule that predicts needs a viewer that predicts), else last."
        ),
        .value(
            "send", \.send, valueName: "RULE",
            help:
                "Replace every state's send rule (which delivered fixes the app sends): everyDelivered, or deadReckoning[:METRES[,HEARTBEAT]]: a delivered fix is sent when the position the viewer would draw at its time, predicted from the updates sent before, is more than METRES (default: the state's distance filter) from it, or when HEARTBEAT seconds (default 30) have passed since the last send; a sharing state's first fix is always sent."
        ),
        .flag(
            "as-each-state", \.asEachState,
            help:
                "Also replay the whole recording as each live state (En Route, At Pickup, In Task: that state's policy row and viewers throughout) and report each: updates delivered and sent, the view, battery per hour and per km. Automatic when the recording has no stop after setting off (no credible pickup)."
        ),
        .value(
            "input-format", \.reading.inputFormat, valueName: "FORMAT",
            help: "Read the traces as this format instead of by their content and extension."),
        .value(
            "on-problem", \.reading.onProblem, valueName: "POLICY",
            help:
                "Per-point problems: filter (the default: drop speed spikes, a new segment at each teleport, as a phone's location stack would; the rest as report), report (drop only unusable points; the raw trace), skip (drop every point with a problem), fail (stop at the first)."
        ),
        .value(
            "max-speed", \.reading.maxSpeed, valueName: "SPEED",
            help: "Implied motion beyond this speed (m/s, or 360km/h; 'off') is a speed spike or a teleport (see 'tracekit info')."),
        .value(
            "utc-offset", \.reading.utcOffset, valueName: "HOURS",
            help: "CSV times written without a zone are local times this many hours east of UTC."),
        .value(
            "date", \.reading.date, valueName: "YYYY-MM-DD",
            help:
                "NMEA: the date of fixes logged before any date in the file (a log of GGA or GLL sentences without RMC or ZDA dates); dates in the file take over where they appear."
        ),
        .list(
            "column", \.reading.columns, valueName: "FIELD=COLUMN",
            help: "CSV: take FIELD from COLUMN (as for info); comma-separated for several."),
    ]

    /// The replay options these give (not the policy): reading, the phone pipeline, the send rule
    /// override, the energy profile (a built-in one, or read from its file) and the receivers' radio.
    func replayOptions() throws(CLIError) -> ReplayOptions {
        var options = ReplayOptions()
        options.exact = Geodesic.wgs84  // Karney's algorithm in PROJ: the command's reference solver
        options.read = reading.readOptions
        options.inputFormat = reading.format
        options.receiverRadio = receiverRadio == .on
        options.network = network
        options.chosenViewer = viewer
        options.tracekitVersion = TraceKitCommand.version
        options.phone = phone
        options.send = send
        if let p = energyProfile {
            if let builtIn = EnergyProfile.builtIn(named: p) {
                options.energyProfile = builtIn
            } else {
                // A bare word that names no file is a misspelt profile, not a missing file.
                if !p.contains("/") && !p.contains(".") && !Platform.exists(p) {
                    throw .usage(
                        "--energy-profile '\(p)': no such file, nor a built-in profile (\(EnergyProfile.builtInNames.joined(separator: ", ")))"
                    )
                }
                let bytes = try readSmallFile(p)
                if EnergyProfile.looksLikeXML(bytes) {
                    do {
                        options.energyProfile = try EnergyProfile(androidXML: bytes, file: p)
                    } catch {
                        throw .data(error.description)
                    }
                } else {
                    do {
                        options.energyProfile = try EnergyProfile(fileBytes: bytes, file: p)
                    } catch {
                        throw .data(error.description)
                    }
                }
            }
        }
        return options
    }

    /// Where the traces a sidecar names may lead (`--allow-outside-paths`).
    var sidecarPaths: SidecarPaths { allowOutsidePaths ? .anywhere : .sidecarFolder }

    /// The energy profile's file, when `--energy-profile` names one rather than a built-in profile.
    var energyProfileFile: String? {
        energyProfile.flatMap { EnergyProfile.builtIn(named: $0) == nil ? $0 : nil }
    }

    /// The phone pipeline: accuracy emulation, smoothing and the delivery override.
    var phone: PhoneConfiguration {
        var c = PhoneConfiguration(seed: seed)
        switch emulateAccuracy {
        case .off: c.accuracyEmulation = .off
        case .white: c.accuracyEmulation = .white
        case .gaussMarkov: c.accuracyEmulation = .gaussMarkov(tau: tau.rawValue)
        }
        if let mode = smooth.travelMode { c.smoothing = .on(mode: mode) }
        if let delivery { c.deliveryOverride = delivery }
        return c
    }

    /// The scenario items given as flags.
    var scenarioFlags: ScenarioSpec {
        var spec = ScenarioSpec()
        if let category { spec.category = Sourced(category, .flag, "--category") }
        if handedOff { spec.pickupHandedOff = Sourced(true, .flag, "--handed-off") }
        if let pickup { spec.pickup = Sourced(pickup, .flag, "--pickup") }
        if let dropoff { spec.dropoff = Sourced(dropoff, .flag, "--dropoff") }
        if let timeline { spec.timeline = Sourced(timeline.entries, .flag, "--timeline") }
        if let hirer { spec.traces[.hirer] = Sourced(hirer, .flag, "--hirer") }
        if let delegate { spec.traces[.delegate] = Sourced(delegate, .flag, "--delegate") }
        return spec
    }
}

/// `on` or `off`.
enum Switch: String, ArgumentChoice { case on, off }

/// The accuracy emulation's noise.
enum AccuracyNoise: String, ArgumentChoice {
    case off, white
    case gaussMarkov = "gauss-markov"
}

/// The phones' online smoothing: off, or on for a travel mode.
enum OnlineSmoothing: String, ArgumentChoice {
    case off, walk, bike, drive

    var travelMode: TravelMode? {
        switch self {
        case .off: nil
        case .walk: .walk
        case .bike: .bike
        case .drive: .drive
        }
    }
}

/// A positive, finite number of seconds.
struct PositiveSeconds: ArgumentRepresentable, Equatable {
    var rawValue: Double

    init(rawValue: Double) { self.rawValue = rawValue }

    init(argument: String) throws(InvalidArgument) {
        guard let x = Double(argument), x.isFinite, x > 0 else { throw .expected("a positive number of seconds", got: argument) }
        rawValue = x
    }

    var argument: String { JSONWriter.number(rawValue) }
}

/// A category's name, refused when it holds a control character, as a sidecar's `category` is.
extension RequestCategory: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        guard !argument.isEmpty else { throw .needs("a name") }
        guard !argument.unicodeScalars.contains(where: ShownText.isControl) else {
            throw .reason("a category must not contain control characters (line breaks, tabs)")
        }
        self.init(named: argument)
    }
}

/// `LAT,LON` in decimal degrees.
extension Coordinate: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let c = ScenarioSpec.coordinate(parsing: argument) else {
            throw .expected("LAT,LON in decimal degrees (latitude within ±90)", got: argument)
        }
        self = c
    }
}

/// `STATE@TIME,…`: a valid state timeline.
struct Timeline: ExpressibleByArgument, Equatable {
    var entries: [TimelineEntry]

    init(argument: String) throws(InvalidArgument) {
        switch ScenarioSpec.timeline(parsing: argument, provenance: .flag) {
        case .failure(let e): throw .reason("'\(e.item)': \(e.message)")
        case .success(let entries):
            do {
                self.entries = try TimelineEntry.validated(entries)
            } catch {
                throw .reason("entry \(error.index + 1): \(error.message)")
            }
        }
    }
}

/// `MODEL[:NUMBER]`: a delivery model by its policy-file name, with its interval (seconds) or,
/// for speedElastic, its multiplier (default 1).
extension DeliveryModel: ExpressibleByArgument {
    init(argument text: String) throws(InvalidArgument) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let number = parts.count == 2 ? Double(parts[1]) : nil
        if parts.count == 2, number.map({ !$0.isFinite || $0 < 0 || $0 > 86_400 }) ?? true {
            throw .reason("'\(parts[1])' is not a number of seconds (or a multiplier) from 0 to 86400")
        }
        func interval() throws(InvalidArgument) -> Double {
            guard let number, number > 0 else { throw .reason("\(parts[0]) needs an interval above 0 s, e.g. \(parts[0]):10") }
            return number
        }
        switch parts[0] {
        case "coreLocation" where parts.count == 1: self = .coreLocation
        case "androidFused": self = .androidFused(interval: try interval(), minUpdateInterval: nil)
        case "speedElastic":
            guard (number ?? 1) <= 100 else { throw .reason("the speedElastic multiplier is at most 100, not '\(parts[1])'") }
            self = .speedElastic(elasticityMultiplier: number ?? 1)
        case "distanceOrTime": self = .distanceOrTime(interval: try interval())
        case "distanceAndTime": self = .distanceAndTime(interval: try interval())
        default:
            throw .expected(
                "coreLocation, androidFused:INTERVAL, speedElastic[:MULTIPLIER], distanceOrTime:INTERVAL or distanceAndTime:INTERVAL",
                got: text)
        }
    }
}

extension NetworkModel: ArgumentChoice {}

/// `last` or `extrapolate[:SECONDS]`.
extension ViewerModel: ArgumentRepresentable {
    init(argument text: String) throws(InvalidArgument) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "last" where parts.count == 1: self = .last
        case "extrapolate" where parts.count == 1: self = .extrapolate(maximumSeconds: ViewerModel.defaultExtrapolationSeconds)
        case "extrapolate":
            guard let s = Double(parts[1]), s.isFinite, s > 0, s <= 3600 else {
                throw .reason("'\(parts[1])' is not a number of seconds above 0 and at most 3600")
            }
            self = .extrapolate(maximumSeconds: s)
        default: throw .expected("last or extrapolate[:SECONDS]", got: text)
        }
    }

    var argument: String { key }
}

/// `everyDelivered`, or `deadReckoning[:METRES[,HEARTBEAT]]`: a send rule by its policy-file name,
/// with the dead-reckoning threshold in metres (absent: each state's distance filter) and the
/// heartbeat in seconds (absent: ``SendRule/defaultHeartbeatSeconds``), in the policy file's ranges.
extension SendRule: ExpressibleByArgument {
    init(argument text: String) throws(InvalidArgument) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "everyDelivered" where parts.count == 1: self = .everyDelivered
        case "deadReckoning":
            guard parts.count == 2 else {
                self = .deadReckoning(thresholdMetres: nil, heartbeatSeconds: Self.defaultHeartbeatSeconds)
                return
            }
            let numbers = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard numbers.count <= 2 else {
                throw .reason("'\(text)' has more than METRES and HEARTBEAT; write deadReckoning:METRES,HEARTBEAT")
            }
            guard let metres = Double(numbers[0]), SharingPolicy.Limits.threshold.contains(metres) else {
                throw .reason(
                    numbers[0].isEmpty
                        ? "'\(text)' has no METRES after the colon; write deadReckoning alone for each state's distance filter"
                        : "'\(numbers[0])' is not a threshold in metres from 0.01 to 100000, e.g. deadReckoning:30")
            }
            var heartbeat = Self.defaultHeartbeatSeconds
            if numbers.count == 2 {
                guard let seconds = Double(numbers[1]), SharingPolicy.Limits.interval.contains(seconds) else {
                    throw .reason(
                        numbers[1].isEmpty
                            ? "'\(text)' has no HEARTBEAT after the comma; give seconds from 0.001 to 86400, e.g. deadReckoning:\(numbers[0]),60"
                            : "'\(numbers[1])' is not a heartbeat in seconds from 0.001 to 86400, e.g. deadReckoning:\(numbers[0]),60"
                    )
                }
                heartbeat = seconds
            }
            self = .deadReckoning(thresholdMetres: metres, heartbeatSeconds: heartbeat)
        default:
            throw .expected("everyDelivered or deadReckoning[:METRES[,HEARTBEAT]]", got: text)
        }
    }
}
