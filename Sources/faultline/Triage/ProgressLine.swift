import FaultlineTriage
import Foundation

/// How far a long scan has read, on one line of standard error that rewrites itself: shown only on a terminal, only
/// once the scan has run for half a second, and erased when it ends, so that short scans and pipes never see it.
struct ProgressLine {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    private var isShown = false

    /// Shows `progress` if the scan has run long enough.
    mutating func show(_ progress: LogScan.Progress) {
        guard isTerminal, ContinuousClock.now - start > .milliseconds(500), progress.totalBytes > 0 else { return }
        let percent = progress.bytesRead * 100 / progress.totalBytes
        let text = "reading logs: \(Self.megabytes(progress.bytesRead)) of \(Self.megabytes(progress.totalBytes)) MB"
        FileHandle.standardError.write(Data("\r\(text) (\(percent)%)\u{1B}[K".utf8))
        isShown = true
    }

    /// Erases the line, if it was shown.
    func erase() {
        if isShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(bytes / 1_000_000)
    }
}
