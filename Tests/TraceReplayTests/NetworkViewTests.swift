import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceJSON
import TraceProj
import TraceSharing

@testable import TraceReplay

/// The realistic network and the viewers' clock, counted by hand (README, "The other party's view").
@Suite("Replay: the realistic network, the viewers' clock, the extrapolating viewer")
struct NetworkViewTests {
    /// En Route throughout, every fix delivered (distance filter 0), the pickup far away.
    func enRoute() throws -> ScenarioSpec {
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        return spec
    }

    /// Realistic options with a network whose delay is fixed: uplink 0.1 s, backend 0.4 s (σ 0),
    /// loss `loss`; LTE's radio (promotion 0.26 s, transmission 0.1 s, tail 10.12 s).
    func options(loss: Double = 0, viewer: ViewerModel = .last) -> ReplayOptions {
        var o = ReplayOptions()
        o.network = .realistic
        o.viewer = viewer
        o.energyProfile.network = NetworkProfile(uplinkSeconds: 0.1, backendMedianSeconds: 0.4, backendSigma: 0, lossProbability: loss)
        o.policy[.enRoute].distanceFilter = 0
        return o
    }

    /// Ten fixes 10 m north a second apart, t 0…9.
    func northward() throws -> String { try temp(gpx([(nil, line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 10, dt: 1))])) }

    @Test("by hand: delay 0.86 s after a promotion, 0.6 s in the tail; a tick a second; the view one fix behind")
    func byHand() throws {
        let r = try replay(try northward(), spec: try enRoute(), options: options())
        let v = r.cell(.enRoute, .helper).view
        // The first send promotes the radio: it leaves after 0.26 + 0.1 s, arrives 0.86 s after
        // its fix; the others share the tail: 0.1 + 0.1 + 0.4 = 0.6 s. Ticks at 0…8 s (the
        // request ends at the last fix, 9 s): at 0 the hirer has nothing; at each later tick k it
        // shows fix k − 1 (arrived at k − 0.4 or, for fix 0, 0.86), 1 s old and 10 m behind fix k.
        #expect(v.withoutUpdate == 1 && v.samples == 8)
        #expect(v.stalenessMaxSeconds == 1 && v.stalenessP95Seconds == 1 && v.stalenessMeanSeconds == 1)
        #expect(abs(v.displayErrorMeanMetres! - 10) < 0.05 && abs(v.displayErrorMaxMetres! - 10) < 0.05)
        let n = try #require(r.networkFigures)
        // Fix 9's update (sent at 9 s, due at 9.6 s) is still on its way when the request ends.
        #expect(n.toViewers == 10 && n.lost == 0 && n.overtaken == 0 && n.inFlightAtEnd == 1)
        #expect(n.delayMaxSeconds.map { abs($0 - 0.86) < 0.002 } == true)
        #expect(n.delayMedianSeconds.map { abs($0 - 0.6) < 0.002 } == true)
        // The hirer's radio received the nine that arrived, at their arrival.
        #expect(r.energy.first { $0.role == .hirer }!.estimate.received == 9)
        #expect(r.view.network == .realistic && !r.view.isIdeal)
    }

    @Test("by hand: an extrapolating viewer draws the velocity of its last two updates, so the marker is where the helper is")
    func extrapolation() throws {
        let r = try replay(try northward(), spec: try enRoute(), options: options(viewer: .extrapolate(maximumSeconds: 10)))
        let v = r.cell(.enRoute, .helper).view
        // Tick 1 shows fix 0 alone (no velocity: 10 m behind); from tick 2 on, fixes k − 2 and
        // k − 1 give 10 m/s north, and 1 s of it puts the marker on fix k: 0 m.
        #expect(v.samples == 8 && abs(v.displayErrorMaxMetres! - 10) < 0.05)
        #expect(abs(v.displayErrorMeanMetres! - 10.0 / 8) < 0.05)
        #expect(v.stalenessMaxSeconds == 1)  // staleness is the update's age, whatever the map draws
    }

    @Test("the extrapolation stops after its limit: a helper that keeps going leaves the marker behind")
    func extrapolationLimit() throws {
        // Two fixes 10 m apart, then the helper is heard from again only at 20 s, 200 m on (the
        // hirer's trace keeps the request going): with a 5 s limit, the marker stops 10 + 50 m
        // north; at tick 19 the helper is at 190 m (interpolated), 130 m from the marker.
        let helper = [P(north: 0, east: 0, t: 0), P(north: 10, east: 0, t: 1), P(north: 200, east: 0, t: 20)]
        let hirer = stay(at: P(north: 0, east: 50, t: 0), count: 21, dt: 1)
        let path = try temp(gpx([("helper", helper), ("hirer", hirer)]))
        let r = try replay(path, spec: try enRoute(), options: options(viewer: .extrapolate(maximumSeconds: 5)))
        let v = r.cell(.enRoute, .helper).view
        #expect(abs(v.displayErrorMaxMetres! - 130) < 0.7)
    }

    @Test("losses: an update lost on its way is never shown; every update lost leaves the viewer without one")
    func losses() throws {
        let r = try replay(try northward(), spec: try enRoute(), options: options(loss: 1))
        let v = r.cell(.enRoute, .helper).view
        #expect(v.samples == 0 && v.withoutUpdate == 9)
        let n = try #require(r.networkFigures)
        #expect(n.lost == 10 && n.toViewers == 10 && n.delayMedianSeconds == nil)
        #expect(r.energy.first { $0.role == .hirer }!.estimate.received == 0)
        // Sent and delivered stay what the phone did.
        #expect(r.cell(.enRoute, .helper).sentUpdates == 10 && r.cell(.enRoute, .helper).deliveredFixes == 10)
    }

    @Test("the delay follows the battery model's radio state: every send promoted when sends are a tail apart, one promotion otherwise")
    func radioState() throws {
        // Sends 20 s apart (LTE's tail is 10.12 s): each finds the radio idle, is promoted, and
        // waits 0.26 + 0.1 s; the battery model counts one promotion per send.
        let sparse = try temp(gpx([(nil, line(from: P(north: 0, east: 0, t: 0), count: 5, stepNorth: 100, dt: 20))]))
        let a = try replay(sparse, spec: try enRoute(), options: options())
        let helper = a.energy.first { $0.role == .helper }!.estimate
        #expect(helper.radioPromotions == 5)
        let n = try #require(a.networkFigures)
        #expect(n.delayMedianSeconds.map { abs($0 - 0.86) < 0.002 } == true && n.delayMaxSeconds.map { abs($0 - 0.86) < 0.002 } == true)
        // A second apart: one promotion, and only the first send waits for it.
        let b = try replay(try northward(), spec: try enRoute(), options: options())
        #expect(b.energy.first { $0.role == .helper }!.estimate.radioPromotions == 1)
        #expect(b.networkFigures!.delayMedianSeconds.map { abs($0 - 0.6) < 0.002 } == true)
    }

    @Test("an update overtaken by a later one is discarded: the viewer keeps the newest by fix time")
    func overtaken() throws {
        var views = Views(viewer: .last, geodesic: Geodesic())
        let a = try Coordinate(latitude: 47, longitude: 8), b = try Coordinate(latitude: 47.001, longitude: 8)
        let newer = Views.InFlight(
            arrival: 5, sender: .helper, viewer: .hirer, state: .enRoute, update: ViewUpdate(coordinate: b, time: 2, speed: .nan, course: .nan))
        let older = Views.InFlight(
            arrival: 6, sender: .helper, viewer: .hirer, state: .enRoute, update: ViewUpdate(coordinate: a, time: 1, speed: .nan, course: .nan))
        views.schedule(older)
        views.schedule(newer)
        #expect(views.nextArrival == 5)
        let first = views.popArrival(), second = views.popArrival()
        let acceptedFirst = views.receive(first), acceptedSecond = views.receive(second)
        #expect(acceptedFirst && !acceptedSecond)
        #expect(views.lastReceived(by: .hirer, from: .helper)?.coordinate == b && views.inFlightCount == 0)
    }

    @Test("a sender whose recording stops is a stale view: the ticks go on until the request ends")
    func recordingStops() throws {
        // The helper's trace stops at 9 s; the hirer's goes on to 100 s.
        let helper = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 10, dt: 1)
        let hirer = stay(at: P(north: 0, east: 50, t: 0), count: 101, dt: 1)
        let path = try temp(gpx([("helper", helper), ("hirer", hirer)]))
        let realistic = try replay(path, spec: try enRoute(), options: options()).cell(.enRoute, .helper).view
        // Last shown: fix 9 (arrived 9.6 s); at tick 99 it is 90 s old.
        #expect(realistic.stalenessMaxSeconds == 90)
        #expect(realistic.stalenessP95Seconds! >= 80)
        var ideal = options()
        ideal.network = .ideal
        let before = try replay(path, spec: try enRoute(), options: ideal).cell(.enRoute, .helper).view
        #expect(before.stalenessMaxSeconds == 0)  // sampled at the helper's fixes only: never stale
    }

    @Test("ticks skip a recording gap: no staleness across it")
    func gap() throws {
        // Both phones silent from 10 s to 1,010 s (over the 600 s gap): request time is 20 s.
        var helper = line(from: P(north: 0, east: 0, t: 0), count: 11, stepNorth: 10, dt: 1)
        helper += line(from: P(north: 110, east: 0, t: 1010), count: 10, stepNorth: 10, dt: 1)
        let path = try temp(gpx([(nil, helper)]))
        let r = try replay(path, spec: try enRoute(), options: options())
        let v = r.cell(.enRoute, .helper).view
        #expect(r.durationSeconds == 19 && v.samples + v.withoutUpdate <= 20)
        #expect(v.stalenessMaxSeconds! <= 2)
    }

    @Test("seeded: the same seed gives the same bytes; another seed other delays; a policy change keeps each fix's draw")
    func seeds() throws {
        let path = try temp(gpx([(nil, line(from: P(north: 0, east: 0, t: 0), count: 300, stepNorth: 10, dt: 1))]))
        var o = ReplayOptions()
        o.policy[.enRoute].distanceFilter = 0
        let a = JSONWriter.string(try replay(path, spec: try enRoute(), options: o).json)
        #expect(a == JSONWriter.string(try replay(path, spec: try enRoute(), options: o).json))
        var other = o
        other.phone.seed = 1
        #expect(a != JSONWriter.string(try replay(path, spec: try enRoute(), options: other).json))
        // Common random numbers: a fix meets the same network whatever else the policy sends.
        let d1 = NetworkDraw(.lte, seed: 7, sender: .helper, viewer: .hirer, fixTime: 123)
        let d2 = NetworkDraw(.lte, seed: 7, sender: .helper, viewer: .hirer, fixTime: 123)
        #expect(d1.backendSeconds == d2.backendSeconds && d1.lost == d2.lost)
        #expect(NetworkDraw(.lte, seed: 7, sender: .helper, viewer: .delegate, fixTime: 123).backendSeconds != d1.backendSeconds)
    }

    @Test("the backend delay is log-normal with the profile's median; the loss rate is the profile's")
    func distribution() {
        var delays: [Double] = []
        var lost = 0
        let n = 20_000
        for i in 0..<n {
            let d = NetworkDraw(.lte, seed: 3, sender: .helper, viewer: .hirer, fixTime: Int64(i) * 1_000_000_000)
            delays.append(d.backendSeconds)
            if d.lost { lost += 1 }
        }
        delays.sort()
        let median = delays[n / 2]
        #expect(abs(median - NetworkProfile.lte.backendMedianSeconds) < 0.01)
        // σ 0.5: the 84th percentile is the median × e^0.5.
        #expect(abs(delays[Int(Double(n) * 0.8413)] / median - exp(0.5)) < 0.05)
        #expect(abs(Double(lost) / Double(n) - NetworkProfile.lte.lossProbability) < 0.003)
    }

    @Test("a derived velocity's stop continues the last step: within 3 cm of the geodesic at 300 m, 0.1 m at 500 m; solved beyond")
    func derivedStop() throws {
        var random = SplitMix64(seed: 23)
        let geodesic = Geodesic()
        for _ in 0..<1000 {
            let p = try Coordinate(latitude: random.uniform(-75, 75), longitude: random.uniform(-180, 180))
            let step = random.uniform(1, 40), azimuth = random.uniform(-180, 180)
            let q = try geodesic.direct(from: p, azimuth: azimuth, distance: step).destination
            // Steps a second apart; the limit puts the stop 300 m or about 2 km on.
            for (limit, bound) in [(300 / step, 0.03), (499 / step, 0.1), (1990 / step, 1e-3)] {
                let viewer = ViewerModel.extrapolate(maximumSeconds: limit)
                let first = viewer.accept(ViewUpdate(coordinate: p, time: 0, speed: .nan, course: .nan), after: nil, geodesic: geodesic)
                let pair = viewer.accept(
                    ViewUpdate(coordinate: q, time: 1_000_000_000, speed: .nan, course: .nan), after: first, geodesic: geodesic)
                let stop = try #require(pair.stop)
                let inverse = geodesic.inverse(from: p, to: q)
                let exact = try geodesic.direct(from: q, azimuth: inverse.finalAzimuth, distance: inverse.distance * limit).destination
                #expect(geodesic.inverse(from: stop, to: exact).distance < bound, "\(p) \(step) m × \(limit)")
            }
        }
    }

    @Test("between the update and its stop the marker is within 0.35 m of the geodesic at 2 km, 1 cm at 300 m (up to 75°)")
    func drawnPath() throws {
        var random = SplitMix64(seed: 29)
        let geodesic = Geodesic()
        for _ in 0..<500 {
            let p = try Coordinate(latitude: random.uniform(-75, 75), longitude: random.uniform(-180, 180))
            let azimuth = random.uniform(-180, 180)
            for (speed, bound) in [(30.0, 0.01), (199.0, 0.35)] {  // 10 s: 300 m and 1,990 m
                let viewer = ViewerModel.extrapolate(maximumSeconds: 10)
                let pair = viewer.accept(ViewUpdate(coordinate: p, time: 0, speed: speed, course: azimuth), after: nil, geodesic: geodesic)
                for seconds in [2.5, 5.0, 7.5] {
                    let drawn = viewer.draw(pair, at: Int64(seconds * 1e9), geodesic: geodesic)
                    let exact = try geodesic.direct(from: p, azimuth: azimuth, distance: speed * seconds).destination
                    #expect(geodesic.inverse(from: drawn, to: exact).distance < bound, "\(p) \(speed) m/s at \(seconds) s")
                }
            }
        }
    }

    @Test("the tangent-plane destination agrees with Karney's direct geodesic and inverts the tangent-plane inverse")
    func destination() throws {
        var random = SplitMix64(seed: 19)
        let geodesic = Geodesic()
        for _ in 0..<2000 {
            let p = try Coordinate(latitude: random.uniform(-79, 79), longitude: random.uniform(-180, 180))
            let azimuth = random.uniform(-180, 180), distance = random.uniform(0, 2000)
            guard let q = TangentPlane.destinationIfNear(from: p, azimuth: azimuth, distance: distance) else { continue }
            let exact = try geodesic.direct(from: p, azimuth: azimuth, distance: distance).destination
            #expect(geodesic.inverse(from: q, to: exact).distance < 3e-4)
            let back = try #require(TangentPlane.inverseIfNear(from: p, to: q))
            #expect(abs(back.distance - distance) < 1e-6)
        }
        #expect(TangentPlane.destinationIfNear(from: try Coordinate(latitude: 47, longitude: 8), azimuth: 0, distance: 2001) == nil)
        #expect(TangentPlane.destinationIfNear(from: try Coordinate(latitude: 85, longitude: 8), azimuth: 0, distance: 10) == nil)
    }
}
