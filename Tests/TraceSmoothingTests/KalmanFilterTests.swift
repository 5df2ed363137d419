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

    @Test("gating: a fix beyond the gate is rejected and counted; the fifth in a row restarts the filter")
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
        #expect(f.east == 100 && f.restarts == 1 && f.rejected == 5)
        #expect(f.update(east: 100.5, north: 0, variance: 4, at: 25) == .accepted)
        // NaN never passes the gate.
        #expect(f.update(east: .nan, north: 0, variance: 4, at: 26) == .rejected)
        #expect(f.east.isFinite)
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
