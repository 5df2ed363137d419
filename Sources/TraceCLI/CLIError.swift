import TraceBatch
import TraceIO

/// A failure that ends a command with a message on stderr and an exit status.
struct CLIError: Error {
    var code: ExitCode
    var message: String

    static func usage(_ m: String) -> CLIError { CLIError(code: .usage, message: m) }
    static func data(_ m: String) -> CLIError { CLIError(code: .dataError, message: m) }
    static func noInput(_ m: String) -> CLIError { CLIError(code: .noInput, message: m) }
    static func io(_ m: String) -> CLIError { CLIError(code: .ioError, message: m) }
}

extension CLIError {
    /// The status for a trace that could not be read: 66 when it cannot be opened, 64 when no
    /// reader applies or the options do not fit, 65 for bad content (a file cut off mid-write
    /// included), 74 for a read error.
    init(reading error: TraceReadError) {
        switch error.category {
        case .cannotOpen: self = .noInput(error.description)
        case .unknownFormat:
            // The reader speaks of its format option; here that is --input-format.
            let advice = "name it with --input-format (\(InputFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
            self = .usage(error.description.replacing(TraceFormat.namingAdvice, with: advice))
        case .unreadableFormat: self = .usage(error.description)
        // The CSV reader speaks of its columns option; here that is --column.
        case .options: self = .usage(error.description.replacing("in the columns option", with: "in --column"))
        case .data: self = .data(error.description.replacing(CSVReader.columnsAdvice, with: "map them with --column "))
        case .truncated: self = .data(error.description)
        case .io: self = .io(error.description)
        }
    }

    /// The status for a batch input that could not be read or a trip that failed (the batch's and
    /// the tuner's errors): 66 cannot open, 64 usage, 65 data, 74 I/O; `message` as given.
    init(_ category: BatchTripError.Category, _ message: String) {
        switch category {
        case .cannotOpen: self = .noInput(message)
        case .usage: self = .usage(message)
        case .data: self = .data(message)
        case .io: self = .io(message)
        }
    }

    /// ``init(_:_:)`` with the error's own message.
    init(_ e: BatchTripError) { self.init(e.category, e.message) }

    /// The status for a file that could not be written (74), naming it.
    init(writing error: TraceWriteError) {
        self = .io(error.description)
    }
}
