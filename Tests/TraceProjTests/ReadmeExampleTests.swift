import Testing
import TraceGeodesy
import TraceProj

/// The library example in README.md, kept compiling and true.
@Test("the README's library example runs and its figures hold")
func readmeExample() throws {
    let a = try Coordinate(latitude: 47.376887, longitude: 8.541694)
    let b = try Coordinate(latitude: 47.377102, longitude: 8.542001)
    let exact = Geodesic().inverse(from: a, to: b)
    #expect(abs(exact.distance - 33.300) < 0.001)
    #expect(abs(exact.initialAzimuth - 44.125) < 0.001)
    let step = TangentPlane.distance(from: a, to: b, fallback: Geodesic())
    #expect(abs(step - exact.distance) < 3e-4)
    let sphere = Haversine.distance(from: a, to: b)
    #expect(abs(sphere - exact.distance) / exact.distance < 0.0056)
    var track = CoordinateColumns()
    track.append(a)
    track.append(b)
    #expect(TangentPlane.stepDistances(along: track, fallback: Geodesic()) == [step])
    let utm = try ProjTransformer(from: "EPSG:4326", to: "EPSG:32632")
    let p = try utm.transform(ProjPoint(a))
    #expect(p.x > 400_000 && p.x < 600_000 && p.y > 5_200_000 && p.y < 5_300_000)
}
