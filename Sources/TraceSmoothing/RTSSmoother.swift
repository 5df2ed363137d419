/// A whole trace through the ``KalmanFilter`` and then the Rauch–Tung–Striebel smoother, for
/// offline replay, in a local east/north plane (metres).
///
/// Storage: struct of arrays in one buffer (one column per quantity, `capacity` rows), reserved
/// up front and reused by ``removeAll()``: no allocation per point once the capacity suffices.
///
/// Method: the forward pass is ``KalmanFilter/update(east:north:variance:at:)`` point by point
/// (rejected fixes keep the prediction; a restart begins an independent run; an invalid fix keeps
/// the previous estimate and its time). The backward pass
/// is RTS (Rauch, Tung and Striebel, AIAA J. 1965) on the shared 2×2 covariance:
/// C = Pₖ Fᵀ (Pₖ₊₁|ₖ)⁻¹, xₖˢ = xₖ + C (xₖ₊₁ˢ − F xₖ), Pₖˢ = Pₖ + C (Pₖ₊₁ˢ − Pₖ₊₁|ₖ) Cᵀ, with the
/// same gain for east and north. The predictions are recomputed rather than stored. A frame
/// change between two points (``switchFrame(_:)``) is applied to the state going forward and
/// undone going backward. O(n) time, 11 doubles and one byte per point.
///
/// A restart is not revisited: the fixes rejected before it keep the old run's predictions
/// (smoothed within that run), and the backward pass does not cross into the old run. Points before
/// the first usable fix have no estimate (``hasEstimate(at:)``).
public struct RTSSmoother: Sendable {
    /// The filter's parameters.
    public let parameters: KalmanParameters
    /// Fixes accepted, rejected, restarts and invalid fixes, after ``run(smoothing:)`` (as
    /// ``KalmanFilter`` counts them).
    public private(set) var accepted = 0, rejected = 0, restarts = 0, invalid = 0
    /// The index of the first point with an estimate (the first usable fix), after
    /// ``run(smoothing:)``; `count` when there is none.
    public private(set) var firstEstimate = 0
    /// Number of points appended.
    public private(set) var count = 0
    private var capacity: Int
    private var storage: [Double]
    private var outcomes: [KalmanOutcome]
    private var switches: [(index: Int, transform: FrameTransform)] = []

    // Column numbers in `storage` (column c, row i at c·capacity + i).
    private static let time = 0, zE = 1, zN = 2, variance = 3, xE = 4, xN = 5, vE = 6, vN = 7, pa = 8, pb = 9, pc = 10
    private static let columns = 11

    /// An empty smoother with room for `capacity` points before it allocates again.
    public init(parameters: KalmanParameters, capacity: Int = 1024) {
        self.parameters = parameters
        self.capacity = max(capacity, 16)
        storage = [Double](repeating: 0, count: Self.columns * self.capacity)
        outcomes = []
        outcomes.reserveCapacity(self.capacity)
    }

    /// Forgets every point, keeping the storage.
    public mutating func removeAll() {
        count = 0
        accepted = 0
        rejected = 0
        restarts = 0
        invalid = 0
        firstEstimate = 0
        outcomes.removeAll(keepingCapacity: true)
        switches.removeAll(keepingCapacity: true)
    }

    /// Appends a fix at (`east`, `north`) metres with variance `variance` m² per axis at `time`
    /// seconds. Times should not decrease (a decrease is treated as no time passing).
    public mutating func append(east: Double, north: Double, variance: Double, at time: Double) {
        if count == capacity { grow() }
        let c = capacity, i = count
        storage.withUnsafeMutableBufferPointer { s in
            s[Self.time * c + i] = time
            s[Self.zE * c + i] = east
            s[Self.zN * c + i] = north
            s[Self.variance * c + i] = variance
        }
        count += 1
    }

    /// Declares that the points appended from now on are in another frame, reached from the
    /// previous points' frame by `transform`.
    ///
    /// A declaration, not an action: declaring again before the next point replaces the earlier
    /// declaration (so a repeated call is harmless), a declaration before the first point is
    /// ignored (there is no earlier frame), and one after the last point takes effect only if a
    /// point follows it.
    public mutating func switchFrame(_ transform: FrameTransform) {
        guard count > 0 else { return }
        if let last = switches.last, last.index == count {
            switches[switches.count - 1].transform = transform
        } else {
            switches.append((count, transform))
        }
    }

    private mutating func grow() {
        let old = capacity, new = 2 * capacity
        var bigger = [Double](repeating: 0, count: Self.columns * new)
        for col in 0..<Self.columns {
            for i in 0..<count { bigger[col * new + i] = storage[col * old + i] }
        }
        storage = bigger
        capacity = new
    }

    /// Runs the forward filter and, when `smoothing`, the backward RTS pass; afterwards the
    /// estimates are read with ``estimate(at:)``.
    public mutating func run(smoothing: Bool = true) {
        outcomes.removeAll(keepingCapacity: true)
        let n = count, c = capacity
        var filter = KalmanFilter(parameters: parameters)
        var next = 0
        storage.withUnsafeMutableBufferPointer { s in
            for i in 0..<n {
                if next < switches.count && switches[next].index == i {
                    filter.apply(switches[next].transform)
                    next += 1
                }
                outcomes.append(
                    filter.update(
                        east: s[Self.zE * c + i], north: s[Self.zN * c + i], variance: s[Self.variance * c + i], at: s[Self.time * c + i]))
                s[Self.time * c + i] = filter.time  // the filter's own (non-decreasing) time
                s[Self.xE * c + i] = filter.east
                s[Self.xN * c + i] = filter.north
                s[Self.vE * c + i] = filter.velocityEast
                s[Self.vN * c + i] = filter.velocityNorth
                s[Self.pa * c + i] = filter.covariance.position
                s[Self.pb * c + i] = filter.covariance.cross
                s[Self.pc * c + i] = filter.covariance.velocity
            }
        }
        accepted = filter.accepted
        rejected = filter.rejected
        restarts = filter.restarts
        invalid = filter.invalid
        firstEstimate = outcomes.firstIndex(of: .initialised) ?? n
        if smoothing && n >= 2 { backward() }
    }

    private mutating func backward() {
        let n = count, c = capacity, q = parameters.processNoise
        // Switches declared after the last point have no point after them.
        var next = switches.count - 1
        while next >= 0 && switches[next].index >= n { next -= 1 }
        let switches = switches
        outcomes.withUnsafeBufferPointer { outcome in
            storage.withUnsafeMutableBufferPointer { s in
                let t = s.baseAddress!  // column 0: the filter's times
                let xE = t + Self.xE * c, xN = t + Self.xN * c, vE = t + Self.vE * c, vN = t + Self.vN * c
                let pa = t + Self.pa * c, pb = t + Self.pb * c, pc = t + Self.pc * c
                // The smoothed state at k + 1, carried down.
                var sE = xE[n - 1], sN = xN[n - 1], sVE = vE[n - 1], sVN = vN[n - 1]
                var sA = pa[n - 1], sB = pb[n - 1], sC = pc[n - 1]
                var k = n - 2
                while k >= 0 {
                    if next >= 0 && switches[next].index == k + 1 {
                        let back = switches[next].transform.inverse
                        (sE, sN) = back.position(sE, sN)
                        (sVE, sVN) = back.vector(sVE, sVN)
                        let s2 = back.scale * back.scale
                        sA *= s2
                        sB *= s2
                        sC *= s2
                        next -= 1
                    }
                    let a = pa[k], b = pb[k], cc = pc[k]
                    let fE = xE[k], fN = xN[k], fVE = vE[k], fVN = vN[k]
                    let o = outcome[k + 1]
                    if o == .invalid {
                        // Point k + 1 kept point k's state and time: the same smoothed state.
                        xE[k] = sE; xN[k] = sN; vE[k] = sVE; vN[k] = sVN
                        pa[k] = sA; pb[k] = sB; pc[k] = sC
                        k -= 1
                        continue
                    }
                    if o == .initialised || o == .restarted {
                        // Point k ends an independent run: its smoothed state is its filtered one.
                        sE = fE; sN = fN; sVE = fVE; sVN = fVN; sA = a; sB = b; sC = cc
                        k -= 1
                        continue
                    }
                    let dt = t[k + 1] - t[k]
                    let qdt = q * dt
                    let ppa = a + dt * (2 * b + dt * cc) + qdt * dt * dt * (1.0 / 3)
                    let ppb = b + dt * cc + 0.5 * qdt * dt
                    let ppc = cc + qdt
                    let det = ppa * ppc - ppb * ppb
                    if det > 0 {
                        let inv = 1 / det
                        let u = a + b * dt, w = b + cc * dt  // first column of P·Fᵀ; the second is (b, cc)
                        let c00 = (u * ppc - b * ppb) * inv, c01 = (b * ppa - u * ppb) * inv
                        let c10 = (w * ppc - cc * ppb) * inv, c11 = (cc * ppa - w * ppb) * inv
                        let dE = sE - (fE + fVE * dt), dVE = sVE - fVE
                        let dN = sN - (fN + fVN * dt), dVN = sVN - fVN
                        sE = fE + c00 * dE + c01 * dVE
                        sVE = fVE + c10 * dE + c11 * dVE
                        sN = fN + c00 * dN + c01 * dVN
                        sVN = fVN + c10 * dN + c11 * dVN
                        let d00 = sA - ppa, d01 = sB - ppb, d11 = sC - ppc
                        let m00 = c00 * d00 + c01 * d01, m01 = c00 * d01 + c01 * d11
                        let m10 = c10 * d00 + c11 * d01, m11 = c10 * d01 + c11 * d11
                        sA = a + m00 * c00 + m01 * c01
                        sB = b + m00 * c10 + m01 * c11
                        sC = cc + m10 * c10 + m11 * c11
                    }
                    // det ≤ 0 happens only with no process noise and no elapsed time: the gain is
                    // the identity and the smoothed state carries over unchanged.
                    xE[k] = sE; xN[k] = sN; vE[k] = sVE; vN[k] = sVN
                    pa[k] = sA; pb[k] = sB; pc[k] = sC
                    k -= 1
                }
            }
        }
    }

    /// The estimate at point `i` (filtered after a forward-only run, smoothed otherwise), in the
    /// frame of that point: position (m), velocity (m/s) and the shared covariance.
    public func estimate(at i: Int) -> (
        east: Double, north: Double, velocityEast: Double, velocityNorth: Double, covariance: AxisCovariance
    ) {
        precondition(i >= 0 && i < outcomes.count, "no estimate at \(i): run() first")
        let c = capacity
        return (
            storage[Self.xE * c + i], storage[Self.xN * c + i], storage[Self.vE * c + i], storage[Self.vN * c + i],
            AxisCovariance(position: storage[Self.pa * c + i], cross: storage[Self.pb * c + i], velocity: storage[Self.pc * c + i])
        )
    }

    /// Whether point `i` has an estimate (after ``run(smoothing:)``): false only for the unusable
    /// points before the first usable one, whose ``estimate(at:)`` is zero.
    public func hasEstimate(at i: Int) -> Bool { i >= firstEstimate }

    /// The measured position of point `i`, in its frame, metres.
    public func measurement(at i: Int) -> (east: Double, north: Double) {
        (storage[Self.zE * capacity + i], storage[Self.zN * capacity + i])
    }

    /// What the filter did with point `i` (after ``run(smoothing:)``).
    public func outcome(at i: Int) -> KalmanOutcome { outcomes[i] }
}
