import TraceDomain
import TraceGeodesy
import TraceIO
import TraceReplay
import TraceSharing

/// `replay --svg FILE`: a self-contained picture of the trip (no scripts, no external references,
/// fonts by generic family), for a reader to take in at a glance.
///
/// - The map (top left): each role's track coloured by state (helper a solid line, hirer dashed,
///   delegate dotted), delivered updates as dots (helper circles, hirer squares, delegate
///   diamonds; filled when sent, hollow when delivered but not sent), the pickup (P) and dropoff
///   (D), and each state's map frame (the hirer's map at the state's first fix) as a dashed
///   outline in the state's colour. Projection: a local east/north plane (``LocalFrame``) about
///   the centre of everything drawn, north up, equal scale on both axes, with a scale bar in
///   metres.
/// - The legend (top right): states entered with tier and frame, line and marker meanings, counts.
/// - The chart (bottom): cumulative delivered and sent updates (left axis) and all phones'
///   cumulative energy in joules (right axis) over minutes since the start, over bands coloured
///   by state.
///
/// Draws the replay's ``ReplayTrack`` (thinned to a bounded number of points: see
/// ``ReplayOptions/trackPointsPerPath``). Element classes (`track`, `update sent`,
/// `update unsent`, `frame`, `marker`, `legend`, `series`, `band`) and `data-role` /
/// `data-state` attributes name what each element shows. Deterministic: numbers are written with
/// a fixed number of decimals.
enum ReplaySVG {
    static let width = 980.0, height = 940.0
    // The map's box, the legend's left edge, the chart's plot box.
    static let map = (x: 20.0, y: 64.0, w: 680.0, h: 540.0)
    static let legendX = 720.0
    static let plot = (x: 80.0, y: 672.0, w: 800.0, h: 210.0)

    /// Okabe–Ito colours, distinguishable with the common colour-vision deficiencies.
    static func colour(_ s: FulfilmentState) -> String {
        switch s {
        case .findingVillager: "#8c8c8c"
        case .accepted: "#cc79a7"
        case .enRoute: "#0072b2"
        case .atPickup: "#e69f00"
        case .inTask: "#009e73"
        case .awaitingPayment: "#d55e00"
        case .completed: "#56b4e9"
        }
    }

    static let energyColour = "#6a3d9a"

    /// The picture of `r`, replayed with `policy` and ``ReplayOptions/recordTrack`` on, titled
    /// with its traces' file names, or with `name` (a trip streamed on standard input is named by
    /// its trip's name, as its file in the corpus would be).
    static func render(_ r: ReplayResult, policy: SharingPolicy, name: String? = nil) -> String {
        guard let track = r.track else { preconditionFailure("the SVG needs a replay with recordTrack") }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        // File names only, and at most about a line's width.
        var names = (name.map { [$0] } ?? r.scenario.traces.map(\.path)).map { String($0.split(separator: "/").last ?? Substring($0)) }
            .joined(separator: ", ")
        if names.count > 80 { names = String(names.prefix(79)) + "…" }
        // The picture's title, for screen readers and as the tooltip of the inline SVG.
        out += "<title>TraceKit replay: \(HTMLPage.escape(names)): map of the tracks, updates and frames by state; updates and energy over time</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        out += text(20, 24, "TraceKit replay · \(names)", size: 16, weight: "bold")
        let delivered = r.roleTotals.reduce(0) { $0 + $1.deliveredFixes }, sent = r.roleTotals.reduce(0) { $0 + $1.sentUpdates }
        let joules = r.energy.reduce(0) { $0 + $1.estimate.totalJoules }
        out += text(
            20, 44,
            "\(r.scenario.category.value.name) · policy \(r.policy.name) · \(r.start.iso8601) … \(r.end.iso8601) (\(InfoCommand.duration(r.durationSeconds))) · \(delivered) updates delivered, \(sent) sent · \(ReplayReport.fixed(joules, 1)) J",
            size: 12, fill: "#444444")
        out += mapPanel(r, track)
        out += legend(r, track, policy)
        out += chart(r, track)
        out += "</svg>\n"
        return out
    }

    // MARK: Map

    static func mapPanel(_ r: ReplayResult, _ track: ReplayTrack) -> String {
        var out = "<g class=\"map\">\n"
        out +=
            "<rect x=\"\(n(map.x))\" y=\"\(n(map.y))\" width=\"\(n(map.w))\" height=\"\(n(map.h))\" fill=\"#f7f7f4\" stroke=\"#bbbbbb\"/>\n"
        let frames = track.frames.filter { $0.viewer == .hirer && $0.region.latitudeDelta < 90 && $0.region.longitudeDelta < 180 }
        var everything: [Coordinate] = track.paths.flatMap(\.points) + track.updates.flatMap { $0.updates.map(\.coordinate) }
        everything += [r.scenario.pickup?.value, r.scenario.dropoff?.value].compactMap { $0 }
        for f in frames { everything += corners(f.region) }
        guard let box = BoundingBox(covering: everything) else {
            return out + text(map.x + 20, map.y + 30, "nothing to draw: no fix was replayed") + "</g>\n"
        }
        let centre = Coordinate(
            uncheckedLatitude: (box.south + box.north) / 2,
            longitude: Coordinate.normalizedLongitude(box.west + box.longitudeSpan / 2))
        let plane = LocalFrame(origin: centre)
        var lo = (e: Double.infinity, n: Double.infinity), hi = (e: -Double.infinity, n: -Double.infinity)
        for c in everything {
            let p = plane.eastNorth(of: c)
            lo = (min(lo.e, p.east), min(lo.n, p.north))
            hi = (max(hi.e, p.east), max(hi.n, p.north))
        }
        let pad = 24.0
        let spanE = max(hi.e - lo.e, 50), spanN = max(hi.n - lo.n, 50)
        let scale = min((map.w - 2 * pad) / spanE, (map.h - 2 * pad) / spanN)  // pixels per metre
        let midE = (lo.e + hi.e) / 2, midN = (lo.n + hi.n) / 2
        func xy(_ c: Coordinate) -> (Double, Double) {
            let p = plane.eastNorth(of: c)
            return (map.x + map.w / 2 + (p.east - midE) * scale, map.y + map.h / 2 - (p.north - midN) * scale)
        }

        // Frames under everything else.
        for f in frames {
            let pts = corners(f.region).map(xy).map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
            out +=
                "<polygon class=\"frame\" data-state=\"\(f.state.key)\" points=\"\(pts)\" fill=\"none\" stroke=\"\(colour(f.state))\" stroke-width=\"1.5\" stroke-dasharray=\"9 5\"/>\n"
        }
        // Tracks: the hirer's and delegate's over the helper's, on a white casing so they show
        // where the two travel together.
        for role in [Role.helper, .hirer, .delegate] {
            for p in track.paths where p.role == role {
                let pts = p.points.map(xy)
                guard let first = pts.first else { continue }
                var d = "M\(n(first.0)) \(n(first.1))"
                for q in pts.dropFirst() { d += " L\(n(q.0)) \(n(q.1))" }
                if pts.count == 1 { d += " l0 0" }
                let style: String
                switch role {
                case .helper: style = "stroke-width=\"4\""
                case .hirer:
                    out +=
                        "<path d=\"\(d)\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"4.5\" stroke-opacity=\"0.85\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
                    style = "stroke-width=\"2\" stroke-dasharray=\"7 4\""
                case .delegate:
                    out +=
                        "<path d=\"\(d)\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"4.5\" stroke-opacity=\"0.85\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
                    style = "stroke-width=\"2.5\" stroke-dasharray=\"1 4\""
                }
                out +=
                    "<path class=\"track\" data-role=\"\(role.key)\" data-state=\"\(p.state.key)\" d=\"\(d)\" fill=\"none\" stroke=\"\(colour(p.state))\" \(style) stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
            }
        }
        // Delivered updates.
        for u in track.updates {
            for update in u.updates {
                let (x, y) = xy(update.coordinate)
                out += marker(
                    u.role, x: x, y: y, colour: colour(u.state), sent: update.sent,
                    attributes: "data-role=\"\(u.role.key)\" data-state=\"\(u.state.key)\"")
            }
        }
        // Pickup and dropoff.
        for (letter, point, name) in [("P", r.scenario.pickup, "pickup"), ("D", r.scenario.dropoff, "dropoff")] {
            guard let c = point?.value else { continue }
            let (x, y) = xy(c)
            out +=
                "<g class=\"marker\" data-point=\"\(name)\"><circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"10\" fill=\"#ffffff\" stroke=\"#111111\" stroke-width=\"2\"/>"
            out +=
                "<text x=\"\(n(x))\" y=\"\(n(y + 4.5))\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\" fill=\"#111111\">\(letter)</text></g>\n"
        }
        // North arrow and scale bar.
        let nx = map.x + map.w - 22, ny = map.y + 16
        out += "<g class=\"north\"><path d=\"M\(n(nx)) \(n(ny)) l-6 16 l6 -4 l6 4 z\" fill=\"#333333\"/>"
        out += text(nx, ny + 30, "N", size: 11, anchor: "middle", weight: "bold") + "</g>\n"
        let bar = niceLength(map.w / 5 / scale)
        let bx = map.x + 14, by = map.y + map.h - 16, bw = bar * scale
        out +=
            "<g class=\"scale\"><rect x=\"\(n(bx - 4))\" y=\"\(n(by - 18))\" width=\"\(n(bw + 8 + 60))\" height=\"26\" fill=\"#ffffff\" fill-opacity=\"0.8\"/>"
        out += "<path d=\"M\(n(bx)) \(n(by - 5)) v5 h\(n(bw)) v-5\" fill=\"none\" stroke=\"#111111\" stroke-width=\"1.5\"/>"
        out += text(bx + bw + 6, by + 1, metres(bar), size: 11) + "</g>\n"
        return out + "</g>\n"
    }

    /// A delivered update's marker: circle (helper), square (hirer) or diamond (delegate); filled
    /// when sent, white inside when not.
    static func marker(_ role: Role, x: Double, y: Double, colour: String, sent: Bool, attributes: String) -> String {
        let paint =
            sent ? "fill=\"\(colour)\" stroke=\"#ffffff\" stroke-width=\"1\"" : "fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"1.6\""
        let cls = "class=\"update \(sent ? "sent" : "unsent")\" \(attributes)"
        switch role {
        case .helper: return "<circle \(cls) cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"2.7\" \(paint)/>\n"
        case .hirer: return "<rect \(cls) x=\"\(n(x - 2.6))\" y=\"\(n(y - 2.6))\" width=\"5.2\" height=\"5.2\" \(paint)/>\n"
        case .delegate: return "<path \(cls) d=\"M\(n(x)) \(n(y - 3.4)) l3.4 3.4 l-3.4 3.4 l-3.4 -3.4 z\" \(paint)/>\n"
        }
    }

    /// A region's corners (south-west, south-east, north-east, north-west).
    static func corners(_ r: MapRegion) -> [Coordinate] {
        let s = max(r.center.latitude - r.latitudeDelta / 2, -90), nth = min(r.center.latitude + r.latitudeDelta / 2, 90)
        let w = Coordinate.normalizedLongitude(r.center.longitude - r.longitudeDelta / 2)
        let e = Coordinate.normalizedLongitude(r.center.longitude + r.longitudeDelta / 2)
        return [
            Coordinate(uncheckedLatitude: s, longitude: w), Coordinate(uncheckedLatitude: s, longitude: e),
            Coordinate(uncheckedLatitude: nth, longitude: e), Coordinate(uncheckedLatitude: nth, longitude: w),
        ]
    }

    // MARK: Legend

    static func legend(_ r: ReplayResult, _ track: ReplayTrack, _ policy: SharingPolicy) -> String {
        var out = "<g class=\"legend\">\n"
        var y = map.y + 8
        let x = legendX
        out += text(x, y + 4, "States (tier, map frame)", size: 12, weight: "bold")
        y += 20
        for st in r.states where st.entered {
            out +=
                "<rect class=\"swatch\" data-state=\"\(st.state.key)\" x=\"\(n(x))\" y=\"\(n(y - 9))\" width=\"22\" height=\"10\" fill=\"\(colour(st.state))\"/>"
            out += text(x + 30, y, "\(st.state.displayName)", size: 12)
            out += text(
                x + 30, y + 14, "\(st.tier.key), \(ReplayReport.fixed(policy[st.state].frame, 0)) m · \(InfoCommand.duration(st.seconds))",
                size: 10, fill: "#555555")
            y += 32
        }
        y += 6
        out += text(x, y, "Tracks", size: 12, weight: "bold")
        y += 18
        let roles = r.roles.filter { role in track.paths.contains { $0.role == role } }
        for role in roles {
            let dash =
                role == .helper
                ? "stroke-width=\"3.5\""
                : role == .hirer ? "stroke-width=\"2\" stroke-dasharray=\"7 4\"" : "stroke-width=\"2.5\" stroke-dasharray=\"1 4\""
            out += "<path d=\"M\(n(x)) \(n(y - 4)) h30\" stroke=\"#333333\" \(dash) stroke-linecap=\"round\"/>"
            let role =
                r.roleTotals.first { $0.role == role }.map { "\($0.role.key): \($0.deliveredFixes) delivered, \($0.sentUpdates) sent" }
                ?? role.key
            out += text(x + 38, y, role, size: 11)
            y += 18
        }
        y += 6
        out += text(x, y, "Delivered updates", size: 12, weight: "bold")
        y += 18
        for role in roles {
            out += marker(role, x: x + 6, y: y - 4, colour: "#333333", sent: true, attributes: "data-legend=\"sent\"")
            out += marker(role, x: x + 22, y: y - 4, colour: "#333333", sent: false, attributes: "data-legend=\"unsent\"")
            out += text(x + 38, y, "\(role.key): sent / not sent", size: 11)
            y += 18
        }
        let thinned = track.updates.contains { $0.updates.count < $0.delivered } || track.paths.contains { $0.points.count < $0.fixes }
        if thinned {
            out += text(x, y, "(thinned: at most \(track.pointsPerPath) points per state)", size: 10, fill: "#555555")
            y += 16
        }
        y += 6
        out += text(x, y, "Markers", size: 12, weight: "bold")
        y += 20
        for (letter, name) in [("P", "pickup"), ("D", "dropoff")] {
            out += "<circle cx=\"\(n(x + 8))\" cy=\"\(n(y - 4))\" r=\"8\" fill=\"#ffffff\" stroke=\"#111111\" stroke-width=\"1.5\"/>"
            out += text(x + 8, y, letter, size: 10, anchor: "middle", weight: "bold")
            out += text(x + 24, y, name, size: 11)
            y += 22
        }
        out +=
            "<rect x=\"\(n(x))\" y=\"\(n(y - 10))\" width=\"16\" height=\"12\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>"
        out += text(x + 24, y, "map frame: the hirer's map", size: 11)
        out += text(x + 24, y + 14, "at the state's first fix", size: 11)
        return out + "</g>\n"
    }

    // MARK: Chart

    static func chart(_ r: ReplayResult, _ track: ReplayTrack) -> String {
        var out = "<g class=\"chart\">\n"
        out += text(
            plot.x, plot.y - 14, "Cumulative updates and energy, all phones (\(r.energyModel), an estimate)", size: 13, weight: "bold")
        let total = max(r.durationSeconds, 1)
        let maxCount = Double(max(track.series.map(\.delivered).max() ?? 0, 1))
        let maxJ = max(track.series.map(\.energyJoules).max() ?? 0, 1e-9)
        let countStep = niceLength(maxCount / 4), jStep = niceLength(maxJ / 4)
        let countTicks = Int((maxCount / countStep).rounded(.up)), jTicks = Int((maxJ / jStep).rounded(.up))
        let countTop = Double(countTicks) * countStep, jTop = Double(jTicks) * jStep
        func x(_ s: Double) -> Double { plot.x + s / total * plot.w }
        func yCount(_ c: Double) -> Double { plot.y + plot.h - c / countTop * plot.h }
        func yJ(_ j: Double) -> Double { plot.y + plot.h - j / jTop * plot.h }

        out += stateBands(r, plot)
        // Axes and grid.
        out +=
            "<rect x=\"\(n(plot.x))\" y=\"\(n(plot.y))\" width=\"\(n(plot.w))\" height=\"\(n(plot.h))\" fill=\"none\" stroke=\"#888888\"/>\n"
        for i in 0...countTicks {
            let yy = yCount(Double(i) * countStep)
            if i > 0 && i < countTicks {
                out += "<path d=\"M\(n(plot.x)) \(n(yy)) h\(n(plot.w))\" stroke=\"#ffffff\" stroke-opacity=\"0.9\"/>\n"
            }
            out += text(plot.x - 6, yy + 4, ReplayReport.fixed(Double(i) * countStep, countStep < 1 ? 1 : 0), size: 10, anchor: "end")
        }
        for i in 0...jTicks {
            let yy = yJ(Double(i) * jStep)
            out += "<path d=\"M\(n(plot.x + plot.w)) \(n(yy)) h4\" stroke=\"\(energyColour)\"/>"
            out +=
                text(plot.x + plot.w + 7, yy + 4, ReplayReport.fixed(Double(i) * jStep, jStep < 1 ? 2 : 0), size: 10, fill: energyColour)
                + "\n"
        }
        out += minutesAxis(r, plot)
        let cy = plot.y + plot.h / 2
        out +=
            "<text x=\"\(n(plot.x - 44))\" y=\"\(n(cy))\" transform=\"rotate(-90 \(n(plot.x - 44)) \(n(cy)))\" text-anchor=\"middle\" font-size=\"11\">updates (cumulative)</text>\n"
        let rx = plot.x + plot.w + 48
        out +=
            "<text x=\"\(n(rx))\" y=\"\(n(cy))\" transform=\"rotate(90 \(n(rx)) \(n(cy)))\" text-anchor=\"middle\" font-size=\"11\" fill=\"\(energyColour)\">energy, J (cumulative)</text>\n"

        // Series: steps for counts, straight segments for energy.
        func steps(_ value: (ReplayTrack.Sample) -> Double, _ y: (Double) -> Double) -> String {
            var d = "M\(n(x(0))) \(n(y(0)))"
            for s in track.series { d += " H\(n(x(s.seconds))) V\(n(y(value(s))))" }
            return d
        }
        out +=
            "<path class=\"series\" data-series=\"delivered\" d=\"\(steps({ Double($0.delivered) }, yCount))\" fill=\"none\" stroke=\"#222222\" stroke-width=\"2\"/>\n"
        out +=
            "<path class=\"series\" data-series=\"sent\" d=\"\(steps({ Double($0.sent) }, yCount))\" fill=\"none\" stroke=\"#222222\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n"
        var d = "M\(n(x(0))) \(n(yJ(0)))"
        for s in track.series { d += " L\(n(x(s.seconds))) \(n(yJ(s.energyJoules)))" }
        out += "<path class=\"series\" data-series=\"energy\" d=\"\(d)\" fill=\"none\" stroke=\"\(energyColour)\" stroke-width=\"2\"/>\n"
        // Series legend, top left inside the plot.
        let lx = plot.x + 10, ly = plot.y + 30
        out += "<rect x=\"\(n(lx - 6))\" y=\"\(n(ly - 12))\" width=\"150\" height=\"54\" fill=\"#ffffff\" fill-opacity=\"0.85\"/>"
        out += "<path d=\"M\(n(lx)) \(n(ly - 4)) h24\" stroke=\"#222222\" stroke-width=\"2\"/>" + text(lx + 30, ly, "delivered", size: 11)
        out +=
            "<path d=\"M\(n(lx)) \(n(ly + 12)) h24\" stroke=\"#222222\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
            + text(lx + 30, ly + 16, "sent", size: 11)
        out +=
            "<path d=\"M\(n(lx)) \(n(ly + 28)) h24\" stroke=\"\(energyColour)\" stroke-width=\"2\"/>"
            + text(lx + 30, ly + 32, "energy (J)", size: 11, fill: energyColour) + "\n"
        return out + "</g>\n"
    }

    typealias Box = (x: Double, y: Double, w: Double, h: Double)

    /// The chart's x position of `seconds` since the start in `box`.
    static func x(_ seconds: Double, _ r: ReplayResult, _ box: Box) -> Double { box.x + seconds / max(r.durationSeconds, 1) * box.w }

    /// The bands by state across a chart's `box`, labelled where the label fits.
    static func stateBands(_ r: ReplayResult, _ box: Box) -> String {
        var out = ""
        for band in bands(r) {
            let x0 = x(band.from, r, box), x1 = x(band.to, r, box)
            guard x1 > x0 else { continue }
            out +=
                "<rect class=\"band\" data-state=\"\(band.state.key)\" x=\"\(n(x0))\" y=\"\(n(box.y))\" width=\"\(n(x1 - x0))\" height=\"\(n(box.h))\" fill=\"\(colour(band.state))\" fill-opacity=\"0.22\"/>\n"
            let label = band.state.displayName
            if x1 - x0 > Double(label.count) * 6.2 + 6 {
                out += text((x0 + x1) / 2, box.y + 13, label, size: 10, anchor: "middle", fill: "#333333")
            }
        }
        return out
    }

    /// A chart's time axis under `box`: ticks in minutes since the start, and its label.
    static func minutesAxis(_ r: ReplayResult, _ box: Box) -> String {
        var out = ""
        let minutes = max(r.durationSeconds, 1) / 60, step = niceLength(minutes / 6)
        var m = 0.0
        while m <= minutes + 1e-9 {
            let xx = x(m * 60, r, box)
            out += "<path d=\"M\(n(xx)) \(n(box.y + box.h)) v4\" stroke=\"#888888\"/>"
            out += text(xx, box.y + box.h + 16, ReplayReport.fixed(m, step < 1 ? 1 : 0), size: 10, anchor: "middle") + "\n"
            m += step
        }
        return out + text(box.x + box.w / 2, box.y + box.h + 32, "minutes since \(ReplayReport.clock(r.start, in: r)) UTC", size: 11, anchor: "middle")
    }

    /// The states on the clock: from the start in Finding Villager, each timeline entry starting
    /// the next, to the cancellation or the end.
    static func bands(_ r: ReplayResult) -> [(state: FulfilmentState, from: Double, to: Double)] {
        var result: [(FulfilmentState, Double, Double)] = []
        var current = FulfilmentState.findingVillager, since = 0.0
        let end = r.scenario.cancelledAt.map { min($0.value.seconds(since: r.start), r.durationSeconds) } ?? r.durationSeconds
        for e in r.scenario.timeline {
            let t = min(e.time.seconds(since: r.start), end)
            result.append((current, since, t))
            current = e.state
            since = t
        }
        result.append((current, since, end))
        return result.filter { $0.2 > $0.1 }.map { (state: $0.0, from: $0.1, to: $0.2) }
    }

    // MARK: Helpers

    /// 1, 2 or 5 × 10^k, the largest not above `x` (x > 0).
    static func niceLength(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 1 }
        var p = 1.0
        while p * 10 <= x { p *= 10 }
        while p > x { p /= 10 }
        for f in [5.0, 2.0, 1.0] where f * p <= x { return f * p }
        return p
    }

    static func metres(_ m: Double) -> String {
        m >= 1000 ? "\(ReplayReport.fixed(m / 1000, m >= 10_000 ? 0 : 1)) km" : "\(ReplayReport.fixed(m, m >= 1 ? 0 : 1)) m"
    }

    /// A coordinate in the SVG: one decimal.
    static func n(_ x: Double) -> String { ReplayReport.fixed(x, 1) }

    static func text(
        _ x: Double, _ y: Double, _ s: String, size: Double = 12, anchor: String = "start", weight: String = "normal",
        fill: String = "#111111"
    ) -> String {
        let escaped = Shown.html(s)
        var attrs = "x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\""
        if anchor != "start" { attrs += " text-anchor=\"\(anchor)\"" }
        if weight != "normal" { attrs += " font-weight=\"\(weight)\"" }
        if fill != "#111111" { attrs += " fill=\"\(fill)\"" }
        return "<text \(attrs)>\(escaped)</text>"
    }
}

extension ReplaySVG {
    static let errorChartHeight = 330.0

    /// A second picture for `replay --html`: each sender's display error over time (the worst
    /// of the viewers entitled to see it, at the series' samples: ``ReplayTrack/Sample/displayErrorMetres``),
    /// over the same bands by state as the main chart. The helper's line is solid, the hirer's
    /// dashed, the delegate's dotted, as on the map; a gap in a line is a time when no viewer saw
    /// that sender or none had received an update from it. Self-contained, with a `<title>`.
    static func displayErrorChart(_ r: ReplayResult, _ track: ReplayTrack) -> String {
        let box = (x: 80.0, y: 48.0, w: 800.0, h: 220.0)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(errorChartHeight))\" viewBox=\"0 0 \(n(width)) \(n(errorChartHeight))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<title>Display error over time: how far each viewer's map was from the sender's position</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n<g class=\"chart\" data-chart=\"display-error\">\n"
        out += text(box.x, box.y - 16, "Display error over time: the worst viewer's distance from the sender, metres", size: 13, weight: "bold")
        let total = max(r.durationSeconds, 1)
        let senders = [Role.helper, .hirer, .delegate].filter { role in track.series.contains { $0.displayErrorMetres[role.rawValue] != nil } }
        let top0 = max(track.series.compactMap { s in senders.compactMap { s.displayErrorMetres[$0.rawValue] }.max() }.max() ?? 0, 1)
        let stepM = niceLength(top0 / 4)
        let ticks = Int((top0 / stepM).rounded(.up))
        let top = Double(ticks) * stepM
        func x(_ s: Double) -> Double { box.x + s / total * box.w }
        func y(_ m: Double) -> Double { box.y + box.h - m / top * box.h }
        out += stateBands(r, box)
        out += "<rect x=\"\(n(box.x))\" y=\"\(n(box.y))\" width=\"\(n(box.w))\" height=\"\(n(box.h))\" fill=\"none\" stroke=\"#888888\"/>\n"
        for i in 0...ticks {
            let yy = y(Double(i) * stepM)
            if i > 0 && i < ticks { out += "<path d=\"M\(n(box.x)) \(n(yy)) h\(n(box.w))\" stroke=\"#ffffff\" stroke-opacity=\"0.9\"/>\n" }
            out += text(box.x - 6, yy + 4, metres(Double(i) * stepM), size: 10, anchor: "end")
        }
        out += minutesAxis(r, box)
        if senders.isEmpty {
            out += text(box.x + box.w / 2, box.y + box.h / 2, "no viewer received an update", size: 12, anchor: "middle", fill: "#333333")
        }
        for sender in senders {
            var d = "", open = false
            for s in track.series {
                guard let e = s.displayErrorMetres[sender.rawValue] else {
                    open = false
                    continue
                }
                d += (open ? " L" : (d.isEmpty ? "M" : " M")) + "\(n(x(s.seconds))) \(n(y(e)))"
                open = true
            }
            out +=
                "<path class=\"series\" data-series=\"display-error\" data-role=\"\(sender.key)\" d=\"\(d)\" fill=\"none\" stroke=\"#222222\" stroke-width=\"1.6\"\(dash(sender))/>\n"
        }
        // Legend: one line per sender, under the plot.
        var lx = box.x
        let ly = box.y + box.h + 52
        for sender in senders {
            out += "<path d=\"M\(n(lx)) \(n(ly - 4)) h28\" stroke=\"#222222\" stroke-width=\"1.6\"\(dash(sender))/>"
            let label = "the \(sender.key) as its viewers saw it"
            out += text(lx + 34, ly, label, size: 11) + "\n"
            lx += 34 + Double(label.count) * 6.4 + 24
        }
        return out + "</g>\n</svg>\n"
    }

    /// The line style of a role: the helper solid, the hirer dashed, the delegate dotted.
    private static func dash(_ role: Role) -> String {
        switch role {
        case .helper: ""
        case .hirer: " stroke-dasharray=\"7 4\""
        case .delegate: " stroke-dasharray=\"1 4\" stroke-linecap=\"round\""
        }
    }
}
