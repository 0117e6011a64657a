import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// What `faultline` answers to commands a person mistypes or cannot mean, and how it words what it skipped.
@Suite struct CommandLineMistakesTests {
    @Test(arguments: [
        (["isues"], "faultline: 'isues' is not a command; did you mean 'issues'?\n"),
        (["sumary", "--json"], "faultline: 'sumary' is not a command; did you mean 'summary'?\n"),
        (["frobnicate"], "faultline: 'frobnicate' is not a command: see 'faultline --help' for the commands.\n"),
        (["demo"], "faultline: the demo is not part of the installed CLI: in the repository, run 'scripts/demo'.\n"),
        (["/tmp"], "faultline: '/tmp' is not a command: to read it, run 'faultline summary --log-dir /tmp'.\n"),
        (
            ["help", "nonexistent"],
            "faultline: 'nonexistent' is not a command: see 'faultline --help' for the commands.\n"
        ),
        (["help", "isues"], "faultline: 'isues' is not a command; did you mean 'issues'?\n"),
    ])
    func anUnknownFirstWordIsNotACommand(arguments: [String], says: String) async throws {
        let outcome = try await BuiltFaultline.outcome(of: arguments)

        #expect(outcome.status == 64)
        #expect(outcome.errors == says)
    }

    @Test func aTimeThatCannotBeReadShowsTheSubcommandsUsage() async throws {
        let outcome = try await BuiltFaultline.outcome(of: ["issues", "--since", "yesterday", "--file", "/dev/null"])

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("'yesterday' is not a time"))
        #expect(outcome.errors.contains("Usage: faultline issues"))
    }

    /// A value that starts with a dash, after a space, is the option's: `-1h` is not read as short options, whose
    /// `-h` would print the help and exit 0, so that `incident --since -1h --fail-on new || page` would never page.
    @Test(arguments: [
        (
            ["incident", "--since", "-1h", "--fail-on", "new"],
            "'-1h' is not a time; durations count back from now: write 1h."
        ),
        (["tail", "--since", "-2d"], "'-2d' is not a time; durations count back from now: write 2d."),
        (["issues", "--limit", "-5"], "--limit is a number of issues, 1 or more."),
        (["summary", "--json", "-1"], "The option '--json' does not take any value, but '-1' was specified."),
        (["issues", "--limit", "-h"], "Missing value for '--limit <limit>'"),
    ])
    func aValueThatLooksLikeAnOptionIsRefused(arguments: [String], says: String) async throws {
        let outcome = try await BuiltFaultline.outcome(of: arguments + ["--file", "/dev/null"])

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains(says), "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
    }

    @Test(arguments: [
        (["summary", "--until", "2h", "--since", "1h"], "--until 2h is before --since 1h", "summary"),
        (["issues", "--since", "1h", "--until", "3h"], "--until 3h is before --since 1h", "issues"),
        (["issues", "--new", "--until", "3h"], "--until 3h is before --since 1h", "issues"),
        (["incident", "--until", "2h"], "--until 2h is before --since 1h", "incident"),
    ])
    func aWindowThatEndsBeforeItStartsIsAUsageMistake(arguments: [String], says: String, command: String) async throws {
        let outcome = try await BuiltFaultline.outcome(of: arguments + ["--file", "/dev/null"])

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("\(says): the window ends before it starts."))
        #expect(outcome.errors.contains("Usage: faultline \(command)"))
        #expect(outcome.output.isEmpty)
    }

    @Test func followingNamedFilesShowsTailsUsage() async throws {
        let outcome = try await BuiltFaultline.outcome(of: ["tail", "-f", "--file", "/dev/null"])

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("-f follows a log directory's events.jsonl; leave out --file."))
        #expect(outcome.errors.contains("Usage: faultline tail"))
    }

    @Test func aKindTheSummaryDoesNotKnowIsCountedInItsText() async throws {
        // Given seven events, one of a kind of its own
        let log = try CommandLineLog(events: Array(repeating: ("server", nil), count: 6) + [("K", nil)])
        defer { log.remove() }

        let summary = String(decoding: try await BuiltFaultline.run(["summary", "--log-dir", log.path]), as: UTF8.self)

        #expect(summary.contains("\nby kind:  server 6  K 1\n"))
    }

    @Test func oneSkippedFileIsSingular() async throws {
        // Given a rotated log cut inside its gzip member
        let log = try CommandLineLog()
        defer { log.remove() }
        try Gzip.compress(Data(repeating: 0x0A, count: 4096)).prefix(5).write(
            to: log.directory.appendingPathComponent("events-1.jsonl.gz"))

        let summary = String(decoding: try await BuiltFaultline.run(["summary", "--log-dir", log.path]), as: UTF8.self)

        #expect(summary.contains("1 truncated gzip file\n"), "\(summary)")
    }

    /// A project or key no SDK can use in a DSN is refused before serve prints one (sentry-python reads a DSN's
    /// project as a number).
    @Test(arguments: [
        (["--project", "abc/def"], "--project 'abc/def' is not a project id"),
        (["--project", ""], "--project '' is not a project id"),
        (["--project", "1 2"], "--project '1 2' is not a project id"),
        (["--key", "a@b"], "--key 'a@b' cannot be a DSN's key"),
        (["--key", ""], "--key '' cannot be a DSN's key"),
    ])
    func aProjectOrKeyNoSDKCanUseIsRefused(arguments: [String], says: String) async throws {
        let outcome = try await BuiltFaultline.outcome(of: ["serve", "--port", "0"] + arguments)

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains(says), "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
    }

    @Test func aForwardDSNWithAPortOutOfRangeIsRefused() async throws {
        let outcome = try await BuiltFaultline.outcome(of: ["serve", "--forward", "http://k@127.0.0.1:99999/1"])

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("the port must be from 1 to 65535"))
    }
}
