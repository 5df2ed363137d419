/// Great-circle distance on a sphere of radius ``MeanEarth/radius`` by the haversine formula.
///
/// Formula: a = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2), d = 2R·asin(√a), with R = 6,371,008.8 m
/// (IUGG mean radius). It is what users expect from "haversine"; as a model of the WGS84
/// ellipsoid its relative error is at most 0.562 % (R / M at the equator, for a short north–south
/// step; 0.560 % is the worst row of Karney's 10,000-line test set, measured by the tests). For
/// distances on the ellipsoid use ``TangentPlane`` (consecutive fixes) or the exact geodesic in
/// `TraceProj`.
///
/// Evaluation: branch-free polynomial kernels on two SIMD lanes (no libm calls); pairs up to 29°
/// apart (3,220 km) with mean latitude within ±80° take a fast kernel, the rest a general one.
/// The scalar and batch functions make the same choice and return bit-identical results. They
/// agree with the textbook formula evaluated with libm to 1e-14 relative (6.6e-15 the worst
/// measured on 200,000 seeded pairs), except near antipodes, where the formula itself is
/// ill-conditioned: there a few ulps of rounding move the result by up to R·√(16ε) ≈ 0.38 m, in
/// libm's evaluation as in this one.
public enum Haversine {
    /// Central angle in radians by the fast kernel, or −1 in lanes outside its domain:
    /// |Δφ| ≤ 30°, |Δλ| ≤ 30°, a ≤ 1/16 (central angle ≤ 29°, 3,220 km) and mean latitude within
    /// ±80°. It uses cos φ₁·cos φ₂ = cos²φₘ − sin²(Δφ/2) (φₘ the mean latitude; both terms are
    /// computed to full relative accuracy, and where they cancel the product is negligible against
    /// sin²(Δφ/2) in a), so three sines instead of four, two of them of small arguments; then
    /// 2·asin(√a) by one short polynomial.
    @inline(__always)
    static func nearCentralAngle(_ lat1: _D2, _ lon1: _D2, _ lat2: _D2, _ lon2: _D2) -> _D2 {
        let k = Double.pi / 180
        let dLat = lat2 - lat1
        let dLon = _wrappedLongitudeDifference(lon1, lon2)
        let s = _sinSmallKernel(dLat * (k / 2))
        let t = _sinSmallKernel(dLon * (k / 2))
        // cos φₘ = sin(90° − |φₘ|); with |φₘ| ≤ 80° the colatitude keeps its relative accuracy.
        let twiceMean = _abs2(lat1 + lat2)
        let c = _sinKernel((90 - twiceMean * 0.5) * k)
        let s2 = s * s
        let a = s2 + (c * c - s2) * (t * t)
        let angle = 2 * _sqrt2(a) * _asinOverXSmall(a)
        let inside = (_max2(_abs2(dLat), _abs2(dLon)) .<= 30) .& (a .<= 0.0625) .& (twiceMean .<= 160)
        return _D2(repeating: -1).replacing(with: angle, where: inside)
    }

    /// Central angle in radians for any pair (the general path: four sines, both asin branches).
    @inline(__always)
    static func generalCentralAngle(_ lat1: _D2, _ lon1: _D2, _ lat2: _D2, _ lon2: _D2) -> _D2 {
        let k = Double.pi / 180
        let sinHalfDLat = _sinKernel((lat2 - lat1) * (k / 2))
        let cos1 = _sinKernel((90 - _abs2(lat1)) * k)  // cos φ = sin(90° − |φ|), exact colatitude
        let cos2 = _sinKernel((90 - _abs2(lat2)) * k)
        let sinHalfDLon = _sinKernel(_abs2(_wrappedLongitudeDifference(lon1, lon2)) * (k / 2))
        let a = sinHalfDLat * sinHalfDLat + cos1 * cos2 * (sinHalfDLon * sinHalfDLon)
        return _twoAsinOfSqrt(_min2(a, _D2(repeating: 1)))
    }

    /// Central angle in radians between two points given in degrees (both lanes the same pair).
    static func centralAngle(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = _D2(repeating: lat1), l1 = _D2(repeating: lon1), p2 = _D2(repeating: lat2), l2 = _D2(repeating: lon2)
        let near = nearCentralAngle(p1, l1, p2, l2)[0]
        return near >= 0 ? near : generalCentralAngle(p1, l1, p2, l2)[0]
    }

    /// Distance in metres between two coordinates on the mean-radius sphere.
    public static func distance(from p: Coordinate, to q: Coordinate) -> Double {
        MeanEarth.radius * centralAngle(p.latitude, p.longitude, q.latitude, q.longitude)
    }

    /// Distances in metres between `from[i]` and `to[i]` for every i, written to `output`.
    ///
    /// Runs over contiguous storage; O(n), no allocation. Package-internal: the buffers are not
    /// validated, so public callers go through ``distances(from:to:)`` (validated columns).
    /// - Precondition: all four buffers have `output.count` elements and hold validated
    ///   degrees (latitudes in [-90, 90], longitudes in (-180, 180]).
    package static func distances(
        latitudes1: UnsafeBufferPointer<Double>, longitudes1: UnsafeBufferPointer<Double>,
        latitudes2: UnsafeBufferPointer<Double>, longitudes2: UnsafeBufferPointer<Double>,
        into output: UnsafeMutableBufferPointer<Double>
    ) {
        let n = output.count
        precondition(latitudes1.count == n && longitudes1.count == n && latitudes2.count == n && longitudes2.count == n)
        guard n > 0 else { return }
        let a1 = latitudes1.baseAddress!, o1 = longitudes1.baseAddress!
        let a2 = latitudes2.baseAddress!, o2 = longitudes2.baseAddress!
        let out = output.baseAddress!
        // Pass 1: two pairs at a time by the fast kernel. Pass 2: the pairs it left negative
        // (far apart or near a pole, rare in traces) by the general kernel, exactly as the scalar path.
        var i = 0
        while i + 4 <= n {  // two independent chains per iteration, so their latencies overlap
            let x = nearCentralAngle(_load2(a1 + i), _load2(o1 + i), _load2(a2 + i), _load2(o2 + i))
            let y = nearCentralAngle(_load2(a1 + i + 2), _load2(o1 + i + 2), _load2(a2 + i + 2), _load2(o2 + i + 2))
            _store2(MeanEarth.radius * x, out + i)
            _store2(MeanEarth.radius * y, out + i + 2)
            i += 4
        }
        while i + 2 <= n {
            _store2(MeanEarth.radius * nearCentralAngle(_load2(a1 + i), _load2(o1 + i), _load2(a2 + i), _load2(o2 + i)), out + i)
            i += 2
        }
        if i < n {
            out[i] =
                MeanEarth.radius
                * nearCentralAngle(
                    _D2(repeating: a1[i]), _D2(repeating: o1[i]), _D2(repeating: a2[i]), _D2(repeating: o2[i]))[0]
        }
        for i in 0..<n where out[i] < 0 {
            out[i] =
                MeanEarth.radius
                * generalCentralAngle(
                    _D2(repeating: a1[i]), _D2(repeating: o1[i]), _D2(repeating: a2[i]), _D2(repeating: o2[i]))[0]
        }
    }

    /// Distances in metres between `from[i]` and `to[i]` for every i.
    /// - Precondition: `from.count == to.count`.
    public static func distances(from: CoordinateColumns, to: CoordinateColumns) -> [Double] {
        precondition(from.count == to.count, "Haversine.distances: \(from.count) and \(to.count) coordinates")
        return [Double](unsafeUninitializedCapacity: from.count) { out, initialized in
            from.latitudes.withUnsafeBufferPointer { a1 in
                from.longitudes.withUnsafeBufferPointer { o1 in
                    to.latitudes.withUnsafeBufferPointer { a2 in
                        to.longitudes.withUnsafeBufferPointer { o2 in
                            distances(latitudes1: a1, longitudes1: o1, latitudes2: a2, longitudes2: o2, into: out)
                        }
                    }
                }
            }
            initialized = from.count
        }
    }

    /// Distances in metres between consecutive coordinates: element i is the distance from
    /// `track[i]` to `track[i + 1]`; empty for fewer than two coordinates.
    public static func stepDistances(along track: CoordinateColumns) -> [Double] {
        let n = max(track.count - 1, 0)
        return [Double](unsafeUninitializedCapacity: n) { out, initialized in
            if n > 0 {
                track.latitudes.withUnsafeBufferPointer { lat in
                    track.longitudes.withUnsafeBufferPointer { lon in
                        distances(
                            latitudes1: UnsafeBufferPointer(rebasing: lat[0..<n]),
                            longitudes1: UnsafeBufferPointer(rebasing: lon[0..<n]),
                            latitudes2: UnsafeBufferPointer(rebasing: lat[1...]),
                            longitudes2: UnsafeBufferPointer(rebasing: lon[1...]),
                            into: out)
                    }
                }
            }
            initialized = n
        }
    }
}
