// libFuzzer target: the lines `tracekit merge` reads (`tracekit-batch-trip/3`, one JSON object per
// line; see Fuzz/Support/FuzzSupport.swift and README, "Hardening: fuzzing").
import FuzzSupport
import TraceCLI

func fuzzOne(_ bytes: [UInt8]) {
    // A thrown CLIError (65: not a line of a batch, a bad member) is the right outcome for a bad line.
    var number = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        number += 1
        _ = BatchLine.check(String(decoding: line, as: UTF8.self), file: "fuzz.jsonl", number: number)
    }
}

fuzzMain(fuzzOne)
