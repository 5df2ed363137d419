import Testing
import TraceDomain
import TraceReplay

import TraceBatch
@testable import TraceTune

@Suite("Requirements: parsing and judging")
struct RequirementTests {
    @Test("every form the help names, with its units")
    func parses() throws {
        let a = try Requirement(parsing: "enRoute.hirer.displayErrorP95<=25m")
        #expect(a.scope == .state(.enRoute) && a.role == .hirer && a.figure == .displayErrorP95 && a.comparison == .atMost && a.bound == 25)
        #expect(a.text == "enRoute.hirer.displayErrorP95<=25m")
        let b = try Requirement(parsing: " atPickup.hirer.stalenessMax < 2 min ")
        #expect(b.bound == 120 && b.comparison == .below && b.figure == .stalenessMax && b.text == "atPickup.hirer.stalenessMax<120s")
        let c = try Requirement(parsing: "arrival.pickup.delegate<=5s")
        #expect(c.scope == .arrival(.pickup) && c.role == .delegate && c.figure == .arrivalDelay)
        let d = try Requirement(parsing: "trip.helper.sentPerMinute<=6/min")
        #expect(d.scope == .trip && d.figure == .sentPerMinute && d.bound == 6)
        #expect(try Requirement(parsing: "inTask.helper.sentPerMinute>=0.5").comparison == .atLeast)
        #expect(try Requirement(parsing: "enRoute.hirer.displayErrorMax<=1.5km").bound == 1500)
        #expect(try Requirement(parsing: "arrival.dropoff.hirer>1s").comparison == .above)
    }

    @Test(
        "a bad requirement says what is wrong",
        arguments: [
            ("enRoute.hirer.displayErrorP95", "no comparison"), ("enRoute.hirer<=25m", "expected SCOPE.ROLE.FIGURE"),
            ("onTheWay.hirer.displayErrorP95<=25m", "unknown scope 'onTheWay'"),
            ("enRoute.driver.displayErrorP95<=25m", "unknown role 'driver'"),
            ("enRoute.hirer.errorP95<=25m", "unknown figure 'errorP95'"), ("enRoute.hirer.displayErrorP95<=25s", "unit 's' does not fit"),
            ("enRoute.hirer.displayErrorP95<=m", "no bound"), ("arrival.office.hirer<=5s", "unknown arrival 'office'"),
            ("enRoute.hirer.stalenessP95<=5m", "unit 'm' does not fit"), ("enRoute.hirer.sentPerMinute<=5s", "does not fit"),
            ("trip.hirer.stalenessMax<=\(String(repeating: "9", count: 308))min", "the bound is too large"),
            ("enRoute.hirer.displayErrorP95<=1e3m", "does not fit"), ("arrival.pickup.helper<=5s", "the hirer or the delegate"),
            ("", "no comparison"), ("<=5m", "expected SCOPE.ROLE.FIGURE"),
        ])
    func refuses(text: String, expected: String) {
        #expect {
            _ = try Requirement(parsing: text)
        } throws: { error in
            "\(error)".contains(expected) && "\(error)".hasPrefix("requirement '\(text)'")
        }
    }

    @Test("corpus values: the worst trip, or pooled over every sample")
    func corpus() throws {
        let r = try Requirement(parsing: "enRoute.hirer.displayErrorP95<=10m")
        var a = QuantileHistogram(), b = QuantileHistogram()
        for _ in 0..<90 { a.add(1) }
        for _ in 0..<10 { a.add(50) }  // trip a's p95: 50
        for _ in 0..<100 { b.add(2) }  // trip b's p95: 2
        func helper(_ h: QuantileHistogram) -> RequirementSample {
            .views([QuantileHistogram(), h, QuantileHistogram()], neverShown: false)
        }
        let samples: [RequirementSample] = [helper(a), .none, helper(b)]
        let every = r.corpusValue(samples, judgement: .everyTrip)
        #expect(every?.value == 50 && every?.trip == 0)
        // Pooled: 200 samples, 10 of them 50 m: the p95 is below them.
        let pooled = r.corpusValue(samples, judgement: .pooled)
        #expect(pooled?.value == 2 && pooled?.trip == nil)
        #expect(r.corpusValue([.none, .none], judgement: .everyTrip) == nil)
        let rate = try Requirement(parsing: "enRoute.helper.sentPerMinute<=4")
        #expect(rate.corpusValue([.rate(updates: 10, seconds: 60), .rate(updates: 2, seconds: 120)], judgement: .pooled)?.value == 4)
        #expect(rate.corpusValue([.rate(updates: 10, seconds: 60), .rate(updates: 2, seconds: 120)], judgement: .everyTrip)?.value == 10)
        let lower = try Requirement(parsing: "trip.helper.sentPerMinute>=2")
        #expect(lower.corpusValue([.rate(updates: 10, seconds: 60), .rate(updates: 2, seconds: 120)], judgement: .everyTrip)?.value == 1)
    }

    @Test("a view figure is the worst sender's; a sender that never reached the viewer's map is infinitely wrong")
    func views() throws {
        let r = try Requirement(parsing: "atPickup.hirer.displayErrorMax<=30m")
        var near = QuantileHistogram(), far = QuantileHistogram()
        near.add(5)
        far.add(40)
        #expect(r.value(.views([QuantileHistogram(), near, far], neverShown: false)) == 40)
        #expect(r.value(.views([QuantileHistogram(), near, QuantileHistogram()], neverShown: true)) == .infinity)
        #expect(r.value(.views([QuantileHistogram(), QuantileHistogram(), QuantileHistogram()], neverShown: false)) == nil)
        // Pooled: each sender's samples merged apart, never shown anywhere stays never shown.
        let pooled = RequirementSample.views([QuantileHistogram(), near, QuantileHistogram()], neverShown: false)
            .pooled(with: .views([QuantileHistogram(), far, QuantileHistogram()], neverShown: false), upper: true)
        #expect(r.value(pooled) == 40)
        #expect(r.value(pooled.pooled(with: .views([QuantileHistogram(), near, near], neverShown: true), upper: true)) == .infinity)
        #expect(r.excess(.infinity) >= 1e9)
    }

    @Test("pooling in place equals pooling into a new sample, and changes no sample it shares histograms with")
    func poolInPlace() throws {
        var near = QuantileHistogram(), far = QuantileHistogram()
        near.add(5)
        far.add(40)
        let a = RequirementSample.views([QuantileHistogram(), near, QuantileHistogram()], neverShown: false)
        let b = RequirementSample.views([QuantileHistogram(), far, near], neverShown: false)
        let samples: [RequirementSample] = [
            .none, a, b, .rate(updates: 3, seconds: 60), .rate(updates: 1, seconds: 30), .value(2), .value(7),
        ]
        for x in samples {
            for y in samples {
                for upper in [true, false] {
                    var pool = x
                    pool.pool(y, upper: upper)
                    #expect(pool == x.pooled(with: y, upper: upper))
                }
            }
        }
        // A pool that took another sample's histograms as they were (the first trip's) merges
        // into copies: the sample it came from is unchanged.
        var pool = RequirementSample.none
        pool.pool(a, upper: true)
        pool.pool(b, upper: true)
        pool.pool(b, upper: true)
        #expect(a == .views([QuantileHistogram(), near, QuantileHistogram()], neverShown: false))
        let r = try Requirement(parsing: "atPickup.hirer.displayErrorMax<=30m")
        #expect(r.value(pool) == 40)
        guard case .views(let h, _) = pool else { Issue.record("not views"); return }
        #expect(h.map(\.count) == [0, 3, 2])
    }

    @Test("excess: 0 when met, relative beyond, a strict bound met with equality still fails")
    func excess() throws {
        let r = try Requirement(parsing: "enRoute.hirer.displayErrorP95<=20m")
        #expect(r.excess(20) == 0 && r.excess(10) == 0)
        #expect(r.excess(30) == 0.5)
        #expect(try Requirement(parsing: "enRoute.hirer.displayErrorP95<20m").excess(20) > 0)
        #expect(r.excess(.infinity) >= 1e9)
        #expect(try Requirement(parsing: "trip.helper.sentPerMinute>=2").excess(1) == 0.5)
    }

    @Test("the views the search samples: each view figure's viewer in its state, or in every state for the trip's; not arrivals or rates")
    func judgedViews() throws {
        let views = Requirement.judgedViews(
            try [
                "enRoute.hirer.displayErrorP95<=25m", "atPickup.delegate.stalenessMax<=60s", "trip.helper.displayErrorMax<=1km",
                "arrival.pickup.hirer<=5s", "inTask.hirer.sentPerMinute<=6",
            ].map { try Requirement(parsing: $0) })
        for state in FulfilmentState.allCases {
            var expected: RoleSet = .helper
            if state == .enRoute { expected.insert(.hirer) }
            if state == .atPickup { expected.insert(.delegate) }
            #expect(views[state] == expected, "\(state)")
        }
        #expect(Requirement.judgedViews([try Requirement(parsing: "arrival.dropoff.hirer<=5s")]) == .none)
    }
}
