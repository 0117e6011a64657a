/// Why triage cannot start. Everything wrong inside the files is counted instead, never fatal.
public enum TriageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The log directory does not exist.
    case missingDirectory(String)

    public var description: String {
        switch self {
        case .missingDirectory(let path):
            "No log directory at \(path). Pass the directory the app's Reporter writes to with --log-dir (its "
                + "Options.logDirectory), or name log files directly."
        }
    }
}
