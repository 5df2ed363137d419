import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

/// A timeline event to apply at a time (given, or the inferred timeline's start).
struct ScheduledEvent {
    var time: Int64
    var event: FulfilmentEvent
    var provenance: Provenance
    var detail: String
}

/// How the timeline's events beyond the scheduled ones are found.
enum TimelineInference {
    /// Given (flags, sidecar, a state column): every event is scheduled.
    case given
    /// Inferred online from the helper's fixes (completed at the helper's last fix).
    case online(TimelineDetector)
}

/// The request's timeline as the replay meets it: the state machine, the scheduled events in time
/// order (stable), the online detector for an inferred timeline and its completion at the
/// helper's last fix, the cancellation, and the entries and notes on ignored events.
///
/// ``handle(_:at:provenance:detail:)`` only moves the state machine; the engine closes the
/// meters' state and sets the phones' tiers with what it returns.
struct Timeline {
    private(set) var machine: FulfilmentMachine
    private let scheduled: [ScheduledEvent]
    private var nextScheduled = 0
    private var inference: TimelineInference
    /// The time of the helper's last fix while the inferred timeline's completion is pending;
    /// `Int64.max` otherwise.
    private(set) var completesAt: Int64
    private(set) var entries: [TimelineEntry] = []
    private(set) var cancelled = false
    private(set) var notes: [String]

    /// `events` in any order (sorted here, stably: entries at the same time keep their order);
    /// `completesAt`, for an inferred timeline, the time of the helper's last fix.
    init(
        machine: FulfilmentMachine, events: [ScheduledEvent], inference: TimelineInference, completesAt: Int64 = .max, notes: [String] = []
    ) {
        self.machine = machine
        scheduled = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        self.inference = inference
        self.completesAt = completesAt
        self.notes = notes
    }

    /// Whether the timeline is inferred online.
    @inline(__always)
    var infers: Bool {
        if case .online = inference { return true }
        return false
    }

    /// The scheduled events' times, in order.
    var scheduledTimes: [Int64] { scheduled.map(\.time) }

    /// Whether a scheduled event is due at or before `time`.
    @inline(__always)
    func isDue(through time: Int64) -> Bool { nextScheduled < scheduled.count && scheduled[nextScheduled].time <= time }

    /// The next scheduled event due at or before `time`, taken.
    mutating func takeDue(through time: Int64) -> ScheduledEvent? {
        guard isDue(through: time) else { return nil }
        nextScheduled += 1
        return scheduled[nextScheduled - 1]
    }

    /// Inferred timelines: the event a helper fix at `c` triggers, if any (call again with the
    /// same fix until nil: one fix can pass several rules).
    @inline(__always)
    mutating func inferred(helperAt c: Coordinate, time: Int64) -> (event: FulfilmentEvent, detail: String)? {
        guard case .online(var detector) = inference, let step = detector.step(c, at: time) else { return nil }
        inference = .online(detector)  // a step changed its state
        return (TimelineEntry.event(entering: step.0)!, step.1)
    }

    /// The helper's last fix has passed: whether the inferred timeline is completed there (it
    /// reached Awaiting Payment and was not cancelled). Clears ``completesAt``.
    mutating func takeCompletion() -> Int64? {
        let at = completesAt
        completesAt = .max
        guard case .online(var detector) = inference, !cancelled, detector.complete() else { return nil }
        inference = .online(detector)
        return at
    }

    /// Applies `event` at `t`: the state left and the action, or nil when it is ignored (after a
    /// cancellation, or not allowed in the current state; a note says so).
    mutating func handle(_ event: FulfilmentEvent, at t: Int64, provenance: Provenance, detail: String) -> (
        left: FulfilmentState, action: SharingAction
    )? {
        guard !cancelled else {
            notes.append("\(event) at \(Timestamp(nanoseconds: t).iso8601) ignored: the request was cancelled")
            return nil
        }
        let before = machine.state
        let action: SharingAction
        do {
            action = try machine.handle(event)
        } catch {
            notes.append("\(event) at \(Timestamp(nanoseconds: t).iso8601) ignored: \(error)")
            return nil
        }
        if action.cancelled {
            cancelled = true
        } else {
            entries.append(TimelineEntry(state: action.state, time: Timestamp(nanoseconds: t), provenance: provenance, detail: detail))
        }
        return (before, action)
    }
}
