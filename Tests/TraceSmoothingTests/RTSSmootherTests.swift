import Testing
import TraceGeodesy
import TraceSmoothing

/// The RTS pass against an independent dense computation, and the frame-switch declarations.
@Suite("RTS smoother")
struct RTSSmootherTests {
    typealias Matrix = [[Double]]

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<a.count).map { i in (0..<b[0].count).map { j in (0..<b.count).reduce(0.0) { $0 + a[i][$1] * b[$1][j] } } }
    }
    static func transpose(_ a: Matrix) -> Matrix { (0..<a[0].count).map { j in (0..<a.count).map { a[$0][j] } } }
    static func add(_ a: Matrix, _ b: Matrix, _ sign: Double = 1) -> Matrix {
        (0..<a.count).map { i in (0..<a[0].count).map { a[i][$0] + sign * b[i][$0] } }
    }
    /// Gauss–Jordan inverse with partial pivoting.
    static func inverse(_ m: Matrix) -> Matrix {
        let n = m.count
        var a = m.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        for c in 0..<n {
            let p = (c..<n).max { abs(a[$0][c]) < abs(a[$1][c]) }!
            a.swapAt(c, p)
            let d = a[c][c]
            a[c] = a[c].map { $0 / d }
            for r in 0..<n where r != c {
                let f = a[r][c]
                a[r] = (0..<2 * n).map { a[r][$0] - f * a[c][$0] }
            }
        }
        return a.map { Array($0[n...]) }
    }

    /// Every estimate of `s` against the dense states `x` and covariances `p`, to 1e-9.
    static func check(_ s: RTSSmoother, _ x: [Matrix], _ p: [Matrix], _ name: String) {
        for k in x.indices {
            let e = s.estimate(at: k)
            #expect(abs(e.east - x[k][0][0]) < 1e-9 && abs(e.north - x[k][1][0]) < 1e-9, "\(name) position \(k)")
            #expect(abs(e.velocityEast - x[k][2][0]) < 1e-9 && abs(e.velocityNorth - x[k][3][0]) < 1e-9, "\(name) velocity \(k)")
            #expect(
                abs(e.covariance.position - p[k][0][0]) < 1e-9 && abs(e.covariance.cross - p[k][0][2]) < 1e-9
                    && abs(e.covariance.velocity - p[k][2][2]) < 1e-9, "\(name) covariance \(k)")
        }
    }

    @Test("ten irregular fixes: forward filter and RTS equal a dense 4×4 textbook computation to 1e-9")
    func denseReference() {
        let q = 0.7, v0 = 9.0
        let times = [0, 1, 2.5, 3, 4.75, 5, 7, 7.2, 9, 10.5]
        let zE = [0, 1.2, 3.1, 2.9, 6.4, 5.8, 9.9, 10.3, 12.2, 15.1], zN = [0, -0.5, 0.4, 1.6, 1.1, 2.9, 3.3, 2.7, 4.8, 5.2]
        let r = [4, 9, 2.5, 4, 16, 4, 1, 6.25, 4, 9]
        var rts = RTSSmoother(parameters: KalmanParameters(processNoise: q, gate: .infinity, initialVelocityVariance: v0))
        for i in 0..<10 { rts.append(east: zE[i], north: zN[i], variance: r[i], at: times[i]) }
        var forward = rts
        forward.run(smoothing: false)
        rts.run(smoothing: true)

        // State (e, n, ve, vn); H picks the positions.
        let h: Matrix = [[1, 0, 0, 0], [0, 1, 0, 0]]
        var x: [Matrix] = [], p: [Matrix] = [], xPred: [Matrix] = [], pPred: [Matrix] = [], fs: [Matrix] = []
        for k in 0..<10 {
            let z: Matrix = [[zE[k]], [zN[k]]], rk: Matrix = [[r[k], 0], [0, r[k]]]
            if k == 0 {
                x.append([[zE[0]], [zN[0]], [0], [0]])
                p.append([[r[0], 0, 0, 0], [0, r[0], 0, 0], [0, 0, v0, 0], [0, 0, 0, v0]])
                xPred.append(x[0]); pPred.append(p[0]); fs.append(h)
                continue
            }
            let dt = times[k] - times[k - 1]
            let f: Matrix = [[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]]
            let a = q * dt * dt * dt / 3, b = q * dt * dt / 2, c = q * dt
            let qm: Matrix = [[a, 0, b, 0], [0, a, 0, b], [b, 0, c, 0], [0, b, 0, c]]
            let xp = Self.multiply(f, x[k - 1])
            let pp = Self.add(Self.multiply(Self.multiply(f, p[k - 1]), Self.transpose(f)), qm)
            let s = Self.add(Self.multiply(Self.multiply(h, pp), Self.transpose(h)), rk)
            let gain = Self.multiply(Self.multiply(pp, Self.transpose(h)), Self.inverse(s))
            x.append(Self.add(xp, Self.multiply(gain, Self.add(z, Self.multiply(h, xp), -1))))
            let identity: Matrix = (0..<4).map { i in (0..<4).map { $0 == i ? 1.0 : 0.0 } }
            p.append(Self.multiply(Self.add(identity, Self.multiply(gain, h), -1), pp))
            xPred.append(xp); pPred.append(pp); fs.append(f)
        }
        Self.check(forward, x, p, "filtered")
        // RTS: C = P_k Fᵀ (P_{k+1|k})⁻¹, x_k^s = x_k + C (x_{k+1}^s − x_{k+1|k}), P_k^s = P_k + C (P_{k+1}^s − P_{k+1|k}) Cᵀ.
        var xs = x, ps = p
        for k in stride(from: 8, through: 0, by: -1) {
            let c = Self.multiply(Self.multiply(p[k], Self.transpose(fs[k + 1])), Self.inverse(pPred[k + 1]))
            xs[k] = Self.add(x[k], Self.multiply(c, Self.add(xs[k + 1], xPred[k + 1], -1)))
            ps[k] = Self.add(p[k], Self.multiply(Self.multiply(c, Self.add(ps[k + 1], pPred[k + 1], -1)), Self.transpose(c)))
        }
        Self.check(rts, xs, ps, "smoothed")
        for k in 0..<10 {
            // The dense covariance keeps the axes independent and equal, as the shared 2×2 assumes.
            #expect(abs(ps[k][0][1]) < 1e-12 && abs(ps[k][0][0] - ps[k][1][1]) < 1e-9)
        }
        #expect(rts.accepted == 9 && rts.rejected == 0)
    }

    /// Twelve points along a line, in frame A for indices before each switch and in the frames
    /// reached by `moves` (index, transform) after; returns the smoothed positions mapped back to A.
    static func smoothed(moves: [(Int, FrameTransform)], declared: [(Int, FrameTransform)]) -> [(Double, Double)] {
        var s = RTSSmoother(parameters: KalmanParameters(processNoise: 0.5, initialVelocityVariance: 4))
        var toCurrent = FrameTransform.identity, chain: [FrameTransform] = []
        for i in 0..<12 {
            for (k, t) in declared where k == i { s.switchFrame(t) }
            for (k, t) in moves where k == i {
                toCurrent = compose(toCurrent, t)
            }
            chain.append(toCurrent)
            let (e, n) = toCurrent.position(2 * Double(i) + 0.3 * Double(i % 3), Double(i) - 0.2 * Double(i % 2))
            s.append(east: e, north: n, variance: 1, at: Double(i))
        }
        for (k, t) in declared where k == 12 { s.switchFrame(t) }
        s.run()
        return (0..<12).map { i in
            let e = s.estimate(at: i)
            return chain[i].inverse.position(e.east, e.north)
        }
    }

    /// a then b, as one transform (both similarities).
    static func compose(_ a: FrameTransform, _ b: FrameTransform) -> FrameTransform {
        let (oe, on) = a.inverse.position(b.offset.east, b.offset.north)
        let cosine = a.cosine * b.cosine - a.sine * b.sine, sine = a.sine * b.cosine + a.cosine * b.sine
        return FrameTransform(offset: EastNorth(east: oe, north: on), cosine: cosine, sine: sine, scale: a.scale * b.scale)
    }

    static let t = FrameTransform(offset: EastNorth(east: 7, north: -3), cosine: 0.8, sine: 0.6, scale: 1)
    static let u = FrameTransform(offset: EastNorth(east: -2, north: 5), cosine: 0.6, sine: -0.8, scale: 1)

    @Test("switchFrame: a repeated declaration, one after the last point, one before the first change nothing")
    func switchDeclarations() {
        let reference = Self.smoothed(moves: [], declared: [])
        let plain = Self.smoothed(moves: [(5, Self.t), (8, Self.u)], declared: [(5, Self.t), (8, Self.u)])
        let twice = Self.smoothed(moves: [(5, Self.t), (8, Self.u)], declared: [(5, Self.t), (5, Self.t), (8, Self.u)])
        let trailing = Self.smoothed(moves: [(5, Self.t), (8, Self.u)], declared: [(5, Self.t), (8, Self.u), (12, Self.t)])
        let leading = Self.smoothed(moves: [(5, Self.t), (8, Self.u)], declared: [(0, Self.u), (5, Self.t), (8, Self.u)])
        for (name, run) in [("plain", plain), ("twice", twice), ("trailing", trailing), ("leading", leading)] {
            for i in 0..<12 {
                #expect(abs(run[i].0 - reference[i].0) < 1e-9 && abs(run[i].1 - reference[i].1) < 1e-9, "\(name), point \(i)")
            }
        }
    }
}
