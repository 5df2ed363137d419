import TraceGeodesy
import TraceProj

/// `tracekit distance`: the inverse geodesic problem, for one pair or a stream of lines.
enum DistanceCommand {
    /// The options of `distance`, with their defaults.
    struct Options: CommandOptions {
        var method = Method.exact
        var precision = Decimals(checked: 3)
        var input: String?
        /// LAT1 LON1 LAT2 LON2, or none.
        var arguments: [String] = []

        func validate() throws(CLIError) {
            if !arguments.isEmpty && input != nil { throw .usage("give either a pair as arguments or --input, not both") }
        }
    }

    enum Method: String, ArgumentChoice { case exact, fast, haversine }

    /// Decimals of the distance.
    struct Decimals: WholeNumberArgument {
        static let range = 0...10
        var value: Int
        init(checked value: Int) { self.value = value }
    }

    static let spec = CommandSpec<Options>(
        name: "distance",
        abstract: "Distance and azimuths between pairs of points on WGS84.",
        discussion: """
            Solves the inverse problem for the pair given as arguments, or for every line \
            "lat1 lon1 lat2 lon2" (degrees; separated by spaces, tabs or commas) read from \
            --input or standard input, streaming. Each result line is "distance azi1 azi2": \
            metres, then the initial and final azimuths in degrees clockwise from north. Empty \
            lines and lines starting with '#' are copied through, so output lines match input lines.

            Methods: exact = Karney's geodesic via PROJ (nanometre accuracy); fast = WGS84 tangent \
            plane at the mid-latitude for points up to 2 km apart with |latitude| <= 80 (error \
            < 0.3 mm), exact elsewhere; haversine = great circle on the 6,371,008.8 m mean sphere \
            (up to 0.56 % off the ellipsoid), azimuths on the sphere.
            """,
        positionals: [
            PositionalSpec(name: "LAT1", help: "Latitude of the first point, degrees."),
            PositionalSpec(name: "LON1", help: "Longitude of the first point, degrees."),
            PositionalSpec(name: "LAT2", help: "Latitude of the second point, degrees."),
            PositionalSpec(name: "LON2", help: "Longitude of the second point, degrees."),
        ],
        positionalsOptional: true,
        options: [
            .value("method", short: "m", \.method, valueName: "METHOD", help: "How to compute."),
            .value("precision", short: "p", \.precision, valueName: "N", help: "Decimals of the distance (0-10); azimuths get N + 5."),
            .value("input", short: "i", \.input, valueName: "FILE", help: "Read pairs from FILE instead of standard input."),
        ],
        examples: [
            "tracekit distance 40.64 -73.78 1.36 103.99",
            "tracekit distance --method fast < pairs.txt",
            "tracekit distance -m haversine -p 1 --input Traces/distance-pairs.txt",
        ])

    static func run(_ options: Options, _ output: Output) throws(CLIError) {
        let precision = options.precision.value
        let solver = Solver(method: options.method)
        if !options.arguments.isEmpty {
            let pair: (Coordinate, Coordinate)
            do {
                pair = try parsePair(options.arguments, context: "arguments")
            } catch {
                throw .usage(error.message)  // a malformed argument is a usage error (64)
            }
            output.write(format(solver.solve(pair.0, pair.1), precision) + "\n")
            return
        }
        var reader =
            try options.input.map { path throws(CLIError) in try LineReader(path: path) }
            ?? LineReader(standardInput: ())
        while let line = try reader.next(flushingBeforeRead: output) {
            let fields = Self.fields(of: line)
            if fields.isEmpty || fields[0].hasPrefix("#") {
                output.write(line + "\n")
                continue
            }
            let pair = try parsePair(fields, context: "\(reader.name):\(reader.lineNumber)")
            output.write(format(solver.solve(pair.0, pair.1), precision) + "\n")
        }
    }

    /// The fields of a line: runs of spaces and tabs separate fields, and so does each comma, with
    /// blanks around it; an empty field between two commas is kept (and then rejected as not a
    /// number) rather than silently closing up. Split on UTF-8 bytes: every separator is ASCII.
    static func fields(of line: String) -> [Substring] {
        var fields: [Substring] = []
        for part in line.utf8.split(separator: 0x2C, omittingEmptySubsequences: false) {
            let words = part.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { Substring($0) }
            fields += words.isEmpty ? [""] : words
        }
        // A line without commas and with leading/trailing blanks only has no empty fields.
        if fields.count == 1 && fields[0].isEmpty { return [] }
        return fields
    }

    /// Four fields as two validated coordinates; errors name `context` (file:line or "arguments").
    static func parsePair(_ fields: [some StringProtocol], context: String) throws(CLIError) -> (Coordinate, Coordinate) {
        guard fields.count == 4 else {
            throw .data("\(context): expected 4 numbers (lat1 lon1 lat2 lon2), found \(fields.count) field\(fields.count == 1 ? "" : "s")")
        }
        var v: [Double] = []
        for f in fields {
            guard let x = Double(f) else {  // strtod's grammar
                throw .data(f.isEmpty ? "\(context): empty field" : "\(context): '\(f)' is not a number")
            }
            v.append(x)
        }
        do {
            return (try Coordinate(latitude: v[0], longitude: v[1]), try Coordinate(latitude: v[2], longitude: v[3]))
        } catch {
            throw .data("\(context): \(error)")
        }
    }

    static func format(_ g: GeodesicInverse, _ precision: Int) -> String {
        fixedTriple(g.distance, g.initialAzimuth, g.finalAzimuth, decimals: precision)
    }

    struct Solver {
        let method: Method
        let geodesic = Geodesic()

        func solve(_ p: Coordinate, _ q: Coordinate) -> GeodesicInverse {
            switch method {
            case .exact:
                return geodesic.inverse(from: p, to: q)
            case .fast:
                return TangentPlane.inverse(from: p, to: q, fallback: geodesic)
            case .haversine:
                return GeodesicInverse(
                    distance: Haversine.distance(from: p, to: q),
                    initialAzimuth: Spherical.initialBearing(from: p, to: q),
                    finalAzimuth: Spherical.finalBearing(from: p, to: q))
            }
        }
    }
}
