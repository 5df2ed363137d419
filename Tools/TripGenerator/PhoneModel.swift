import TraceDomain
import TraceGeodesy
import TraceIO
import TraceSimulation

/// How a phone turns true motion into fixes: position error, reported horizontal accuracy and
/// speed, per ``Surroundings``. The figures are assumptions chosen to look like a smartphone's
/// Core Location stream (not fitted to data):
///
/// | surroundings | error per axis (Gauss–Markov σ, τ) | reported accuracy | speed |
/// |---|---|---|---|
/// | vehicle | 3 m, 60 s | 4–10 m (about 1.5 σ, wandering) | true speed ± 0.3 m/s |
/// | outdoors | 4 m, 60 s | 5–14 m | true speed ± 0.2 m/s |
/// | indoors | 10 m, 120 s | 15–65 m (Wi-Fi positioning) | not reported (as iOS's −1) |
///
/// Errors are continuous within a party's trace (one unit Gauss–Markov process per phone, scaled
/// by the surroundings' σ), so a phone that stops keeps leaking slow jitter, as real ones do.
struct PhoneModel {
    private var error: GaussMarkovNoise
    private var indoorError: GaussMarkovNoise
    private var accuracyWander: GaussMarkovNoise
    private var speedNoise: WhiteNoise
    private var lastTime: Double?

    init(random: inout SeededRandom) {
        error = GaussMarkovNoise(sigma: 1, tau: 60, seed: random.next())
        indoorError = GaussMarkovNoise(sigma: 1, tau: 120, seed: random.next())
        accuracyWander = GaussMarkovNoise(sigma: 1, tau: 30, seed: random.next())
        speedNoise = WhiteNoise(sigma: 1, seed: random.next())
    }

    /// The fixes of `stretches` (in time order) about `frame`'s origin, starting at `epoch`.
    mutating func fixes(_ stretches: [Stretch], frame: LocalFrame, epoch: Timestamp) throws -> [Fix] {
        var out: [Fix] = []
        for stretch in stretches {
            for s in stretch.samples {
                if let t = lastTime, s.time <= t { continue }  // a stretch starts where the last one ended
                out.append(try fix(s, stretch.surroundings, frame: frame, epoch: epoch))
            }
        }
        return out
    }

    private mutating func fix(_ s: TruthSample, _ where: Surroundings, frame: LocalFrame, epoch: Timestamp) throws -> Fix {
        let dt = lastTime.map { s.time - $0 } ?? 0
        lastTime = s.time
        let outdoor = error.next(dt: dt), indoor = indoorError.next(dt: dt)
        let wander = abs(accuracyWander.next(dt: dt).east)
        let noise = speedNoise.next(dt: dt).east
        let (sigma, e): (Double, (east: Double, north: Double)) =
            switch `where` {
            case .vehicle: (3, outdoor)
            case .outdoors: (4, outdoor)
            case .indoors: (10, indoor)
            }
        let accuracy: Double =
            switch `where` {
            case .vehicle: min(4 + 2 * wander, 10)
            case .outdoors: min(5 + 3 * wander, 14)
            case .indoors: min(15 + 18 * wander, 65)
            }
        guard let c = frame.coordinate(at: EastNorth(east: s.east + sigma * e.east, north: s.north + sigma * e.north)) else {
            preconditionFailure("a trip stays within a few kilometres of its anchor")
        }
        var fix = Fix(
            coordinate: try Coordinate(latitude: Self.rounded(c.latitude, 1e7), longitude: Self.rounded(c.longitude, 1e7)),
            time: Self.timestamp(epoch, plus: s.time))
        fix.horizontalAccuracy = Self.rounded(accuracy, 10)
        switch `where` {
        case .vehicle: fix.speed = Self.rounded(max(s.speed + 0.3 * noise, 0), 100)
        case .outdoors: fix.speed = Self.rounded(max(s.speed + 0.2 * noise, 0), 100)
        case .indoors: break
        }
        return fix
    }

    /// `x` rounded to a multiple of 1 / `scale` (7 decimals of a degree are 1 cm).
    static func rounded(_ x: Double, _ scale: Double) -> Double { (x * scale).rounded() / scale }

    /// `epoch` plus `seconds`, to the millisecond (phones stamp fixes in milliseconds).
    static func timestamp(_ epoch: Timestamp, plus seconds: Double) -> Timestamp {
        Timestamp(nanoseconds: epoch.nanoseconds + Int64((seconds * 1000).rounded()) * 1_000_000)
    }
}
