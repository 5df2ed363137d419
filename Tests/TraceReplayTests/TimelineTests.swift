import Testing
import TraceDomain
import TraceIO
import TraceSharing

@testable import TraceReplay

@Suite("Replay: the timeline and its events")
struct TimelineTests {
    func event(_ t: Int64, _ e: FulfilmentEvent) -> ScheduledEvent { ScheduledEvent(time: t, event: e, provenance: .flag, detail: "") }

    @Test("scheduled events come due in time order, stably; a cancellation ignores what follows, with a note")
    func scheduled() {
        var tl = Timeline(
            machine: FulfilmentMachine(category: .ride), events: [event(20, .cancel), event(10, .accept), event(10, .depart)],
            inference: .given)
        #expect(tl.scheduledTimes == [10, 10, 20] && !tl.infers && tl.completesAt == .max)
        #expect(!tl.isDue(through: 9) && tl.isDue(through: 10))
        var left: [FulfilmentState] = []
        while let e = tl.takeDue(through: 15) {
            if let h = tl.handle(e.event, at: e.time, provenance: e.provenance, detail: e.detail) { left.append(h.left) }
        }
        #expect(left == [.findingVillager, .accepted] && tl.machine.state == .enRoute)
        let c = tl.takeDue(through: .max)!
        #expect(tl.handle(c.event, at: c.time, provenance: c.provenance, detail: c.detail)?.action.cancelled == true && tl.cancelled)
        #expect(tl.handle(.arrive, at: 30, provenance: .flag, detail: "") == nil)
        #expect(tl.entries.map(\.state) == [.accepted, .enRoute] && tl.notes.count == 1 && tl.notes[0].contains("cancelled"))
        #expect(tl.takeCompletion() == nil)
    }
}
