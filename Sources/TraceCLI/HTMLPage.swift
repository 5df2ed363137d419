import TraceIO

/// The house style of every HTML report (`batch --html`, `replay --html`): one self-contained
/// page, with no script and no external request of any kind (inline CSS, inline SVG, the
/// system's sans-serif font), that reads at a phone's 390 px as at 1,440 px.
///
/// - The viewport is the device's width; wide tables scroll inside their own box
///   (`div.scroll`) instead of widening the page, and pictures shrink to the page's width.
/// - Tables have header cells: `<th scope="col">` for the columns and, with `rowHeaders`, a
///   `<th scope="row">` for each row's first cell.
/// - Colours are the Okabe–Ito palette's (as ``ReplaySVG`` draws the states), and text is dark
///   on light (contrast above 7:1 for body text); a verdict or a regression is always said in
///   words or a text marker (`▲`, `▼`, `✗`, `✓`), never by colour alone.
enum HTMLPage {
    /// `s` as HTML text or an attribute's value: ``Shown/html(_:)`` (control characters shown
    /// as `\u{1b}`, then `&`, `<`, `>`, `"` and `'` as entities).
    static func escape(_ s: String) -> String { Shown.html(s) }

    /// The whole page: doctype, language, charset, viewport, `title` (escaped here), the style
    /// sheet (and `style`, a page's own rules, after it), and `body` (HTML, as given).
    static func document(title: String, body: String, style: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(css)\(style)</style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    static let css = """
        body { font-family: sans-serif; margin: 1em auto; padding: 0 1em; max-width: 1400px; color: #111111; background: #ffffff; line-height: 1.4; }
        h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
        h1, h2, p, li, dd, summary, caption { overflow-wrap: anywhere; }
        div.scroll { overflow-x: auto; max-width: 100%; margin: 0.5em 0 1.2em; }
        table { border-collapse: collapse; font-size: 13px; }
        caption { text-align: left; font-weight: bold; padding: 4px 0; }
        th, td { border: 1px solid #b0b0b0; padding: 3px 8px; text-align: left; vertical-align: top; white-space: nowrap; }
        thead th { background: #e8e8e4; }
        tbody th { font-weight: normal; background: #efefea; white-space: nowrap; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.regression td, tr.regression th, tr.failed td, tr.failed th { background: #fbe3d6; }
        tr.improvement td, tr.improvement th { background: #dcf0fa; }
        .verdict { font-size: 1.1em; font-weight: bold; padding: 0.5em 0.8em; border-left: 6px solid; }
        .verdict.pass { border-color: #009e73; background: #e3f4ee; }
        .verdict.fail { border-color: #d55e00; background: #fbe3d6; }
        dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 2px 1em; }
        dl.summary dt { font-weight: bold; } dl.summary dd { margin: 0; }
        p.legend, p.note { font-size: 13px; color: #333333; }
        figure { margin: 1em 0; } figcaption { font-size: 13px; color: #333333; }
        svg { max-width: 100%; height: auto; }
        div.picture svg { min-width: 760px; }
        details { margin: 0.5em 0 1em; }

        """

    /// A table in its scroll box. Cells are text (escaped here). `numeric` marks the columns
    /// right-aligned as figures; `rowClasses[i]` (when given) is row i's class, for example
    /// `regression`; `cellClasses[i][j]` (when given) a class of row i's cell j (not a row
    /// header's), after `num`; with `rowHeaders` each row's first cell is its header.
    static func table(
        _ header: [String], _ rows: [[String]], caption: String? = nil, rowHeaders: Bool = true, numeric: Set<Int> = [],
        rowClasses: [String?] = [], cellClasses: [[Int: String]] = []
    ) -> String {
        var t = "<div class=\"scroll\"><table>\n"
        if let caption { t += "<caption>\(escape(caption))</caption>\n" }
        t += "<thead><tr>" + header.map { "<th scope=\"col\">\(escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for (i, r) in rows.enumerated() {
            let cls = i < rowClasses.count ? rowClasses[i].map { " class=\"\($0)\"" } ?? "" : ""
            t += "<tr\(cls)>"
            for (j, cell) in r.enumerated() {
                if j == 0 && rowHeaders {
                    t += "<th scope=\"row\">\(escape(cell))</th>"
                } else {
                    let classes = [numeric.contains(j) ? "num" : nil, i < cellClasses.count ? cellClasses[i][j] : nil].compactMap { $0 }
                    t +=
                        classes.isEmpty
                        ? "<td>\(escape(cell))</td>" : "<td class=\"\(classes.joined(separator: " "))\">\(escape(cell))</td>"
                }
            }
            t += "</tr>\n"
        }
        return t + "</tbody>\n</table></div>\n"
    }

    /// An SVG document (as ``ReplaySVG`` writes it) to put inline: without its XML declaration
    /// and without the root's `xmlns` (HTML's parser puts an inline `<svg>` in the SVG namespace
    /// by itself), so the page names no URL at all; in a scroll box where it keeps at least
    /// 760 px (a map scaled to a phone's width would be too small to read: there it scrolls
    /// sideways instead, like a wide table).
    static func inline(svg: String) -> String {
        let body = svg.hasPrefix("<?xml") ? String(svg.drop { $0 != "\n" }.dropFirst()) : svg
        return "<div class=\"scroll picture\">\n"
            + body.replacing("<svg xmlns=\"http://www.w3.org/2000/svg\" ", with: "<svg ", maxReplacements: 1) + "</div>\n"
    }
}
