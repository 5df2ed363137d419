/// One sample of a party's true motion on the trip's clock: seconds since the trip's epoch, metres
/// east and north of the trip's anchor, and the true velocity (m/s).
struct TruthSample {
    var time: Double
    var east: Double, north: Double
    var velocityEast: Double, velocityNorth: Double

    var speed: Double { (velocityEast * velocityEast + velocityNorth * velocityNorth).squareRoot() }
}

/// Where a phone is and so how its fixes look (``PhoneModel``): outdoors moving in a vehicle,
/// outdoors on foot or waiting, or indoors (Wi-Fi and weak GNSS).
enum Surroundings {
    case vehicle, outdoors, indoors
}

/// A stretch of one party's trace: true samples and the surroundings the phone is in.
struct Stretch {
    var samples: [TruthSample]
    var surroundings: Surroundings
}
