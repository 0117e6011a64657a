import Foundation
import TestSupport
import Testing

/// What the triage commands do when standard output cannot take what they print.
@Suite struct StandardOutputFailureTests {
    @Test(arguments: [
        ["summary"], ["issues"], ["tail"], ["stats"], ["timeline"], ["incident", "--since", "2026-11-23"],
        ["report", "--html"], ["summary", "--json"],
    ])
    func aFullDeviceIsOneLineOnStandardErrorAndStatus1(command: [String]) async throws {
        // Given a log, and standard output on a device that is always full
        let log = try CommandLineLog()
        defer { log.remove() }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }

        // When a command prints its report there
        let outcome = try await BuiltFaultline.outcome(of: command + ["--log-dir", log.path], output: full)

        // Then it says so in one line and fails, without a crash
        #expect(outcome.status == 1, "faultline \(command.joined(separator: " ")): \(outcome.errors)")
        #expect(outcome.errors == "faultline: cannot write to standard output: No space left on device\n")
    }

    @Test func aClosedPipeEndsTheCommandQuietlyBySIGPIPE() async throws {
        // Given a log, standard output on a pipe whose reader has gone, as after `| head`, and a parent that ignores
        // SIGPIPE, which its child inherits (this test process does once SwiftNIO ran in it; set here, so that the
        // test does not depend on which suites ran first)
        let log = try CommandLineLog()
        defer { log.remove() }
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        signal(SIGPIPE, SIG_IGN)

        // When a command prints its report there
        let outcome = try await BuiltFaultline.outcome(
            of: ["summary", "--log-dir", log.path], output: pipe.fileHandleForWriting)

        // Then SIGPIPE ends it (status 141 in a shell), and it says nothing
        #expect(outcome.reason == .uncaughtSignal)
        #expect(outcome.status == SIGPIPE)
        #expect(outcome.errors.isEmpty)
    }
}
