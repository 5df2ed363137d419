/// What ``XMLScanner/next()`` found.
enum XMLToken: Equatable {
    /// A start tag; `name` and the attributes describe it. `selfClosing` for `<x/>`.
    case start(selfClosing: Bool)
    /// An end tag (also reported right after a self-closing start tag); `name` is set.
    case end
    /// Character data (text, entity references and CDATA), in `text` when capturing.
    case text
    /// The end of the document.
    case endOfDocument
}
