/// Renders rows of cells as an aligned terminal table or a Markdown table.
enum TextTable {
    /// Columns padded to their widest cell, separated by two spaces, with a rule under the header.
    static func aligned(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                c == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count)
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// A GitHub-flavoured Markdown table; `|` and `\` in cells are escaped.
    static func markdown(header: [String], rows: [[String]]) -> String {
        func escape(_ s: String) -> String {
            var out = ""
            for ch in s {
                if ch == "|" || ch == "\\" { out.append("\\") }
                out.append(ch)
            }
            return out
        }
        func line(_ cells: [String]) -> String { "| " + cells.map(escape).joined(separator: " | ") + " |" }
        let rule = "|" + header.map { _ in "---|" }.joined()
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
