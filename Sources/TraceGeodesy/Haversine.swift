/// Great-circle distance on a sphere of radius ``MeanEarth/radius`` by the haversine formula.
///
/// Formula: a = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2), d = 2R·asin(√a), with R = 6,371,008.8 m
/// (IUGG mean radius). It is what users expect from "haversine"; as a model of the WGS84 ellipsoid
/// its relative error is at most 0.562 % (R / M at the equator, for a short north–south step;
/// 0.560 % is the worst row of Karney's 10,000-line test set, measured by the tests). For distances on the ellipsoid use ``TangentPlane`` (consecutive fixes) or the
/// exact geodesic in `TraceProj`.
///
/// Evaluation: branch-free polynomial kernels (no libm calls), so the batch functions vectorise;
/// the scalar and batch functions share one kernel and return bit-identical results, which agree
/// with the textbook formula evaluated with libm to about 1e-15 relative (tests check 4e-15).
public enum Haversine {
    /// Central angle in radians between two points given in degrees.
    @inlinable @inline(__always)
    static func centralAngle(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let k = Double.pi / 180
        let sinHalfDLat = _sinKernel((lat2 - lat1) * (k / 2))
        let cos1 = _sinKernel((90 - abs(lat1)) * k)  // cos φ = sin(90° − |φ|), exact colatitude
        let cos2 = _sinKernel((90 - abs(lat2)) * k)
        let sinHalfDLon = _sinKernel(abs(_wrappedLongitudeDifference(lon1, lon2)) * (k / 2))
        let a = sinHalfDLat * sinHalfDLat + cos1 * cos2 * (sinHalfDLon * sinHalfDLon)
        return _twoAsinOfSqrt(min(a, 1))
    }

    /// Distance in metres between two coordinates on the mean-radius sphere.
    @inlinable
    public static func distance(from p: Coordinate, to q: Coordinate) -> Double {
        MeanEarth.radius * centralAngle(p.latitude, p.longitude, q.latitude, q.longitude)
    }

    /// Distances in metres between `from[i]` and `to[i]` for every i, written to `output`.
    ///
    /// Runs over contiguous storage; O(n), no allocation.
    /// - Precondition: all four buffers have `output.count` elements and hold validated
    ///   degrees (latitudes in [-90, 90], longitudes in (-180, 180]).
    @inlinable
    public static func distances(
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
        for i in 0..<n {
            out[i] = MeanEarth.radius * centralAngle(a1[i], o1[i], a2[i], o2[i])
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
