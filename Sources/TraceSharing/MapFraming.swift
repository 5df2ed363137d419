public import TraceDomain
public import TraceGeodesy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A map region: a centre and spans, like MapKit's `MKCoordinateRegion`.
public struct MapRegion: Hashable, Sendable {
    /// The centre of the region.
    public var center: Coordinate
    /// North–south extent, degrees (≤ 180).
    public var latitudeDelta: Double
    /// East–west extent, degrees (≤ 360).
    public var longitudeDelta: Double
    /// The region's smaller ground extent (north–south or east–west through the centre), metres.
    public var minimumSpan: Double
}

extension SharingPolicy {
    /// The map region a viewer's map shows in `state`, given where the annotations it sees are.
    ///
    /// The region is the bounding box of the positions of the visible annotations (see
    /// ``annotations(seenBy:in:for:)``), crossing the antimeridian when that is narrower, grown
    /// about its centre until both its north–south and east–west extents reach the state's frame
    /// (the seed's "Map Frame"). The region is moved, not shrunk, to stay within ±90°; a region
    /// that reaches a pole, or whose frame cannot fit between the meridians, spans 360°. Distances on the mean-radius sphere (a frame is a
    /// display span; 0.5 % does not matter there). Returns nil when no visible annotation has a
    /// position.
    public func region(
        for viewer: Role, in state: FulfilmentState, request: RequestContext,
        positions: [MapAnnotation: Coordinate]
    ) -> MapRegion? {
        let visible = annotations(seenBy: viewer, in: state, for: request)
        let points = visible.sorted().compactMap { positions[$0] }
        guard let box = BoundingBox(covering: points) else { return nil }
        return MapRegion(around: box, minimumSpan: self[state].frame)
    }
}

extension MapRegion {
    /// The region covering `box`, grown about its centre so that each extent is at least
    /// `minimumSpan` metres.
    public init(around box: BoundingBox, minimumSpan: Double) {
        let metresPerDegree = MeanEarth.radius * .pi / 180
        let centerLatitude = (box.south + box.north) / 2
        var centerLongitude = box.west + box.longitudeSpan / 2
        if box.coversAllLongitudes { centerLongitude = 0 }
        let minimumLatDelta = minimumSpan / metresPerDegree
        let latDelta = min(max(box.north - box.south, minimumLatDelta), 180)
        // Keep the region inside [-90, 90] by moving its centre, not by shrinking it.
        let half = latDelta / 2
        let clampedCenter = min(max(centerLatitude, -90 + half), 90 - half)
        // East–west: the frame must span the region's middle, so degrees of longitude are counted
        // at the centre latitude; at a pole no longitude span suffices and the region covers 360°.
        let cosLat = cos(clampedCenter * .pi / 180)
        let minimumLonDelta = cosLat > 1e-9 ? minimumSpan / (metresPerDegree * cosLat) : 360
        // A region reaching a pole contains every meridian.
        let touchesPole = clampedCenter + half >= 90 || clampedCenter - half <= -90
        let lonDelta = box.coversAllLongitudes || touchesPole ? 360 : min(max(box.longitudeSpan, minimumLonDelta), 360)
        self.center = Coordinate(uncheckedLatitude: clampedCenter, longitude: Coordinate.normalizedLongitude(centerLongitude))
        self.latitudeDelta = latDelta
        self.longitudeDelta = lonDelta
        self.minimumSpan = min(latDelta * metresPerDegree, lonDelta * metresPerDegree * cosLat)
    }
}
