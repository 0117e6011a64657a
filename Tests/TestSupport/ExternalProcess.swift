import FaultlineTestServer
import Foundation
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A program a test runs in another process (the built `faultline`, the Python peers, `gzip`, lnav, Chromium, the
/// kill tests' `CaptureLoop`), started with ``start(_:_:environment:input:output:errorsToOutput:)`` or run to its end
/// with ``run(_:_:environment:input:output:errorsToOutput:)``.
///
/// Nothing here blocks a thread while the program runs: a test waits for it as for any other state. The concurrency
/// pool has two threads on CI's 2-core machines, and a test that held one while `faultline` or a peer ran stalled
/// every in-process server of the run (the relay and metrics tests failed in loaded full runs for it).
///
/// Programs are started with swift-subprocess, not Foundation's `Process`: on Linux, `Process.run()` in Swift 6.3.1
/// reads past the end of glibc's directory buffer while it lists `/proc/self/fd`, and crashed a full run
/// intermittently (SIGSEGV in `memcpy`; swiftlang/swift-corelibs-foundation#5472).
///
/// What it prints goes to files, never to a pipe nobody reads (a pipe that fills stops the program), unless a test
/// reads its standard output line by line (``Output/lines``): then every line is read, those after the ones the test
/// waited for are dropped.
package final class ExternalProcess: Sendable {
    /// Where a program's standard output goes.
    package enum Output: Sendable {
        /// Kept, for ``Outcome/output``.
        case collected
        /// Read as lines, for ``line(where:stall:)``; ``Outcome/output`` is then empty.
        case lines
        /// To `handle` (`/dev/full`, a file of the test's); ``Outcome/output`` is then empty.
        case handle(FileHandle)
        /// Discarded.
        case discarded
    }

    /// Whether a program exited or a signal ended it.
    package enum TerminationReason: Sendable {
        /// It exited; ``Outcome/status`` is its exit status.
        case exit
        /// A signal ended it; ``Outcome/status`` is the signal's number.
        case uncaughtSignal
    }

    /// How a run ended, and what it printed.
    package struct Outcome: Sendable {
        /// Its exit status, or the signal that ended it.
        package let status: Int32
        /// Whether it exited (`.exit`) or a signal ended it (`.uncaughtSignal`).
        package let reason: TerminationReason
        /// Its standard output (and standard error, when they were merged).
        package let output: Data
        /// Its standard error.
        package let errors: String

        /// ``output`` as UTF-8 text.
        package var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Why a program could not be run, or did not do what the test needed.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Its process id.
    package let processIdentifier: Int32
    private let name: String
    private let files: TemporaryDirectory
    private let lines: AsyncStream<String>?
    private let collects: Bool
    /// The run, from its start to the program's end (which swift-subprocess waits for without a thread of the pool).
    private let ending: Task<TerminationStatus, any Error>
    private let ended: Flag

    /// Whether the program has ended: raised by its run once swift-subprocess has reaped it.
    private final class Flag: Sendable {
        private let raised = Mutex(false)

        var isRaised: Bool { raised.withLock { $0 } }

        func raise() { raised.withLock { $0 = true } }
    }

    private init(
        processIdentifier: Int32, name: String, files: TemporaryDirectory, lines: AsyncStream<String>?,
        collects: Bool, ending: Task<TerminationStatus, any Error>, ended: Flag
    ) {
        self.processIdentifier = processIdentifier
        self.name = name
        self.files = files
        self.lines = lines
        self.collects = collects
        self.ending = ending
        self.ended = ended
    }

    deinit {
        files.remove()
    }

    /// The sanitizers' options of the test run (`scripts/sanitize`), passed to every process it starts, so that a
    /// report from a child lands where the suite's do. Leaks are looked for in the test runner only, where the
    /// library code runs for the whole suite: a command-line process that exits from its async `main` still holds
    /// its frames and parser state, which LeakSanitizer would report at every exit.
    private static let sanitizerOptions = ProcessInfo.processInfo.environment.filter {
        ["TSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
    }.mapValues { $0.contains("detect_leaks=1") ? $0 + ":detect_leaks=0" : $0 }

    /// Starts `executable` with `arguments`, in `environment` (the test's own when `nil`), with `input` on its standard
    /// input (nothing when `nil`), its standard output sent as `output` says and its standard error kept, or merged
    /// into its standard output when `errorsToOutput`; returns once it runs.
    ///
    /// - Throws: ``Failure`` when `executable` is missing or cannot be started.
    package static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        output: Output = .collected, errorsToOutput: Bool = false
    ) async throws -> ExternalProcess {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(
                description: "\(executable.path) is missing: run scripts/setup, and swift build --build-tests")
        }
        let files = try TemporaryDirectory("process")
        let (standardOutput, lines) = try open(output, collectingIn: files.file("stdout"))
        let standardError =
            errorsToOutput
            ? try standardOutput.descriptor.duplicate()
            : try FileDescriptor.open(
                FilePath(files.file("stderr").path), .writeOnly, options: [.create, .truncate],
                permissions: [.ownerReadWrite])
        let ended = Flag()
        let (started, starting) = AsyncStream.makeStream(of: Int32.self)
        let ending = Task {
            defer {
                ended.raise()
                starting.finish()
            }
            return try await Subprocess.run(
                .path(FilePath(executable.path)), arguments: Arguments(arguments),
                environment: Self.environment(environment), input: .array(Array(input ?? Data())),
                output: .fileDescriptor(
                    standardOutput.descriptor, closeAfterSpawningProcess: standardOutput.closesAfterStart),
                error: .fileDescriptor(standardError, closeAfterSpawningProcess: true)
            ) { execution in
                starting.yield(execution.processIdentifier.value)
            }.terminationStatus
        }
        var running = started.makeAsyncIterator()
        guard let processIdentifier = await running.next() else {
            do {
                _ = try await ending.value
            } catch {
                throw Failure(description: "\(executable.path) could not be started: \(error)")
            }
            throw Failure(description: "\(executable.path) ended before it was seen to start")
        }
        let collects = if case .collected = output { true } else { false }
        return ExternalProcess(
            processIdentifier: processIdentifier, name: executable.lastPathComponent, files: files, lines: lines,
            collects: collects, ending: ending, ended: ended)
    }

    /// Where `output` sends a program's standard output: the descriptor it is given, whether it is closed once the
    /// program has it, and for ``Output/lines`` the lines read from the pipe's other end.
    private static func open(_ output: Output, collectingIn file: URL) throws -> (
        (descriptor: FileDescriptor, closesAfterStart: Bool), AsyncStream<String>?
    ) {
        switch output {
        case .collected:
            let descriptor = try FileDescriptor.open(
                FilePath(file.path), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite])
            return ((descriptor, true), nil)
        case .handle(let handle):
            return ((FileDescriptor(rawValue: handle.fileDescriptor), false), nil)
        case .discarded:
            return ((try FileDescriptor.open("/dev/null", .writeOnly), true), nil)
        case .lines:
            let pipe = try FileDescriptor.pipe()
            let reading = FileHandle(fileDescriptor: pipe.readEnd.rawValue, closeOnDealloc: true)
            return ((pipe.writeEnd, true), ProcessLines.of(reading))
        }
    }

    /// `environment` with the sanitizers' options, or the test's own environment when it is `nil`.
    private static func environment(_ environment: [String: String]?) -> Subprocess.Environment {
        guard let environment else {
            return .inherit.updating(
                Dictionary(
                    uniqueKeysWithValues: sanitizerOptions.compactMap { key, value in
                        Subprocess.Environment.Key(rawValue: key).map { ($0, Optional(value)) }
                    }))
        }
        return .custom(
            Dictionary(
                environment.merging(sanitizerOptions) { given, _ in given }.compactMap { key, value in
                    Subprocess.Environment.Key(rawValue: key).map { ($0, value) }
                }, uniquingKeysWith: { $1 }))
    }

    /// Runs `executable` to its end, without blocking a thread (see ``exit(stall:)``); returns how it ended.
    ///
    /// - Throws: ``Failure`` when `executable` is missing, or is stuck (``runLimit``).
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        output: Output = .collected, errorsToOutput: Bool = false
    ) async throws -> Outcome {
        let process = try await start(
            executable, arguments, environment: environment, input: input, output: output,
            errorsToOutput: errorsToOutput)
        return try await process.exit(stall: runLimit)
    }

    /// How long a program run to its end may use no CPU before it is taken for hung and killed: ten minutes, allowing
    /// for the ``slowdown`` of this run. Not a patience for a state to come: the longest run of the suite (Chromium
    /// rendering a report, `faultline` over the golden corpus) takes seconds.
    package static let runLimit = slowed(.seconds(600))

    /// Whether it is still running.
    package var isRunning: Bool { !ended.isRaised }

    /// What it has printed on standard error so far: for a test that waits for a program that runs on to say
    /// something.
    package var errorsSoFar: String {
        (try? String(contentsOf: files.file("stderr"), encoding: .utf8)) ?? ""
    }

    /// The first line it prints on standard output (started with ``Output/lines``) for which `predicate` holds: how
    /// a test knows a program is ready (serve's port, Bugsink's DSN, CaptureLoop's "ready").
    ///
    /// - Throws: ``Failure`` when it ends its output first, or when it is stuck: it (with the programs it started)
    ///   used no CPU for `stall` (``patience`` by default). A program slowed by a loaded machine is waited for.
    package func line(
        where predicate: @escaping @Sendable (String) -> Bool = { _ in true }, stall: Duration = patience
    ) async throws -> String {
        guard let lines else { throw Failure(description: "\(name)'s output is not read as lines") }
        let reading = LineSearch()
        let reader = Task {
            for await line in lines where predicate(line) {
                reading.found(line)
                return
            }
            reading.end()
        }
        defer { reader.cancel() }
        do {
            try await wait(
                for: "\(name)'s line", progressing: { cpuTicks }, stall: stall, until: { reading.isOver })
        } catch is TimedOut {
            throw Failure(
                description: "\(name) did not print the line the test waits for, and used no CPU for \(stall)")
        }
        guard let line = reading.line else {
            throw Failure(description: "\(name) ended its output without the line the test waits for")
        }
        return line
    }

    /// The line ``line(where:stall:)`` looks for, once it is found or the output ended without it.
    private final class LineSearch: Sendable {
        private let state = Mutex<(line: String?, isOver: Bool)>((nil, false))

        var line: String? { state.withLock { $0.line } }
        var isOver: Bool { state.withLock { $0.isOver } }

        func found(_ line: String) { state.withLock { $0 = (line, true) } }
        func end() { state.withLock { $0.isOver = true } }
    }

    /// The clock ticks of CPU it, and the programs it started that still run, have used so far (`/proc`): what tells
    /// a program that a loaded machine slows from one that is stuck. 0 where there is no `/proc`, so that a wait on
    /// it is a plain timeout there. A program that spins forever is left to `scripts/test`'s timeout of the run.
    private var cpuTicks: Int { Self.cpuTicks(of: processIdentifier) }

    private static func cpuTicks(of process: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return 0 }
        // After the name: the state is field 3 of proc(5); utime, stime, cutime and cstime are fields 14 to 17.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 14 else { return 0 }
        let own = fields[11...14].reduce(0) { $0 + (Int($1) ?? 0) }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task")) ?? []
        let children = threads.flatMap { thread in
            ((try? String(contentsOfFile: "/proc/\(process)/task/\(thread)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
        return children.reduce(own) { $0 + cpuTicks(of: $1) }
    }

    /// Sends it SIGTERM.
    package func terminate() {
        signal(SIGTERM)
    }

    /// Sends it SIGKILL.
    package func kill() {
        signal(SIGKILL)
    }

    /// Sends it `number` while it runs: its process id is not reused until its run has reaped it.
    private func signal(_ number: Int32) {
        if isRunning { Foundation.kill(processIdentifier, number) }
    }

    /// Waits for it to end without blocking a thread (it may be talking to a server in this process, and the pool's
    /// threads are every other test's); returns how it ended.
    ///
    /// - Throws: ``Failure`` when it is stuck: it still runs, and it (with the programs it started) used no CPU for
    ///   `stall` (``patience`` by default); it is then killed. A program slowed by a loaded machine is waited for.
    @discardableResult
    package func exit(stall: Duration = patience) async throws -> Outcome {
        do {
            try await wait(for: "\(name)'s exit", progressing: { cpuTicks }, stall: stall, until: { !isRunning })
        } catch is TimedOut {
            kill()
            throw Failure(description: "\(name) did not exit, and used no CPU for \(stall)")
        }
        let status = try await ending.value
        let output = collects ? (try? Data(contentsOf: files.file("stdout"))) ?? Data() : Data()
        let errors = errorsSoFar
        return switch status {
        case .exited(let code): Outcome(status: code, reason: .exit, output: output, errors: errors)
        case .signaled(let number): Outcome(status: number, reason: .uncaughtSignal, output: output, errors: errors)
        }
    }
}

extension ExternalProcess.Outcome {
    /// Itself, when the program exited with 0.
    ///
    /// - Throws: ``ExternalProcess/Failure`` with what it said on standard error, otherwise: its start and its end
    ///   when it said much (a crash names its cause first, then dumps every thread).
    package func succeeded(_ command: String) throws -> Self {
        guard reason == .exit, status == 0 else {
            let said = errors.isEmpty ? text : errors
            let excerpt = said.count <= 6000 ? said : "\(said.prefix(3000))\n…\n\(said.suffix(3000))"
            let ending = reason == .exit ? "exited with \(status)" : "was ended by signal \(status)"
            throw ExternalProcess.Failure(description: "\(command) \(ending): \(excerpt)")
        }
        return self
    }
}
