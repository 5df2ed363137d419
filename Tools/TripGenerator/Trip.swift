import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSharing
import TraceSimulation

/// A generated request: its category, the meeting points, each party's phone trace and the true
/// state timeline, on one clock.
struct Trip {
    /// The folder and file stem, e.g. "ride".
    var name: String
    var category: RequestCategory
    /// Whether a third party (the delegate) is the pickup party.
    var pickupHandedOff: Bool
    var pickup: Coordinate
    var dropoff: Coordinate
    /// Each present party's fixes, in time order.
    var traces: [(role: Role, fixes: [Fix])]
    /// When each state was entered, in order.
    var timeline: [(state: FulfilmentState, at: Timestamp)]
}

/// What every trip shares while it is built: the plane about its anchor, the epoch (when the
/// request was posted), the leg builder and the seed of each phone.
struct TripContext {
    let frame: LocalFrame
    let epoch: Timestamp
    var legs: LegBuilder
    var random: SeededRandom

    init(anchor: Coordinate, epoch: String, random: SeededRandom) {
        frame = LocalFrame(origin: anchor)
        self.epoch = Timestamp.parseISO8601(epoch)!.timestamp
        var r = random
        legs = LegBuilder(random: r.split())
        self.random = r
    }

    /// A whole number of seconds in [`low`, `high`] (timings between events).
    mutating func seconds(_ low: Double, _ high: Double) -> Double { random.uniform(low, high).rounded() }

    /// A length in metres in [`low`, `high`].
    mutating func metres(_ low: Double, _ high: Double) -> Double { random.uniform(low, high) }

    /// The coordinate of plane point (`east`, `north`), to 7 decimals (as in the traces).
    func coordinate(east: Double, north: Double) throws -> Coordinate {
        guard let c = frame.coordinate(at: EastNorth(east: east, north: north)) else {
            preconditionFailure("a trip stays within a few kilometres of its anchor")
        }
        return try Coordinate(latitude: PhoneModel.rounded(c.latitude, 1e7), longitude: PhoneModel.rounded(c.longitude, 1e7))
    }

    /// The fixes of one phone over `stretches`.
    mutating func phone(_ stretches: [Stretch]) throws -> [Fix] {
        var model = PhoneModel(random: &random)
        return try model.fixes(stretches, frame: frame, epoch: epoch)
    }

    /// Every state in order: Finding Villager at the epoch, then Accepted … Completed at these
    /// seconds after it.
    func timeline(_ seconds: [Double]) -> [(state: FulfilmentState, at: Timestamp)] {
        precondition(
            seconds.count == FulfilmentState.allCases.count - 1 && seconds == seconds.sorted(),
            "one time per state after Finding Villager, in order")
        return zip(FulfilmentState.allCases, [0] + seconds).map { ($0, instant($1)) }
    }

    /// The instant `seconds` after the epoch, to the millisecond.
    func instant(_ seconds: Double) -> Timestamp { PhoneModel.timestamp(epoch, plus: seconds) }
}

extension [TruthSample] {
    /// The first sample of a leg (legs are never empty).
    var start: TruthSample { self[0] }
    /// The last sample of a leg.
    var end: TruthSample { self[count - 1] }
    /// Seconds from the first sample to the last.
    var duration: Double { end.time - start.time }
}
