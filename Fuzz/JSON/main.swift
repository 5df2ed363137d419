// libFuzzer target: the JSON trace reader, both as `.json` (the top-level dispatch: GeoJSON,
// Google histories, arrays of locations) and as `.geojson` (see Fuzz/Support/FuzzSupport.swift and
// README, "Hardening: fuzzing").
import FuzzSupport
import TraceIO

func fuzzOne(_ bytes: [UInt8]) {
    chooseFormat(bytes, name: "fuzz.txt")  // the content check a file of another name goes through
    var json = JSONTraceReader(bytes: bytes, name: "fuzz.json", format: .json)
    drain(&json)
    var geojson = JSONTraceReader(bytes: bytes, name: "fuzz.geojson", format: .geojson)
    drain(&geojson)
}

fuzzMain(fuzzOne)
