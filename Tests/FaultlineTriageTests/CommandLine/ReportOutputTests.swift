import Foundation
import TestSupport
import Testing

/// Where `faultline report -o PATH` writes, as `curl -o` and `sort -o` write: standard output for `-`, through a
/// symbolic link, into a FIFO, and atomically over a regular file.
@Suite struct ReportOutputTests {
    @Test func aSymbolicLinkIsWrittenThroughToItsTarget() async throws {
        // Given a link to a report written before
        let log = try CommandLineLog()
        defer { log.remove() }
        let target = log.directory.appendingPathComponent("target.html")
        let link = log.directory.appendingPathComponent("report.html")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

        // When the report is written to the link
        let outcome = try await BuiltFaultline.outcome(of: ["report", "--html", "--log-dir", log.path, "-o", link.path])

        // Then the link is still a link, and its target holds the page
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("<!doctype html>"))
    }

    @Test func aFIFOIsWrittenNotReplaced() async throws {
        // Given a FIFO with a reader
        let log = try CommandLineLog()
        defer { log.remove() }
        let fifo = log.directory.appendingPathComponent("report.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let copy = log.directory.appendingPathComponent("copy.html")
        let reader = try await ExternalProcess.start(URL(fileURLWithPath: "/bin/cp"), [fifo.path, copy.path])

        // When the report is written to it
        let outcome = try await BuiltFaultline.outcome(of: ["report", "--html", "--log-dir", log.path, "-o", fifo.path])
        try await reader.exit()

        // Then the reader got the page, and the FIFO is still a FIFO
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(try String(contentsOf: copy, encoding: .utf8).hasSuffix("</html>\n"))
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aDashIsStandardOutput() async throws {
        let log = try CommandLineLog()
        defer { log.remove() }
        let outcome = try await BuiltFaultline.outcome(
            of: ["report", "--html", "--log-dir", log.path, "-o", "-"])

        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(String(decoding: outcome.output, as: UTF8.self).hasPrefix("<!doctype html>"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    @Test func aRegularFileIsReplacedWhole() async throws {
        let log = try CommandLineLog()
        defer { log.remove() }
        let file = log.directory.appendingPathComponent("report.html")
        try Data(repeating: 0x41, count: 1 << 20).write(to: file)

        let outcome = try await BuiltFaultline.outcome(of: ["report", "--log-dir", log.path, "-o", file.path])

        #expect(outcome.status == 0, "\(outcome.errors)")
        let page = try String(contentsOf: file, encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>\n"))
    }

    @Test func jsonIsTheReportsDataWithTheSchemaVersionFirst() async throws {
        let log = try CommandLineLog()
        defer { log.remove() }

        let json = try await BuiltFaultline.run(["report", "--json", "--log-dir", log.path])

        #expect(String(decoding: json, as: UTF8.self).hasPrefix("{\n  \"schema_version\" : 1,\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect((object["summary"] as? [String: Any])?["event_count"] as? Int == 1)
        #expect(Set(object.keys).isSuperset(of: ["timeline", "issues", "breakdowns", "incident", "generated_at"]))
        let both = try await BuiltFaultline.outcome(of: ["report", "--html", "--json", "--log-dir", log.path])
        #expect(both.status == 64 && both.errors.contains("Choose one of --html and --json."))
    }
}
