import Foundation
import TestSupport
import Testing
import TraceDomain
import TraceJSON

@testable import TraceReplay

/// ``ReplayOptions/viewerFigures``: each viewer's view of each sender, per state, told apart.
@Suite("Per-viewer view figures")
struct ViewerFiguresTests {
    static func demo(_ name: String, options: ReplayOptions) throws -> ReplayResult {
        let file = packageRoot.appendingPathComponent("Traces/trips/\(name)/\(name).scenario.json").path
        let spec = try ScenarioSpec(sidecarBytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        return try Replay.run([], scenario: spec, options: options)
    }

    static func options(_ network: NetworkModel, perViewer: Bool) -> ReplayOptions {
        var o = ReplayOptions()
        o.network = network
        o.viewerFigures = perViewer
        return o
    }

    @Test(
        "on or off, every other figure is the same; on, the viewers' samples add up to each sender's",
        arguments: ["ride", "third-party-pickup"], [NetworkModel.ideal, .realistic])
    func addsUp(name: String, network: NetworkModel) throws {
        let off = try Self.demo(name, options: Self.options(network, perViewer: false))
        var on = try Self.demo(name, options: Self.options(network, perViewer: true))
        #expect(off.viewerViews.isEmpty)
        #expect(!on.viewerViews.isEmpty)
        #expect(JSONWriter.string(on.json) == JSONWriter.string(off.json))
        for s in on.states {
            for m in s.roles {
                let mine = on.viewerViews.filter { $0.state == s.state && $0.sender == m.role }
                #expect(mine.reduce(0) { $0 + $1.view.samples } == m.view.samples, "\(s.state) \(m.role)")
                #expect(mine.reduce(0) { $0 + $1.view.withoutUpdate } == m.view.withoutUpdate)
                let worst = mine.compactMap(\.view.displayErrorMaxMetres).max()
                #expect(worst == m.view.displayErrorMaxMetres)
                #expect(mine.allSatisfy { m.viewers.contains($0.viewer) && $0.viewer != $0.sender })
            }
        }
        on.viewerViews = []
        #expect(on == off)
    }

    @Test("third-party pickup: the hirer and the delegate each see the helper; ideal: the same view, realistic: their own")
    func twoViewers() throws {
        for network in [NetworkModel.ideal, .realistic] {
            let r = try Self.demo("third-party-pickup", options: Self.options(network, perViewer: true))
            let state = r.viewerViews.first { $0.sender == .helper && $0.viewer == .delegate }?.state
            let hirer = r.viewerViews.first { $0.state == state && $0.sender == .helper && $0.viewer == .hirer }
            let delegate = r.viewerViews.first { $0.state == state && $0.sender == .helper && $0.viewer == .delegate }
            #expect(hirer != nil && delegate != nil)
            if network == .ideal {
                #expect(hirer?.view == delegate?.view)
            } else {
                // Each viewer has its own losses and delays: both sampled every second of the state.
                #expect(hirer?.view.samples ?? 0 > 0 && delegate?.view.samples ?? 0 > 0)
            }
        }
    }
}
