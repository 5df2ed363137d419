/// A latitude/longitude box that may cross the antimeridian.
///
/// `west` and `east` are the box's edges in (-180, 180]; when `west > east` the box crosses the
/// antimeridian and covers [west, 180] ∪ (-180, east]. A box spanning the whole circle of
/// longitude (it reached a pole, or grew past 360°) is flagged by ``coversAllLongitudes``.
public struct BoundingBox: Hashable, Sendable {
    /// Southern edge, degrees.
    public private(set) var south: Double
    /// Northern edge, degrees.
    public private(set) var north: Double
    /// Western edge, degrees in (-180, 180].
    public private(set) var west: Double
    /// Eastern edge, degrees in (-180, 180].
    public private(set) var east: Double
    /// Whether the box spans all longitudes (then `west` and `east` are not meaningful).
    public private(set) var coversAllLongitudes: Bool

    /// The degenerate box containing only `p` (all longitudes when `p` is a pole: every
    /// longitude names the same point there).
    public init(_ p: Coordinate) {
        south = p.latitude
        north = p.latitude
        west = p.longitude
        east = p.longitude
        coversAllLongitudes = abs(p.latitude) == 90
    }

    /// The smallest box containing every coordinate, or nil for an empty sequence.
    ///
    /// The longitude interval is the complement of the widest empty gap between the points'
    /// longitudes around the circle, so a track crossing the antimeridian gets a narrow box
    /// crossing it rather than one spanning the globe. A box containing a pole covers all
    /// longitudes. O(n log n) for the sort.
    public init?(covering points: some Sequence<Coordinate>) {
        var lons: [Double] = []
        var south = Double.infinity, north = -Double.infinity
        for p in points {
            south = min(south, p.latitude)
            north = max(north, p.latitude)
            lons.append(p.longitude)
        }
        guard !lons.isEmpty else { return nil }
        lons.sort()
        // Widest gap between circularly consecutive longitudes; the box is its complement.
        var gap = lons[0] + 360 - lons[lons.count - 1]
        var west = lons[0], east = lons[lons.count - 1]
        for i in 1..<lons.count where lons[i] - lons[i - 1] > gap {
            gap = lons[i] - lons[i - 1]
            west = lons[i]
            east = lons[i - 1]
        }
        self.south = south
        self.north = north
        self.west = west
        self.east = east
        coversAllLongitudes = south == -90 || north == 90
    }

    /// Longitude span in degrees, [0, 360].
    public var longitudeSpan: Double {
        if coversAllLongitudes { return 360 }
        return west <= east ? east - west : east + 360 - west
    }

    /// Whether the box crosses the antimeridian.
    public var crossesAntimeridian: Bool { !coversAllLongitudes && west > east }

    /// Whether `p` lies inside or on the box.
    public func contains(_ p: Coordinate) -> Bool {
        guard p.latitude >= south, p.latitude <= north else { return false }
        return coversAllLongitudes || containsLongitude(p.longitude)
    }

    /// Grows the box to include `p`, extending in whichever longitude direction (east or west)
    /// adds less span. Streaming-friendly (O(1)); for a set of points known in advance
    /// ``init(covering:)`` gives the minimal box.
    public mutating func extend(toInclude p: Coordinate) {
        south = min(south, p.latitude)
        north = max(north, p.latitude)
        if abs(p.latitude) == 90 { coversAllLongitudes = true }
        guard !coversAllLongitudes, !containsLongitude(p.longitude) else { return }
        let eastward = BoundingBox.eastwardDistance(from: east, to: p.longitude)
        let westward = BoundingBox.eastwardDistance(from: p.longitude, to: west)
        if longitudeSpan + min(eastward, westward) >= 360 {
            coversAllLongitudes = true
        } else if eastward <= westward {
            east = p.longitude
        } else {
            west = p.longitude
        }
    }

    /// The box grown by `metres` in every direction (on the mean-radius sphere), clamped at the
    /// poles; a box that reaches a pole or grows past 360° of longitude covers all longitudes.
    /// - Precondition: `metres` is finite and non-negative.
    public func expanded(byMetres metres: Double) -> BoundingBox {
        precondition(metres.isFinite && metres >= 0, "expanded(byMetres:) needs a finite, non-negative distance")
        var b = self
        let dLat = metres / MeanEarth.radius * 180 / .pi
        b.south = max(south - dLat, -90)
        b.north = min(north + dLat, 90)
        guard !b.coversAllLongitudes else { return b }
        let poleward = max(abs(b.south), abs(b.north))
        if poleward >= 90 {
            b.coversAllLongitudes = true
            return b
        }
        let cosLat = _sinKernel(_D2(repeating: (90 - poleward) * .pi / 180))[0]
        let dLon = dLat / cosLat
        if longitudeSpan + 2 * dLon >= 360 {
            b.coversAllLongitudes = true
        } else {
            b.west = Coordinate.normalizedLongitude(west - dLon)
            b.east = Coordinate.normalizedLongitude(east + dLon)
        }
        return b
    }

    private func containsLongitude(_ lon: Double) -> Bool {
        west <= east ? (lon >= west && lon <= east) : (lon >= west || lon <= east)
    }

    private static func eastwardDistance(from a: Double, to b: Double) -> Double {
        let d = b - a
        return d < 0 ? d + 360 : d
    }
}
