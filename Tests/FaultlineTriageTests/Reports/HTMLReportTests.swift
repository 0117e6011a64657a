import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// The HTML report places what clients and servers sent in a page: it must stay text, never markup.
@Suite struct HTMLReportTests {
    @Test func textFromTheLogsIsEscapedEverywhereItAppears() async throws {
        // Given an event whose title, route, code, user and release are markup
        var event = SentryEvent(level: .error, date: Date(timeIntervalSince1970: 1_795_000_020))
        event.message = "<script>alert('title')</script>"
        event.tags = ["error.kind": "server", "http.route": "/a/<b>", "server.code": "\"><img src=x>"]
        event.user = UserContext(id: "<i>user</i>")
        event.release = "app@1&2"
        let temporary = try TemporaryDirectory("html")
        defer { temporary.remove() }
        let log = temporary.file("events.jsonl")
        try (EventEncoder.encode(event) + Data("\n".utf8)).write(to: log)

        let page = HTMLReport(await LogScan(files: [LogFile(url: log)], filter: EventFilter()), generatedAt: 0).html()

        for markup in ["<script>", "<b>", "<img", "<i>", "&2"] { #expect(!page.contains(markup)) }
        for escaped in [
            "&lt;script&gt;alert(&#39;title&#39;)", "/a/&lt;b&gt;", "&quot;&gt;&lt;img src=x&gt;",
            "&lt;i&gt;user&lt;/i&gt;", "app@1&amp;2",
        ] {
            #expect(page.contains(escaped), "\(escaped) is missing")
        }
    }

    @Test func aReportWithoutEventsSaysSoAndDrawsNoChart() async throws {
        let temporary = try TemporaryDirectory("html")
        defer { temporary.remove() }
        let log = temporary.file("events.jsonl")
        try Data("not json\n".utf8).write(to: log)

        let page = HTMLReport(await LogScan(files: [LogFile(url: log)], filter: EventFilter()), generatedAt: 0).html()

        #expect(page.contains("No events found."))
        #expect(page.contains("1 not JSON"))
        #expect(!page.contains("<svg"))
    }
}
