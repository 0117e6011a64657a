import Foundation

/// A file named with `-o`, written as `curl -o` and `sort -o` write theirs: `-` is standard output; a regular file, or
/// a new path, is replaced atomically (a temporary file beside it, renamed over it), so that a reader never sees half
/// of it; a symbolic link is written through, to its target; anything else (a FIFO, a device) is opened and written,
/// never replaced.
enum OutputFile {
    /// Why the file could not be written, in the system's words.
    struct Failure: LocalizedError {
        let code: Int32

        var failureReason: String? { String(cString: strerror(code)).lowercased() }
        var errorDescription: String? { failureReason }
    }

    /// Writes `data` to `path`.
    static func write(_ data: Data, to path: String) throws {
        if path == "-" { return try StandardOutput.write(data) }
        var status = stat()
        guard stat(path, &status) == 0 else {
            // Nothing there, or a symbolic link to nothing: opening it creates its target.
            return isSymbolicLink(path) ? try writeInPlace(data, to: path) : try replace(path, with: data)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: try replace(resolved(path) ?? path, with: data)
        default: try writeInPlace(data, to: path)
        }
    }

    /// Writes `data` to a temporary file beside `path`, then renames it over `path`.
    private static func replace(_ path: String, with data: Data) throws {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Opens `path` (creating it if it is missing) and writes `data` into it.
    private static func writeInPlace(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        defer { close(descriptor) }
        if let failure = data.write(toDescriptor: descriptor) { throw Failure(code: failure) }
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// The path `path` resolves to, symbolic links followed.
    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
