import Testing

@testable import TraceCLI

@Suite("Argument parsing")
struct ArgumentParsingTests {
    let spec = DistanceCommand.spec

    @Test("options in every spelling, negative numbers as positionals")
    func accepted() throws {
        let a = try spec.parse(["--method", "fast", "-33.9", "151.2", "-34", "150"])
        #expect(a.value("method") == "fast" && a.positionals == ["-33.9", "151.2", "-34", "150"])
        let b = try spec.parse(["--precision=6", "-m", "haversine"])
        #expect(b.value("precision") == "6" && b.value("method") == "haversine" && b.positionals.isEmpty)
        let c = try spec.parse(["--", "-1", "2", "3", "4"])
        #expect(c.positionals == ["-1", "2", "3", "4"])
    }

    @Test(
        "usage errors name the problem",
        arguments: [
            (["--bogus"], "unknown option '--bogus' for 'distance'"),
            (["-x"], "unknown option '-x' for 'distance'"),
            (["--method"], "option '--method' needs a value (METHOD)"),
            (["--method", "vincenty"], "'vincenty' is not a valid value for '--method'; choose one of exact, fast, haversine"),
            (["--method", "fast", "--method", "exact"], "option '--method' given more than once"),
            (["1", "2", "3"], "'distance' takes either no arguments or 4 (LAT1 LON1 LAT2 LON2), got 3"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect {
            _ = try spec.parse(arguments)
        } throws: { error in
            guard let e = error as? CLIError else { return false }
            return e.code == .usage && e.message == message
        }
    }

    @Test("help is generated from the declarations and lists every option")
    func helpText() {
        for option in spec.options {
            #expect(spec.help.contains("--\(option.spec.name)"))
        }
        #expect(spec.help.contains("USAGE: tracekit distance [--method METHOD] [--precision N] [--input FILE] [LAT1 LON1 LAT2 LON2]"))
        #expect(spec.help.contains("(exact|fast|haversine) (default: exact)"))
    }

    @Test("the overview lists every subcommand and every exit status")
    func overview() {
        for c in TraceKitCommand.commands { #expect(TraceKitCommand.overview.contains(c.name)) }
        for code in ExitCode.allCases { #expect(TraceKitCommand.overview.contains("\(code.rawValue)")) }
    }

    @Test("result lines: fixed decimals, correctly rounded as C rounds them")
    func formatting() {
        #expect(fixedTriple(15347512.94140, 3.305773484, 177.48784021, decimals: 3) == "15347512.941 3.30577348 177.48784021")
        #expect(fixedTriple(1.0005, 2.5, -0.125, decimals: 3) == "1.000 2.50000000 -0.12500000")  // 1.0005 is stored below the tie
        #expect(fixedTriple(2.5, 0.5, -0.125, decimals: 0) == "2 0.50000 -0.12500")  // half to even
    }

    @Test("-h anywhere is help, unless it is an option's value or follows --")
    func help() throws {
        #expect(try spec.parse(["-m", "fast", "-h"]).helpRequested)
        #expect(try spec.parse(["--help", "1"]).helpRequested)
        #expect(try spec.parse(["--input", "-h"]).value("input") == "-h")
        #expect(!(try spec.parse(["--input", "-h"]).helpRequested))
    }

    @Test("fields: blanks and commas separate, an empty field between commas is kept")
    func fields() {
        #expect(DistanceCommand.fields(of: " 1  2\t3 4 ") == ["1", "2", "3", "4"])
        #expect(DistanceCommand.fields(of: "1, 2,3 ,4") == ["1", "2", "3", "4"])
        #expect(DistanceCommand.fields(of: "0,0,,0,1") == ["0", "0", "", "0", "1"])
        #expect(DistanceCommand.fields(of: "   ").isEmpty)
    }
}
