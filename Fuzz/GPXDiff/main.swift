// libFuzzer target: the GPX reader against libxml2 (differential; see README, "Hardening:
// fuzzing"). Every input must get the same verdict from both: the same track points, or both
// reject it. A disagreement traps with its description, so libFuzzer keeps the input.
import FuzzSupport
import GPXDifferential

func fuzzOne(_ bytes: [UInt8]) {
    if case .differ(let why) = compareGPXWithLibxml2(bytes, name: "fuzz.gpx") {
        fatalError("GPX reader and libxml2 disagree: \(why)")
    }
}

fuzzMain(fuzzOne)
