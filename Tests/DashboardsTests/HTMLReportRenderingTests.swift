import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `faultline report --html` over the demo's log, rendered by Debian's headless Chromium: the page is
/// self-contained, and the screenshot shows every chart drawn.
@Suite struct HTMLReportRenderingTests {
    @Test func chromiumDrawsEveryChartOfTheDemosReport() async throws {
        let temporary = try TemporaryDirectory("report")
        defer { temporary.remove() }
        let work = temporary.url
        let logs = work.appendingPathComponent("logs")
        let page = work.appendingPathComponent("report.html")
        _ = try await BuiltFaultline.run(["--log-dir", logs.path], program: BuiltFaultline.demo)
        _ = try await BuiltFaultline.run(["report", "--html", "--log-dir", logs.path, "--output", page.path])

        // Self-contained: no script, nothing fetched or linked
        let html = try String(contentsOf: page, encoding: .utf8)
        for reference in ["<script", "src=", "href=", "url(", "@import", "http:", "https:"] {
            #expect(!html.contains(reference), "the report holds \(reference)")
        }

        // Rendered offline by Chromium, each chart's colour covers a bar's worth of pixels at least
        let screenshot = work.appendingPathComponent("report.png")
        _ = try await ExternalProcess.run(
            URL(fileURLWithPath: "/usr/bin/chromium"),
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,1600",
                "--screenshot=\(screenshot.path)", page.absoluteString,
            ],
            environment: ["PATH": "/usr/bin:/bin", "HOME": work.appendingPathComponent("home").path]
        ).succeeded("chromium --headless --screenshot")
        let colors = HTMLReport.chartColors.values.sorted()
        let output = try await PythonPeer.run("chart_pixels.py", [screenshot.path] + colors)
        let pixels = try JSONDecoder().decode([String: Int].self, from: output)
        for (chart, color) in HTMLReport.chartColors {
            #expect(pixels[color, default: 0] >= 1000, "the \(chart) chart has \(pixels[color, default: 0]) pixels")
        }
    }
}
