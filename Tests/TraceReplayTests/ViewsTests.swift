import Testing
import TraceDomain
import TraceGeodesy
import TraceProj

@testable import TraceReplay

@Suite("Replay: each viewer's view of each sender, and its samples")
struct ViewsTests {
    @Test("a viewer without an update counts one more sample without; after one, error from the truth and staleness")
    func samples() throws {
        var views = Views(viewer: .last, geodesic: Geodesic())
        let a = try Coordinate(latitude: 47, longitude: 8), b = try Coordinate(latitude: 47 + 20 / 111_195.0, longitude: 8)
        var cell = MeterCell()
        views.sample(sender: .helper, truth: a, at: 0, viewers: [.hirer, .delegate], into: &cell)
        #expect(cell.withoutUpdate == 2 && cell.error.count == 0)
        views.deliver(ViewUpdate(coordinate: a, time: 0, speed: .nan, course: .nan), from: .helper, to: .hirer)
        #expect(views.lastReceived(by: .hirer, from: .helper)?.time == 0 && views.lastReceived(by: .delegate, from: .helper) == nil)
        #expect(views.lastReceived(by: .helper, from: .hirer) == nil)
        views.sample(sender: .helper, truth: a, at: 0, viewers: .hirer, into: &cell)
        #expect(cell.error.max == 0 && cell.staleness.max == 0)
        views.sample(sender: .helper, truth: b, at: 2_000_000_000, viewers: .hirer, into: &cell)
        #expect(abs((cell.error.max ?? 0) - 20) < 0.1 && cell.staleness.max == 2 && cell.withoutUpdate == 2)
    }
}
