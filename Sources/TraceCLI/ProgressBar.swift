import TracePlatform

/// The progress bar of the long commands (`batch`'s trips, `tune`'s candidates) on standard
/// error, drawn only when it is a terminal: `[#########---------------------] 4/12 trips, 1 failed`,
/// redrawn in place and cleared by ``finish()``, so that nothing of it stays in a log or a pipe.
struct ProgressBar {
    /// What is counted, plural: "trips", "candidates".
    let unit: String
    let enabled = Platform.isTerminal(Platform.standardError)
    private var drawn = false

    init(counting unit: String) { self.unit = unit }

    /// Draws `done` of `total`, with `note` after the count when given ("1 failed").
    mutating func draw(_ done: Int, of total: Int, note: String? = nil) {
        guard enabled, total > 0 else { return }
        let width = 30, filled = min(done, total) * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        writeToStandardError("\r[\(bar)] \(done)/\(total) \(unit)" + (note.map { ", \($0)" } ?? ""))
        drawn = true
    }

    /// Clears the bar's line, if one was drawn.
    func finish() {
        guard drawn else { return }
        writeToStandardError("\r\u{1B}[K")
    }
}
