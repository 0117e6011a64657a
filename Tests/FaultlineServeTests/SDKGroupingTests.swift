import FaultlineLogReading
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// The official Python SDK's events, which carry no fingerprint, are grouped into the issues Sentry makes of them.
@Suite struct SDKGroupingTests {
    @Test func theOfficialPythonSDKsEventsAreGroupedAsSentryGroupsThem() async throws {
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            // When sentry-sdk sends KeyErrors from one line, logged invoices, chained exceptions, messages with
            // numbers, and a KeyError from another function
            _ = try await PythonPeer.start("sentry_sdk_grouping.py", [serve.dsn]).exit().succeeded(
                "sentry_sdk_grouping.py")
            // and sentry-cli sends two messages that differ in a number
            for message in ["user 42 locked out", "user 77 locked out"] {
                _ = try await PythonPeer.start(
                    tool: "sentry-cli", ["send-event", "-m", message], environment: ["SENTRY_DSN": serve.dsn]
                ).exit().succeeded("sentry-cli send-event")
            }
        }

        // Then `faultline issues` shows one issue for each, as Sentry would
        let report = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", logs.path]))
        #expect(report.issues.count == 6)
        #expect(report.issues.map(\.events).sorted() == [1, 2, 2, 2, 3, 4])
        let keyErrors = report.issues.filter { $0.fingerprint.count == 2 && $0.fingerprint.first == "KeyError" }
        #expect(keyErrors.map(\.events).sorted() == [1, 3])  // one line, three keys; another function
        #expect(keyErrors.allSatisfy { $0.fingerprint.last?.hasPrefix("in-app stack ") == true })
        #expect(
            report.issues.contains { $0.fingerprint == ["message", "Invoice %s failed to render"] && $0.events == 4 })
        #expect(report.issues.contains { $0.fingerprint == ["message", "user <int> not found"] && $0.events == 2 })
        #expect(report.issues.contains { $0.fingerprint == ["message", "user <int> locked out"] && $0.events == 2 })
        // and the chain, cause first, is one issue titled by the exception raised last
        let chained = try #require(report.issues.first { $0.fingerprint.prefix(2) == ["KeyError", "RuntimeError"] })
        #expect(chained.events == 2)
        #expect(chained.title == "RuntimeError: checkout failed")
        // and `show` prints each exception of the chain with its frames and their lines of source
        let shown = String(
            decoding: try await BuiltFaultline.run(["show", chained.id, "--log-dir", logs.path]), as: UTF8.self)
        #expect(shown.contains("cause KeyError: 'c"))
        #expect(shown.contains("raised RuntimeError: checkout failed (most recent call last):"))
        #expect(shown.contains(#"      raise RuntimeError("checkout failed") from error"#))
        let json =
            try JSONSerialization.jsonObject(
                with: try await BuiltFaultline.run(["show", chained.id, "--json", "--log-dir", logs.path]))
            as? [String: Any]
        let latest = try #require(json?["latest"] as? [String: Any])
        #expect(latest["culprit"] as? String == "__main__ in checkout")
        #expect(latest["release"] as? String == "shop-py@2.0")
        let chain = try #require(latest["chain"] as? [[String: Any]])
        #expect(chain.map { $0["type"] as? String } == ["KeyError", "RuntimeError"])
        #expect(chain.allSatisfy { (($0["stacktrace"] as? [[String: Any]])?.count ?? 0) == 2 })
    }
}
