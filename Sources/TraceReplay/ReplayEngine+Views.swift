import TraceDomain
import TraceEnergy
import TraceGeodesy

/// The realistic network's figures over a replay: updates sent towards viewers, lost, discarded
/// as overtaken, still on their way at the end, and the delays of those not lost.
struct NetworkTally {
    var toViewers = 0
    var lost = 0
    var overtaken = 0
    var inFlightAtEnd = 0
    var delay = QuantileHistogram()
}

extension Engine {
    /// Realistic network: the arrivals of the updates on their way and the ticks of the viewers'
    /// clock (``ViewClock``), in time order, up to (not including) trace time `t`. An arrival and a
    /// tick at the same time: the arrival first. Nothing after a cancellation (the request is over;
    /// updates still on their way are never shown).
    ///
    /// A tick only samples the views, so when the state shows no viewer of
    /// ``ReplayOptions/sampledViews`` anything, the arrivals are taken alone and the clock jumps
    /// to its first tick not before `t` (the state cannot change within one call: a state change
    /// advances the views to its time first).
    mutating func advanceViews(before t: Int64) {
        guard options.network == .realistic, !timeline.cancelled else { return }
        let ct = meters.clock(t)
        if viewerSets == nil { viewerSets = currentViewers() }
        if viewerSets!.isEmpty {
            while views.nextArrival < t { arrive(views.popArrival()) }
            if views.nextTick < ct {
                let period = ViewClock.periodNanoseconds
                views.nextTick &+= (ct &- views.nextTick &+ period &- 1) / period &* period
            }
            return
        }
        while true {
            let tickDue = views.nextTick < ct
            // Ticks are taken in order, never behind the latest recording gap, so the trace time of
            // one is its request time plus everything excluded so far.
            let tickTime = tickDue ? views.nextTick &+ meters.excluded : .max
            let a = views.nextArrival
            if a < t && a <= tickTime {
                arrive(views.popArrival())
                continue
            }
            guard tickDue else { break }
            views.sampleTick(
                at: tickTime, clock: views.nextTick, state: timeline.machine.state, viewers: viewerSets!, gap: gapNanoseconds)
            views.nextTick &+= ViewClock.periodNanoseconds
        }
    }

    /// Who sees each sender's location now and is sampled (the relay's decision in the current
    /// state, narrowed to ``ReplayOptions/sampledViews``; cached in ``viewerSets`` until the state
    /// changes).
    @inline(__always)
    private func currentViewers() -> ViewerSets {
        let state = timeline.machine.state, handedOff = timeline.machine.request.pickupHandedOff
        let sampled = options.sampledViews[state]
        return ViewerSets(
            hirer: relay.viewers(ofLocationFrom: .hirer, in: state, isRide: isRide, pickupHandedOff: handedOff).intersection(sampled),
            helper: relay.viewers(ofLocationFrom: .helper, in: state, isRide: isRide, pickupHandedOff: handedOff).intersection(sampled),
            delegate: relay.viewers(ofLocationFrom: .delegate, in: state, isRide: isRide, pickupHandedOff: handedOff).intersection(sampled))
    }

    /// Realistic network: `update`, sent at trace time `time`, leaves the sender's phone
    /// `leaves` seconds later; it reaches `viewer` after the uplink and the drawn
    /// backend-and-downlink delay, or is lost.
    mutating func send(
        _ update: ViewUpdate, of state: FulfilmentState, at time: Int64, leavingAfter leaves: Double, from sender: Role, to viewer: Role
    ) {
        let profile = options.energyProfile.network
        let draw = NetworkDraw(profile, seed: options.phone.seed, sender: sender, viewer: viewer, fixTime: time)
        network.toViewers += 1
        if draw.lost {
            network.lost += 1
            return
        }
        let delay = max(leaves, 0) + profile.uplinkSeconds + draw.backendSeconds
        network.delay.add(delay * 1000)  // milliseconds: the histogram resolves 0.1
        views.schedule(
            Views.InFlight(
                arrival: time &+ Int64((delay * 1e9).rounded()), sender: sender, viewer: viewer, state: state, update: update))
    }

    /// An update reaches its viewer: the viewer's radio receives it (when receivers are charged; the
    /// energy goes to the state the update was sent in),
    /// the viewer shows it unless a later one overtook it, and an update from the helper may
    /// show its arrival at the pickup or the dropoff.
    private mutating func arrive(_ f: Views.InFlight) {
        if options.receiverRadio && meters.takesPart(f.viewer) {
            meters.radio(f.viewer, at: meters.seconds(f.arrival), state: f.state, receiving: true)
        }
        guard views.receive(f) else {
            network.overtaken += 1
            return
        }
        if f.sender == .helper && f.viewer != .helper { arrivals.update(f.update.coordinate, at: f.arrival, to: f.viewer) }
    }
}
