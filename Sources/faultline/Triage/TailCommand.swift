import ArgumentParser
import FaultlineLogReading
import FaultlineRecords
import FaultlineTriage
import Foundation

/// `faultline tail`: the latest events, one per line, and with `-f` every new one as the app logs it.
struct TailCommand: AsyncParsableCommand, CommandWithExamples {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print the latest events, one per line; -f follows the log as it grows.")

    static let examples: [(commandLine: String, purpose: String)] = [
        ("faultline tail -n 20", "The 20 latest events, one per line."),
        ("faultline tail -f --kind server", "Every new server failure as the app logs it."),
    ]

    @OptionGroup var options: TriageOptions

    @Option(name: [.customShort("n"), .long], help: "How many of the latest events to print first.")
    var lines = 10

    @Flag(
        name: [.customShort("f"), .long],
        help: "Keep printing events as they are appended to the log (needs a log directory).")
    var follow = false

    func validate() throws {
        if lines < 0 { throw ValidationError("--lines is a number of events, 0 or more.") }
        if follow, options.logDirectory == nil {
            throw ValidationError("-f follows a log directory's events.jsonl; leave out --file.")
        }
    }

    func run() async throws {
        let filter = try options.filter()
        // Following starts before the latest are read, so that nothing appended in between is missed.
        let follower = options.logDirectory.map { LogFollower(url: LogLayout($0).activeLog) }
        let latest = LatestEvents(lines, from: try options.logFiles(), filter: filter)
        TriageOptions.name(latest.unreadableFiles)
        let columns = TailColumns(fitting: latest.events.map(EventLine.init), width: options.style.width)
        if !options.json, follow || !latest.events.isEmpty {
            try StandardOutput.write(Data((columns.header(style: options.style) + "\n").utf8))
        }
        for record in latest.events { try print(record, in: columns) }
        guard follow, var follower else { return }
        let printed = Set(latest.events.map(\.eventID))
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(500))
            var new: [EventRecord] = []
            follower.readNew { record, line in
                guard filter.accepts(record), filter.acceptsLine(of: record, line), !printed.contains(record.eventID)
                else { return }
                new.append(record)
            }
            for record in new { try print(record, in: columns) }
        }
    }

    private func print(_ record: EventRecord, in columns: TailColumns) throws {
        let line = EventLine(record)
        if options.json {
            try StandardOutput.write(try JSONOutput.encode(line, pretty: false))
        } else {
            try StandardOutput.write(Data((columns.text(line, style: options.style) + "\n").utf8))
        }
    }
}
