import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceSharing

@testable import TraceReplay

/// ``ViewSampling``: a replay that samples fewer views gives the views it samples exactly the
/// full replay's figures, and every other figure unchanged.
@Suite("Replay: only the views asked for are sampled (ViewSampling)")
struct ViewSamplingTests {
    /// The sets tried: none, one view, a view in each of two states, a viewer in every state,
    /// and every viewer but the hirer in In Task.
    static let samplings: [(String, ViewSampling)] = {
        var one = ViewSampling.none
        one.insert(.hirer, in: .enRoute)
        var two = ViewSampling.none
        two.insert(.hirer, in: .atPickup)
        two.insert(.helper, in: .inTask)
        var trip = ViewSampling.none
        trip.insert(.hirer)
        var most = ViewSampling.none
        for state in FulfilmentState.allCases {
            for viewer in Role.allCases where !(state == .inTask && viewer == .hirer) { most.insert(viewer, in: state) }
        }
        return [("none", .none), ("enRoute.hirer", one), ("atPickup.hirer+inTask.helper", two), ("trip.hirer", trip), ("all but inTask.hirer", most)]
    }()

    @Test(
        "the views sampled equal the full replay's, the rest of the result is unchanged",
        arguments: DecisionScheduleTests.sidecars, DecisionScheduleTests.Setting.allCases)
    func sameFigures(sidecar: String, setting: DecisionScheduleTests.Setting) throws {
        var options = setting.options
        options.viewerFigures = true
        let trip = try #require(try Replay.load([], scenario: try LoadedTripTests.spec(sidecar), options: options))
        // The last of the setting's candidates (in the dead-reckoning settings, one sending by
        // that rule).
        if let p = setting.policies.last { options.policy = p }
        let full = try Replay.run(trip, options: options)
        #expect(!full.viewerViews.isEmpty, "\(sidecar) \(setting)")
        for (name, sampling) in Self.samplings {
            var o = options
            o.sampledViews = sampling
            let narrow = try Replay.run(trip, options: o)
            let wanted = full.viewerViews.filter { sampling[$0.state].contains(RoleSet($0.viewer)) }
            let sampled = narrow.viewerViews == wanted
            #expect(sampled, "\(sidecar) \(setting) \(name): \(narrow.viewerViews.count) views, \(wanted.count) wanted")
            // Everything else: the same once the views are put back.
            var restored = narrow
            restored.viewerViews = full.viewerViews
            for i in restored.states.indices {
                for j in restored.states[i].roles.indices { restored.states[i].roles[j].view = full.states[i].roles[j].view }
            }
            for i in restored.roleTotals.indices { restored.roleTotals[i].view = full.roleTotals[i].view }
            // (Compared as a Bool: a failure names the trip and the set, not two whole results.)
            let same = restored == full
            #expect(same, "\(sidecar) \(setting) \(name)")
            // Without each sender's view over all its viewers: the viewers' views as sampled,
            // no sender's view, and every other figure the same.
            o.senderFigures = false
            var perViewer = try Replay.run(trip, options: o)
            let viewersAlike = perViewer.viewerViews == narrow.viewerViews
            #expect(viewersAlike, "\(sidecar) \(setting) \(name), viewers only")
            let noSender =
                perViewer.states.allSatisfy { $0.roles.allSatisfy { $0.view == ViewMetrics(error: QuantileHistogram(), staleness: QuantileHistogram(), withoutUpdate: 0) } }
                && perViewer.roleTotals.allSatisfy { $0.view == ViewMetrics(error: QuantileHistogram(), staleness: QuantileHistogram(), withoutUpdate: 0) }
            #expect(noSender, "\(sidecar) \(setting) \(name), viewers only")
            for i in perViewer.states.indices {
                for j in perViewer.states[i].roles.indices { perViewer.states[i].roles[j].view = narrow.states[i].roles[j].view }
            }
            for i in perViewer.roleTotals.indices { perViewer.roleTotals[i].view = narrow.roleTotals[i].view }
            let rest = perViewer == narrow
            #expect(rest, "\(sidecar) \(setting) \(name), viewers only")
        }
        var all = options
        all.sampledViews = .all
        let same = try Replay.run(trip, options: all) == full
        #expect(same, "\(sidecar) \(setting)")
    }

    @Test("the sets: every state's viewers, one by one")
    func sets() {
        #expect(ViewSampling.all.isAll && !ViewSampling.none.isAll)
        for state in FulfilmentState.allCases {
            #expect(ViewSampling.all[state] == [.hirer, .helper, .delegate])
            #expect(ViewSampling.none[state].isEmpty)
        }
        var s = ViewSampling.none
        s.insert(.delegate, in: .completed)
        s.insert(.hirer, in: .findingVillager)
        #expect(s[.completed] == .delegate && s[.findingVillager] == .hirer)
        #expect(FulfilmentState.allCases.filter { !s[$0].isEmpty } == [.findingVillager, .completed])
        s.insert(.helper)
        #expect(FulfilmentState.allCases.allSatisfy { s[$0].contains(.helper) })
    }
}
