import FaultlineLogReading
import FaultlineReporting
import FaultlineTriage
import Foundation
import TestSupport
import Testing

/// `faultline serve` scrubs the events other SDKs send as Sentry's Relay does: secrets inside the texts of an event
/// from the official Python SDK (exception values, messages, log records, breadcrumbs, tags, extra, contexts,
/// request data, frame variables) are filtered before anything is written, unless `--no-scrub-values` says not to.
@Suite struct ServeScrubbingTests {
    @Test func secretsInTheTextsOfPythonSDKEventsAreNotWrittenByServe() async throws {
        // Given secrets the Python SDK leaks where no key names them
        let secrets = Self.secrets()

        // When it sends its events to `faultline serve` as a user starts it
        let logs = try await Self.serve(arguments: []) { dsn in
            _ = try await PythonPeer.start(
                "sentry_sdk_secrets.py", [dsn], environment: ["PLANTED_SECRETS": Self.json(secrets)]
            ).exit().succeeded("sentry_sdk_secrets.py")
        }
        defer { try? FileManager.default.removeItem(at: logs) }

        // Then no byte of the log holds any of them
        let written = try ServeFixture.bytes(in: logs)
        let found = secrets.filter { written.range(of: Data($0.value.utf8)) != nil }.map(\.key)
        #expect(found == [])

        // And the events still read as what they were, with the readable part of each text
        let scan = await LogScan(files: try LogFile.all(in: logs), filter: EventFilter())
        #expect(scan.events == 8)
        #expect(scan.counts.notJSON == 0 && scan.counts.notAnEvent == 0)
        let text = String(decoding: written, as: UTF8.self)
        for readable in [
            "invalid token [Filtered]", "debug: api_key=[Filtered]", "Authorization: Bearer [Filtered]",
            "Authorization: Basic [Filtered]", "https://deploy:[Filtered]@git.internal/app.git",
            "refresh_token=[Filtered]", "card [Filtered] was declined", "login failed for password=[Filtered]",
            "-----BEGIN RSA PRIVATE KEY-----[Filtered]-----END RSA PRIVATE KEY-----",
        ] {
            #expect(text.contains(readable), "\(readable)")
        }
        let report = try JSONDecoder().decode(
            IssuesReport.self, from: try await BuiltFaultline.run(["issues", "--json", "--log-dir", logs.path]))
        #expect(report.issues.contains { $0.title.hasPrefix("PermissionError") || $0.title.contains("invalid token") })
    }

    @Test func withNoScrubValuesServeStoresTheTextsAsSent() async throws {
        let secrets = Self.secrets()

        let logs = try await Self.serve(arguments: ["--no-scrub-values"]) { dsn in
            _ = try await PythonPeer.start(
                "sentry_sdk_secrets.py", [dsn], environment: ["PLANTED_SECRETS": Self.json(secrets)]
            ).exit().succeeded("sentry_sdk_secrets.py")
        }
        defer { try? FileManager.default.removeItem(at: logs) }

        // Every secret the other test looks for reached serve: its absence there is serve's doing
        let written = try ServeFixture.bytes(in: logs)
        let missing = secrets.filter { written.range(of: Data($0.value.utf8)) == nil }.map(\.key)
        #expect(missing == [])
    }

    /// Fresh secrets by the names `sentry_sdk_secrets.py` plants them under.
    private static func secrets() -> [String: String] {
        func random(_ prefix: String, _ count: Int = 20) -> String {
            prefix + "7"
                + String((1..<count).map { _ in Array("abcdefghijklmnopqrstuvwxyz0123456789").randomElement()! })
        }
        let payload = Data(#"{"sub":"ana","jti":"\#(random("j"))"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        var digits = [5, 1] + (0..<13).map { _ in Int.random(in: 0...9) }
        let sum = digits.reversed().enumerated().reduce(0) { sum, element in
            let doubled = element.element * 2 > 9 ? element.element * 2 - 9 : element.element * 2
            return sum + (element.offset.isMultiple(of: 2) ? doubled : element.element)
        }
        digits.append((10 - sum % 10) % 10)
        return [
            "jwt": "eyJhbGciOiJIUzI1NiJ9.\(payload).\(random("s", 30))", "api_key": random("sk_"),
            "bearer": random("bt", 32), "basic": Data("deploy:\(random("bp"))".utf8).base64EncodedString(),
            "git_password": random("gp"), "token": random("tk"), "refresh_token": random("rt"),
            "log_password": random("lp"), "db_password": random("db"), "access_token": random("ac"),
            "card": digits.map(String.init).joined(), "private_key": "MIIEowIBAAKCAQEA" + random("pk", 40),
            "client_secret": random("cs"), "auth_token": random("at"), "comment_key": random("ck"),
            "local_password": random("lv"),
        ]
    }

    private static func json(_ secrets: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: secrets), as: UTF8.self)
    }

    /// Runs `faultline serve` with `arguments` on a fresh log directory until `body` has sent to its DSN, then stops
    /// it with SIGTERM; returns the log directory.
    private static func serve(arguments: [String], _ body: (String) async throws -> Void) async throws -> URL {
        let logs = try ServeFixture.logDirectory()
        let (process, port) = try await ServeFixture.launch(logs: logs, arguments)
        defer { process.terminate() }
        try await body("http://\(ServeFixture.publicKey)@127.0.0.1:\(port)/1")
        process.terminate()
        #expect(try await process.exit().status == 0)
        return logs
    }
}
