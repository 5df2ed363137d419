/// Renders rows of cells as an aligned terminal table or a Markdown table.
enum TextTable {
    /// Columns padded to their widest cell, separated by two spaces, with a rule under the header.
    /// Every cell is shown as ``Shown/terminal(_:)`` shows text (a trip's name with a control
    /// character in it stays on its line).
    static func aligned(header: [String], rows: [[String]]) -> String {
        let header = header.map(Shown.terminal), rows = rows.map { $0.map(Shown.terminal) }
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                c == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count)
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// A GitHub-flavoured Markdown table. Cells are inline Markdown: text from a file must be
    /// written with ``Shown/markdown(_:)`` or ``Shown/markdownCode(_:)`` before it is a cell. Every
    /// `|` is escaped here (`\|`), the one escape GitHub reads inside a code span in a cell too.
    static func markdown(header: [String], rows: [[String]]) -> String {
        func escape(_ s: String) -> String { s.replacing("|", with: "\\|") }
        func line(_ cells: [String]) -> String { "| " + cells.map(escape).joined(separator: " | ") + " |" }
        let rule = "|" + header.map { _ in "---|" }.joined()
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
