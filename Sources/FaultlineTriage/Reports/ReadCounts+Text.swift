import FaultlineLogReading

extension ReadCounts {
    /// The footer every text report ends with: what was read, and what was skipped and why, when anything was.
    static func text(_ counts: ReadCounts, style: TextStyle) -> String {
        var line =
            "read \(counted(counts.files, "file")), \(counted(counts.lines, "line")), \(counted(counts.events, "event"))"
        if counts.duplicates > 0 { line += " (\(counts.duplicates) read again and counted once)" }
        if counts.ignoredFields > 0 {
            line += "; \(counted(counts.ignoredFields, "field")) of an unexpected type left out"
        }
        let skippedLines = [
            ("not UTF-8", counts.notUTF8), ("not JSON", counts.notJSON), ("not events", counts.notAnEvent),
            ("over 16 MiB", counts.tooLong),
        ].filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        let skippedFiles = [
            ("truncated gzip file", counts.truncatedGzip), ("corrupt gzip file", counts.corruptGzip),
            ("unreadable envelope", counts.unreadableEnvelopes), ("unreadable file", counts.unreadableFiles),
        ].filter { $0.1 > 0 }.map { counted($0.1, $0.0) }
        let skipped = skippedLines + skippedFiles
        guard !skipped.isEmpty else { return style.dim(line) + "\n" }
        return style.dim(line) + "\n" + style.red("skipped: " + skipped.joined(separator: ", ")) + "\n"
    }
}
