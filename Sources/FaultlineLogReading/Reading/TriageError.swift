/// Why the logs could not be read, said so that the next command is obvious.
package enum TriageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The log directory does not exist.
    case missingDirectory(String)
    /// What was given as the log directory is a file.
    case notADirectory(String)
    /// A file named with `--file` does not exist, or is a directory.
    case missingFile(String)
    case directoryAsFile(String)

    package var description: String {
        switch self {
        case .missingDirectory(let path):
            "No log directory at \(path). Pass the directory the app's Reporter writes to with --log-dir (its "
                + "Options.logDirectory), or name log files directly."
        case .notADirectory(let path):
            "\(path) is a file, not a log directory: read it with --file \(path)."
        case .missingFile(let path):
            "No file at \(path)."
        case .directoryAsFile(let path):
            "\(path) is a directory: read a log directory with --log-dir \(path)."
        }
    }
}
