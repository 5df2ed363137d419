import TraceDomain
import TraceEnergy
import TraceGeodesy
import TraceIO
import TraceSharing

extension Engine {
    /// The result: the meters' cells per state and role and their totals, each phone's energy,
    /// the arrivals' visibility, the track, the files, the notes and the scenario as resolved.
    func result(_ resolved: ResolvedScenario, roles: [Role], scans: RoleTable<RoleScan?>) -> ReplayResult {
        var states: [StateMetrics] = []
        var totals = RoleTable(repeating: MeterCell())
        var totalViewers = RoleTable(repeating: Set<Role>())
        let request = RequestContext(category: resolved.category.value, pickupHandedOff: resolved.handedOff.value)
        for state in FulfilmentState.allCases {
            var perRole: [StateRoleMetrics] = []
            for role in roles {
                let cell = meters[state, role]
                totals[role].merge(cell)
                var m = cell.metrics(role, seconds: meters.seconds[state])
                let viewers = options.policy.viewers(ofLocationFrom: role, in: state, for: request)
                m.viewers = Role.allCases.filter { viewers.contains($0) }
                if meters.entered[state] { totalViewers[role].formUnion(viewers) }
                perRole.append(m)
            }
            states.append(
                StateMetrics(
                    state: state, entered: meters.entered[state], seconds: meters.seconds[state],
                    tier: options.policy[state].tier, roles: perRole))
        }
        let duration = meters.seconds(tEnd)
        let roleTotals = roles.map { role in
            var m = totals[role].metrics(role, seconds: duration)
            m.viewers = Role.allCases.filter { totalViewers[role].contains($0) }
            return m
        }
        let energy = roles.map { role in
            PhoneEnergy(
                role: role, hasTrace: scans[role] != nil, estimate: meters.estimate(role, at: duration),
                across: meters.estimates(across: role, at: duration))
        }
        let viewers: [Role] = resolved.handedOff.value ? [.hirer, .delegate] : [.hirer]
        let arrivals = arrivals.visibility(to: viewers, helperScan: scans[.helper] ?? RoleScan()).map {
            entitlement($0, timeline: timeline.entries, request: request)
        }
        let track = recorder?.finish(end: duration, energyJoules: energy.reduce(0) { $0 + $1.estimate.totalJoules })
        var files = first.files
        for i in files.indices { files[i].outOfOrderFixes = outOfOrder[i] }
        var notes = timeline.notes
        if afterCancellation > 0 { notes.append("\(afterCancellation) fixes after the cancellation were not replayed") }
        for role in Role.allCases where (scans[role]?.dwellsDropped ?? 0) > 0 {
            notes.append("the \(role.key) has more than \(RoleScanner.maximumDwells) dwells: only the first and the latest were kept")
        }
        var traces: [TraceAssignment] = []
        for (i, input) in inputs.enumerated() {
            let counts = first.records.filter { $0.file == i }.map {
                RoleFixCount(role: $0.record.role, fixes: $0.record.fixes, namedInTrace: $0.record.named)
            }
            traces.append(
                TraceAssignment(
                    path: input.path == "-" ? "<stdin>" : input.path, defaultRole: input.defaultRole, provenance: input.provenance,
                    roles: counts))
        }
        var scenario = ReplayScenario(
            category: resolved.category, pickupHandedOff: resolved.handedOff, pickup: resolved.pickup,
            dropoff: resolved.dropoff, traces: traces, timeline: timeline.entries,
            cancelledAt: spec.cancelledAt, rules: options.rules)
        scenario.pickupInference = resolved.pickupInference
        let gaps = meters.gaps.map { RecordingGap(from: Timestamp(nanoseconds: $0.from), to: Timestamp(nanoseconds: $0.to)) }
        var warnings = resolved.warnings
        if let w = Replay.longRecordingWarning(
            gaps: gaps, span: Timestamp(nanoseconds: tEnd).seconds(since: Timestamp(nanoseconds: meters.start)), rules: options.rules,
            split: options.window != nil)
        {
            warnings.append(w)
        }
        if let w = Replay.viewerPairingWarning(options) { warnings.append(w) }
        var result = ReplayResult(
            tracekitVersion: options.tracekitVersion,
            policy: PolicyLabel(name: options.policy.name, fileVersion: SharingPolicy.fileVersion),
            energyModel: options.energyProfile.label, energyProfile: options.energyProfile, receiverRadio: options.receiverRadio,
            phone: options.phone,
            scenario: scenario, start: Timestamp(nanoseconds: meters.start), end: Timestamp(nanoseconds: tEnd), states: states,
            roleTotals: roleTotals, energy: energy, arrivals: arrivals, files: files, notes: notes, warnings: warnings, track: track)
        result.recordingGaps = gaps
        result.viewerViews = views.viewerViews
        result.view = ViewSettings(options)
        result.problemPolicy = options.read.policy
        if options.network == .realistic { result.networkFigures = NetworkFigures(network) }
        return result
    }

    /// `a` with the request's state at the arrival and whether the policy shows the helper to the
    /// viewer then or in any later state of `timeline` (``ArrivalVisibility/shownByPolicy``).
    func entitlement(_ a: ArrivalVisibility, timeline: [TimelineEntry], request: RequestContext) -> ArrivalVisibility {
        guard let at = a.arrivedAt else { return a }
        var a = a
        let state = timeline.last { $0.time <= at }?.state ?? .findingVillager
        let later = timeline.filter { $0.time > at }.map(\.state)
        a.state = state
        a.shownByPolicy = ([state] + later).contains {
            options.policy.viewers(ofLocationFrom: .helper, in: $0, for: request).contains(a.viewer)
        }
        a.viewerAnnotations = options.policy.annotations(seenBy: a.viewer, in: state, for: request).sorted()
        return a
    }
}
