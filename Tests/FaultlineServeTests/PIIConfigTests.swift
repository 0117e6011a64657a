import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import Foundation
import TestSupport
import Testing

/// A Relay PII config is checked whole when it is read, so that a mistake stops serve with its reason instead of
/// scrubbing nothing; and the builtins that use Faultline's scanner find what serve's own scrubbing finds.
@Suite struct PIIConfigTests {
    /// Configs with one mistake each, and what the refusal says of it.
    static let mistakes: [(config: String, reason: String)] = [
        (#"not json"#, "the PII config is not JSON"),
        (#"["$string"]"#, "is not a JSON object"),
        (#"{"aplications": {"$string": ["@ip"]}}"#, "the PII config has the unknown member `aplications`"),
        (#"{"applications": {"extra.": ["@ip"]}}"#, "the selector `extra.` is not valid at character 7"),
        (#"{"applications": {"$strin": ["@ip"]}}"#, "names the unknown type `$strin`"),
        (#"{"applications": {"**.a.**": ["@ip"]}}"#, "uses `**` more than once in one path"),
        (#"{"applications": {"*": ["@ip"]}}"#, "is `*` alone"),
        (#"{"applications": {"(extra.a": ["@ip"]}}"#, "expected `)`"),
        (#"{"applications": {"'unclosed": ["@ip"]}}"#, "expected the closing `'`"),
        (#"{"applications": {"$string": ["@nope"]}}"#, "names the rule `@nope`, which is neither in `rules`"),
        (#"{"applications": {"$string": ["@ip:scramble"]}}"#, "names the rule `@ip:scramble`"),
        (
            #"{"rules": {"r": {"type": "pattern", "pattern": "(unclosed"}}, "applications": {"$string": ["r"]}}"#,
            "the rule `r` has a pattern that is not a valid regular expression"
        ),
        (
            #"{"rules": {"r": {"type": "pattern", "pattern": "a(b)", "replaceGroups": [2]}}, "applications": {}}"#,
            "the rule `r` replaces the group 2, but its pattern has groups 0 to 1"
        ),
        (#"{"rules": {"r": {"type": "phone"}}}"#, "the rule `r` has the unknown type `phone`"),
        (
            #"{"rules": {"r": {"type": "ip", "redaction": {"method": "scramble"}}}}"#,
            "the rule `r` has the unknown redaction method `scramble`"
        ),
        (#"{"rules": {"r": {"type": "ip", "redact": {"method": "mask"}}}}"#, "has the unknown member `redact`"),
        (
            #"{"rules": {"a": {"type": "alias", "rule": "b"}, "b": {"type": "alias", "rule": "a"}}, "applications": {"$string": ["a"]}}"#,
            "the rule `a` leads back to itself: a → b → a"
        ),
        (#"{"rules": {"r": {"type": "redact_pair"}}}"#, "the rule `r` has no `keyPattern` text"),
    ]

    @Test(arguments: 0..<18)
    func aConfigWithAMistakeIsRefusedWithItsReason(_ index: Int) throws {
        let (config, reason) = Self.mistakes[index]
        let refusal = #expect(throws: PIIConfig.Invalid.self) { try PIIConfig(json: Data(config.utf8)) }
        #expect(refusal?.description.contains(reason) == true, "\(refusal?.description ?? "accepted")")
    }

    @Test func relaysOwnConfigsAreAccepted() throws {
        // Given configs as Sentry's advanced data scrubbing writes them, with legacy selectors and builtins
        for config in [
            #"{"rules": {"0": {"type": "email", "redaction": {"method": "mask"}}}, "applications": {"$string": ["0"]}}"#,
            #"{"applications": {"freeform": ["@common:filter"], "databag": ["@password:filter"], "$message": ["@ip"]}}"#,
            #"{"vars": {"hashKey": "k"}, "applications": {"$http.headers.x-custom-token": ["@anything:remove"]}}"#,
            #"{"rules": {"legacy": {"type": "redactPair", "keyPattern": "(?i)secret", "redaction": null}}}"#,
        ] {
            // Then each is read
            #expect(throws: Never.self) { try PIIConfig(json: Data(config.utf8)) }
        }
    }

    @Test func theBuiltinsFindWhatServesScrubbingFindsAndKeepLookAlikes() throws {
        // Given `@common` on every text, and an event with secrets and look-alikes of them
        let config = try PIIConfig(json: Data(#"{"applications": {"$string": ["@common"], "**": ["@password"]}}"#.utf8))
        let event: JSONValue = [
            "extra": [
                "card": "paid with 4111 1111 1111 1111", "order": "order 4111111111111112 shipped",
                "db": "postgres://app:s3cret-Pw@db-primary:5432/app", "password": "hunter2-x9q", "token_count": 5,
                "header": "sent Bearer 9f8e7d6c5b4a3f2e1d0c", "home": "/home/ana/app.py",
                "iban": "IBAN DE89 3704 0044 0532 0130 00", "contact": "ana@example.org from 198.51.100.77",
                "ssn": "ssn 078-05-1120",
            ]
        ]

        // When the config is applied
        let applied = try #require(config.applied(toEvent: JSONEncoder().encode(event)))

        // Then the secrets are replaced, the look-alikes kept
        let extra = try #require(JSONValue(parsing: applied).objectValue?["extra"]?.objectValue)
        #expect(extra["card"] == "paid with [creditcard]")
        #expect(extra["order"] == "order 4111111111111112 shipped")
        #expect(extra["db"] == "postgres://app:[auth]@db-primary:5432/app")
        #expect(extra["password"] == .null)
        #expect(extra["token_count"] == 5)
        #expect(extra["header"] == "sent Bearer [token]")
        #expect(extra["home"] == "/home/[user]/app.py")
        #expect(extra["iban"] == "IBAN [iban]")
        #expect(extra["contact"] == "[email] from [ip]")
        #expect(extra["ssn"] == "ssn ***********")
    }

    @Test func eachRedactionWritesWhatRelayWrites() throws {
        // Given a config with each redaction, on values of their own
        let config = try PIIConfig(
            json: Data(
                #"""
                {"applications": {"extra.hashed": ["@ip:hash"], "extra.masked": ["@email:mask"],
                  "extra.removed": ["@email:remove"], "extra.replaced": ["@email"], "extra.whole": ["@anything:remove"],
                  "extra.lines": ["@anything"]}}
                """#.utf8))
        let event: JSONValue = [
            "extra": [
                "hashed": "from 198.51.100.77", "masked": "to ana@example.org", "removed": "to ana@example.org now",
                "replaced": "to ana@example.org", "whole": ["nested": "gone"], "lines": "one\ntwo\n",
            ]
        ]

        // When it is applied
        let applied = try #require(config.applied(toEvent: JSONEncoder().encode(event)))

        // Then each part is written as Relay writes it: HMAC-SHA1 with an empty key in upper-case hexadecimal, one
        // `*` per character, nothing, the builtin's text; a whole value removed is null; each line replaced
        let extra = try #require(JSONValue(parsing: applied).objectValue?["extra"]?.objectValue)
        #expect(extra["hashed"] == "from 0D657CEEE6F778116BF0DDCAD8144609BAA49924")
        #expect(extra["masked"] == "to ***************")
        #expect(extra["removed"] == "to  now")
        #expect(extra["replaced"] == "to [email]")
        #expect(extra["whole"] == .null)
        #expect(extra["lines"] == "[Filtered]\n[Filtered]\n[Filtered]")
    }

    @Test func serveAppliesAConfigFileAndRefusesAWrongOneAtStart() async throws {
        let directory = try TemporaryDirectory("serve-pii-config")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("pii.json")
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }

        // Given a config file that hashes emails and removes an order's customer
        try Data(#"{"applications": {"$string": ["@email:hash"], "extra.customer": ["@anything:remove"]}}"#.utf8)
            .write(to: file)

        // When serve is started with it and receives an event
        let (process, port) = try await ServeFixture.launch(logs: logs, ["--pii-config", file.path])
        defer { process.terminate() }
        let event: JSONValue = [
            "event_id": "6e2f0c9b8a7f6e5d4c3b2a1908f7e6d5", "timestamp": "2026-12-01T20:00:00Z", "level": "error",
            "message": "mail to ana@example.org bounced", "extra": ["customer": ["name": "Ana"], "order": "ORD-1"],
        ]
        let envelope = Envelope(
            eventID: "6e2f0c9b8a7f6e5d4c3b2a1908f7e6d5", eventJSON: try JSONEncoder().encode(event), dsn: nil)
        let (status, reason) = try await ServeFixture(logs: logs, port: port).post(
            "/api/1/envelope/", body: envelope.serialized(), headers: ServeFixture.auth)
        #expect(status == 200, "\(reason)")
        process.terminate()
        #expect(try await process.exit().status == 0)

        // Then the stored event has the config applied, and the rest as sent
        let stored = String(decoding: try ServeFixture.bytes(in: logs), as: UTF8.self)
        #expect(stored.contains("mail to F7FC5DAF98811C09C84448378E1550584E2E480F bounced"))
        #expect(!stored.contains("ana@example.org") && !stored.contains("Ana"))
        #expect(stored.contains(#""customer":null"#) && stored.contains("ORD-1"))

        // And a config with a mistake stops serve before it listens, with the file and the reason
        try Data(#"{"applications": {"$string": ["@emial"]}}"#.utf8).write(to: file)
        let refused = try await BuiltFaultline.outcome(of: [
            "serve", "--port", "0", "--log-dir", logs.path, "--key", ServeFixture.publicKey, "--pii-config", file.path,
        ])
        #expect(refused.status == 64)
        #expect(
            refused.errors.contains(
                "faultline serve: the PII config \(file.path): the application `$string` names the rule `@emial`"))
        let missing = try await BuiltFaultline.outcome(of: [
            "serve", "--port", "0", "--log-dir", logs.path, "--key", ServeFixture.publicKey, "--pii-config",
            directory.url.appendingPathComponent("absent.json").path,
        ])
        #expect(missing.status == 2 && missing.errors.contains("cannot read the PII config"))
    }
}
