import TraceBatch
import TraceDomain

/// `tune --svg FILE` (and the frontiers of `tune --html`): one panel per tuned state, the
/// objective (vertical) against the figure of the requirement the state is judged by
/// (horizontal): every candidate of the state's last sweep as a grey dot (hollow when it misses
/// some requirement), the frontier as a line
/// through its points, the bound as a dashed vertical line with the side that meets it shaded, the
/// start's row (with the other states at their tuned rows) as a hollow black square and the tuned row as an orange diamond (also named in the
/// legend, so nothing is told by colour alone). Self-contained: no script, no external reference,
/// fonts by generic family; deterministic (fixed decimals). Elements carry classes (`candidate`,
/// `frontier`, `bound`, `start`, `tuned`) and `data-state`.
enum TuneSVG {
    static let width = 760.0, panelHeight = 320.0
    static let plot = (x: 90.0, y: 64.0, w: 620.0, h: 190.0)

    static func render(_ report: TuneReport) -> String {
        let frontiers = report.frontiers
        let height = max(1, Double(frontiers.count)) * panelHeight
        let n = ReplaySVG.n
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out +=
            "<title>TraceKit tune: per tuned state, \(HTMLPage.escape(report.objectiveName)) against the figure it is judged by; the frontier, the start and the tuned row</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        if frontiers.isEmpty {
            out += ReplaySVG.text(20, 40, "No frontier: no candidate had a figure of any requirement.") + "\n"
        }
        for (k, f) in frontiers.enumerated() {
            out += panel(f, report: report, top: Double(k) * panelHeight)
        }
        return out + "</svg>\n"
    }

    static func panel(_ f: TuneReport.Frontier, report: TuneReport, top: Double) -> String {
        let n = ReplaySVG.n
        let r = report.judged[f.requirement]
        let xs = f.points.map(\.value) + [r.bound], ys = f.points.map(\.objective)
        var (x0, x1) = (xs.min() ?? 0, xs.max() ?? 1)
        var (y0, y1) = (ys.min() ?? 0, ys.max() ?? 1)
        if x1 - x0 < 1e-9 { (x0, x1) = (x0 - 1, x1 + 1) }
        if y1 - y0 < 1e-9 { (y0, y1) = (y0 - 1, y1 + 1) }
        let px = plot.x, py = top + plot.y, pw = plot.w, ph = plot.h
        func X(_ v: Double) -> Double { px + (v - x0) / (x1 - x0) * pw }
        func Y(_ v: Double) -> Double { py + ph - (v - y0) / (y1 - y0) * ph }
        let state = f.state.key
        var out = "<g data-state=\"\(state)\">\n"
        out +=
            ReplaySVG.text(20, top + 22, "\(f.state.displayName): \(report.objectiveName) against \(r.text)", size: 13, weight: "bold")
            + "\n"
        out +=
            ReplaySVG.text(
                20, top + 42, "round \(f.round): \(f.points.count) candidates with the figure, \(f.front.count) on the frontier", size: 11)
            + "\n"
        // The side of the bound that meets it.
        let bx = X(r.bound)
        let (sx, sw) = r.comparison.upper ? (px, bx - px) : (bx, px + pw - bx)
        out += "<rect class=\"meets\" x=\"\(n(sx))\" y=\"\(n(py))\" width=\"\(n(max(0, sw)))\" height=\"\(n(ph))\" fill=\"#e3f4ee\"/>\n"
        out += "<rect x=\"\(n(px))\" y=\"\(n(py))\" width=\"\(n(pw))\" height=\"\(n(ph))\" fill=\"none\" stroke=\"#888888\"/>\n"
        out +=
            "<line class=\"bound\" x1=\"\(n(bx))\" y1=\"\(n(py))\" x2=\"\(n(bx))\" y2=\"\(n(py + ph))\" stroke=\"#009e73\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\"><title>bound \(HTMLPage.escape(r.text))</title></line>\n"
        // Axes' end values and names.
        out += ReplaySVG.text(px, py + ph + 16, TuneReport.figure(x0, r), size: 11) + "\n"
        out += ReplaySVG.text(px + pw, py + ph + 16, TuneReport.figure(x1, r), size: 11, anchor: "end") + "\n"
        out +=
            ReplaySVG.text(
                px + pw / 2, py + ph + 32, "\(r.figure.rawValue) (\(r.role.key)); the shaded side meets the bound", size: 11,
                anchor: "middle") + "\n"
        out += ReplaySVG.text(px - 6, py + 4, report.objective(y1), size: 11, anchor: "end") + "\n"
        out += ReplaySVG.text(px - 6, py + ph, report.objective(y0), size: 11, anchor: "end") + "\n"
        for p in f.points {
            out +=
                "<circle class=\"candidate\" cx=\"\(n(X(p.value)))\" cy=\"\(n(Y(p.objective)))\" r=\"2.5\" \(p.misses.isEmpty ? "fill=\"#6f6f6f\"" : "fill=\"none\" stroke=\"#6f6f6f\"")><title>\(HTMLPage.escape(report.rowText(p.row) + (p.misses.isEmpty ? "" : " (misses a requirement)")))</title></circle>\n"
        }
        let front = f.front.map { f.points[$0] }
        if !front.isEmpty {
            out += "<polyline class=\"frontier\" fill=\"none\" stroke=\"#0072b2\" stroke-width=\"1.8\" points=\""
            out += front.map { "\(n(X($0.value))),\(n(Y($0.objective)))" }.joined(separator: " ") + "\"/>\n"
        }
        if let s = f.start {
            let p = f.points[s]
            out +=
                "<rect class=\"start\" x=\"\(n(X(p.value) - 5))\" y=\"\(n(Y(p.objective) - 5))\" width=\"10\" height=\"10\" fill=\"none\" stroke=\"#111111\" stroke-width=\"1.8\"><title>start: \(HTMLPage.escape(report.rowText(p.row)))</title></rect>\n"
        }
        if let t = f.tuned {
            let p = f.points[t], cx = X(p.value), cy = Y(p.objective)
            out +=
                "<polygon class=\"tuned\" points=\"\(n(cx)),\(n(cy - 7)) \(n(cx + 7)),\(n(cy)) \(n(cx)),\(n(cy + 7)) \(n(cx - 7)),\(n(cy))\" fill=\"#e69f00\" stroke=\"#111111\"><title>tuned: \(HTMLPage.escape(report.rowText(p.row)))</title></polygon>\n"
        }
        // Legend, right of the second line.
        let ly = top + 42
        out += "<rect x=\"470\" y=\"\(n(ly - 9))\" width=\"10\" height=\"10\" fill=\"none\" stroke=\"#111111\" stroke-width=\"1.8\"/>"
        out += ReplaySVG.text(484, ly, "start's row", size: 11) + "\n"
        out +=
            "<polygon points=\"561,\(n(ly - 10)) 568,\(n(ly - 4)) 561,\(n(ly + 2)) 554,\(n(ly - 4))\" fill=\"#e69f00\" stroke=\"#111111\"/>"
        out += ReplaySVG.text(572, ly, "tuned", size: 11) + "\n"
        out += "<line x1=\"608\" y1=\"\(n(ly - 4))\" x2=\"628\" y2=\"\(n(ly - 4))\" stroke=\"#0072b2\" stroke-width=\"1.8\"/>"
        out += ReplaySVG.text(632, ly, "frontier", size: 11) + "\n"
        out += "<circle cx=\"684\" cy=\"\(n(ly - 4))\" r=\"2.5\" fill=\"#6f6f6f\"/>"
        out += ReplaySVG.text(690, ly, "candidate", size: 11) + "\n"
        out += ReplaySVG.text(px + pw, top + 58, "hollow: misses a requirement", size: 10, anchor: "end") + "\n"
        return out + "</g>\n"
    }
}
