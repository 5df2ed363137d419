import TracePlatform
import TraceSimulation

// trip-generator: writes the seeded demo and regression trips of Traces/trips (see
// Traces/README.md). Same seed, byte-identical files on the same platform.

/// The seed of the committed corpus (issue 6).
let defaultSeed: UInt64 = 6

let usage = """
    USAGE: trip-generator --out FOLDER [--seed N]

    Writes seeded multi-party trips, one folder each under FOLDER: a GPX trace per party
    (helper.gpx, hirer.gpx, delegate.gpx) and NAME.scenario.json, the scenario sidecar
    (schema tracekit-scenario/1) with the true state timeline.

    Trips: ride (a ride with the hirer walking to the pickup), dog-walk (dog walking, not a
    ride; the hirer stays at home), third-party-pickup (a delivery whose pickup is handed off
    to a delegate).

    OPTIONS:
      --out FOLDER   where to write (created if missing); the committed corpus is Traces/trips
      --seed N       the seed, an unsigned 64-bit integer (default \(defaultSeed), the committed corpus's)
      -h, --help     show this help

    EXAMPLE:
      swift run trip-generator --out Traces/trips --seed \(defaultSeed)

    """

func fail(_ message: String, status: Int32) -> Never {
    let line = Array("trip-generator: \(message)\n".utf8)
    _ = line.withUnsafeBytes { try? Platform.write(Platform.standardError, $0) }
    Platform.exit(status)
}

var out: String?
var seed = defaultSeed
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    switch a {
    case "-h", "--help":
        print(usage, terminator: "")
        Platform.exit(0)
    case "--out":
        guard let v = arguments.popFirst() else { fail("--out needs a folder\n\n" + usage, status: 64) }
        out = v
    case "--seed":
        guard let v = arguments.popFirst() else { fail("--seed needs a number\n\n" + usage, status: 64) }
        guard let n = UInt64(v) else { fail("--seed: '\(v)' is not an unsigned 64-bit integer", status: 64) }
        seed = n
    default:
        fail("unexpected argument '\(a)'\n\n" + usage, status: 64)
    }
}
guard let folder = out else { fail("--out FOLDER is required\n\n" + usage, status: 64) }

var random = SeededRandom(seed: seed)
for (name, make) in Trips.all {
    let stream = random.split()
    do {
        let trip = try make(stream)
        for (file, bytes) in try TripWriter.write(trip, into: folder) {
            print("\(folder)/\(file)  \(bytes) bytes")
        }
    } catch let e as GeneratorError {
        fail(e.description, status: 1)
    } catch {
        fail("\(name): \(error)", status: 1)
    }
}
