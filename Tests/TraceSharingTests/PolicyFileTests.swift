import Testing
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

    @Test("a partial file overrides only what it names")
    func partial() throws {
        let p = try load("""
            {"format": "tracekit-policy", "version": 1, "name": "quiet",
             "states": {"enRoute": {"distanceFilterMetres": 50, "minimumIntervalSeconds": 5,
                                    "annotations": {"hirer": ["helperLocation", {"annotation": "pickupPoint", "ridesOnly": true}]}},
                        "atPickup": {"tier": "kCLLocationAccuracyBest"}}}
            """)
        #expect(p.name == "quiet")
        #expect(p[.enRoute].distanceFilter == 50 && p[.enRoute].minimumInterval == 5 && p[.enRoute].tier == .nearestTenMeters)
        #expect(p[.enRoute].hirerAnnotations == [AnnotationRule(.helperLocation), AnnotationRule(.pickupPoint, ridesOnly: true)])
        #expect(p[.enRoute].helperAnnotations == SharingPolicy.seed[.enRoute].helperAnnotations)
        #expect(p[.atPickup].tier == .best)
        #expect(SharingPolicy.seed.differences(to: p) == [
            "En Route: distance filter 30 m → 50 m",
            "En Route: minimum interval none → 5 s",
            "En Route: hirer sees Helper Location\\Hirer Location (rides only)\\Pickup Point (rides only) → Helper Location\\Pickup Point (rides only)",
            "At Pickup: accuracy kCLLocationAccuracyBestForNavigation → kCLLocationAccuracyBest",
        ])
        #expect(p.differences(to: p).isEmpty)
        // Fields the table hides are compared too.
        var hidden = SharingPolicy.seed
        hidden[.completed].distanceFilter = 99
        #expect(SharingPolicy.seed.differences(to: hidden) == ["Completed: distance filter 0 m → 99 m"])
    }

    @Test("bad files name the place, the field and why", arguments: [
        ("{", "p.json:1:2: expected a string key"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1,\n \"states\": {\"enRoute\": {\"distanceFilterMetres\": -5}}}",
         "p.json:2:49: states.enRoute.distanceFilterMetres: must be at least 0 and at most 100000 metres, got -5"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enroute\": {}}}",
         "p.json:1:67: states.enroute: unknown member; expected one of findingVillager, accepted, enRoute, atPickup, inTask, awaitingPayment, completed"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"inTask\": {\"tier\": \"precise\"}}}",
         "p.json:1:75: states.inTask.tier: unknown tier \"precise\"; expected one of off, threeKilometers, kilometer, hundredMeters, nearestTenMeters, best, bestForNavigation"),
        ("{\"format\": \"tracekit-policy\", \"version\": 2}", "p.json:1:42: version: unsupported version 2; this TraceKit reads version 1"),
        ("{\"version\": 1}", "p.json:1:1: format: missing; a policy file starts with \"format\": \"tracekit-policy\""),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"frameMetres\": 0}}}",
         "p.json:1:84: states.atPickup.frameMetres: must be greater than 0 and at most 20000000 metres, got 0"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"annotations\": {\"helper\": [\"pickupPoint\", \"pickupPoint\"]}}}}",
         "p.json:1:111: states.atPickup.annotations.helper[1]: \"pickupPoint\" is listed twice"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"atPickup\": {\"shows\": {\"routeLines\": \"no\"}}}}",
         "p.json:1:93: states.atPickup.shows.routeLines: expected true or false, found a string"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"extra\": 1}",
         "p.json:1:54: extra: unknown member; expected one of format, version, name, states"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"annotations\": {\"hirer\": [\"hirerLocation\"]}}}}",
         "p.json:1:93: states.enRoute.annotations.hirer: hirerLocation must be ridesOnly: the hirer's location is shown only for rides"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"accepted\": {\"annotations\": {\"helper\": [\"helperLocation\"]}}}}",
         "p.json:1:95: states.accepted.annotations.helper: helperLocation is a live location, but the state's tier is off: no phone sends one"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"minimumIntervalSeconds\": 10, \"heartbeatSeconds\": 5}}}",
         "p.json:1:118: states.enRoute.heartbeatSeconds: heartbeat 5 s is shorter than the minimum interval 10 s"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"states\": {\"enRoute\": {\"shows\": {\"routeLines\": true}}}}",
         "p.json:1:77: states.enRoute.shows: routeLines needs route: lines draw the route"),
        ("{\"format\": \"tracekit-policy\", \"version\": 1, \"name\": \"a\\nb\"}",
         "p.json:1:53: name: must not contain control characters (line breaks, tabs)"),
    ])
    func errors(text: String, message: String) {
        #expect {
            _ = try load(text)
        } throws: { error in
            (error as? PolicyFileError)?.description == message
        }
    }
}
