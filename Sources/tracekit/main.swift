import TraceCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Standard output closed early (`tracekit … | head`): SIGPIPE ends the process quietly, as it
// ends coreutils (status 141 in a shell). The default action is restored, and the signal
// unblocked, because a parent may have left it ignored or blocked; then a write would fail with
// EPIPE and end in an error message (ExitCode.swift, "Closed output").
signal(SIGPIPE, SIG_DFL)
var pipeSignal = sigset_t()
sigemptyset(&pipeSignal)
sigaddset(&pipeSignal, SIGPIPE)
sigprocmask(SIG_UNBLOCK, &pipeSignal, nil)

exit(TraceKitCommand.run(Array(CommandLine.arguments.dropFirst())))
