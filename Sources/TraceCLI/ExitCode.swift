/// The process exit statuses of `tracekit`, following BSD `sysexits.h` where one applies.
///
/// Closed output: when standard output (or error) is a pipe whose reader has gone
/// (`tracekit info big.gpx | head -1`), the next write raises SIGPIPE and its default action ends
/// the process at once, as it ends coreutils: nothing on stderr, no exit status of its own (a
/// shell reports 128 + 13 = 141; `wait` sees WIFSIGNALED with SIGPIPE). `tracekit` restores that
/// default at start even when its parent ignores SIGPIPE, so the behaviour does not depend on the
/// caller. Temporary files of unfinished atomic writes are removed first (``AtomicFile``); files
/// already committed stay.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success.
    case success = 0
    /// The batch gate failed: a regression beyond tolerance (or, under `--strict`, another
    /// change), a baseline trip not run, or a trip that failed to replay; or `tune` found no
    /// candidate that meets every requirement.
    case regression = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// The input data was wrong: a bad line, a coordinate out of range (EX_DATAERR).
    case dataError = 65
    /// An input file could not be opened (EX_NOINPUT).
    case noInput = 66
    /// Reading or writing failed (EX_IOERR).
    case ioError = 74

    /// The line of `--help` for a closed standard output (not an exit status of `tracekit`).
    static let closedOutputLine = (
        status: "141", meaning: "standard output closed early (| head): ended by SIGPIPE, silently (a shell shows 128 + 13)"
    )

    /// One line for `--help`.
    var meaning: String {
        switch self {
        case .success: "success"
        case .regression:
            "batch, merge: a regression beyond tolerance, a baseline trip not run, or a trip that failed to replay; tune: the search found no policy that meets every requirement, or --check-start failed"
        case .usage: "usage error (unknown option, missing or malformed argument)"
        case .dataError: "bad input data (the message names the file and line)"
        case .noInput: "an input file could not be opened"
        case .ioError: "reading or writing failed"
        }
    }
}
