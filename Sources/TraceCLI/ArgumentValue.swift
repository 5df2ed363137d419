import TraceJSON

/// A value that can be read from one command-line argument: what an option's field holds.
///
/// Reading and checking are one step: ``init(argument:)`` gives the value or says what is wrong
/// with the text, in words that follow the option's name (the parser adds the name; see
/// ``InvalidArgument``).
protocol ExpressibleByArgument: Sendable {
    init(argument: String) throws(InvalidArgument)
    /// The accepted values, when they form a closed set: listed in help and checked by the parser
    /// as it reads the option. Empty for an open set.
    static var choices: [String] { get }
}

extension ExpressibleByArgument {
    static var choices: [String] { [] }
}

/// A value that can stand as an option's default: written back as it would be typed, for the
/// help's "(default: …)".
protocol ArgumentRepresentable: ExpressibleByArgument {
    var argument: String { get }
}

/// A closed set of values: an enum whose raw values are what is typed, its cases the choices in
/// declaration order.
protocol ArgumentChoice: ArgumentRepresentable, CaseIterable, RawRepresentable<String> {}

extension ArgumentChoice {
    init(argument: String) throws(InvalidArgument) {
        guard let value = Self(rawValue: argument) else { throw .notAChoice(Self.choices) }
        self = value
    }

    var argument: String { rawValue }
    static var choices: [String] { allCases.map(\.rawValue) }
}

/// What is wrong with an option's value; ``message(option:value:)`` puts it in a sentence with the
/// option's name.
enum InvalidArgument: Error, Equatable {
    /// "'--option' takes WHAT, not 'TEXT'".
    case expected(String, got: String)
    /// "'--option' needs WHAT".
    case needs(String)
    /// "'--option': REASON".
    case reason(String)
    /// "'--option VALUE': REASON".
    case reasonAboutValue(String)
    /// "'VALUE' is not a valid value for '--option'; choose one of …".
    case notAChoice([String])

    func message(option: String, value: String) -> String {
        switch self {
        case .expected(let what, let text): "'--\(option)' takes \(what), not '\(text)'"
        case .needs(let what): "'--\(option)' needs \(what)"
        case .reason(let reason): "'--\(option)': \(reason)"
        case .reasonAboutValue(let reason): "'--\(option) \(value)': \(reason)"
        case .notAChoice(let choices): "'\(value)' is not a valid value for '--\(option)'; choose one of \(choices.joined(separator: ", "))"
        }
    }
}

extension ExpressibleByArgument {
    /// Reads the value of option `option`; a bad one is a usage error naming the option.
    init(argument: String, option: String) throws(CLIError) {
        do { self = try Self(argument: argument) } catch { throw .usage(error.message(option: option, value: argument)) }
    }
}

// MARK: Values of more than one command

extension String: ArgumentRepresentable {
    init(argument: String) { self = argument }
    var argument: String { self }
}

extension UInt64: ArgumentRepresentable {
    init(argument: String) throws(InvalidArgument) {
        guard let n = UInt64(argument) else { throw .expected("an integer from 0 to \(UInt64.max)", got: argument) }
        self = n
    }

    var argument: String { String(self) }
}

/// A file a command writes besides its report: not standard output, which the report writes.
struct OutputFile: ExpressibleByArgument {
    var path: String

    init(argument: String) throws(InvalidArgument) {
        guard !argument.isEmpty, argument != "-" else {
            throw .needs("a file to write ('-' would mix it into the report on standard output)")
        }
        path = argument
    }
}

/// A whole number in `range`, for options whose text is "a whole number from A to B".
protocol WholeNumberArgument: ArgumentRepresentable {
    static var range: ClosedRange<Int> { get }
    var value: Int { get }
    init(checked value: Int)
}

extension WholeNumberArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let n = Int(argument), Self.range.contains(n) else {
            throw .expected("a whole number from \(Self.range.lowerBound) to \(Self.range.upperBound)", got: argument)
        }
        self.init(checked: n)
    }

    var argument: String { String(value) }
}
