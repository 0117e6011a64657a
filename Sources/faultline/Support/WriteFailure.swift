import Foundation

/// Why a file could not be written, in one line a person can act on, instead of Foundation's error codes
/// (`NSCocoaErrorDomain error 512`).
enum WriteFailure {
    /// What kept `path` from being made: a folder in its place, a missing parent folder, or permissions; else the
    /// reason `error` gives.
    static func reason(for path: String, _ error: any Error) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            return "there is no directory \(folder)"
        }
        guard isDirectory.boolValue else { return "\(folder) is a file, not a directory" }
        guard FileManager.default.isWritableFile(atPath: folder) else { return "permission denied in \(folder)" }
        return (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}

extension WriteFailure {
    /// Creates the log directory `url` if it does not exist, or throws one line that says why it cannot (status 2): a
    /// file in its place, a missing parent or permissions.
    static func createLogDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw failure("\(url.path) is a file, not a directory: pass a directory with --log-dir")
            }
            guard FileManager.default.isWritableFile(atPath: url.path) else {
                throw failure("cannot write in \(url.path): permission denied")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw failure("cannot create \(url.path): \(reason(for: url.path, error))")
        }
    }

    private static func failure(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: .unavailable)
    }
}
