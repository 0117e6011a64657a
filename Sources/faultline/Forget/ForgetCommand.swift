import ArgumentParser
import FaultlineRecords
import FaultlineTriage
import Foundation

/// `faultline forget --user ID`: erases users' events from a log directory, for a user who asks to be forgotten.
struct ForgetCommand: ParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Erase a user's events from a log directory: its logs, outbox and forward queues.",
        discussion: """
            An event is the user's when its user id, email or username is one of --user. Each of the user's lines \
            is blanked in place (spaces of the same length), so every other event keeps its bytes and position; a \
            file is rewritten only when it holds one, through a temporary file and an atomic rename, so a crash \
            leaves each file as it was or as rewritten, and running forget again finishes the work. It refuses to \
            run while a process writes the directory: stop faultline serve (or the app) first; a writer that \
            starts meanwhile waits until forget is done.
            """)

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline forget --user 4711 --dry-run", "How many events of user 4711 the logs and queues hold."),
        (
            "faultline forget --user 4711 --user ada@example.com --log-dir /var/lib/faultline",
            "Erase a user known by id and email from serve's directory (serve stopped)."
        ),
    ]

    @Option(help: "A user id, email or username whose events are erased; repeatable.")
    var user: [String] = []

    @Option(
        help: ArgumentHelp(
            "The log directory; by default $\(LogLayout.environmentVariable), else ./\(LogLayout.defaultPath)."))
    var logDir: String?

    @Flag(help: "Count the user's events without changing anything (and without waiting for writers).")
    var dryRun = false

    @Flag(help: "Print what was erased as JSON.")
    var json = false

    func validate() throws {
        if user.isEmpty { throw ValidationError("Name the user to forget with --user (an id, email or username).") }
        if user.contains(where: \.isEmpty) { throw ValidationError("--user needs a non-empty id, email or username.") }
    }

    func run() throws {
        let directory = LogLayout(path: logDir).url
        let result: UserErasure.Result
        do {
            result = try UserErasure(users: Set(user)).run(in: directory, dryRun: dryRun)
        } catch {
            throw CommandFailure(message: error.description, status: .unavailable)
        }
        try StandardOutput.write(json ? try JSONOutput.encode(result) : Data(result.text(users: user).utf8))
        if !result.failures.isEmpty {
            throw CommandFailure(
                message:
                    "\(counted(result.failures.count, "file")) could not be read and may still hold the user's events: "
                    + "delete them, or restore them and run forget again", status: .failed)
        }
    }
}
