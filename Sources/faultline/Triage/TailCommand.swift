import ArgumentParser
import FaultlineTriage
import Foundation

/// `faultline tail`: the latest events, one per line, and with `-f` every new one as the app logs it.
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print the latest events, one per line; -f follows the log as it grows.")

    @OptionGroup var options: TriageOptions

    @Option(name: [.customShort("n"), .long], help: "How many of the latest events to print first.")
    var lines = 10

    @Flag(
        name: [.customShort("f"), .long],
        help: "Keep printing events as they are appended to the log (needs a log directory).")
    var follow = false

    func run() async throws {
        let filter = try options.filter()
        var latest: [EventRecord] = []
        var reader = LogReader()
        for file in try options.logFiles() where file.kind != .envelope {
            reader.read(file) { record in
                guard filter.accepts(record) else { return }
                latest.append(record)
                if latest.count > lines { latest.removeFirst(latest.count - lines) }
            }
        }
        for record in latest.sorted(by: { $0.timestamp < $1.timestamp }) { try print(record) }
        guard follow else { return }
        guard let directory = options.logDirectory else {
            throw ValidationError("-f follows a log directory's events.jsonl; leave out --file.")
        }
        var follower = LogFollower(url: directory.appendingPathComponent("events.jsonl"))
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(500))
            var new: [EventRecord] = []
            follower.readNew { if filter.accepts($0) { new.append($0) } }
            for record in new { try print(record) }
        }
    }

    private func print(_ record: EventRecord) throws {
        let line = EventLine(record)
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(line) + Data("\n".utf8))
        } else {
            FileHandle.standardOutput.write(Data((line.text(style: options.style) + "\n").utf8))
        }
    }
}
