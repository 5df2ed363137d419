public import TraceDomain

extension SharingPolicy {
    /// Width of the map, in points, that a route line's detail is sized for.
    public static let routeLineMapWidth: Double = 400

    /// The simplification tolerance for route lines in `state`: one point of a 400-point-wide map
    /// showing the state's frame (frame / 400: 0.375 m at 150 m, 1.25 m at 500 m), so a tight
    /// frame keeps detail and a wide one is light. Metres.
    public func routeLineTolerance(in state: FulfilmentState) -> Double {
        self[state].frame / SharingPolicy.routeLineMapWidth
    }

    /// The tolerance at which to simplify the route line drawn in `state` for `request`, or nil
    /// where the state draws none (the seed's "No Route Lines", or a state that shows no route)
    /// and, in states whose origin is rides-only (Finding Villager, Accepted: "Route \ Location
    /// destination for non rides"), for a request that is not a ride: it has a location, not a
    /// route. Metres (``routeLineTolerance(in:)``).
    ///
    /// Drawing is the caller's: simplify the route at this tolerance with TraceGeometry's
    /// `GeometryContext.simplifyTrack(_:toleranceMetres:preservingTopology:)` (GEOS
    /// Douglas–Peucker in metres; the kept points are points of the input route), so the policy
    /// itself needs no geometry library.
    public func routeLineTolerance(in state: FulfilmentState, for request: RequestContext) -> Double? {
        let row = self[state]
        guard row.shows.route, row.shows.routeLines else { return nil }
        let routeIsRidesOnly = (row.hirerAnnotations + row.helperAnnotations).contains { $0.annotation == .origin && $0.ridesOnly }
        if routeIsRidesOnly && !request.category.isRide { return nil }
        return routeLineTolerance(in: state)
    }
}
