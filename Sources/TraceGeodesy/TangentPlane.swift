#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fast ellipsoidal distance between nearby points, such as consecutive GPS fixes.
///
/// Method (mid-latitude tangent plane): with φₘ the mean latitude, the north and east offsets are
/// Δn = M(φₘ)·Δφ and Δe = N(φₘ)·cos φₘ·Δλ on WGS84 (M meridional, N prime-vertical radius of
/// curvature) and the distance is √(Δn² + Δe²). M·π/180 and N·cos φ·π/180 are evaluated by
/// polynomials in (φₘ/90)² (relative error < 1e-9), so a step costs a few dozen flops and a square
/// root, with no libm call, two steps at a time on SIMD lanes.
///
/// Domain and error: the formula is used when both latitudes are within ±``maximumLatitude`` and
/// the planar distance is at most ``maximumDistance``; there the error against Karney's geodesic
/// is below 0.3 mm (measured by the tests: at most 0.038 mm on every row of Karney's test set
/// shorter than 1.2 km with |φ| ≤ 80°, and at most 0.28 mm on 20,000 random pairs up to 2 km). Outside the domain (long distances,
/// near the poles) the functions call the exact ``GeodesicSolver`` they are given, so the
/// result is always within the documented bound of the exact value.
public enum TangentPlane {
    /// Largest latitude magnitude, degrees, for which the fast formula is used.
    public static let maximumLatitude: Double = 80
    /// Largest planar distance, metres, for which the fast formula is used.
    public static let maximumDistance: Double = 2000

    /// North and east offsets in metres from point 1 to point 2 on the mid-latitude tangent plane.
    @inline(__always)
    static func offsets(_ lat1: _D2, _ lon1: _D2, _ lat2: _D2, _ lon2: _D2) -> (north: _D2, east: _D2) {
        let mid = (lat1 + lat2) * 0.5
        let u = (mid * (1.0 / 90)) * (mid * (1.0 / 90))
        return (
            _metresPerDegreeLatitude(u) * (lat2 - lat1),
            _metresPerDegreeLongitude(u) * _wrappedLongitudeDifference(lon1, lon2)
        )
    }

    /// The planar distance in metres, or −1 in lanes outside the domain.
    @inline(__always)
    static func kernel(_ lat1: _D2, _ lon1: _D2, _ lat2: _D2, _ lon2: _D2) -> _D2 {
        let (north, east) = offsets(lat1, lon1, lat2, lon2)
        let d = _sqrt2(north * north + east * east)
        let inside = (_max2(_abs2(lat1), _abs2(lat2)) .<= maximumLatitude) .& (d .<= maximumDistance)
        return _D2(repeating: -1).replacing(with: d, where: inside)
    }

    /// The kernel for one pair (both lanes).
    @inline(__always)
    static func kernel(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        kernel(_D2(repeating: lat1), _D2(repeating: lon1), _D2(repeating: lat2), _D2(repeating: lon2))[0]
    }

    /// The fast distance in metres, or nil when the pair is outside the fast formula's domain.
    public static func distanceIfNear(from p: Coordinate, to q: Coordinate) -> Double? {
        let d = kernel(p.latitude, p.longitude, q.latitude, q.longitude)
        return d >= 0 ? d : nil
    }

    /// A point's scale (metres per degree of latitude and of longitude at its own latitude), so
    /// that a distance from it can be known to be below a threshold without being measured: for a
    /// filter that most fixes do not pass (``isCertainlyBelow(_:to:)``).
    ///
    /// The fast formula takes its scale at the mean latitude of the two points; within 0.05° of
    /// latitude of this point (5.6 km) and ±``maximumLatitude``, that scale differs from this
    /// point's by less than 0.3 % (metres per degree of longitude change as tan φ·Δφ/2: 5.7 ×
    /// 4.4e-4 rad at 80°; of latitude, 3e²·sin φ·cos φ·Δφ/2, 5e-6), so a distance measured with
    /// this point's scale and found below the threshold by more than 1 % is below it by the
    /// fast formula too.
    public struct Screen: Hashable, Sendable {
        public let point: Coordinate
        // Visible to inlined code: the update gate asks the screen at most offers of a tune.
        @usableFromInline let perDegreeLatitude: Double
        @usableFromInline let perDegreeLongitude: Double

        /// The largest latitude difference, degrees, over which the screen decides.
        @usableFromInline static let latitudeSpan = 0.05
        /// The margin: a distance at this point's scale must be below the threshold by this
        /// factor (1 %, over three times the largest change of scale).
        @usableFromInline static let margin = 1.01

        /// Nil beyond ±``TangentPlane/maximumLatitude`` (the fast formula's domain).
        public init?(_ point: Coordinate) {
            guard abs(point.latitude) <= maximumLatitude else { return nil }
            self.point = point
            let u = (point.latitude * (1.0 / 90)) * (point.latitude * (1.0 / 90))
            perDegreeLatitude = _metresPerDegreeLatitude(_D2(repeating: u))[0]
            perDegreeLongitude = _metresPerDegreeLongitude(_D2(repeating: u))[0]
        }

        /// True only when ``TangentPlane/distance(from:to:fallback:)`` from ``point`` to `q` is
        /// below `threshold` metres (whatever the fallback: the pair is then inside the fast
        /// formula's domain); false when that cannot be told this way (`q` over 0.05° of latitude
        /// away or beyond ±``TangentPlane/maximumLatitude``, a threshold not in (0, 1,900] m, a
        /// distance within 1 % of it), which says nothing.
        @inlinable @inline(__always)
        public func isCertainlyBelow(_ threshold: Double, to q: Coordinate) -> Bool {
            let dLat = q.latitude - point.latitude
            guard threshold > 0, threshold <= 1900, abs(dLat) <= Self.latitudeSpan, abs(q.latitude) <= maximumLatitude else { return false }
            let north = perDegreeLatitude * dLat
            let east = perDegreeLongitude * _wrappedLongitudeDifference(point.longitude, q.longitude)
            let bound = threshold / Self.margin
            return north * north + east * east < bound * bound
        }
    }

    /// Distance in metres: the fast formula inside its domain, `exact` elsewhere.
    public static func distance(from p: Coordinate, to q: Coordinate, fallback exact: some GeodesicSolver) -> Double {
        distanceIfNear(from: p, to: q) ?? exact.inverse(from: p, to: q).distance
    }

    /// Distance and azimuths by the fast formula, or nil outside its domain.
    ///
    /// The azimuth of the planar offset, atan2(Δe, Δn), is the geodesic's azimuth at the midpoint;
    /// the ends differ from it by half the meridian convergence γ = Δλ·sin φₘ (azimuth at the
    /// start = planar − γ/2, at the end = planar + γ/2). Azimuth error against Karney: 8.3e-7° at
    /// most on the test set's rows under 1.2 km with |φ| ≤ 80° (the tests hold it to that, with 10 % for other libm).
    /// Identical points get Karney's convention (``GeodesicInverse/coincidentAzimuth(atLatitude:)``).
    /// Uses libm's atan2 and sin (scalar use; the batch functions need no azimuth).
    public static func inverseIfNear(from p: Coordinate, to q: Coordinate) -> GeodesicInverse? {
        guard let d = distanceIfNear(from: p, to: q) else { return nil }
        if p == q {
            let azimuth = GeodesicInverse.coincidentAzimuth(atLatitude: p.latitude)
            return GeodesicInverse(distance: 0, initialAzimuth: azimuth, finalAzimuth: azimuth)
        }
        let (north, east) = offsets(
            _D2(repeating: p.latitude), _D2(repeating: p.longitude), _D2(repeating: q.latitude), _D2(repeating: q.longitude))
        let k = 180 / Double.pi
        let planar = atan2(east[0], north[0]) * k
        let mid = (p.latitude + q.latitude) * 0.5
        let halfConvergence = 0.5 * _wrappedLongitudeDifference(p.longitude, q.longitude) * sin(mid / k)
        return GeodesicInverse(
            distance: d,
            initialAzimuth: Coordinate.normalizedLongitude(planar - halfConvergence),
            finalAzimuth: Coordinate.normalizedLongitude(planar + halfConvergence))
    }

    /// The point `distance` metres from `p` along the initial azimuth `azimuth` (degrees clockwise
    /// from north), by the fast formula solved the other way; nil outside its domain (a distance
    /// that is negative, not finite or over ``maximumDistance``, an azimuth that is not finite, or
    /// either end beyond ±``maximumLatitude``).
    ///
    /// Method: the inverse formula's offsets (Δn, Δe) along the planar azimuth (the initial
    /// azimuth plus half the meridian convergence) are turned back into Δφ and Δλ with the
    /// radii at the mean latitude; the mean latitude and the convergence depend on the end, so the
    /// end is found by fixed-point iteration (three rounds; the step is at most 3e-4 of the Earth's
    /// radius, so each round gains that factor). ``inverseIfNear(from:to:)`` of the result gives back `distance` and
    /// `azimuth` (the tests hold the distance to 1 µm), and the end is within 0.3 mm of Karney's
    /// direct geodesic (the tests compare with `geod_direct`).
    public static func destinationIfNear(from p: Coordinate, azimuth: Double, distance: Double) -> Coordinate? {
        guard distance.isFinite, distance >= 0, distance <= maximumDistance, azimuth.isFinite,
            abs(p.latitude) <= maximumLatitude
        else { return nil }
        if distance == 0 { return p }
        let k = Double.pi / 180
        // sin and cos of the azimuth and of the start's latitude once; the small angles of each
        // round (half the convergence, half the latitude step) by their series to the 5th order
        // (error below 1e-12 of the angle within the domain).
        let sinA = sin(azimuth * k), cosA = cos(azimuth * k)
        let sinP = sin(p.latitude * k), cosP = cos(p.latitude * k)
        var lat = p.latitude, lon = p.longitude
        for _ in 0..<3 {
            let half = (lat - p.latitude) * 0.5
            let mid = p.latitude + half
            let h = half * k, h2 = h * h
            let sinMid = sinP * (1 - h2 / 2 + h2 * h2 / 24) + cosP * h * (1 - h2 / 6 + h2 * h2 / 120)
            let d = 0.5 * _wrappedLongitudeDifference(p.longitude, lon) * sinMid * k  // half the convergence, radians
            let d2 = d * d
            let sinD = d * (1 - d2 / 6 + d2 * d2 / 120), cosD = 1 - d2 / 2 + d2 * d2 / 24
            let u = _D2(repeating: (mid * (1.0 / 90)) * (mid * (1.0 / 90)))
            lat = p.latitude + distance * (cosA * cosD - sinA * sinD) / _metresPerDegreeLatitude(u)[0]
            lon = p.longitude + distance * (sinA * cosD + cosA * sinD) / _metresPerDegreeLongitude(u)[0]
        }
        guard abs(lat) <= maximumLatitude else { return nil }
        return Coordinate(uncheckedLatitude: lat, longitude: Coordinate.normalizedLongitude(lon))
    }

    /// Distance and azimuths: the fast formula inside its domain, `exact` elsewhere.
    public static func inverse(from p: Coordinate, to q: Coordinate, fallback exact: some GeodesicSolver) -> GeodesicInverse {
        inverseIfNear(from: p, to: q) ?? exact.inverse(from: p, to: q)
    }

    /// Distances in metres between consecutive coordinates (element i: from `track[i]` to
    /// `track[i + 1]`), with the exact solver used for the steps outside the fast domain.
    ///
    /// Two passes: a vectorised pass over the columns, then a scan that solves the (rare) steps
    /// the first pass marked. O(n), one allocation (the result).
    public static func stepDistances(along track: CoordinateColumns, fallback exact: some GeodesicSolver) -> [Double] {
        let n = max(track.count - 1, 0)
        return [Double](unsafeUninitializedCapacity: n) { out, initialized in
            if n > 0 {
                track.latitudes.withUnsafeBufferPointer { lat in
                    track.longitudes.withUnsafeBufferPointer { lon in
                        _ = stepDistances(latitudes: lat, longitudes: lon, into: out, fallback: exact)
                    }
                }
            }
            initialized = n
        }
    }

    /// The same as ``stepDistances(along:fallback:)`` for one buffer pair, without allocating:
    /// writes `latitudes.count - 1` distances to `output` and returns how many steps needed the
    /// exact solver. Package-internal: the buffers are not validated.
    /// - Precondition: `latitudes.count == longitudes.count == output.count + 1`, validated degrees.
    package static func stepDistances(
        latitudes: UnsafeBufferPointer<Double>, longitudes: UnsafeBufferPointer<Double>,
        into output: UnsafeMutableBufferPointer<Double>, fallback exact: some GeodesicSolver
    ) -> Int {
        let n = output.count
        precondition(latitudes.count == n + 1 && longitudes.count == n + 1)
        guard n > 0 else { return 0 }
        let a = latitudes.baseAddress!, o = longitudes.baseAddress!, r = output.baseAddress!
        var i = 0
        while i + 2 <= n {
            _store2(kernel(_load2(a + i), _load2(o + i), _load2(a + i + 1), _load2(o + i + 1)), r + i)
            i += 2
        }
        if i < n { r[i] = kernel(a[i], o[i], a[i + 1], o[i + 1]) }
        var slow = 0
        for i in 0..<n where r[i] < 0 {
            let p = Coordinate(uncheckedLatitude: a[i], longitude: o[i])
            let q = Coordinate(uncheckedLatitude: a[i + 1], longitude: o[i + 1])
            r[i] = exact.inverse(from: p, to: q).distance
            slow += 1
        }
        return slow
    }
}
