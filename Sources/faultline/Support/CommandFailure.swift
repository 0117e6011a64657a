import ArgumentParser
import Foundation

/// Why a command stopped: one line a person can act on, written on standard error after the command's name, and the
/// exit status the CLI documents for it. Every command throws one instead of printing and exiting on its own;
/// ``FaultlineCommand/main()`` reports it.
struct CommandFailure: Error {
    /// The exit statuses the CLI documents (besides 0, and ArgumentParser's own 64 for a usage error it finds).
    enum Status: Int32 {
        /// The command ran and failed: an issue id that matches none, an output that cannot be written, events that
        /// were not delivered.
        case failed = 1
        /// What the command needs is missing or cannot be used: a log directory or file, a port to listen on.
        case unavailable = 2
        /// `incident --fail-on` found an issue flagged with one of the signals it names.
        case flagged = 3
        /// The options are a mistake: a configuration that contradicts itself, a command that does not exist.
        case usage = 64
    }

    let message: String
    let status: Status
    /// The name the line starts with: `faultline`, or `faultline serve` for the server's configuration.
    var command = "faultline"

    /// Writes `command: message` on standard error.
    func report() {
        StandardError.say(message, as: command)
    }
}

/// Standard error, where the CLI writes what went wrong and what it skipped, one line each.
enum StandardError {
    /// Writes `command: message` and a newline.
    static func say(_ message: String, as command: String = "faultline") {
        FileHandle.standardError.write(Data("\(command): \(message)\n".utf8))
    }
}
