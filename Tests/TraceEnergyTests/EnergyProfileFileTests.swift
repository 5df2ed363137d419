import Testing
import TraceDomain
import TraceEnergy
import TraceJSON
import TraceSharing

@Suite("Energy profile files")
struct EnergyProfileFileTests {
    func load(_ text: String) throws(EnergyProfileError) -> EnergyProfile {
        try EnergyProfile(fileBytes: Array(text.utf8), file: "p.json")
    }

    @Test("the built-in profiles carry the battery model's constants (docs/battery-model.md)")
    func builtIns() {
        let p = EnergyProfile.lte
        #expect(AccuracyTier.allCases.map { p.locationMilliwatts($0) } == [0, 2, 8, 30, 145, 290, 425])
        #expect(p.fixMillijoules == 50 && p.nominalVolts == 3.85 && abs(p.joulesPerMilliampHour - 13.86) < 1e-12)
        #expect(EnergyProfile.builtIn.map(\.name) == ["lte", "lte-modern", "3g", "wifi"])
        #expect(EnergyProfile.builtIn(named: "3g")?.radio == .threeG)
        #expect(EnergyProfile.builtIn(named: "5g") == nil)
        #expect(EnergyProfile.lteModern.radio.tailMilliwatts == 500 && EnergyProfile.lteModern.assumed.contains(.tailPower))
        #expect(!EnergyProfile.lte.assumed.contains(.tailPower) && EnergyProfile.lte.assumed.contains(.transmitDuration))
        #expect(EnergyProfile.threeG.assumed.contains(.transmitPower))
        #expect(EnergyProfile.lte.assumed.contains(.bestPower) && !EnergyProfile.lte.assumed.contains(.nominalVoltage))
    }

    @Test("the reference battery: 3,500 mAh and assumed in every built-in profile; a file sets it from just above 0 to 100,000 mAh")
    func referenceBattery() throws {
        #expect(EnergyProfile.builtIn.allSatisfy { $0.referenceBatteryMilliampHours == 3500 && $0.assumed.contains(.referenceBattery) })
        #expect(EnergyConstant.referenceBattery.path == "referenceBatteryMilliampHours" && EnergyConstant.referenceBattery.unit == "mAh")
        let p = try load(#"{"format": "tracekit-energy-profile", "version": 1, "referenceBatteryMilliampHours": 4500}"#)
        var expected = EnergyProfile.lte
        expected.referenceBatteryMilliampHours = 4500
        expected.assumed.remove(.referenceBattery)  // set by the file: no longer assumed
        // It prices no joule, so the profile keeps its base's name (the reports' energy label, which
        // the gate compares); a constant that prices energy makes it custom.
        #expect(p == expected && p.name == "lte")
        let priced = try load(#"{"format": "tracekit-energy-profile", "version": 1, "referenceBatteryMilliampHours": 4500, "fixMillijoules": 60}"#)
        #expect(priced.name == "lte-custom")
        for edge in [0.5, 100_000] {
            let q = try load(#"{"format": "tracekit-energy-profile", "version": 1, "referenceBatteryMilliampHours": \#(edge)}"#)
            #expect(q.referenceBatteryMilliampHours == edge)
        }
        let restated = try load(
            #"{"format": "tracekit-energy-profile", "version": 1, "referenceBatteryMilliampHours": 5000, "assumed": ["referenceBatteryMilliampHours"]}"#)
        #expect(restated.assumed == [.referenceBattery])
    }

    @Test("mAh and percent of the reference battery, by hand: 13.86 J per mAh at 3.85 V; 48.51 J = 3.5 mAh = 0.1 % of 3,500 mAh")
    func percentOfReferenceBattery() {
        func estimate(_ profile: EnergyProfile, joules: Double) -> EnergyEstimate {
            EnergyEstimate(
                profile: profile, durationSeconds: 600, tierSeconds: TierSeconds(), distanceMetres: 0, deliveredFixes: 0, sent: 0, received: 0,
                radioPromotions: 0, locationJoules: joules, fixesJoules: 0, radio: RadioEnergy())
        }
        // 3.6 × 3.85 V = 13.86 J per mAh; 48.51 J / 13.86 = 3.5 mAh; 3.5 / 3,500 × 100 = 0.1 %.
        let e = estimate(.lte, joules: 48.51)
        #expect(abs(e.milliampHours - 3.5) < 1e-12)
        #expect(abs(e.percentOfReferenceBattery - 0.1) < 1e-12)
        // The whole battery: 3,500 mAh × 13.86 J = 48,510 J is 100 %.
        #expect(abs(estimate(.lte, joules: 48_510).percentOfReferenceBattery - 100) < 1e-9)
        // A 5,000 mAh battery at 3.7 V: 13.32 J per mAh; 666 J = 50 mAh = 1 %.
        var big = EnergyProfile.lte
        big.nominalVolts = 3.7
        big.referenceBatteryMilliampHours = 5000
        #expect(abs(estimate(big, joules: 666).percentOfReferenceBattery - 1) < 1e-12)
        #expect(abs(big.percentOfReferenceBattery(milliampHours: 250) - 5) < 1e-12)
        // The estimate's JSON ends with the reference battery and the percentage (added keys).
        guard case .object(let members) = e.json.kind else {
            Issue.record("not an object")
            return
        }
        #expect(members.suffix(2).map(\.key) == ["referenceBatteryMilliampHours", "percentOfReferenceBattery"])
        #expect(members.suffix(2).map(\.value) == [.number(3500), .number(e.percentOfReferenceBattery)])
    }

    @Test("every profile written as a file reads back equal")
    func roundTrip() throws {
        var custom = EnergyProfile.threeG
        custom.name = "field phone"
        custom.bestMilliwatts = 312.5
        custom.radio.secondTailSeconds = 7.25
        custom.assumed = [.fixEnergy, .secondTailDuration]
        for profile in EnergyProfile.builtIn + [custom] {
            let text = JSONWriter.string(profile.fileJSON)
            let back = try load(text)
            #expect(back == profile, "\(profile.name)")
            #expect(JSONWriter.string(back.fileJSON) == text)
        }
    }

    @Test("a partial file overrides only what it names, from its base")
    func partial() throws {
        let p = try load(
            """
            {"format": "tracekit-energy-profile", "version": 1, "base": "lte-modern",
             "locationMilliwatts": {"best": 250}, "fixMillijoules": 40, "radio": {"tailSeconds": 8}}
            """)
        #expect(p.name == "lte-modern-custom" && p.base == "lte-modern")
        #expect(p.bestMilliwatts == 250 && p.fixMillijoules == 40 && p.radio.tailSeconds == 8)
        var expected = EnergyProfile.lteModern
        expected.name = "lte-modern-custom"
        expected.bestMilliwatts = 250
        expected.fixMillijoules = 40
        expected.radio.tailSeconds = 8
        expected.assumed.subtract([.bestPower, .fixEnergy])  // set by the file: no longer the model's assumption (docs/battery-model.md)
        #expect(p == expected)
        #expect(p.label == "tracekit-energy 1, profile lte-modern-custom")

        // The network's constants are overridden like the radio's; the others keep the base's.
        let slow = try load(
            #"{"format": "tracekit-energy-profile", "version": 1, "base": "3g", "network": {"backendMedianSeconds": 2, "lossProbability": 0.1}}"#
        )
        #expect(slow.network.backendMedianSeconds == 2 && slow.network.lossProbability == 0.1)
        #expect(slow.network.uplinkSeconds == NetworkProfile.threeG.uplinkSeconds && slow.radio == .threeG)
        #expect(!slow.assumed.contains(.backendMedian) && slow.assumed.contains(.uplinkLatency))
        #expect(try EnergyProfile(fileBytes: Array(JSONWriter.string(slow.fileJSON).utf8), file: "x") == slow)
        let minimal = try load(#"{"format": "tracekit-energy-profile", "version": 1}"#)
        #expect(minimal == .lte)
        let named = try load(#"{"format": "tracekit-energy-profile", "version": 1, "name": "pixel", "assumed": ["radio.tailMilliwatts"]}"#)
        #expect(named.name == "pixel" && named.assumed == [.tailPower] && named.radio == .lte)
        #expect(
            EnergyConstant.allCases.allSatisfy {
                $0.path.hasPrefix("locationMilliwatts.") || $0.path.hasPrefix("radio.") || $0.path.hasPrefix("network.")
                    || $0.group == nil
            })
    }

    @Test(
        "bad files give one line naming the file, line, field and why",
        arguments: [
            ("{", "p.json:1:2: expected a string key"),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1,\n \"radio\": {\"tailMilliwatts\": -5}}",
                "p.json:2:30: radio.tailMilliwatts: must be at least 0 mW, got -5"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1,\n\n \"radio\": {\"tailSecs\": 5}}",
                "p.json:3:24: radio.tailSecs: unknown member; expected one of promotionMilliwatts, promotionSeconds, transmitMilliwatts, transmitSeconds, tailMilliwatts, tailSeconds, secondTailMilliwatts, secondTailSeconds"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"locationMilliwatts\": {\"off\": 1}}",
                "p.json:1:83: locationMilliwatts.off: unknown member; expected one of bestForNavigation, best, nearestTenMeters, hundredMeters, kilometer, threeKilometers"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"fixMillijoules\": \"50\"}",
                "p.json:1:71: fixMillijoules: expected a number of mJ, found a string"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"nominalVolts\": 0}",
                "p.json:1:69: nominalVolts: must be greater than 0 V, got 0"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"referenceBatteryMilliampHours\": 0}",
                "p.json:1:86: referenceBatteryMilliampHours: must be greater than 0 and at most 100000 mAh, got 0"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"referenceBatteryMilliampHours\": 100001}",
                "p.json:1:86: referenceBatteryMilliampHours: must be greater than 0 and at most 100000 mAh, got 100001"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"referenceBatteryMilliampHours\": \"3500\"}",
                "p.json:1:86: referenceBatteryMilliampHours: expected a number of mAh, found a string"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"radio\": [1]}",
                "p.json:1:62: radio: expected an object, found an array"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"base\": \"5g\"}",
                "p.json:1:61: base: unknown profile \"5g\"; expected one of lte, lte-modern, 3g, wifi"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 2}",
                "p.json:1:50: version: unsupported version 2; this TraceKit reads version 1"
            ),
            ("{\"version\": 1}", "p.json:1:1: format: missing; an energy profile file starts with \"format\": \"tracekit-energy-profile\""),
            ("{\"format\": \"tracekit-policy\", \"version\": 1}", "p.json:1:12: format: expected \"tracekit-energy-profile\""),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"modelVersion\": 2}",
                "p.json:1:69: modelVersion: this profile is for model version 2; this TraceKit's is 1"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"assumed\": [\"radio.tail\"]}",
                "p.json:1:65: assumed[0]: unknown constant \"radio.tail\"; expected one of locationMilliwatts.bestForNavigation, locationMilliwatts.best, locationMilliwatts.nearestTenMeters, locationMilliwatts.hundredMeters, locationMilliwatts.kilometer, locationMilliwatts.threeKilometers, fixMillijoules, nominalVolts, referenceBatteryMilliampHours, radio.promotionMilliwatts, radio.promotionSeconds, radio.transmitMilliwatts, radio.transmitSeconds, radio.tailMilliwatts, radio.tailSeconds, radio.secondTailMilliwatts, radio.secondTailSeconds, network.uplinkSeconds, network.backendMedianSeconds, network.backendSigma, network.lossProbability"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"network\": {\"lossProbability\": 1.5}}",
                "p.json:1:84: network.lossProbability: must be a probability from 0 to 1, got 1.5"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"network\": {\"backendSigma\": 4}}",
                "p.json:1:81: network.backendSigma: must be from 0 to 3, got 4"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"network\": {\"uplinkSeconds\": \"fast\"}}",
                "p.json:1:82: network.uplinkSeconds: expected a number of s, found a string"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"network\": {\"backendSigma\": true}}",
                "p.json:1:81: network.backendSigma: expected a number, found a boolean"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"network\": {\"lossRate\": 0}}",
                "p.json:1:77: network.lossRate: unknown member; expected one of uplinkSeconds, backendMedianSeconds, backendSigma, lossProbability"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"name\": \"a\\nb\"}",
                "p.json:1:61: name: must be non-empty, without control characters (line breaks, tabs)"
            ),
            (
                "{\"format\": \"tracekit-energy-profile\", \"version\": 1, \"x\\ny\": 1}",
                "p.json:1:61: x\\ny: unknown member; expected one of format, version, model, modelVersion, name, base, fixMillijoules, nominalVolts, referenceBatteryMilliampHours, locationMilliwatts, radio, network, assumed"
            ),
        ])
    func errors(text: String, message: String) {
        #expect {
            _ = try load(text)
        } throws: { error in
            guard let e = error as? EnergyProfileError else { return false }
            return e.description == message && !e.description.contains("\n")
        }
    }
}
