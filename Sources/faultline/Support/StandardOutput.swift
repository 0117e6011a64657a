import ArgumentParser
import Foundation

/// Standard output, written so that a failure is a message and an exit status, not a crash: `FileHandle`'s `write`
/// traps when the write fails (a full disk, `/dev/full`). A closed pipe (`| head`) still ends the process with
/// SIGPIPE (status 141), quietly, as it ends any filter.
enum StandardOutput {
    /// Writes all of `data`, or says on standard error why standard output could not take it and exits with
    /// status 1.
    static func write(_ data: Data) throws {
        guard let failure = data.write(toDescriptor: STDOUT_FILENO) else { return }
        let reason = String(cString: strerror(failure))
        FileHandle.standardError.write(Data("faultline: cannot write to standard output: \(reason)\n".utf8))
        throw ExitCode(1)
    }
}
