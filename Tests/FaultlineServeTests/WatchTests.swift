import FaultlineTestServer
import Foundation
import LoopbackPorts
import TestSupport
import Testing

/// `faultline watch` against a real webhook receiver on loopback, in a process of its own: one post per newly flagged
/// issue, none twice across restarts, retries past a failing answer, and alerts kept for the next round while the
/// receiver is down.
@Suite struct WatchTests {
    /// A webhook receiver in a process of its own (`Tests/peers/webhook_receiver.py`), which answers with the statuses
    /// it was started with (`429:1`: 429 with `Retry-After: 1`), then 200, and records what it got.
    struct Receiver {
        let process: ExternalProcess
        let record: URL
        let hook: URL

        /// Starts one that answers `statuses` first, recording in `directory`.
        init(answeringFirst answers: [String] = [], in directory: TemporaryDirectory) async throws {
            record = directory.file("posts-\(UUID()).jsonl")
            process = try await PythonPeer.start("webhook_receiver.py", [record.path] + answers, output: .lines)
            let port = try #require(Int(try await process.line()))
            hook = URL(string: "http://127.0.0.1:\(port)/hook")!
        }

        /// What it got, in order: each post's headers (lower-case names) and body.
        var posts: [(headers: [String: String], body: Data)] {
            get throws {
                guard let text = try? String(contentsOf: record, encoding: .utf8) else { return [] }
                return try text.split(separator: "\n").map { line in
                    let post = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    let body = try #require(Data(base64Encoded: post["body"] as? String ?? ""))
                    return (post["headers"] as? [String: String] ?? [:], body)
                }
            }
        }

        /// Stops it, with SIGKILL: receivers sent SIGTERM were found still running after the test run (the runner's
        /// children inherit a signal mask that blocks it).
        func stop() {
            process.kill()
        }
    }

    /// A log with `count` new issues, their events ten minutes ago: new in the default window of an hour.
    private static func appendNewIssues(_ range: Range<Int>, to log: URL) throws {
        let time = Date().addingTimeInterval(-600).timeIntervalSince1970
        var lines = ""
        for index in range {
            lines +=
                #"{"event_id":"\#(String(format: "%032x", index + 1))","timestamp":\#(time),"level":"error","#
                + #""message":"failure \#(index)","fingerprint":["issue-\#(index)"]}"# + "\n"
        }
        let handle = try FileHandle(forWritingTo: log)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.utf8))
        try handle.close()
    }

    /// The log of a new watch directory, `logs`, with the issues of `range`.
    private static func log(withNewIssues range: Range<Int>, in logs: TemporaryDirectory) throws -> URL {
        let log = logs.file("events.jsonl")
        try Data().write(to: log)
        try appendNewIssues(range, to: log)
        return log
    }

    /// One round of `faultline watch`, waited for without blocking a thread.
    private static func watch(_ hook: URL, logs: URL, _ arguments: [String] = []) async throws
        -> ExternalProcess.Outcome
    {
        try await ExternalProcess.start(
            BuiltFaultline.url,
            ["watch", "--webhook", hook.absoluteString, "--once", "--log-dir", logs.path] + arguments,
            environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        ).exit()
    }

    @Test func eachNewlyFlaggedIssueIsPostedOnceAcrossRestarts() async throws {
        let logs = try TemporaryDirectory("watch")
        defer { logs.remove() }
        let log = try Self.log(withNewIssues: 0..<2, in: logs)
        let receiver = try await Receiver(in: logs)
        defer { receiver.stop() }
        // When watch runs over two new issues, then again (a restart), then once a third is new
        #expect(try await Self.watch(receiver.hook, logs: logs.url, ["--format", "json"]).status == 0)
        #expect(try receiver.posts.count == 2)
        #expect(try await Self.watch(receiver.hook, logs: logs.url, ["--format", "json"]).status == 0)
        #expect(try receiver.posts.count == 2)
        try Self.appendNewIssues(2..<3, to: log)
        let third = try await Self.watch(receiver.hook, logs: logs.url, ["--format", "json"])
        #expect(third.status == 0 && third.errors.contains("alerts: 1 posted, 0 failed"))

        // Then each issue was posted once, as JSON naming its signal and the issue as --json prints it
        let bodies = try receiver.posts.map { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
        #expect(bodies.map { $0?["signal"] as? String } == ["new", "new", "new"])
        let titles = bodies.compactMap { ($0?["issue"] as? [String: Any])?["title"] as? String }
        #expect(Set(titles) == ["failure 0", "failure 1", "failure 2"])
        #expect(bodies.allSatisfy { $0?["schema_version"] as? Int == 1 })
    }

    @Test func aWatchThatRunsOnReportsOnlyTheRoundsThatDifferFromTheOneBefore() async throws {
        let logs = try TemporaryDirectory("watch")
        defer { logs.remove() }
        let log = try Self.log(withNewIssues: 0..<1, in: logs)
        let receiver = try await Receiver(in: logs)
        defer { receiver.stop() }
        let watch = try await ExternalProcess.start(
            BuiltFaultline.url,
            ["watch", "--webhook", receiver.hook.absoluteString, "--every", "1s", "--log-dir", logs.path],
            environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
        defer { watch.kill() }

        // When it posts the first issue, runs a few rounds with nothing new, then posts a second one
        try await wait(for: "the first alert") { try receiver.posts.count == 1 }
        try await Task.sleep(for: .seconds(3))  // rounds with nothing new
        try Self.appendNewIssues(1..<2, to: log)
        try await wait(for: "the second alert") { try receiver.posts.count == 2 }
        try await wait(for: "the report of the round that posted it") {
            watch.errorsSoFar.contains("issues flagged: 2.")
        }
        watch.kill()
        let outcome = try await watch.exit()

        // Then it said what the two rounds that posted did, and nothing for the quiet rounds
        let rounds = outcome.errors.split(separator: "\n").filter { $0.contains("alerts: ") }
        #expect(rounds.count == 2, "\(outcome.errors)")
        #expect(
            rounds.first?.contains("alerts: 1 posted, 0 failed, 0 waiting for the next round; issues flagged: 1.")
                == true)
        #expect(rounds.last?.contains("issues flagged: 2.") == true)
    }

    @Test func aFailingReceiverIsRetriedAndADownOneKeepsTheAlertsForTheNextRound() async throws {
        let logs = try TemporaryDirectory("watch")
        defer { logs.remove() }
        let log = try Self.log(withNewIssues: 0..<1, in: logs)

        // When the receiver is down, the round fails and posts nothing
        let closed = try ClosedPort()
        let down = try await Self.watch(URL(string: "http://127.0.0.1:\(closed.port)/hook")!, logs: logs.url)
        closed.release()
        #expect(down.status == 1 && down.errors.contains("could not post new issue"))

        // and once it is up, but answers 503 first, the alert is retried within the round and delivered once
        let receiver = try await Receiver(answeringFirst: ["503"], in: logs)
        defer { receiver.stop() }
        let up = try await Self.watch(receiver.hook, logs: logs.url)
        #expect(up.status == 0, "\(up.errors)")
        let posts = try receiver.posts
        #expect(posts.count == 2)
        #expect(posts.first?.body == posts.last?.body)
        // as a Slack incoming webhook's JSON, by default
        let slack = try JSONSerialization.jsonObject(with: try #require(posts.last).body) as? [String: Any]
        #expect((slack?["text"] as? String)?.hasPrefix("faultline: new issue ") == true)
        #expect((slack?["text"] as? String)?.contains("failure 0") == true)

        // and an ntfy topic gets the title as a header and the details as text
        try Self.appendNewIssues(1..<2, to: log)
        #expect(try await Self.watch(receiver.hook, logs: logs.url, ["--format", "ntfy"]).status == 0)
        let ntfy = try #require(try receiver.posts.last)
        #expect(ntfy.headers["title"]?.hasPrefix("faultline: new issue ") == true)
        #expect(String(decoding: ntfy.body, as: UTF8.self).hasPrefix("failure 1: 1 event, 0 users"))
    }

    @Test func aReceiverThatAsksToWaitIsWaitedForAndOneThatRefusesTheAlertIsNotAskedAgain() async throws {
        let logs = try TemporaryDirectory("watch")
        defer { logs.remove() }
        let log = try Self.log(withNewIssues: 0..<1, in: logs)

        // When the receiver answers 429 with Retry-After: 1, the alert is posted again a second later, and delivered
        let waiting = try await Receiver(answeringFirst: ["429:1"], in: logs)
        defer { waiting.stop() }
        let started = ContinuousClock.now
        let delivered = try await Self.watch(waiting.hook, logs: logs.url)
        #expect(delivered.status == 0, "\(delivered.errors)")
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(try waiting.posts.count == 2)

        // and when it answers 400 (a malformed alert, which another try would not mend), it is not posted again in
        // the round, which fails and says why
        try Self.appendNewIssues(1..<2, to: log)
        let refusing = try await Receiver(answeringFirst: ["400"], in: logs)
        defer { refusing.stop() }
        let refused = try await Self.watch(refusing.hook, logs: logs.url)
        #expect(refused.status == 1 && refused.errors.contains("HTTP 400"), "\(refused.errors)")
        #expect(try refusing.posts.count == 1)
    }
}
