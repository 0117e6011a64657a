import Foundation

/// One run of another program to completion: its wall time, CPU time and peak memory, with its standard output kept in
/// a file.
///
/// The peak comes from GNU time (`/usr/bin/time -f %M`), which forks the program from its own small process. A program
/// spawned straight from the benchmark would report the benchmark's peak instead of its own when that is higher:
/// `posix_spawn` starts children with `vfork`, and `exec` keeps the high-water mark of the memory it replaces.
public struct ChildRun: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The time from spawn to exit.
    public let seconds: Double
    /// The CPU time the program spent in user mode, on all its threads.
    public let userSeconds: Double
    /// The most resident memory the program used, in bytes.
    public let peakResidentBytes: Int
    /// What it printed on standard output.
    public let output: Data

    /// Runs `arguments[0]` (a path, or a name looked up in `PATH`) with the rest as its arguments and waits for it;
    /// standard error is the benchmark's own. Needs GNU time (Debian's `time` package).
    ///
    /// - Throws: ``Failure`` when it cannot be started or does not exit with status 0.
    public static func run(_ arguments: [String]) throws -> ChildRun {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID())")
        let peakFile = outputFile.appendingPathExtension("peak")
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: peakFile)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let timed = ["/usr/bin/time", "--format=%M %U", "--output=\(peakFile.path)"] + arguments
        let argv = timed.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        let start = ContinuousClock.now
        var pid = pid_t()
        let spawned = posix_spawn(&pid, timed[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "\(timed[0]) could not be started: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = (ContinuousClock.now - start).seconds
        guard status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) ended with wait status \(status)")
        }
        let timeText = try String(contentsOf: peakFile, encoding: .utf8)
        let fields = timeText.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let kilobytes = Int(fields[0]), let userSeconds = Double(fields[1]) else {
            throw Failure(description: "/usr/bin/time reported \(timeText) as the peak memory and user CPU time")
        }
        return ChildRun(
            seconds: seconds, userSeconds: userSeconds, peakResidentBytes: kilobytes * 1024,
            output: try Data(contentsOf: outputFile))
    }
}
