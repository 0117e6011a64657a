import Foundation
import TestSupport
import Testing

/// A log file that cannot be read is named on standard error with the reason, and still counted.
@Suite struct UnreadableFileTests {
    @Test func aDirectoryWhereALogIsExpectedIsNamedWithItsReason() async throws {
        // Given a log directory whose rotated log is a directory
        let log = try CommandLineLog()
        defer { log.remove() }
        let rotated = log.directory.appendingPathComponent("events-20261122T000000Z-1.jsonl.gz")
        try FileManager.default.createDirectory(at: rotated, withIntermediateDirectories: false)

        // When the summary reads it
        let outcome = try await BuiltFaultline.outcome(of: ["summary", "--log-dir", log.path])

        // Then it names the file and why, and counts it
        #expect(outcome.status == 0)
        #expect(outcome.errors == "faultline: skipped \(rotated.path): is a directory\n")
        #expect(String(decoding: outcome.output, as: UTF8.self).contains("skipped: 1 unreadable file\n"))
    }

    @Test func tailNamesAnUnreadableFileItReadsToo() async throws {
        // Given a log directory whose newest rotated log is a directory, and whose active log has fewer events than
        // tail shows, so that tail reads on into the rotated one
        let log = try CommandLineLog()
        defer { log.remove() }
        let rotated = log.directory.appendingPathComponent("events-20261122T000000Z-1.jsonl.gz")
        try FileManager.default.createDirectory(at: rotated, withIntermediateDirectories: false)

        let outcome = try await BuiltFaultline.outcome(of: ["tail", "--log-dir", log.path])

        #expect(outcome.status == 0)
        #expect(outcome.errors == "faultline: skipped \(rotated.path): is a directory\n")
    }

    @Test(.enabled(if: getuid() != 0, "permission bits do not stop root from reading a file"))
    func aFileWithoutReadPermissionIsNamedWithItsReason() async throws {
        let log = try CommandLineLog()
        defer { log.remove() }
        let events = log.directory.appendingPathComponent("events.jsonl")
        #expect(chmod(events.path, 0) == 0)

        let outcome = try await BuiltFaultline.outcome(of: ["issues", "--log-dir", log.path])

        #expect(outcome.errors == "faultline: skipped \(events.path): permission denied\n")
        #expect(String(decoding: outcome.output, as: UTF8.self).contains("skipped: 1 unreadable file\n"))
    }
}
