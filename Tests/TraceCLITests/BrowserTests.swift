import Foundation
import PNGPixels
import TestSupport
import Testing

/// The HTML reports loaded in Debian's chromium, headless (``Chromium``): at a phone's 390 px and
/// a desktop's 1,440 px, no console message, no network request, the expected elements in the
/// rendered DOM, no page wider than its window (wide tables scroll in their own box), and a
/// screenshot at each width kept under `.build/browser/` whose pixels show the map drawn.
@Suite("HTML reports in a real browser", .enabled(if: Chromium.unavailable == nil, "\(Chromium.unavailable ?? "")"))
struct BrowserTests {
    static let widths = [390, 1440]
    /// Where the screenshots are kept for a person to look at.
    static let shots = packageRoot.appendingPathComponent(".build/browser")

    /// The En Route colour of the map and charts (Okabe–Ito blue, ``ReplaySVG``).
    static let enRoute = "#0072b2"

    /// Writes `html` to a scratch file and checks it at each width: no console line, no request
    /// for the page, no external reference in the DOM, no horizontal overflow, the DOM passing
    /// `dom`; a screenshot of the page's top named `name-WIDTH.png` whose pixels pass `pixels`.
    /// With `section` (an element id), the pixels are those of a second screenshot,
    /// `name-section-WIDTH.png`, of a copy showing only that element (a style hides the rest:
    /// headless Chromium paints a page's top, not the place of a `#fragment`).
    static func check(
        _ html: String, name: String, section: String? = nil, height: Int = 2400, dom: (String) -> Void,
        pixels: (PNGImage, Int) -> Void
    ) throws {
        let folder = scratchFolder.appendingPathComponent("browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let page = folder.appendingPathComponent("\(name).html")
        try Data(html.utf8).write(to: page)
        for width in widths {
            let load = try Chromium.load(page, width: width, height: 900)
            #expect(load.console.isEmpty, "\(name) at \(width) px: console: \(load.console)")
            #expect(load.requests.isEmpty, "\(name) at \(width) px: requests: \(load.requests)")
            for external in ["src=\"", "href=\"", "url(", "@import"] {
                #expect(!load.dom.contains(external), "\(name) at \(width) px: the DOM holds \(external)")
            }
            dom(load.dom)
            let measured = try Chromium.load(
                try Chromium.measuringCopy(of: html, width: width, in: folder), width: max(width, 500) + 40, height: 1000)
            let scroll = Chromium.scrollWidth(measured.dom)
            #expect(scroll != nil && scroll! <= width, "\(name) at \(width) px: the page is \(scroll.map(String.init) ?? "?") px wide")
            let shot = try Chromium.load(
                page, width: width, height: height, screenshot: shots.appendingPathComponent("\(name)-\(width).png"))
            #expect(shot.console.isEmpty && shot.requests.isEmpty)
            var image = try #require(shot.screenshot)
            #expect(image.width == width && image.height == height)
            if let section {
                let only = folder.appendingPathComponent("\(name)-\(section).html")
                let style = "<style>body > :not(#\(section)) { display: none; }</style>\n</head>"
                try Data(html.replacingOccurrences(of: "</head>", with: style).utf8).write(to: only)
                let part = try Chromium.load(
                    only, width: width, height: height, screenshot: shots.appendingPathComponent("\(name)-\(section)-\(width).png"))
                image = try #require(part.screenshot)
            }
            pixels(image, width)
        }
    }

    /// How many times `needle` occurs in `haystack`.
    static func occurrences(_ needle: String, in haystack: String) -> Int { haystack.components(separatedBy: needle).count - 1 }

    @Test("the checks can fail: a page with a console message, a request and a too-wide element")
    func checksCanFail() throws {
        let folder = scratchFolder.appendingPathComponent("browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let html = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>bad</title></head><body><div style="width: 900px">wide</div>
            <img alt="" src="https://tracekit.invalid/pixel.png"><script>console.error("from the page");</script></body></html>
            """
        let page = folder.appendingPathComponent("bad.html")
        try Data(html.utf8).write(to: page)
        let load = try Chromium.load(page, width: 390, height: 600)
        #expect(load.console.contains { $0.contains("from the page") }, "\(load.console)")
        #expect(load.requests.contains("https://tracekit.invalid/pixel.png"), "\(load.requests)")
        let measured = try Chromium.load(try Chromium.measuringCopy(of: html, width: 390, in: folder), width: 600, height: 1000)
        #expect((Chromium.scrollWidth(measured.dom) ?? 0) > 390)
        let shot = try Chromium.load(page, width: 390, height: 600, screenshot: folder.appendingPathComponent("bad.png"))
        let image = try #require(shot.screenshot)
        // White page, black text: nothing in the map's colour.
        #expect(image.count(Self.enRoute) == 0)
    }

    @Test("replay --html of the bundled ride: summary, map, tables with a row per state, charts")
    func replayHTML() throws {
        let out = scratchFolder.appendingPathComponent("ride-\(UUID().uuidString).html")
        let r = try Run(["replay", "--scenario", "Traces/trips/ride/ride.scenario.json", "--html", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: out, encoding: .utf8)
        try Self.check(
            html, name: "replay-ride",
            dom: { dom in
                for id in ["summary", "map", "display-error", "phones", "phone-helper", "phone-hirer", "battery", "arrivals"] {
                    #expect(dom.contains("id=\"\(id)\""), "no element \(id)")
                }
                // The ride enters all seven states: seven state rows and a Total row per phone.
                let helper = dom.components(separatedBy: "id=\"phone-helper\"").last!.components(separatedBy: "</table>").first!
                #expect(Self.occurrences("<th scope=\"row\">", in: helper) == 8)
                for state in ["En Route", "At Pickup", "In Task", "Total"] { #expect(helper.contains("<th scope=\"row\">\(state)</th>")) }
                #expect(Self.occurrences("<th scope=\"col\">", in: helper) >= 10)
                // The map's tracks, the charts' series, a title in every picture.
                #expect(Self.occurrences("class=\"track\"", in: dom) >= 4)
                #expect(dom.contains("data-series=\"display-error\""))
                #expect(Self.occurrences("<svg", in: dom) == 2 && Self.occurrences("<title>", in: dom) == 3)
            },
            pixels: { image, width in Self.expectMapDrawn(image, width, name: "replay-ride") })
    }

    @Test("batch --html of Traces/ against its baseline: the verdict, the trips, a row per state and role, each trip's map")
    func batchHTML() throws {
        let out = scratchFolder.appendingPathComponent("batch-\(UUID().uuidString).html")
        let r = try Run(["batch", "Traces/", "--baseline", "Traces/baseline.json", "--html", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: out, encoding: .utf8)
        // The bundled ride's section (its id, trip-N, in the trips' order), for the map's pixels.
        let parts = html.components(separatedBy: "data-trip=\"trips/ride/ride.scenario.json\"")
        try #require(parts.count == 2, "the ride's section, once")
        let ride = try #require(parts[0].components(separatedBy: "id=\"").last?.prefix { $0 != "\"" })
        try #require(ride.hasPrefix("trip-"))
        try Self.check(
            html, name: "batch-traces", section: String(ride), height: 1600,
            dom: { dom in
                #expect(dom.contains("id=\"verdict\" class=\"verdict pass\">✓ passed"))
                for id in ["trips", "gate", "states"] { #expect(dom.contains("<section id=\"\(id)\">"), "no section \(id)") }
                // A row per replayed trip, named in a row header.
                let trips = dom.components(separatedBy: "<section id=\"trips\">").last!.components(separatedBy: "</table>").first!
                #expect(Self.occurrences("<th scope=\"row\">", in: trips) == 12)
                // The corpus: a row per role and state (helper and hirer in 12 trips, the delegate in
                // one: 3 × 8 rows with the totals).
                let states = dom.components(separatedBy: "<section id=\"states\">").last!.components(separatedBy: "</section>").first!
                for state in ["Finding Villager", "En Route", "At Pickup", "In Task", "Completed", "Total"] {
                    #expect(Self.occurrences("<th scope=\"row\">helper</th><td>\(state)</td>", in: states) >= 1, "\(state)")
                }
                #expect(Self.occurrences("<section class=\"trip\"", in: dom) == 12)
                #expect(Self.occurrences("class=\"track\"", in: dom) >= 12)
            },
            pixels: { image, width in Self.expectMapDrawn(image, width, name: "batch-traces") })
    }

    @Test("tune --html of two demo trips: the verdict, the requirements, the frontiers drawn with the start and the tuned row")
    func tuneHTML() throws {
        let dir = scratchFolder.appendingPathComponent("tune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("tune.html")
        let r = try Run([
            "tune", "Traces/trips/ride", "Traces/trips/dog-walk", "--space", try TuneCommandTests.space(dir.path), "--require",
            "enRoute.hirer.displayErrorP95<=30m", "--html", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: out, encoding: .utf8)
        try Self.check(
            html, name: "tune", section: "frontiers", height: 1200,
            dom: { dom in
                #expect(dom.contains("class=\"verdict pass\""))
                #expect(dom.contains("enRoute.hirer.displayErrorP95&lt;=30m"))
                #expect(Self.occurrences("class=\"frontier\"", in: dom) == 2)
                #expect(Self.occurrences("class=\"tuned\"", in: dom) == 2 && dom.contains("class=\"start\""))
            },
            pixels: { image, width in
                // The frontier's blue line and the tuned row's orange diamond are drawn.
                let blue = image.count(Self.enRoute, tolerance: 40), orange = image.count("#e69f00", tolerance: 40)
                #expect(blue > 100 && orange > 50, "tune at \(width) px: \(blue) frontier and \(orange) tuned pixels")
            })
    }

    /// The map's panel (its background, #f7f7f4) is on the screenshot, and inside it the tracks
    /// are drawn: pixels of the En Route blue and the In Task green (Okabe–Ito, ``ReplaySVG``),
    /// not an empty panel.
    static func expectMapDrawn(_ image: PNGImage, _ width: Int, name: String) {
        guard let panel = image.box(of: "#f7f7f4") else {
            Issue.record("\(name) at \(width) px: no map panel on the screenshot")
            return
        }
        #expect(panel.x1 - panel.x0 > 250 && panel.y1 - panel.y0 > 200, "\(name) at \(width) px: panel \(panel)")
        let blue = image.count(enRoute, tolerance: 40, in: panel), green = image.count("#009e73", tolerance: 40, in: panel)
        #expect(blue > 100 && green > 100, "\(name) at \(width) px: \(blue) En Route and \(green) In Task pixels in the map")
    }
}
