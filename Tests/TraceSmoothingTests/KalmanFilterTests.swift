import Testing
import TraceGeodesy
import TraceSmoothing

@Suite("Kalman filter")
struct KalmanFilterTests {
    let parameters = KalmanParameters(processNoise: 0.3, initialVelocityVariance: 4)

    @Test("first fix initialises at rest; one update matches the closed form")
    func closedForm() {
        var f = KalmanFilter(parameters: parameters)
        #expect(f.update(east: 10, north: -4, variance: 9, at: 100) == .initialised)
        #expect(f.east == 10 && f.north == -4 && f.velocityEast == 0 && f.covariance == AxisCovariance(position: 9, cross: 0, velocity: 4))
        #expect(f.update(east: 12, north: -4, variance: 9, at: 102) == .accepted)
        // Predicted: P00 = 9 + 4·4 + 0.3·8/3 = 25.8, P01 = 2·4 + 0.3·2 = 8.6, P11 = 4 + 0.6 = 4.6.
        // S = 34.8; K = (25.8, 8.6)/34.8; innovation 2 m east.
        #expect(abs(f.east - (10 + 2 * 25.8 / 34.8)) < 1e-12)
        #expect(abs(f.velocityEast - 2 * 8.6 / 34.8) < 1e-12)
        #expect(abs(f.covariance.position - 25.8 * 9 / 34.8) < 1e-12)
        #expect(abs(f.covariance.cross - 8.6 * 9 / 34.8) < 1e-12)
        #expect(abs(f.covariance.velocity - (4.6 - 8.6 * 8.6 / 34.8)) < 1e-12)
        #expect(abs(f.lastSquaredDistance - 4 / 34.8) < 1e-12)
    }

    @Test("a time before the estimate's is no time: the covariance does not grow or shrink by prediction")
    func backwardsTime() {
        var f = KalmanFilter(parameters: parameters)
        f.update(east: 0, north: 0, variance: 4, at: 10)
        let before = f.covariance
        f.predict(to: 5)
        #expect(f.covariance == before && f.time == 10)
        f.update(east: 0, north: 0, variance: 4, at: 9)
        #expect(f.time == 10 && f.covariance.position < before.position)
    }

    @Test("gating: a fix beyond the gate is rejected and counted; the fifth in a row restarts the filter, counted as a restart only")
    func gatingAndRestart() {
        var f = KalmanFilter(parameters: parameters)
        for t in 0..<20 { f.update(east: 0, north: 0, variance: 4, at: Double(t)) }
        #expect(!f.wouldAccept(east: 100, north: 0, variance: 4, at: 20))
        #expect(f.squaredDistance(east: 100, north: 0, variance: 4, at: 20) > 13.8)
        for k in 0..<4 {
            #expect(f.update(east: 100, north: 0, variance: 4, at: Double(20 + k)) == .rejected)
            #expect(abs(f.east) < 1)
        }
        #expect(f.rejected == 4)
        #expect(f.update(east: 100, north: 0, variance: 4, at: 24) == .restarted)
        #expect(f.east == 100 && f.restarts == 1 && f.rejected == 4)
        #expect(f.update(east: 100.5, north: 0, variance: 4, at: 25) == .accepted)
        #expect(f.accepted == 20 && f.rejected == 4 && f.restarts == 1 && f.invalid == 0)
    }

    /// Unusable inputs: (east, north, variance, time) of the second fix.
    static let unusable: [(String, Double, Double, Double, Double)] = [
        ("NaN east", .nan, 0, 4, 11), ("infinite north", 0, .infinity, 4, 11),
        ("NaN time", 0, 0, 4, .nan), ("infinite time", 0, 0, 4, .infinity), ("−∞ time", 0, 0, 4, -.infinity),
        ("zero variance, no time elapsed", 0, 0, 0, 10), ("negative variance", 0, 0, -1, 11),
        ("infinite variance", 0, 0, .infinity, 11), ("NaN variance", 0, 0, .nan, 11),
    ]

    @Test("an unusable fix is .invalid, counted apart, and leaves the state untouched (never NaN)", arguments: unusable)
    func invalidInputs(name: String, east: Double, north: Double, variance: Double, time: Double) {
        var f = KalmanFilter(parameters: KalmanParameters(processNoise: 0.3, gate: .infinity, initialVelocityVariance: 4))
        #expect(f.update(east: 1, north: 2, variance: 4, at: 10) == .initialised)
        f.update(east: 1.5, north: 2, variance: 4, at: 10.5)
        let before = f
        #expect(f.update(east: east, north: north, variance: variance, at: time) == .invalid, "\(name)")
        #expect(f.invalid == 1 && f.rejected == 0 && f.accepted == 1)
        #expect(f.east == before.east && f.north == before.north && f.velocityEast == before.velocityEast)
        #expect(f.covariance == before.covariance && f.time == before.time)
        #expect(f.squaredDistance(east: east, north: north, variance: variance, at: time).isNaN)
        #expect(!f.wouldAccept(east: east, north: north, variance: variance, at: time), "an infinite gate passes no unusable fix")
        // The clock is not frozen: the next good fix is filtered normally.
        #expect(f.update(east: 2, north: 2, variance: 4, at: 11) == .accepted)
        #expect(f.east.isFinite && f.covariance.position.isFinite && f.covariance.position > 0)
        // Before the first fix too: nothing starts.
        var fresh = KalmanFilter(parameters: parameters)
        #expect(fresh.update(east: east, north: north, variance: variance, at: time) == .invalid)
        #expect(!fresh.isInitialised)
    }

    @Test("reconfigure keeps the state; the new q acts from the next prediction, the new gate from the next fix")
    func reconfigure() {
        var f = KalmanFilter(parameters: parameters)
        for t in 0..<10 { f.update(east: Double(t), north: 0, variance: 4, at: Double(t)) }
        var g = f
        g.reconfigure(KalmanParameters(processNoise: 3, gate: 0.3, initialVelocityVariance: 900))
        #expect(g.east == f.east && g.covariance == f.covariance && g.accepted == f.accepted && g.time == f.time)
        f.predict(to: 12)
        g.predict(to: 12)
        #expect(g.east == f.east && g.covariance.velocity > f.covariance.velocity)
        // A fix 5 m ahead of the prediction: inside the old gate (13.8), outside the new one (0.3;
        // d² is 0.56 with the new q's larger prediction variance).
        #expect(f.wouldAccept(east: 17, north: 0, variance: 4, at: 12))
        #expect(g.squaredDistance(east: 17, north: 0, variance: 4, at: 12) > 0.3)
        #expect(g.update(east: 17, north: 0, variance: 4, at: 12) == .rejected)
    }

    @Test("a frame transform and its inverse are the identity; the filter follows a transform")
    func frameTransforms() {
        let a = LocalFrame(origin: Coordinate(uncheckedLatitude: 60.1, longitude: 24.9))
        let b = LocalFrame(origin: Coordinate(uncheckedLatitude: 60.15, longitude: 25.05))
        let t = FrameTransform(from: a, to: b)
        #expect(abs(t.scale - 1) < 1e-5 && abs(t.sine) > 1e-3)  // meridians converge at 60° N
        let there = t.position(1234.5, -987.25), back = t.inverse.position(there.0, there.1)
        #expect(abs(back.0 - 1234.5) < 1e-9 && abs(back.1 + 987.25) < 1e-9)
        // The new origin maps to zero, and a point 50 m away matches the exact mapping to 0.1 mm
        // (the old frame's anisotropy 10 km out, (d/R)²/2 ≈ 1.2e-6, times 50 m is 60 µm).
        let o = a.eastNorth(of: b.origin)
        let zero = t.position(o.east, o.north)
        #expect(abs(zero.0) < 1e-9 && abs(zero.1) < 1e-9)
        let near = a.coordinate(at: EastNorth(east: o.east + 30, north: o.north - 40))!
        let exact = b.eastNorth(of: near), mapped = t.position(o.east + 30, o.north - 40)
        #expect(abs(exact.east - mapped.0) < 1e-4 && abs(exact.north - mapped.1) < 1e-4)
    }
}
