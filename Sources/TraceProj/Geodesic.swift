import CProj
public import TraceGeodesy

/// Exact geodesics on an ellipsoid by Karney's algorithm (C. F. F. Karney, "Algorithms for
/// geodesics", J. Geodesy 87, 2013), as shipped in PROJ's `geodesic.h`.
///
/// Accuracy (measured by the tests on Karney's 10,000-line test set): distance within 7.5 nm on
/// every row; azimuths within 1e-9° (9.6e-10° worst) wherever they are well-conditioned; where
/// the reduced length m12 is tiny (near-conjugate points, very short lines) the azimuth error,
/// as the displacement m12·δα it causes, stays within 15 nm (Karney's own measure).
/// Cost: one `geod_inverse` call, about 0.6 µs for nearby points and 1.1 µs for global ones on
/// this project's machine class (Benchmarks/README.md); the wrapper adds no allocation and no
/// measurable time.
///
/// A value type, safe to share between threads: the `geod_geodesic` parameters are computed once
/// by `geod_init` and only read afterwards.
public struct Geodesic: GeodesicDirectSolver, Sendable {
    private let storage: Storage

    /// The ellipsoid the geodesics are computed on.
    public let ellipsoid: Ellipsoid

    /// A solver for `ellipsoid` (WGS84 by default). Calls `geod_init`, which cannot fail.
    public init(_ ellipsoid: Ellipsoid = .wgs84) {
        self.ellipsoid = ellipsoid
        storage = Storage(ellipsoid)
    }

    /// One WGS84 solver, shared: `geod_init` once a process rather than once for each replay,
    /// phone and decision pass that holds a solver (18,000 times in a tune of the bundled corpus).
    public static let wgs84 = Geodesic()

    /// Solves the inverse problem: the shortest path from `p` to `q`.
    ///
    /// Calls `geod_inverse`, which has no failure mode for valid coordinates (``Coordinate``
    /// guarantees them). For coincident points the distance is 0 and the azimuths are those of the
    /// meridian (0 or 180); at a pole the azimuths follow GeographicLib's convention (the pole's
    /// longitude is taken as given).
    public func inverse(from p: Coordinate, to q: Coordinate) -> GeodesicInverse {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        geod_inverse(storage.pointer, p.latitude, p.longitude, q.latitude, q.longitude, &s12, &azi1, &azi2)
        return GeodesicInverse(distance: s12, initialAzimuth: azi1, finalAzimuth: azi2)
    }

    /// Solves the direct problem: where a geodesic starting at `p` with initial azimuth `azimuth`
    /// (degrees clockwise from north) ends after `distance` metres (negative: backwards).
    ///
    /// Calls `geod_direct`.
    /// - Throws: ``GeodesicError/notFinite`` when `azimuth` or `distance` is NaN or infinite
    ///   (`geod_direct` would return NaN).
    public func direct(from p: Coordinate, azimuth: Double, distance: Double) throws(GeodesicError) -> GeodesicDirect {
        guard azimuth.isFinite, distance.isFinite else { throw .notFinite(azimuth: azimuth, distance: distance) }
        var lat2 = 0.0, lon2 = 0.0, azi2 = 0.0
        geod_direct(storage.pointer, p.latitude, p.longitude, azimuth, distance, &lat2, &lon2, &azi2)
        // geod_direct returns lat2 in [-90, 90] and lon2 in [-180, 180]; normalise -180 to 180.
        let end = Coordinate(uncheckedLatitude: lat2, longitude: Coordinate.normalizedLongitude(lon2))
        return GeodesicDirect(destination: end, finalAzimuth: azi2)
    }

    /// Owns the `geod_geodesic` parameter block on the heap so that calls pass a pointer and never
    /// copy its ~450 bytes. Immutable after `geod_init`, hence safe to share.
    private final class Storage: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<geod_geodesic>

        init(_ e: Ellipsoid) {
            pointer = .allocate(capacity: 1)
            geod_init(pointer, e.equatorialRadius, e.flattening)
        }

        deinit { pointer.deallocate() }
    }
}
