import Foundation
import Testing
import TraceDomain
import TraceIO
import TraceSharing

@testable import TraceReplay

@Suite("Replay: the picture's record (recordTrack), bounded and consistent")
struct TrackRecordingTests {
    @Test("Thinned keeps at most limit + 1 elements, evenly spaced, the first and the last", arguments: [1, 2, 7, 100, 101, 1000, 4097])
    func thinned(count: Int) {
        var t = Thinned<Int>(limit: 16)
        for i in 0..<count { t.add(i) }
        let kept = t.elements
        #expect(t.count == count)
        #expect(kept.count <= 17)
        #expect(kept.first == 0 && kept.last == count - 1)
        #expect(kept == kept.sorted() && Set(kept).count == kept.count)
        // Every kept element but the last is a multiple of one stride (a power of two).
        let body = kept.last == kept.dropLast().last ? kept : Array(kept.dropLast())
        if body.count > 1 {
            let stride = body[1] - body[0]
            #expect(stride > 0 && stride & (stride - 1) == 0)
            #expect(zip(body, body.dropFirst()).allSatisfy { $1 - $0 == stride })
        }
        if count > 16 { #expect(kept.count >= 9) }  // thinning halves: never below half the limit
    }

    @Test("off by default; on, paths and updates are thinned to the bound and agree with the counts")
    func bounded() throws {
        // 600 fixes 50 m apart, all in En Route: every one delivered and sent.
        let points = line(from: P(north: 0, east: 0, t: 0), count: 600, stepNorth: 50, dt: 5)
        let path = try temp(gpx([(nil, points)]))
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        #expect(try replay(path, spec: spec).track == nil)
        var options = ReplayOptions()
        options.recordTrack = true
        options.trackPointsPerPath = 100
        let r = try replay(path, spec: spec, options: options)
        let track = try #require(r.track)
        let helper = try #require(track.paths.first { $0.role == .helper && $0.state == .enRoute })
        #expect(helper.fixes == 600 && helper.points.count <= 101 && helper.points.count >= 50)
        #expect(abs((helper.points.last?.latitude ?? 0) - lat(points[599])) < 1e-7)  // the last fix is always kept
        let updates = try #require(track.updates.first { $0.role == .helper && $0.state == .enRoute })
        #expect(updates.delivered == r.cell(.enRoute, .helper).deliveredFixes && updates.updates.count <= 101)
        #expect(updates.updates.allSatisfy { $0.sent })
        // The series ends with the trip's totals; cumulative values never go down.
        let last = try #require(track.series.last)
        #expect(last.delivered == r.roleTotals.reduce(0) { $0 + $1.deliveredFixes })
        #expect(abs(last.energyJoules - r.energy.reduce(0) { $0 + $1.estimate.totalJoules }) < 1e-9)
        #expect(track.series.count <= ReplayTrack.seriesLimit + 1)
        #expect(
            zip(track.series, track.series.dropFirst()).allSatisfy {
                $0.delivered <= $1.delivered && $0.energyJoules <= $1.energyJoules + 1e-9 && $0.seconds <= $1.seconds
            })
        // En Route's frame on the helper's map is at least the policy's 500 m.
        let frame = try #require(track.frames.first { $0.state == .enRoute && $0.viewer == .helper })
        #expect(frame.region.minimumSpan >= SharingPolicy.seed[.enRoute].frame - 1e-6)
        // Recording changes no figure.
        var plain = r
        plain.track = nil
        #expect(plain == (try replay(path, spec: spec)))
    }

    @Test("the series' display error: 0 under the ideal network (each fix shown at once), a step behind under the realistic one")
    func displayErrorSeries() throws {
        // 60 fixes 50 m apart every 5 s, all in En Route, every one delivered and sent; the hirer
        // (no trace) sees the helper.
        let points = line(from: P(north: 0, east: 0, t: 0), count: 60, stepNorth: 50, dt: 5)
        let path = try temp(gpx([(nil, points)]))
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        var options = ReplayOptions()
        options.recordTrack = true
        options.network = .ideal
        let ideal = try #require(try replay(path, spec: spec, options: options).track).series
        let helperIdeal = ideal.compactMap { $0.displayErrorMetres[Role.helper.rawValue] }
        #expect(helperIdeal.count == 60 && helperIdeal.allSatisfy { $0 < 1e-6 })
        #expect(ideal.allSatisfy { $0.displayErrorMetres[Role.hirer.rawValue] == nil })  // no hirer trace
        // Realistic: at a fix its own update is still on its way (under 5 s), so the map shows the
        // previous fix, 50 m behind (100 m after a loss); nothing before the first arrival.
        options.network = .realistic
        let realistic = try #require(try replay(path, spec: spec, options: options).track).series
        #expect(realistic.first?.displayErrorMetres[Role.helper.rawValue] == nil)
        let helper = realistic.compactMap { $0.displayErrorMetres[Role.helper.rawValue] }
        #expect(helper.count >= 55)
        #expect(helper.allSatisfy { e in (1...3).contains { abs(e - 50 * Double($0)) < 0.5 } }, "\(helper)")
    }

    @Test("the observer sees every delivered update, in order, with what was forwarded")
    func observer() throws {
        struct Collect: ReplayObserver {
            var updates: [DeliveredUpdate] = []
            mutating func delivered(_ u: DeliveredUpdate) { updates.append(u) }
        }
        let points = line(from: P(north: 0, east: 0, t: 0), count: 10, stepNorth: 50, dt: 10)
        let path = try temp(gpx([(nil, points)]))
        var spec = ScenarioSpec()
        spec.timeline = try timeline([(.accepted, 0), (.enRoute, 0)])
        spec.pickup = Sourced(try .init(latitude: 48, longitude: 8), .flag)
        var seen = Collect()
        let r = try Replay.run([TraceInput(path: path)], scenario: spec, options: ReplayOptions(), observer: &seen)
        #expect(seen.updates.count == r.roleTotals.reduce(0) { $0 + $1.deliveredFixes })
        #expect(seen.updates.allSatisfy { $0.role == .helper && $0.state == .enRoute && $0.sent && $0.forwardedTo == [.hirer] })
        #expect(zip(seen.updates, seen.updates.dropFirst()).allSatisfy { $0.time < $1.time })
    }
}
