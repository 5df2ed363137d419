import TraceCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(TraceKitCommand.run(Array(CommandLine.arguments.dropFirst())))
