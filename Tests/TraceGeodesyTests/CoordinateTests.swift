import Testing
import TraceGeodesy

@Suite("Coordinate validation")
struct CoordinateTests {
    @Test(
        "longitudes are normalised to (-180, 180]",
        arguments: [
            (0.0, 0.0), (180.0, 180.0), (-180.0, 180.0), (190.0, -170.0), (-190.0, 170.0),
            (540.0, 180.0), (359.5, -0.5), (-720.25, -0.25), (1e6, 280.0 - 360.0),
        ])
    func normalisation(input: Double, expected: Double) throws {
        #expect(try Coordinate(latitude: 1, longitude: input).longitude == expected)
    }

    @Test(
        "invalid values are typed errors",
        arguments: [
            (Double.nan, 0.0, CoordinateError.latitudeNotFinite(.nan)),
            (0.0, Double.infinity, CoordinateError.longitudeNotFinite(.infinity)),
            (-Double.infinity, 0.0, CoordinateError.latitudeNotFinite(-.infinity)),
            (90.000001, 0.0, CoordinateError.latitudeOutOfRange(90.000001)),
            (-91.0, 0.0, CoordinateError.latitudeOutOfRange(-91)),
        ])
    func rejects(lat: Double, lon: Double, expected: CoordinateError) {
        #expect {
            _ = try Coordinate(latitude: lat, longitude: lon)
        } throws: { error in
            // NaN payloads never compare equal: compare the case by its description.
            (error as? CoordinateError)?.description == expected.description
        }
    }

    @Test("the poles and the limits are accepted")
    func limits() throws {
        #expect(try Coordinate(latitude: 90, longitude: 0).latitude == 90)
        #expect(try Coordinate(latitude: -90, longitude: 0).latitude == -90)
    }

    @Test("columns validate every element and name the first bad index")
    func columns() throws {
        let c = try CoordinateColumns(latitudes: [1, 2, 3], longitudes: [10, 190, -180])
        #expect(c.longitudes == [10, -170, 180])
        let second = try Coordinate(latitude: 2, longitude: -170)
        #expect(c.count == 3 && c[1] == second)
        #expect(throws: CoordinateColumnsError.invalid(index: 1, .latitudeOutOfRange(95))) {
            _ = try CoordinateColumns(latitudes: [1, 95], longitudes: [0, 0])
        }
        #expect(throws: CoordinateColumnsError.lengthMismatch(latitudes: 1, longitudes: 2)) {
            _ = try CoordinateColumns(latitudes: [1], longitudes: [0, 0])
        }
    }
}
