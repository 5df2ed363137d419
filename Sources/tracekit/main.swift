import TraceCLI
import TracePlatform

// Standard output closed early (`tracekit … | head`): SIGPIPE ends the process quietly, as it
// ends coreutils (status 141 in a shell). The default action is restored, and the signal
// unblocked, because a parent may have left it ignored or blocked; then a write would fail with
// EPIPE and end in an error message (ExitCode.swift, "Closed output").
Platform.restoreDefaultAction(.brokenPipe)

Platform.exit(TraceKitCommand.run(Array(CommandLine.arguments.dropFirst())))
