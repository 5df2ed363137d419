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
        "bad files name the place, the field and why",
        arguments: [
            ("{", "p.json:1:2: expected a string key"),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1,\n \"states\": {\"enRoute\": {\"distanceFilterMetres\": -5}}}",
                "p.json:2:49: states.enRoute.distanceFilterMetres: must be at least 0 and at most 100000 metres, got -5"
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
                "{\"format\": \"tracekit-policy\", \"version\": 3}",
                "p.json:1:42: version: unsupported version 3; this TraceKit reads versions 1 and 2"
            ),
            ("{\"version\": 1}", "p.json:1:1: format: missing; a policy file starts with \"format\": \"tracekit-policy\""),
            (
                "{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"frameMetres\": 0}}}",
                "p.json:1:84: states.atPickup.frameMetres: must be greater than 0 and at most 20000000 metres, got 0"
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
                "p.json:1:54: extra: unknown member; expected one of format, version, name, states"
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
        ])
    func errors(text: String, message: String) {
        #expect {
            _ = try load(text)
        } throws: { error in
            (error as? PolicyFileError)?.description == message
        }
    }
}
