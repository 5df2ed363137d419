import TraceIO

/// Writes `text` to `path` atomically (``AtomicFile``): the only way a command writes a whole file.
func writeAtomically(_ path: String, _ text: String) throws(CLIError) {
    do { try AtomicFile.write(path, text) } catch { throw CLIError(writing: error) }
}
