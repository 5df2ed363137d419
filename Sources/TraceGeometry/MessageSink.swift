/// Collects the messages GEOS passes to a context's error and notice handlers.
///
/// The handlers are C function pointers that receive an `Unmanaged` pointer to the sink as
/// userdata; the owning ``GeometryContext`` keeps the sink alive for as long as the GEOS context
/// exists. Confined to the context's thread, like the context.
final class MessageSink {
    /// Error messages reported since the last ``clearErrors()``, oldest first.
    private var errors: [String] = []
    /// Notices reported since the last ``takeNotices()``, oldest first.
    private var notices: [String] = []

    func recordError(_ message: String) { errors.append(MessageSink.trimmed(message)) }
    func recordNotice(_ message: String) { notices.append(MessageSink.trimmed(message)) }

    /// The message without trailing newlines or spaces (some GEOS messages end in "\n").
    private static func trimmed(_ message: String) -> String {
        var s = Substring(message)
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// Forgets pending error messages; called immediately before each GEOS call.
    func clearErrors() { errors.removeAll(keepingCapacity: true) }

    /// The pending error messages joined with "; ", or nil if none; clears them.
    func takeErrorMessage() -> String? {
        defer { errors.removeAll(keepingCapacity: true) }
        let text = errors.joined(separator: "; ")
        return text.isEmpty ? nil : text
    }

    /// The pending notices; clears them.
    func takeNotices() -> [String] {
        defer { notices.removeAll(keepingCapacity: true) }
        return notices
    }

    /// Whether any message, error or notice, is pending (for tests of the clearing discipline).
    var hasPendingMessages: Bool { !errors.isEmpty || !notices.isEmpty }
}
