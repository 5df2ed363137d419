import Testing
import TraceDomain
import TraceJSON
import TraceSharing

@Suite("Policy files")
struct PolicyFileTests {
    func load(_ text: String) throws(PolicyFileError) -> SharingPolicy {
        try SharingPolicy(fileBytes: Array(text.utf8), file: "p.json")
    }

    @Test("the seed written as a file reads back equal")
    func roundTrip() throws {
        let text = JSONWriter.string(SharingPolicy.seed.fileJSON)
        #expect(try load(text) == SharingPolicy.seed)
    }

    @Test("a partial version-1 file overrides only what it names; its minimum interval is distance AND time")
    func partial() throws {
        let p = try load(
            """
            {"format": "tracekit-policy", "version": 1, "name": "quiet",
             "states": {"enRoute": {"distanceFilterMetres": 50, "minimumIntervalSeconds": 5,
                                    "annotations": {"hirer": ["helperLocation", {"annotation": "pickupPoint", "ridesOnly": true}]}},
                        "atPickup": {"tier": "kCLLocationAccuracyBest"}}}
            """)
        #expect(p.name == "quiet")
        #expect(
            p[.enRoute].distanceFilter == 50 && p[.enRoute].delivery == .distanceAndTime(interval: 5)
                && p[.enRoute].tier == .nearestTenMeters)
        #expect(p[.enRoute].hirerAnnotations == [AnnotationRule(.helperLocation), AnnotationRule(.pickupPoint, ridesOnly: true)])
        #expect(p[.enRoute].helperAnnotations == SharingPolicy.seed[.enRoute].helperAnnotations)
        #expect(p[.atPickup].tier == .best)
        #expect(
            SharingPolicy.seed.differences(to: p) == [
                "En Route: distance filter 30 m → 50 m",
                "En Route: delivery Core Location → distance and 5 s",
                "En Route: hirer sees Helper Location\\Hirer Location (rides only)\\Pickup Point (rides only) → Helper Location\\Pickup Point (rides only)",
                "At Pickup: accuracy kCLLocationAccuracyBestForNavigation → kCLLocationAccuracyBest",
            ])
        #expect(p.differences(to: p).isEmpty)
        // Fields the table hides are compared too.
        var hidden = SharingPolicy.seed
        hidden[.completed].distanceFilter = 99
        #expect(SharingPolicy.seed.differences(to: hidden) == ["Completed: distance filter 0 m → 99 m"])
    }

    @Test("version 1's heartbeat is distance OR time; null keeps the seed's model")
    func legacyHeartbeat() throws {
        let p = try load(
            """
            {"format": "tracekit-policy", "version": 1,
             "states": {"inTask": {"heartbeatSeconds": 60}, "enRoute": {"minimumIntervalSeconds": null, "heartbeatSeconds": null}}}
            """)
        #expect(p[.inTask].delivery == .distanceOrTime(interval: 60))
        #expect(p[.enRoute] == SharingPolicy.seed[.enRoute])
    }

    @Test(
        "version 2: every delivery model and the accuracy gate read, write back and diff",
        arguments: [
            (#"{"model": "coreLocation"}"#, DeliveryModel.coreLocation, "Core Location"),
            (
                #"{"model": "androidFused", "intervalSeconds": 10}"#, .androidFused(interval: 10, minUpdateInterval: nil),
                "Android fused: interval 10 s, min update 10 s (implicit)"
            ),
            (
                #"{"model": "androidFused", "intervalSeconds": 10, "minUpdateIntervalSeconds": 0}"#,
                .androidFused(interval: 10, minUpdateInterval: 0),
                "Android fused: interval 10 s, min update 0 s"
            ),
            (#"{"model": "speedElastic"}"#, .speedElastic(elasticityMultiplier: 1), "speed-elastic, multiplier 1"),
            (
                #"{"model": "speedElastic", "elasticityMultiplier": 2.5}"#, .speedElastic(elasticityMultiplier: 2.5),
                "speed-elastic, multiplier 2.5"
            ),
            (#"{"model": "distanceOrTime", "intervalSeconds": 300}"#, .distanceOrTime(interval: 300), "distance or 300 s"),
            (#"{"model": "distanceAndTime", "intervalSeconds": 30}"#, .distanceAndTime(interval: 30), "distance and 30 s"),
        ])
    func models(json: String, model: DeliveryModel, summary: String) throws {
        let p = try load(
            """
            {"format": "tracekit-policy", "version": 2,
             "states": {"atPickup": {"delivery": \(json), "accuracyGate": {"maximumMetres": 25, "withoutAccuracy": "drop"}}}}
            """)
        #expect(p[.atPickup].delivery == model)
        #expect(p[.atPickup].accuracyGate == AccuracyGate(maximumAccuracy: 25, deliversWithoutAccuracy: false))
        #expect(try load(JSONWriter.string(p.fileJSON)) == p)
        let gate = "At Pickup: accuracy gate none → ≤ 25 m; none: dropped"
        #expect(
            SharingPolicy.seed.differences(to: p) == (model == .coreLocation ? [] : ["At Pickup: delivery Core Location → \(summary)"]) + [
                gate
            ])
        #expect(p.tableRows[FulfilmentState.atPickup.rawValue][5] == summary)
        #expect(p.tableRows[FulfilmentState.atPickup.rawValue][6] == "≤ 25 m; none: dropped")
    }

    @Test(
        "version 3: every send rule reads, writes back, shows and diffs",
        arguments: [
            (#"{"rule": "everyDelivered"}"#, SendRule.everyDelivered, "every delivered fix", "every delivered fix"),
            (
                #"{"rule": "deadReckoning"}"#, .deadReckoning(thresholdMetres: nil, heartbeatSeconds: 30),
                "dead reckoning at the state's distance filter, heartbeat 30 s",
                "dead reckoning 13 m (the state's distance filter), heartbeat 30 s"
            ),
            (
                #"{"rule": "deadReckoning", "thresholdMetres": null, "heartbeatSeconds": 90}"#,
                .deadReckoning(thresholdMetres: nil, heartbeatSeconds: 90),
                "dead reckoning at the state's distance filter, heartbeat 90 s",
                "dead reckoning 13 m (the state's distance filter), heartbeat 90 s"
            ),
            (
                #"{"rule": "deadReckoning", "thresholdMetres": 42.5}"#, .deadReckoning(thresholdMetres: 42.5, heartbeatSeconds: 30),
                "dead reckoning 42.5 m, heartbeat 30 s", "dead reckoning 42.5 m, heartbeat 30 s"
            ),
            (
                #"{"rule": "deadReckoning", "thresholdMetres": 100000, "heartbeatSeconds": 86400}"#,
                .deadReckoning(thresholdMetres: 100_000, heartbeatSeconds: 86_400),
                "dead reckoning 100000 m, heartbeat 86400 s", "dead reckoning 100000 m, heartbeat 86400 s"
            ),
        ])
    func sendRules(json: String, rule: SendRule, summary: String, cell: String) throws {
        let p = try load(
            """
            {"format": "tracekit-policy", "version": 3, "states": {"atPickup": {"send": \(json)}}}
            """)
        #expect(p[.atPickup].send == rule)
        #expect(p[.atPickup].send.key == (rule == .everyDelivered ? "everyDelivered" : "deadReckoning"))
        var others = p
        others[.atPickup].send = .everyDelivered
        others.name = SharingPolicy.seed.name
        #expect(others == SharingPolicy.seed)  // nothing else changed
        #expect(try load(JSONWriter.string(p.fileJSON)) == p)
        #expect(
            try load(
                JSONWriter.string(
                    .object([
                        ("format", .string("tracekit-policy")), ("version", .number(3)),
                        ("states", .object([("atPickup", .object([("send", rule.fileJSON)]))])),
                    ]))) == p)
        #expect(rule.summary == summary)
        #expect(p.tableRows[FulfilmentState.atPickup.rawValue][7] == cell)
        #expect(SharingPolicy.tableHeader[7] == "Send")
        #expect(
            SharingPolicy.seed.differences(to: p) == (rule == .everyDelivered ? [] : ["At Pickup: send every delivered fix → \(summary)"]))
    }

    @Test("a dead-reckoning rule's threshold: its own, or the state's distance filter; none for every delivered fix")
    func sendThreshold() {
        var row = SharingPolicy.seed[.enRoute]
        #expect(row.send == .everyDelivered && SendRule.everyDelivered.thresholdMetres(in: row) == nil)
        #expect(SendRule.deadReckoning(thresholdMetres: nil, heartbeatSeconds: 30).thresholdMetres(in: row) == 30)
        row.distanceFilter = 75
        #expect(SendRule.deadReckoning(thresholdMetres: nil, heartbeatSeconds: 30).thresholdMetres(in: row) == 75)
        #expect(SendRule.deadReckoning(thresholdMetres: 12, heartbeatSeconds: 30).thresholdMetres(in: row) == 12)
        #expect(SendRule.defaultHeartbeatSeconds == 30 && SendRule.keys == ["everyDelivered", "deadReckoning"])
        // The seed sends every delivered fix in every state.
        #expect(FulfilmentState.allCases.allSatisfy { SharingPolicy.seed[$0].send == .everyDelivered })
    }

    @Test("a policy with send rules in several states written as a file (version 3) reads back equal")
    func sendRoundTrip() throws {
        var p = SharingPolicy.seed
        p.name = "dead reckoning"
        p[.enRoute].send = .deadReckoning(thresholdMetres: nil, heartbeatSeconds: 30)
        p[.atPickup].send = .deadReckoning(thresholdMetres: 8, heartbeatSeconds: 15.5)
        p[.inTask].send = .deadReckoning(thresholdMetres: 250, heartbeatSeconds: 600)
        let file = p.fileJSON
        #expect(file["version"]?.kind == .number(3) && SharingPolicy.fileVersion == 3)
        // Every state carries its rule, the seed's included.
        for state in FulfilmentState.allCases {
            #expect(file["states"]?[state.key]?["send"]?["rule"] != nil)
        }
        #expect(file["states"]?["enRoute"]?["send"]?["thresholdMetres"]?.kind == .null)
        let back = try load(JSONWriter.string(file))
        #expect(back == p && back[.atPickup].send == .deadReckoning(thresholdMetres: 8, heartbeatSeconds: 15.5))
    }

    @Test("version 2 files still read (every delivered fix is sent); a send rule in one names the version it needs")
    func versionTwo() throws {
        let p = try load(
            """
            {"format": "tracekit-policy", "version": 2, "name": "old",
             "states": {"enRoute": {"distanceFilterMetres": 50, "delivery": {"model": "distanceOrTime", "intervalSeconds": 60}}}}
            """)
        #expect(p[.enRoute].distanceFilter == 50 && p[.enRoute].delivery == .distanceOrTime(interval: 60))
        #expect(FulfilmentState.allCases.allSatisfy { p[$0].send == .everyDelivered })
        #expect(
            try load(#"{"format": "tracekit-policy", "version": 1}"#)
                == {
                    var s = SharingPolicy.seed; s.name = "unnamed"; return s
                }())
    }

    @Test(
        "bad files name the place, the field and why",
        arguments: [
            ("{", "p.json:1:2: expected a string key"),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1,\n \"states\": {\"enRoute\": {\"distanceFilterMetres\": -5}}}",
                "p.json:2:49: states.enRoute.distanceFilterMetres: must be 0 or at least 0.01 and at most 100000 metres, got -5"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enroute\": {}}}",
                "p.json:1:67: states.enroute: unknown member; expected one of findingVillager, accepted, enRoute, atPickup, inTask, awaitingPayment, completed"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"inTask\": {\"tier\": \"precise\"}}}",
                "p.json:1:75: states.inTask.tier: unknown tier \"precise\"; expected one of off, threeKilometers, kilometer, hundredMeters, nearestTenMeters, best, bestForNavigation"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 4}",
                "p.json:1:42: version: unsupported version 4; this TraceKit reads versions 1 to 3"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2.5}",
                "p.json:1:42: version: unsupported version 2.5; this TraceKit reads versions 1 to 3"
            ),
            ("{\"format\": \"tracekit-policy\"}", "p.json:1:1: version: missing; this TraceKit reads versions 1 to 3"),
            ("{\"version\": 1}", "p.json:1:1: format: missing; a policy file starts with \"format\": \"tracekit-policy\""),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"frameMetres\": 0}}}",
                "p.json:1:84: states.atPickup.frameMetres: must be at least 1 and at most 20000000 metres, got 0"
            ),
            // Values that parse but mean nothing (issue 41's probe): below the documented minima.
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"frameMetres\": 5e-324}}}",
                "p.json:1:84: states.atPickup.frameMetres: must be at least 1 and at most 20000000 metres, got 5e-324"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"distanceOrTime\", \"intervalSeconds\": 1e-300}}}}",
                "p.json:1:127: states.enRoute.delivery.intervalSeconds: must be at least 0.001 and at most 86400 seconds, got 1e-300"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"heartbeatSeconds\": 1e-300}}}",
                "p.json:1:88: states.enRoute.heartbeatSeconds: must be at least 0.001 and at most 86400 seconds, got 1e-300"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"distanceFilterMetres\": 1e-9}}}",
                "p.json:1:92: states.enRoute.distanceFilterMetres: must be 0 or at least 0.01 and at most 100000 metres, got 1e-09"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"annotations\": {\"helper\": [\"pickupPoint\", \"pickupPoint\"]}}}}",
                "p.json:1:111: states.atPickup.annotations.helper[1]: \"pickupPoint\" is listed twice"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"shows\": {\"routeLines\": \"no\"}}}}",
                "p.json:1:93: states.atPickup.shows.routeLines: expected true or false, found a string"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"extra\": 1}",
                "p.json:1:54: extra: unknown member; expected one of format, version, name, tuned, states"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"annotations\": {\"hirer\": [\"hirerLocation\"]}}}}",
                "p.json:1:93: states.enRoute.annotations.hirer: hirerLocation must be ridesOnly: the hirer's location is shown only for rides"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"accepted\": {\"annotations\": {\"helper\": [\"helperLocation\"]}}}}",
                "p.json:1:95: states.accepted.annotations.helper: helperLocation is a live location, but the state's tier is off: no phone sends one"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"minimumIntervalSeconds\": 10, \"heartbeatSeconds\": 50}}}",
                "p.json:1:94: states.enRoute.minimumIntervalSeconds: a minimum interval and a heartbeat together are no longer supported; use version 2's delivery (distanceAndTime or distanceOrTime)"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"coreLocation\"}}}}",
                "p.json:1:80: states.enRoute.delivery: unknown member; expected one of tier, frameMetres, distanceFilterMetres, minimumIntervalSeconds, heartbeatSeconds, shows, annotations"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"heartbeatSeconds\": 60}}}",
                "p.json:1:88: states.enRoute.heartbeatSeconds: unknown member; expected one of tier, frameMetres, distanceFilterMetres, delivery, accuracyGate, shows, annotations"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"fused\"}}}}",
                "p.json:1:90: states.enRoute.delivery.model: unknown model \"fused\"; expected one of coreLocation, androidFused, speedElastic, distanceOrTime, distanceAndTime"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"distanceOrTime\"}}}}",
                "p.json:1:80: states.enRoute.delivery.intervalSeconds: missing; the distanceOrTime model needs it"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"androidFused\", \"intervalSeconds\": 5, \"minUpdateIntervalSeconds\": 10}}}}",
                "p.json:1:156: states.enRoute.delivery.minUpdateIntervalSeconds: 10 s is above the interval 5 s; Android would use the interval"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"coreLocation\", \"intervalSeconds\": 5}}}}",
                "p.json:1:125: states.enRoute.delivery.intervalSeconds: unknown member; expected one of model"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"delivery\": {\"model\": \"speedElastic\", \"elasticityMultiplier\": -1}}}}",
                "p.json:1:130: states.enRoute.delivery.elasticityMultiplier: must be at least 0 and at most 100 (a factor), got -1"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"accuracyGate\": {\"maximumMetres\": 20, \"withoutAccuracy\": \"skip\"}}}}",
                "p.json:1:125: states.enRoute.accuracyGate.withoutAccuracy: unknown value \"skip\"; expected deliver or drop"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"accuracyGate\": {}}}}",
                "p.json:1:84: states.enRoute.accuracyGate.maximumMetres: missing"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"shows\": {\"routeLines\": true}}}}",
                "p.json:1:77: states.enRoute.shows: routeLines needs route: lines draw the route"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"name\": \"a\\nb\"}",
                "p.json:1:53: name: must not contain control characters (line breaks, tabs)"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 2, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"everyDelivered\"}}}}",
                "p.json:1:76: states.enRoute.send: a send rule needs version 3; this file declares version 2"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"everyDelivered\"}}}}",
                "p.json:1:76: states.enRoute.send: a send rule needs version 3; this file declares version 1"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": \"deadReckoning\"}}}",
                "p.json:1:76: states.enRoute.send: expected an object with a \"rule\", found a string"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {}}}}",
                "p.json:1:76: states.enRoute.send.rule: missing; expected one of everyDelivered, deadReckoning"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"sometimes\"}}}}",
                "p.json:1:85: states.enRoute.send.rule: unknown rule \"sometimes\"; expected one of everyDelivered, deadReckoning"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": 1}}}}",
                "p.json:1:85: states.enRoute.send.rule: expected a string, found a number"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"everyDelivered\", \"heartbeatSeconds\": 30}}}}",
                "p.json:1:123: states.enRoute.send.heartbeatSeconds: unknown member; expected one of rule"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"deadReckoning\", \"metres\": 30}}}}",
                "p.json:1:112: states.enRoute.send.metres: unknown member; expected one of rule, thresholdMetres, heartbeatSeconds"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"deadReckoning\", \"thresholdMetres\": 0}}}}",
                "p.json:1:121: states.enRoute.send.thresholdMetres: must be at least 0.01 and at most 100000 metres, got 0"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"deadReckoning\", \"thresholdMetres\": 100001}}}}",
                "p.json:1:121: states.enRoute.send.thresholdMetres: must be at least 0.01 and at most 100000 metres, got 100001"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"deadReckoning\", \"thresholdMetres\": \"30\"}}}}",
                "p.json:1:121: states.enRoute.send.thresholdMetres: expected a number of metres, found a string"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"deadReckoning\", \"heartbeatSeconds\": 0}}}}",
                "p.json:1:122: states.enRoute.send.heartbeatSeconds: must be at least 0.001 and at most 86400 seconds, got 0"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"deadReckoning\", \"heartbeatSeconds\": 86401}}}}",
                "p.json:1:122: states.enRoute.send.heartbeatSeconds: must be at least 0.001 and at most 86400 seconds, got 86401"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"send\": {\"rule\": \"deadReckoning\", \"heartbeatSeconds\": null}}}}",
                "p.json:1:122: states.enRoute.send.heartbeatSeconds: expected a number of seconds, found null"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"accepted\": {\"send\": {\"rule\": \"deadReckoning\"}}}}",
                "p.json:1:77: states.accepted.send: a deadReckoning rule needs location, but the state's tier is off: nothing is sent there"
            ),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 3, \"states\": {\"enRoute\": {\"tier\": \"off\", \"annotations\": {\"hirer\": [], \"helper\": []}, \"send\": {\"rule\": \"deadReckoning\", \"thresholdMetres\": 30}}}}",
                "p.json:1:135: states.enRoute.send: a deadReckoning rule needs location, but the state's tier is off: nothing is sent there"
            ),
        ])
    func errors(text: String, message: String) {
        #expect {
            _ = try load(text)
        } throws: { error in
            (error as? PolicyFileError)?.description == message
        }
    }
}
