import TracePlatform

/// The `tracekit` command line: finds the subcommand, parses its arguments, runs it, and maps
/// failures to one line on stderr and an exit status.
public enum TraceKitCommand {
    /// The TraceKit version printed by `--version` and recorded in reports.
    public static let version = "0.1.0"

    /// A subcommand: its name, its help, and what parses and runs it (its declaration's typed
    /// options, given to its `run`).
    struct Command: Sendable {
        var name: String
        var abstract: String
        var help: String
        var parse: @Sendable ([String]) throws(CLIError) -> ParsedArguments
        var run: @Sendable (ParsedArguments, Output) throws(CLIError) -> Void

        init<Options>(_ spec: CommandSpec<Options>, run: @escaping @Sendable (Options, Output) throws(CLIError) -> Void) {
            name = spec.name
            abstract = spec.abstract
            help = spec.help
            parse = { (arguments) throws(CLIError) in try spec.parse(arguments) }
            self.run = { (parsed, output) throws(CLIError) in try run(spec.options(from: parsed), output) }
        }
    }

    static let commands: [Command] = [
        Command(InfoCommand.spec, run: InfoCommand.run),
        Command(ConvertCommand.spec, run: ConvertCommand.run),
        Command(SplitCommand.spec, run: SplitCommand.run),
        Command(ReplayCommand.spec, run: ReplayCommand.run),
        Command(CompareCommand.spec, run: CompareCommand.run),
        Command(BatchCommand.spec, run: BatchCommand.run),
        Command(MergeCommand.spec, run: MergeCommand.run),
        Command(TuneCommand.spec, run: TuneCommand.run),
        Command(SmoothCommand.spec, run: SmoothCommand.run),
        Command(DistanceCommand.spec, run: DistanceCommand.run),
        Command(PolicyCommands.show, run: PolicyCommands.runShow),
        Command(PolicyCommands.validate, run: PolicyCommands.runValidate),
        Command(PolicyCommands.diff, run: PolicyCommands.runDiff),
    ]

    /// The command named by the first one or two words of `arguments` (names such as
    /// "policy show" have two), and the arguments after its name.
    static func command(in arguments: [String]) -> (Command, [String])? {
        for words in [2, 1] where arguments.count >= words {
            let name = arguments[0..<words].joined(separator: " ")
            if let c = commands.first(where: { $0.name == name }) { return (c, Array(arguments.dropFirst(words))) }
        }
        return nil
    }

    static var overview: String {
        var lines = [
            "OVERVIEW: TraceKit replays GPS traces through a location-sharing policy.",
            "",
            "USAGE: tracekit <subcommand> [options]",
            "",
            "SUBCOMMANDS:",
        ]
        for c in commands { lines.append(HelpText.row(c.name, c.abstract)) }
        lines += ["", "  See 'tracekit help <subcommand>' or 'tracekit <subcommand> --help'.", "", "OPTIONS:"]
        lines.append(HelpText.row("-h, --help", "Show help information."))
        lines.append(HelpText.row("--version", "Show the version."))
        lines += ["", "EXIT STATUS:"]
        for code in ExitCode.allCases { lines.append(HelpText.row("\(code.rawValue)", code.meaning)) }
        lines.append(HelpText.row(ExitCode.closedOutputLine.status, ExitCode.closedOutputLine.meaning))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs `tracekit` with `arguments` (without the program name), writing to the given outputs.
    /// Returns the exit status. Output is flushed before returning.
    public static func run(_ arguments: [String]) -> Int32 {
        let out = Output(fd: Platform.standardOutput)
        let err = Output(fd: Platform.standardError)
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
            errors.write("tracekit: \(oneLine(error.message))\n")
            if error.code == .usage { errors.write("See 'tracekit --help'.\n") }
            return error.code.rawValue
        }
    }

    /// `message` on one line: control characters (a newline inside a quoted value, binary bytes)
    /// and bidirectional overrides are shown as escapes (``Shown/terminal(_:)``), so every error
    /// is exactly one line.
    static func oneLine(_ message: String) -> String { Shown.terminal(message) }

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
            guard let (command, _) = command(in: Array(arguments.dropFirst())) else {
                throw .usage("unknown subcommand '\(arguments.dropFirst().joined(separator: " "))'")
            }
            output.write(command.help)
            return
        default:
            break
        }
        guard let (command, rest) = command(in: arguments) else {
            let family = commands.map(\.name).filter { $0.hasPrefix(first + " ") }
            if !family.isEmpty {
                throw .usage(
                    "'\(first)' needs a subcommand: \(family.map { String($0.dropFirst(first.count + 1)) }.joined(separator: ", "))")
            }
            throw .usage("unknown subcommand '\(first)'")
        }
        let parsed = try command.parse(rest)
        if parsed.helpRequested {
            output.write(command.help)
            return
        }
        try command.run(parsed, output)
    }
}
