import Testing
import TraceDomain
import TraceIO
import TraceSharing

@testable import TraceReplay

/// A plain recording (no stop after setting off) answers per state; a recording with a stop keeps
/// its inferred timeline and says how confident it is (README, "Replay: a plain recording").
@Suite("Replay: a plain recording, as each state")
struct AsEachStateTests {
    /// 10 m/s north for 600 s, a fix a second: 601 fixes, 6 km, no stop.
    static let plain = line(from: P(north: 0, east: 0, t: 0), count: 601, stepNorth: 10, dt: 1)

    /// Every live state's distance filter at 0: every fix is delivered where the tier is on.
    static var options: ReplayOptions {
        var o = ReplayOptions()
        for s in Replay.answeredStates { o.policy[s].distanceFilter = 0 }
        o.network = .ideal
        return o
    }

    @Test("no stop after setting off: no credible pickup, and the whole recording answered as each live state")
    func plainRecording() throws {
        let path = try temp(gpx([(nil, Self.plain)]))
        let r = try replay(path, options: Self.options)
        #expect(r.scenario.pickupInference == .noStop && r.scenario.pickupInference.confidence == "none")
        #expect(r.scenario.lacksCrediblePickup)
        let trip = try #require(try Replay.load([TraceInput(path: path)], scenario: ScenarioSpec(), options: Self.options))
        let answers = try Replay.asEachState(trip, options: Self.options)
        // The same from the files read again over the replay's span (a trip too large to hold).
        #expect(answers == (try Replay.asEachState([TraceInput(path: path)], scenario: ScenarioSpec(), options: Self.options, span: (r.start, r.end))))
        #expect(answers.map(\.state) == [.enRoute, .atPickup, .inTask])
        let policy = Self.options.policy
        for a in answers {
            // The whole recording, 600 s and 6 km (10 m steps on a sphere within 0.5 %), under the state's row.
            #expect(abs(a.seconds - 600) < 1e-6, "\(a.state)")  // to 1 ns past the last fix
            #expect(abs(a.helperDistanceMetres - 6_000) < 30, "\(a.state): \(a.helperDistanceMetres) m")
            #expect(a.tier == policy[a.state].tier)
            let helper = try #require(a.phones.first { $0.role == .helper })
            let hirer = try #require(a.phones.first { $0.role == .hirer })
            #expect(helper.hasTrace && !hirer.hasTrace)
            #expect(helper.deliveredFixes == (policy[a.state].tier == .off ? 0 : 601), "\(a.state)")
            // What the helper sends, and who sees it, is the state's: the policy's viewers there.
            let viewers = policy.viewers(ofLocationFrom: .helper, in: a.state, for: RequestContext(category: .ride, pickupHandedOff: false))
            #expect(Set(helper.viewers) == Set(viewers), "\(a.state)")
            #expect((helper.sentUpdates > 0) == !viewers.isEmpty, "\(a.state)")
            if !viewers.isEmpty { #expect(helper.sentUpdates == helper.deliveredFixes) }
            // Rates derived from the totals: per hour of 600 s, per km of the helper's distance.
            #expect(abs(helper.milliampHoursPerHour! - helper.milliampHours * 6) < 1e-9)
            #expect(abs(helper.milliampHoursPerKilometre! - helper.milliampHours * 1000 / a.helperDistanceMetres) < 1e-9)
            #expect(abs(helper.milliampHours - helper.joules / r.energyProfile.joulesPerMilliampHour) < 1e-9)
        }
        // The states differ as their rows do: At Pickup's tier is the best, In Task's the coarsest.
        let mAh = answers.map { $0.phones.first { $0.role == .helper }!.milliampHours }
        #expect(mAh[1] > mAh[2])
    }

    @Test("a stop mid-trip keeps the inferred timeline, with the stop's length and a confidence")
    func dwellKept() throws {
        // 300 s walking, 180 s standing (within the 50 m radius), 300 s walking on.
        let out = line(from: P(north: 0, east: 0, t: 0), count: 301, stepNorth: 10, dt: 1)
        let wait = stay(at: P(north: 3_000, east: 0, t: 301), count: 180, dt: 1)
        let on = line(from: P(north: 3_010, east: 0, t: 481), count: 300, stepNorth: 10, dt: 1)
        let path = try temp(gpx([(nil, out + wait + on)]))
        let r = try replay(path, options: Self.options)
        guard case .dwell(let seconds) = r.scenario.pickupInference else {
            Issue.record("expected a dwell, got \(r.scenario.pickupInference)")
            return
        }
        // The stay's anchor is the first fix within 50 m of the stop (4 s before it), and it ends
        // at the last within 50 m of the anchor as the walk goes on (up to 5 s after).
        #expect(seconds >= 180 && seconds <= 190 && r.scenario.pickupInference.confidence == "high", "\(seconds) s")
        #expect(r.scenario.timeline.contains { $0.state == .enRoute } && !r.scenario.lacksCrediblePickup)
        // A stop shorter than 2 minutes is low confidence; a given pickup is "given".
        #expect(PickupInference.dwell(seconds: 90).confidence == "low" && PickupInference.given.confidence == "given")
    }
}
