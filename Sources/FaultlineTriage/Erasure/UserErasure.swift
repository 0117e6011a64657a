import FaultlineLogReading
import FaultlineRecords
import Foundation

/// `faultline forget --user`: removes users' events from a log directory, for a user who asks to be forgotten. An
/// event is the user's when its user's id, email or username is one of ``users``, as `--user` filters; in envelopes
/// (the outbox, `serve --forward`'s queues) an event, transaction or feedback of the user's, a session whose
/// distinct id is the user's, or a user report with the user's email or name erases its whole envelope.
///
/// - Each of the user's lines in the logs (`events.jsonl`, the rotated `*.jsonl.gz`, any `*.jsonl`, and the
///   transactions' log in `requests/`) is blanked:
///   replaced by spaces of the same length, so that every other line keeps its bytes and its offset, which a reporter's
///   delivery cursor holds. Readers skip blank lines and nothing sends them. Envelopes are blanked the same way in
///   their segment files.
/// - A file is rewritten only when it holds one of the user's events, through a temporary file, a flush to disk and an
///   atomic rename: a crash at any moment leaves each file as it was or as rewritten, and running it again finishes
///   the work.
/// - It holds the directory's lock exclusively, so it refuses to run while a process writes the directory (`faultline
///   serve`, an app's reporter), and a writer that starts meanwhile waits for it to finish.
package struct UserErasure: Sendable {
    /// What an erasure blanked, or with a dry run would blank.
    package struct Result: Hashable, Sendable, Encodable {
        /// A file or queue with events of the users, and how many.
        package struct Erased: Hashable, Sendable, Encodable {
            /// The path from the log directory: a log file, `outbox`, or `forward/<upstream>`.
            package let path: String
            /// Lines of a log file, envelopes of a queue.
            package let count: Int
        }

        /// The files and queues that held events of the users.
        package internal(set) var erased: [Erased] = []
        /// Files that could not be read whole (a corrupt or cut gzip file), left as they were: they may hold events of
        /// the users.
        package internal(set) var failures: [String] = []
        /// How many log files and queues were read.
        package internal(set) var filesRead = 0
        /// Whether nothing was changed, only counted.
        package let dryRun: Bool

        /// The events (lines and envelopes) erased in all.
        package var total: Int { erased.map(\.count).reduce(0, +) }

        enum CodingKeys: String, CodingKey {
            case erased, failures, total
            case filesRead = "files_read"
            case dryRun = "dry_run"
        }

        package func encode(to encoder: any Encoder) throws {
            try JSONSchemaVersion.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(erased, forKey: .erased)
            try container.encode(failures, forKey: .failures)
            try container.encode(total, forKey: .total)
            try container.encode(filesRead, forKey: .filesRead)
            try container.encode(dryRun, forKey: .dryRun)
        }

        /// The result as the terminal shows it, for the erasure of `users`.
        package func text(users: [String]) -> String {
            let who = TerminalText.safe(users.joined(separator: ", "))
            let verb = dryRun ? "would forget" : "forgot"
            var lines = [
                "\(verb) \(counted(total, "event")) of \(who) in \(erased.count) of \(counted(filesRead, "file"))"
            ]
            let width = erased.map(\.path.count).max() ?? 0
            for file in erased {
                let padding = String(repeating: " ", count: width - file.path.count)
                let unit = file.path.hasSuffix(LogLayout.logSuffix) || file.path.hasSuffix(LogLayout.rotatedLogSuffix)
                lines.append(
                    "  \(TerminalText.safe(file.path))\(padding)  \(counted(file.count, unit ? "line" : "envelope"))")
            }
            for failure in failures { lines.append("not read, left as it was: \(TerminalText.safe(failure))") }
            if total > 0, !dryRun {
                lines.append("their lines are blanked in place; every other event is unchanged")
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// Why an erasure could not start.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// The users whose events are erased: ids, emails or usernames.
    package let users: Set<String>
    /// The users' identities as bytes when a line that holds one holds them as they are, so that a line without them
    /// is passed over unread: none has a character that JSON escapes other than as `\u` (`"`, `\`, `/`, control
    /// characters). `nil` otherwise, and every line is read.
    private let plainIdentities: [[UInt8]]?

    /// An erasure of the events of `users`.
    package init(users: Set<String>) {
        self.users = users
        let isPlain = users.allSatisfy { user in
            user.utf8.allSatisfy {
                $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/")
            }
        }
        plainIdentities = isPlain ? users.map { Array($0.utf8) } : nil
    }

    /// Erases the users' events in the log directory `directory`; with `dryRun`, only counts them, without the lock.
    ///
    /// - Throws: ``Refusal`` when the directory is missing, or a process writes it.
    package func run(in directory: URL, dryRun: Bool = false) throws(Refusal) -> Result {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw Refusal(description: "\(directory.path) is not a log directory: it does not exist") }
        let lock: LogDirectoryLock?
        do {
            lock = dryRun ? nil : try LogDirectoryLock(exclusive: directory)
        } catch {
            throw Refusal(description: "\(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        if !dryRun { LogFileErasure.removeLeftovers(in: directory) }
        var result = Result(dryRun: dryRun)
        let layout = LogLayout(directory)
        let files = layout.eventFiles()
        // The transactions' log beside the request outcomes: transactions carry their user as events do.
        let requestLogs = ((try? FileManager.default.contentsOfDirectory(atPath: layout.requests.path)) ?? []).sorted()
            .filter { $0.hasSuffix(LogLayout.logSuffix) || $0.hasSuffix(LogLayout.rotatedLogSuffix) }
            .map { (path: "\(LogLayout.requestsName)/\($0)", url: layout.requests.appendingPathComponent($0)) }
        let logs = (files.rotatedLogs + files.logs).map { (path: $0.lastPathComponent, url: $0) } + requestLogs
        for (path, file) in logs {
            result.filesRead += 1
            do {
                let count = try LogFileErasure.blankLines(
                    in: file, isCompressed: file.path.hasSuffix(LogLayout.rotatedLogSuffix), dryRun: dryRun,
                    where: isUsersEvent)
                if count > 0 { result.erased.append(.init(path: path, count: count)) }
            } catch {
                result.failures.append("\(error)")
            }
        }
        let forward = ((try? FileManager.default.contentsOfDirectory(atPath: layout.forwardQueues.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
        let queues =
            [(LogLayout.outboxName, layout.outbox)]
            + forward.map { ("\(LogLayout.forwardQueuesName)/\($0)", layout.forwardQueues.appendingPathComponent($0)) }
        for (path, queue) in queues where FileManager.default.fileExists(atPath: queue.path) {
            result.filesRead += 1
            do {
                let count = try OutboxErasure.blankEnvelopes(inOutbox: queue, dryRun: dryRun, where: isUsersEnvelope)
                if count > 0 { result.erased.append(.init(path: path, count: count)) }
            } catch {
                result.failures.append("\(error)")
            }
        }
        return result
    }

    /// Whether the event on `line` is one of the users'. A line that holds neither an identity of theirs as it is nor
    /// a `\u` escape cannot name them, and is not read.
    package func isUsersEvent(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if let plainIdentities, !ByteSearch.contains(Array("\\u".utf8), in: UnsafeRawBufferPointer(line)),
            !plainIdentities.contains(where: { ByteSearch.contains($0, in: UnsafeRawBufferPointer(line)) })
        {
            return false
        }
        guard let record = try? EventRecord(line: line) else { return false }
        return [record.user, record.userEmail, record.userName].contains { $0.map(users.contains) == true }
    }

    /// Whether the envelope `bytes` carries an item of one of the users.
    func isUsersEnvelope(_ bytes: Data) -> Bool {
        guard let envelope = try? Envelope(parsing: bytes) else { return false }
        return envelope.items.contains { item in
            switch item.type {
            case "event", "transaction", "feedback":
                return item.payload.withUnsafeBytes { isUsersEvent($0.bindMemory(to: UInt8.self)) }
            case "session", "user_report":
                guard case .object(let members)? = try? JSONValue(parsing: item.payload) else { return false }
                let identities = item.type == "session" ? ["did"] : ["email", "name"]
                return identities.contains { members[$0]?.stringValue.map(users.contains) == true }
            default:
                return false
            }
        }
    }
}
