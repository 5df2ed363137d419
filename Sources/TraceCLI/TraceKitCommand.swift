#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `tracekit` command line: finds the subcommand, parses its arguments, runs it, and maps
/// failures to one line on stderr and an exit status.
public enum TraceKitCommand {
    /// The TraceKit version printed by `--version` and recorded in reports.
    public static let version = "0.1.0"

    /// A subcommand: its declaration and what runs it.
    struct Command: Sendable {
        var spec: CommandSpec
        var run: @Sendable (ParsedArguments, Output) throws(CLIError) -> Void
    }

    static let commands: [Command] = [
        Command(spec: DistanceCommand.spec, run: DistanceCommand.run),
    ]

    static var overview: String {
        var lines = [
            "OVERVIEW: TraceKit replays GPS traces through a location-sharing policy.",
            "",
            "USAGE: tracekit <subcommand> [options]",
            "",
            "SUBCOMMANDS:",
        ]
        for c in commands { lines.append(CommandSpec.row(c.spec.name, c.spec.abstract)) }
        lines += ["", "  See 'tracekit help <subcommand>' or 'tracekit <subcommand> --help'.", "", "OPTIONS:"]
        lines.append(CommandSpec.row("-h, --help", "Show help information."))
        lines.append(CommandSpec.row("--version", "Show the version."))
        lines += ["", "EXIT STATUS:"]
        for code in ExitCode.allCases { lines.append(CommandSpec.row("\(code.rawValue)", code.meaning)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs `tracekit` with `arguments` (without the program name), writing to the given outputs.
    /// Returns the exit status. Output is flushed before returning.
    public static func run(_ arguments: [String]) -> Int32 {
        let out = Output(fd: STDOUT_FILENO)
        let err = Output(fd: STDERR_FILENO)
        let status = run(arguments, output: out, errors: err)
        try? err.flush()
        return status
    }

    static func run(_ arguments: [String], output: Output, errors: Output) -> Int32 {
        do {
            try dispatch(arguments, output: output)
            try output.flush()
            return ExitCode.success.rawValue
        } catch {
            try? output.flush()
            errors.write("tracekit: \(error.message)\n")
            if error.code == .usage { errors.write("See 'tracekit --help'.\n") }
            return error.code.rawValue
        }
    }

    static func dispatch(_ arguments: [String], output: Output) throws(CLIError) {
        guard let first = arguments.first else {
            output.write(overview)
            return
        }
        switch first {
        case "-h", "--help":
            output.write(overview)
            return
        case "--version":
            output.write("tracekit \(version)\n")
            return
        case "help":
            guard arguments.count > 1 else {
                output.write(overview)
                return
            }
            guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
                throw .usage("unknown subcommand '\(arguments[1])'")
            }
            output.write(command.spec.help)
            return
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            throw .usage("unknown subcommand '\(first)'")
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            output.write(command.spec.help)
            return
        }
        try command.run(try command.spec.parse(rest), output)
    }
}
