import Foundation

/// Standard output, written so that a failure is a message and an exit status, not a crash: `FileHandle`'s `write`
/// traps when the write fails (a full disk, `/dev/full`). A closed pipe (`| head`) still ends the process with
/// SIGPIPE (status 141), quietly, as it ends any filter, even when the parent ignored SIGPIPE (a server stack such as
/// SwiftNIO does, and a child inherits the ignored signal).
enum StandardOutput {
    /// SIGPIPE's default action, restored once before the first write.
    private static let endsOnClosedPipe: Void = { _ = signal(SIGPIPE, SIG_DFL) }()

    /// Writes all of `data`, or throws why standard output could not take it (status 1).
    static func write(_ data: Data) throws(CommandFailure) {
        endsOnClosedPipe
        guard let failure = data.write(toDescriptor: STDOUT_FILENO) else { return }
        let reason = String(cString: strerror(failure))
        throw CommandFailure(message: "cannot write to standard output: \(reason)", status: .failed)
    }
}
