import Testing
import TraceGeodesy

@Suite("Bounding box")
struct BoundingBoxTests {
    func c(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    @Test("an ordinary set of points")
    func ordinary() throws {
        let b = try #require(BoundingBox(covering: [c(1, 2), c(-3, 10), c(5, 4)]))
        #expect(b.south == -3 && b.north == 5 && b.west == 2 && b.east == 10)
        #expect(!b.crossesAntimeridian && b.longitudeSpan == 8)
        #expect(b.contains(c(0, 5)) && !b.contains(c(0, 11)) && !b.contains(c(6, 5)))
    }

    @Test("a track crossing the antimeridian gets a narrow box that crosses it")
    func antimeridian() throws {
        let b = try #require(BoundingBox(covering: [c(-17, 178.5), c(-17.2, 179.9), c(-17.1, -179.8), c(-16.9, -178)]))
        #expect(b.crossesAntimeridian)
        #expect(b.west == 178.5 && b.east == -178)
        #expect(abs(b.longitudeSpan - 3.5) < 1e-12)
        #expect(b.contains(c(-17, 180)) && b.contains(c(-17, -179)) && !b.contains(c(-17, 0)))
    }

    @Test("an empty sequence has no box")
    func empty() {
        #expect(BoundingBox(covering: [Coordinate]()) == nil)
    }

    @Test("extending picks the shorter direction, across the antimeridian when shorter")
    func extend() throws {
        var b = BoundingBox(c(0, 179))
        b.extend(toInclude: c(1, -179))
        #expect(b.crossesAntimeridian && b.west == 179 && b.east == -179)
        b.extend(toInclude: c(-1, 170))
        #expect(b.west == 170 && b.east == -179 && b.south == -1 && b.north == 1)
        b.extend(toInclude: c(0, 175))  // already inside: unchanged
        #expect(b.west == 170 && b.east == -179)
    }

    @Test("a box reaching a pole covers every longitude")
    func poles() throws {
        let b = try #require(BoundingBox(covering: [c(89, 0), c(90, 0)]))
        #expect(b.coversAllLongitudes && b.contains(c(90, 45)) && b.contains(c(89.5, -120)))
        var e = BoundingBox(c(80, 0))
        e.extend(toInclude: c(90, 120))
        #expect(e.coversAllLongitudes && e.longitudeSpan == 360)
        #expect(BoundingBox(c(-90, 10)).contains(c(-90, -170)))
    }

    @Test("expanding by metres grows the box and covers all longitudes at a pole")
    func expanded() throws {
        let b = BoundingBox(c(45, 7)).expanded(byMetres: 1000)
        let dLat = 1000 / MeanEarth.radius * 180 / .pi
        #expect(abs(b.north - 45 - dLat) < 1e-12 && abs(45 - b.south - dLat) < 1e-12)
        #expect(b.west < 7 && b.east > 7 && b.contains(c(45, 7.01)))
        #expect(BoundingBox(c(89.999, 0)).expanded(byMetres: 1000).coversAllLongitudes)
        let wrapped = BoundingBox(c(0, 179.999)).expanded(byMetres: 1000)
        #expect(wrapped.crossesAntimeridian && wrapped.contains(c(0, -179.999)))
    }
}
