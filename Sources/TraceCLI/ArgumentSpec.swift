/// Declarations of a command's options and positional arguments. The parser, the help text and
/// the command's typed options value are all generated from these, so they cannot drift apart.
struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. "method".
    var name: String
    /// Optional one-letter short name, e.g. "p".
    var short: Character? = nil
    /// Placeholder for the value, e.g. "N"; nil for a flag that takes no value.
    var valueName: String? = nil
    /// The accepted values, when they form a closed set (checked by the parser, listed in help):
    /// the value type's ``ExpressibleByArgument/choices``.
    var choices: [String] = []
    /// Default value shown in help: the field's value in a fresh options value.
    var defaultValue: String? = nil
    /// May be given more than once (values in ``ParsedArguments/all(_:)``, in order).
    var repeatable = false
    var help: String

    var isFlag: Bool { valueName == nil }
}

/// An option bound to a field of a command's options value (`Options`): its declaration, and how
/// the text the parser collected for it becomes the field's typed value.
struct Option<Options>: Sendable {
    var spec: OptionSpec
    /// Sets the field from the parsed arguments when the option was given; a bad value is a usage
    /// error naming the option.
    var apply: @Sendable (inout Options, ParsedArguments) throws(CLIError) -> Void
}

/// A group of option fields with their defaults: `init()` gives every default, once.
protocol OptionGroup: Sendable {
    init()
}

/// A command's whole typed options value: its option fields and its positional arguments.
protocol CommandOptions: OptionGroup {
    /// The positional arguments, in order.
    var arguments: [String] { get set }
    /// Checks what no single option can check alone (options that need or exclude each other, the
    /// number of positionals), once every option is read and before the command runs: swift-
    /// argument-parser's `validate()`. A failure is a usage error (64).
    func validate() throws(CLIError)
}

extension CommandOptions {
    func validate() throws(CLIError) {}
}

extension Option where Options: OptionGroup {
    /// An option with a value; its default is the field's value in `Options()`, shown in help.
    static func value<Value: ArgumentRepresentable>(
        _ name: String, short: Character? = nil, _ field: any WritableKeyPath<Options, Value> & Sendable,
        valueName: String, help: String
    ) -> Option {
        Option(
            spec: OptionSpec(
                name: name, short: short, valueName: valueName, choices: Value.choices,
                defaultValue: Options()[keyPath: field].argument, help: help)
        ) { options, parsed throws(CLIError) in
            if let text = parsed.value(name) { options[keyPath: field] = try Value(argument: text, option: name) }
        }
    }

    /// An option with a value and no default: nil when it is not given.
    static func value<Value: ExpressibleByArgument>(
        _ name: String, short: Character? = nil, _ field: any WritableKeyPath<Options, Value?> & Sendable,
        valueName: String, help: String
    ) -> Option {
        Option(spec: OptionSpec(name: name, short: short, valueName: valueName, choices: Value.choices, help: help)) {
            options, parsed throws(CLIError) in
            if let text = parsed.value(name) { options[keyPath: field] = try Value(argument: text, option: name) }
        }
    }

    /// An option that may be given more than once: every value, in order.
    static func list<Value: ExpressibleByArgument>(
        _ name: String, _ field: any WritableKeyPath<Options, [Value]> & Sendable,
        valueName: String, help: String
    ) -> Option {
        Option(spec: OptionSpec(name: name, valueName: valueName, choices: Value.choices, repeatable: true, help: help)) {
            options, parsed throws(CLIError) in
            var values: [Value] = []
            for text in parsed.all(name) { values.append(try Value(argument: text, option: name)) }
            options[keyPath: field] = values
        }
    }

    /// A flag: true when it is given.
    static func flag(_ name: String, _ field: any WritableKeyPath<Options, Bool> & Sendable, help: String) -> Option {
        Option(spec: OptionSpec(name: name, help: help)) { options, parsed throws(CLIError) in
            if parsed.flags.contains(name) { options[keyPath: field] = true }
        }
    }

    /// This option on a command whose options hold these at `path` (options shared by commands).
    func on<Parent>(_ path: any WritableKeyPath<Parent, Options> & Sendable) -> Option<Parent> {
        let apply = self.apply
        return Option<Parent>(spec: spec) { parent, parsed throws(CLIError) in try apply(&parent[keyPath: path], parsed) }
    }
}

struct PositionalSpec: Sendable {
    var name: String
    var help: String
}

struct CommandSpec<Options: CommandOptions>: Sendable {
    var name: String
    var abstract: String
    var discussion: String = ""
    var positionals: [PositionalSpec] = []
    /// Positionals may be omitted entirely (all or nothing), e.g. to read standard input instead.
    var positionalsOptional = false
    /// The single positional repeats: one or more values (none too, with `positionalsOptional`).
    var variadic = false
    var options: [Option<Options>] = []
    var examples: [String] = []
}

/// The result of reading the tokens: option values by long name, and positionals in order (the
/// text that ``CommandSpec/options(from:)`` turns into the command's typed options).
struct ParsedArguments {
    var values: [String: String] = [:]
    /// Every value of a repeatable option, in order.
    var lists: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// `-h` or `--help` appeared as an option (not as an option's value, not after `--`).
    var helpRequested = false

    func value(_ name: String) -> String? { values[name] }
    /// Every value given for a repeatable option, in order.
    func all(_ name: String) -> [String] { lists[name] ?? [] }
}

extension CommandSpec {
    /// The command's typed options: every default, overridden by the options given, in the order
    /// of the declaration, then checked together (``CommandOptions/validate()``).
    /// - Throws: ``CLIError`` with exit status 64 naming the option whose value is wrong.
    func options(from parsed: ParsedArguments) throws(CLIError) -> Options {
        var options = Options()
        options.arguments = parsed.positionals
        for option in self.options { try option.apply(&options, parsed) }
        try options.validate()
        return options
    }

    /// Reads `arguments` (without the program and command names) against this declaration.
    ///
    /// Accepts `--name value`, `--name=value`, `-x value`, `--` to end options; a token that parses
    /// as a number (such as `-33.9`) is a positional, not an option.
    /// - Throws: ``CLIError`` with exit status 64 naming the offending token.
    func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        let options = self.options.map(\.spec)
        var result = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let token = arguments[i]
            i += 1
            if optionsEnded || !token.hasPrefix("-") || token == "-" || Double(token) != nil {
                result.positionals.append(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            if token == "-h" || token == "--help" {
                result.helpRequested = true
                continue
            }
            var name: String
            var inlineValue: String? = nil
            if token.hasPrefix("--") {
                name = String(token.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                guard token.count == 2, let spec = options.first(where: { $0.short == token.last }) else {
                    throw .usage("unknown option '\(token)' for '\(self.name)'")
                }
                name = spec.name
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage("unknown option '\(token)' for '\(self.name)'")
            }
            if spec.isFlag {
                guard inlineValue == nil else { throw .usage("option '--\(name)' takes no value") }
                result.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count else { throw .usage("option '--\(name)' needs a value (\(spec.valueName!))") }
                value = arguments[i]
                i += 1
            }
            if !spec.choices.isEmpty && !spec.choices.contains(value) {
                throw .usage("'\(value)' is not a valid value for '--\(name)'; choose one of \(spec.choices.joined(separator: ", "))")
            }
            if spec.repeatable {
                result.lists[name, default: []].append(value)
                if result.values[name] == nil { result.values[name] = value }
                continue
            }
            guard result.values[name] == nil else { throw .usage("option '--\(name)' given more than once") }
            result.values[name] = value
        }
        let expected = positionals.count
        let got = result.positionals.count
        if variadic {
            if !result.helpRequested && got == 0 && !positionalsOptional {
                throw .usage("'\(self.name)' needs at least one \(positionals[0].name)")
            }
        } else if !result.helpRequested && got != expected && !(positionalsOptional && got == 0) {
            let names = positionals.map(\.name).joined(separator: " ")
            throw .usage("'\(self.name)' takes \(positionalsOptional ? "either no arguments or " : "")\(expected) (\(names)), got \(got)")
        }
        return result
    }

    /// The help text: usage line, abstract, arguments, options, examples.
    var help: String {
        var usage = "tracekit \(name)"
        let options = self.options.map(\.spec)
        for o in options { usage += o.isFlag ? " [--\(o.name)]" : " [--\(o.name) \(o.valueName!)]\(o.repeatable ? "…" : "")" }
        if !positionals.isEmpty {
            let p = positionals.map(\.name).joined(separator: " ")
            usage += positionalsOptional ? " [\(p)]" : " \(p)"
        }
        var lines = ["OVERVIEW: \(abstract)", ""]
        if !discussion.isEmpty {
            for paragraph in discussion.split(separator: "\n\n") { lines += HelpText.wrap(String(paragraph), width: 88) + [""] }
        }
        lines += ["USAGE: \(usage)", ""]
        if !positionals.isEmpty {
            lines.append("ARGUMENTS:")
            for p in positionals { lines.append(HelpText.row(p.name, p.help)) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for o in options {
            var left = o.short.map { "-\($0), " } ?? ""
            left += "--\(o.name)"
            if let v = o.valueName { left += " \(v)" }
            var text = o.help
            if !o.choices.isEmpty { text += " (\(o.choices.joined(separator: "|")))" }
            if let d = o.defaultValue { text += " (default: \(d))" }
            lines.append(HelpText.row(left, text))
        }
        lines.append(HelpText.row("-h, --help", "Show help information."))
        if !examples.isEmpty {
            lines += ["", "EXAMPLES:"] + examples.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The layout of help text: paragraphs wrapped, and two-column rows.
enum HelpText {
    /// Splits `text` into lines of at most `width` characters at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    static func row(_ left: String, _ right: String) -> String {
        let pad = 26
        let l = "  " + left
        return l.count < pad
            ? l + String(repeating: " ", count: pad - l.count) + right : l + "\n" + String(repeating: " ", count: pad) + right
    }
}
