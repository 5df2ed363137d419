import Foundation
import TestSupport
import Testing

@testable import TraceGeodesy

@Suite("Kernels")
struct KernelTests {
    @Test("the lane helpers equal the scalar operations bit for bit (square root, min, max, abs)")
    func laneHelpers() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<200_000 {
            let x = Foundation.exp2(rng.uniform(-1000, 1000)) * rng.uniform(1, 2)
            let y = rng.uniform(-1e6, 1e6), z = rng.uniform(-1e6, 1e6)
            let root = _sqrt2(_D2(x, 4 * x))
            #expect(root[0] == x.squareRoot() && root[1] == (4 * x).squareRoot())
            #expect(_max2(_D2(repeating: y), _D2(repeating: z))[1] == Swift.max(y, z))
            #expect(_min2(_D2(repeating: y), _D2(repeating: z))[0] == Swift.min(y, z))
            #expect(_abs2(_D2(y, z)) == _D2(Swift.abs(y), Swift.abs(z)))
        }
        #expect(_sqrt2(_D2(0, 0)) == _D2(0, 0))
    }

    @Test("the sine kernels are within 2 ulps of libm on their domains")
    func sines() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<200_000 {
            let x = rng.uniform(-Double.pi / 2, Double.pi / 2)
            let y = rng.uniform(-Double.pi / 12, Double.pi / 12)
            let big = _sinKernel(_D2(repeating: x))[0], small = _sinSmallKernel(_D2(repeating: y))[0]
            let refBig = Foundation.sin(x), refSmall = Foundation.sin(y)
            #expect(abs(big - refBig) <= 2 * refBig.magnitude.ulp)
            #expect(abs(small - refSmall) <= 2 * refSmall.magnitude.ulp)
        }
    }

    @Test("the near and general haversine kernels agree where both apply, to 4e-15 relative")
    func nearAndGeneralAgree() {
        var rng = SplitMix64(seed: 8)
        var checked = 0
        for _ in 0..<200_000 {
            let lat1 = rng.uniform(-90, 90), lon1 = rng.uniform(-180, 180)
            let lat2 = min(max(lat1 + rng.uniform(-20, 20), -90), 90)
            let lon2 = Coordinate.normalizedLongitude(lon1 + rng.uniform(-20, 20))
            let args = (_D2(repeating: lat1), _D2(repeating: lon1), _D2(repeating: lat2), _D2(repeating: lon2))
            let near = Haversine.nearCentralAngle(args.0, args.1, args.2, args.3)[0]
            guard near >= 0 else { continue }
            checked += 1
            let general = Haversine.generalCentralAngle(args.0, args.1, args.2, args.3)[0]
            #expect(abs(near - general) <= 4e-15 * general + 1e-300, "\(lat1) \(lon1) \(lat2) \(lon2)")
        }
        #expect(checked > 100_000)
    }
}
