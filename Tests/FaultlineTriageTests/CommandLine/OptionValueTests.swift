import Foundation
import TestSupport
import Testing

/// Every numeric option, and every time, given a value no one can mean: refused with a one-line usage error and
/// status 64, never a crash, and never a command that runs on a value it cannot use.
@Suite struct OptionValueTests {
    /// What a person or a script can pass by mistake, refused by every numeric option.
    static let nonsense = ["inf", "-inf", "nan", "-1", "", "1e308", "99999999999999999999"]

    /// Each command and option, with what else the command needs to run.
    static let options: [(command: [String], option: String)] = [
        (["incident"], "--spike-factor"), (["incident"], "--spike-minimum"), (["incident"], "--baseline"),
        (["issues", "--spiking"], "--spike-factor"), (["summary", "--since", "1h"], "--spike-minimum"),
        (["issues"], "--limit"), (["incident"], "--limit"), (["events", "0"], "--limit"), (["tags"], "--values"),
        (["tail"], "--lines"), (["watch", "--webhook", "http://127.0.0.1:9/hook", "--once"], "--max-posts"),
        (["watch", "--webhook", "http://127.0.0.1:9/hook", "--once"], "--every"),
        (["issues"], "--since"), (["summary"], "--until"), (["timeline"], "--since"), (["timeline"], "--bucket"),
    ]

    @Test(arguments: options)
    func nonsenseIsAUsageError(command: [String], option: String) async throws {
        let log = try CommandLineLog()
        defer { log.remove() }
        // (a ratio as large as 1e308 is a ratio, if a useless one: see aHugeRatioOrCountIsTakenAsGiven)
        for value in Self.nonsense
        where !(option == "--spike-factor" && ["1e308", "99999999999999999999"].contains(value)) {
            let outcome = try await BuiltFaultline.outcome(of: command + [option, value, "--log-dir", log.path])

            #expect(outcome.reason == .exit && outcome.status == 64, "\(command) \(option) '\(value)'")
            let firstLine = outcome.errors.split(separator: "\n").first ?? ""
            #expect(firstLine.hasPrefix("Error: "), "\(command) \(option) '\(value)': \(outcome.errors)")
            #expect(outcome.errors.contains("Usage: faultline \(command[0])"), "\(option) '\(value)'")
            #expect(outcome.output.isEmpty)
        }
    }

    @Test func aHugeRatioOrCountIsTakenAsGiven() async throws {
        let log = try CommandLineLog()
        defer { log.remove() }
        for arguments in [
            ["incident", "--spike-factor", "1e308", "--since", "7d"], ["incident", "--baseline", "100000w"],
            ["issues", "--limit", String(Int.max)], ["tail", "--lines", String(Int.max)],
            ["summary", "--since", "1e30w"],
        ] {
            let outcome = try await BuiltFaultline.outcome(of: arguments + ["--log-dir", log.path])

            #expect(outcome.reason == .exit && outcome.status == 0, "\(arguments): \(outcome.errors)")
            #expect(!outcome.text.contains("inf"), "\(arguments): \(outcome.text)")
        }
    }

    @Test func aNegativeDurationSaysToLeaveOutTheSign() async throws {
        let outcome = try await BuiltFaultline.outcome(of: ["issues", "--since", "-5m", "--file", "/dev/null"])

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("'-5m' is not a time; durations count back from now: write 5m."))
    }

    @Test func aWindowThatStartsInTheFutureIsRefused() async throws {
        let outcome = try await BuiltFaultline.outcome(of: ["summary", "--since", "2999-01-01", "--file", "/dev/null"])

        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("--since 2999-01-01 is in the future"))
    }

    @Test(arguments: [
        "--port", "--rate-limit", "--idle-timeout", "--max-log-bytes", "--forward-queue-max-envelopes",
        "--forward-queue-max-bytes",
    ])
    func serveRefusesNonsenseBeforeItListens(option: String) async throws {
        let logs = try TemporaryDirectory("serve-options")
        defer { logs.remove() }
        let forward = option.hasPrefix("--forward") ? ["--forward", "http://key@127.0.0.1:9/1"] : []
        for value in Self.nonsense {
            let serve = try await BuiltFaultline.start(
                ["serve", "--log-dir", logs.url.path, "--port", "0"] + forward + [option, value])
            let outcome = try await serve.exit()

            #expect(outcome.reason == .exit && outcome.status == 64, "\(option) '\(value)'")
            #expect(outcome.errors.hasPrefix("Error: "), "\(option) '\(value)': \(outcome.errors)")
        }
    }
}
