import Faultline
import FaultlineReporting
import Foundation

// A process the kill tests start, kill with SIGKILL and start again on the same log directory: an app that captures
// events as fast as its reporter writes them and sends them to a DSN, 25 at a time, each 25 in a span that is a
// transaction of its own (every trace is recorded).
//
//   CaptureLoop <log directory> <dsn>           says "ready", then captures until it is killed
//   CaptureLoop <log directory> <dsn> --flush   sends what earlier runs left, closes, says "flushed" or "timed out"
//
// The log's files rotate every 64 KiB, so that kills land in rotations and the backlog is read back from rotated
// files too; the log's cap is the default 64 MiB, far above what a test writes, so nothing is evicted.

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: CaptureLoop <log directory> <dsn> [--flush]\n".utf8))
    exit(64)
}
var options = Reporter.Options(logDirectory: URL(fileURLWithPath: arguments[1]), environmentVariables: [:])
options.dsn = try DSN(arguments[2])
options.maxLogFileSize = 64 * 1024
options.tracesSampleRate = 1
options.configureDelivery = {
    $0.flushInterval = .milliseconds(50)
    $0.backoff = Backoff(initial: .milliseconds(50), multiplier: 2, maximum: .milliseconds(400), jitter: 0)
}
let reporter = try Reporter(options: options)

if arguments.dropFirst(3).first == "--flush" {
    let delivered = await reporter.close(timeout: .seconds(60))
    FileHandle.standardOutput.write(Data((delivered ? "flushed\n" : "timed out\n").utf8))
    exit(delivered ? 0 : 1)
}

FileHandle.standardOutput.write(Data("ready\n".utf8))
// The loop ends with the test that started it: a test runner that stopped (killed, timed out) leaves no loop capturing.
let parent = getppid()
var index = 0
while getppid() == parent {
    // Capturing waits for nothing but a place in the queue: pace it so that most captures are written, not dropped,
    // and the backlog stays one that a loaded machine delivers within the flush's minute (at most 1 250 a second).
    await reporter.withSpan("capture round", operation: "task") {
        for _ in 0..<25 {
            index += 1
            await reporter.capture(message: "capture \(index) of process \(getpid())", level: .error)
        }
    }
    try await Task.sleep(for: .milliseconds(20))
}
