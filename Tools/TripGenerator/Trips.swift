import TraceGeodesy
import TraceSharing
import TraceSimulation

/// The corpus's trips. Each takes its own random stream, so adding a trip never changes another.
///
/// Times are seconds after the request was posted (Finding Villager). Every figure below is an
/// assumption about an ordinary trip in a city, not a measurement.
enum Trips {
    /// The trips in the order the generator writes them.
    static var all: [(name: String, make: (SeededRandom) throws -> Trip)] {
        [
            ("ride", ride), ("dog-walk", dogWalk), ("third-party-pickup", thirdPartyPickup),
        ]
    }

    /// A ride: the helper drives 3–5 km to the pickup, waits 2–4 min while the hirer walks
    /// 270–330 m from home to the pickup, then drives the hirer 4.5–5.5 km to the dropoff.
    /// The hirer's phone is at home (indoors), walking, waiting at the pickup, in the car (the same
    /// true path as the helper's, its own errors) and at the dropoff.
    static func ride(_ random: SeededRandom) throws -> Trip {
        var c = TripContext(anchor: try Coordinate(latitude: 47.3779, longitude: 8.5403), epoch: "2024-05-01T08:00:00Z", random: random)
        let accepted = c.seconds(40, 120)
        let departs = accepted + c.seconds(20, 60)
        let toPickup = LegBuilder.ending(
            c.legs.leg(.drive, length: c.metres(3000, 5000), sampling: .vehicle),
            atEast: 0, north: 0, startTime: departs)
        let arrives = toPickup.end.time
        let leaves = arrives + c.seconds(120, 240)
        let walk = c.legs.leg(.walk, length: c.metres(270, 330), sampling: .walking)
        let hirerArrives = leaves - c.seconds(15, 30)
        let hirerWalk = LegBuilder.ending(walk, atEast: 0, north: 0, startTime: hirerArrives - walk.duration)
        precondition(hirerWalk.start.time > accepted, "the hirer leaves home after the request is accepted")
        let ride = LegBuilder.starting(
            c.legs.leg(.drive, length: c.metres(4500, 5500), sampling: .vehicle),
            atEast: 0, north: 0, time: leaves)
        let dropsOff = ride.end.time
        let completes = dropsOff + c.seconds(30, 90)
        let home = hirerWalk.start, origin = toPickup.start, dropoff = ride.end

        let helper = try c.phone([
            Stretch(
                samples: c.legs.dwell(east: origin.east, north: origin.north, from: accepted, to: departs, sampling: .vehicle),
                surroundings: .vehicle),
            Stretch(samples: toPickup, surroundings: .vehicle),
            Stretch(samples: c.legs.dwell(east: 0, north: 0, from: arrives, to: leaves, sampling: .vehicle), surroundings: .vehicle),
            Stretch(samples: ride, surroundings: .vehicle),
            Stretch(
                samples: c.legs.dwell(east: dropoff.east, north: dropoff.north, from: dropsOff, to: completes, sampling: .vehicle),
                surroundings: .vehicle),
        ])
        let hirer = try c.phone([
            Stretch(
                samples: c.legs.dwell(east: home.east, north: home.north, from: accepted, to: hirerWalk.start.time, sampling: .resting),
                surroundings: .indoors),
            Stretch(samples: hirerWalk, surroundings: .outdoors),
            Stretch(samples: c.legs.dwell(east: 0, north: 0, from: hirerArrives, to: leaves, sampling: .walking), surroundings: .outdoors),
            Stretch(samples: ride, surroundings: .vehicle),
            Stretch(
                samples: c.legs.dwell(east: dropoff.east, north: dropoff.north, from: dropsOff, to: completes, sampling: .walking),
                surroundings: .outdoors),
        ])
        return Trip(
            name: "ride", category: .ride, pickupHandedOff: false,
            pickup: try c.coordinate(east: 0, north: 0), dropoff: try c.coordinate(east: dropoff.east, north: dropoff.north),
            traces: [(.helper, helper), (.hirer, hirer)],
            timeline: c.timeline([accepted, departs, arrives, leaves, dropsOff, completes]))
    }

    /// Dog walking (not a ride): the helper walks 0.8–1.2 km to the hirer's home, takes the dog
    /// (1–2.5 min at the door), walks it for about 30 min (28–32) in a loop back to the door and
    /// hands it back (30–90 s). The hirer's phone stays at home, indoors, the whole time; its
    /// location must never be shared (the policy's job: the corpus only provides the data).
    /// Pickup and dropoff are both the hirer's door.
    static func dogWalk(_ random: SeededRandom) throws -> Trip {
        var c = TripContext(anchor: try Coordinate(latitude: 47.3917, longitude: 8.5203), epoch: "2024-05-01T17:30:00Z", random: random)
        let accepted = c.seconds(60, 180)
        let departs = accepted + c.seconds(30, 90)
        let toDoor = LegBuilder.ending(
            c.legs.leg(.walk, length: c.metres(800, 1200), sampling: .walking),
            atEast: 0, north: 0, startTime: departs)
        let arrives = toDoor.end.time
        let setsOff = arrives + c.seconds(60, 150)
        let loop = LegBuilder.starting(
            c.legs.loop(.walk, duration: c.seconds(1680, 1920), sampling: .walking),
            atEast: 0, north: 0, time: setsOff)
        let returns = loop.end.time
        let handedBack = returns + c.seconds(30, 90)
        let completes = handedBack + c.seconds(60, 180)
        let helperHome = toDoor.start

        let helper = try c.phone([
            Stretch(
                samples: c.legs.dwell(east: helperHome.east, north: helperHome.north, from: accepted, to: departs, sampling: .resting),
                surroundings: .indoors),
            Stretch(samples: toDoor, surroundings: .outdoors),
            Stretch(samples: c.legs.dwell(east: 0, north: 0, from: arrives, to: setsOff, sampling: .walking), surroundings: .outdoors),
            Stretch(samples: loop, surroundings: .outdoors),
            Stretch(samples: c.legs.dwell(east: 0, north: 0, from: returns, to: completes, sampling: .walking), surroundings: .outdoors),
        ])
        let hirer = try c.phone([
            Stretch(samples: c.legs.dwell(east: 0, north: 0, from: accepted, to: completes, sampling: .resting), surroundings: .indoors)
        ])
        let door = try c.coordinate(east: 0, north: 0)
        return Trip(
            name: "dog-walk", category: .dogWalking, pickupHandedOff: false, pickup: door, dropoff: door,
            traces: [(.helper, helper), (.hirer, hirer)],
            timeline: c.timeline([accepted, departs, arrives, setsOff, handedBack, completes]))
    }

    /// A delivery with a third-party pickup: the hirer designated a delegate (say a friend
    /// handing over a parcel). The helper cycles 1.2–1.8 km to the pickup and waits 1–2.5 min
    /// while the delegate walks 120–200 m from their door to the kerb; the hand-over takes
    /// 20–40 s, then the delegate walks back the same way and the helper cycles 1.8–2.6 km to the
    /// hirer's home (the dropoff) and hands the parcel over (30–90 s). The hirer's phone stays at
    /// home, indoors. `pickupHandedOff` is true: the "hirer" locations come from the delegate.
    static func thirdPartyPickup(_ random: SeededRandom) throws -> Trip {
        var c = TripContext(anchor: try Coordinate(latitude: 47.3667, longitude: 8.5450), epoch: "2024-05-02T12:00:00Z", random: random)
        let accepted = c.seconds(30, 120)
        let departs = accepted + c.seconds(30, 90)
        let toPickup = LegBuilder.ending(
            c.legs.leg(.bike, length: c.metres(1200, 1800), sampling: .vehicle),
            atEast: 0, north: 0, startTime: departs)
        let arrives = toPickup.end.time
        let leaves = arrives + c.seconds(60, 150)
        let walk = c.legs.leg(.walk, length: c.metres(120, 200), sampling: .walking)
        let delegateArrives = leaves - c.seconds(20, 40)
        let delegateOut = LegBuilder.ending(walk, atEast: 0, north: 0, startTime: delegateArrives - walk.duration)
        precondition(delegateOut.start.time > accepted, "the delegate leaves after the request is accepted")
        let delegateBack = LegBuilder.reversed(delegateOut, startTime: leaves)
        let toDropoff = LegBuilder.starting(
            c.legs.leg(.bike, length: c.metres(1800, 2600), sampling: .vehicle),
            atEast: 0, north: 0, time: leaves)
        let delivers = toDropoff.end.time
        let handedOver = delivers + c.seconds(30, 90)
        let completes = handedOver + c.seconds(60, 180)
        let origin = toPickup.start, delegateHome = delegateOut.start, hirerHome = toDropoff.end

        let helper = try c.phone([
            Stretch(
                samples: c.legs.dwell(east: origin.east, north: origin.north, from: accepted, to: departs, sampling: .walking),
                surroundings: .outdoors),
            Stretch(samples: toPickup, surroundings: .vehicle),
            Stretch(samples: c.legs.dwell(east: 0, north: 0, from: arrives, to: leaves, sampling: .walking), surroundings: .outdoors),
            Stretch(samples: toDropoff, surroundings: .vehicle),
            Stretch(
                samples: c.legs.dwell(east: hirerHome.east, north: hirerHome.north, from: delivers, to: completes, sampling: .walking),
                surroundings: .outdoors),
        ])
        let hirer = try c.phone([
            Stretch(
                samples: c.legs.dwell(east: hirerHome.east, north: hirerHome.north, from: accepted, to: completes, sampling: .resting),
                surroundings: .indoors)
        ])
        let delegate = try c.phone([
            Stretch(
                samples: c.legs.dwell(
                    east: delegateHome.east, north: delegateHome.north, from: accepted, to: delegateOut.start.time, sampling: .resting),
                surroundings: .indoors),
            Stretch(samples: delegateOut, surroundings: .outdoors),
            Stretch(
                samples: c.legs.dwell(east: 0, north: 0, from: delegateArrives, to: leaves, sampling: .walking), surroundings: .outdoors),
            Stretch(samples: delegateBack, surroundings: .outdoors),
            Stretch(
                samples: c.legs.dwell(
                    east: delegateHome.east, north: delegateHome.north, from: delegateBack.end.time, to: completes, sampling: .resting),
                surroundings: .indoors),
        ])
        return Trip(
            name: "third-party-pickup", category: .delivery, pickupHandedOff: true,
            pickup: try c.coordinate(east: 0, north: 0), dropoff: try c.coordinate(east: hirerHome.east, north: hirerHome.north),
            traces: [(.helper, helper), (.hirer, hirer), (.delegate, delegate)],
            timeline: c.timeline([accepted, departs, arrives, leaves, handedOver, completes]))
    }
}
