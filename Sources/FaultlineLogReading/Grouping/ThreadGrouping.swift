import FaultlineRecords

/// The stack trace of an event's `threads` that Sentry's grouping reads: the one crashed thread's, else the one
/// current thread's, else the only thread's; none when that does not single one out.
enum ThreadGrouping {
    /// The chosen thread's stack trace, read from `{"values": […]}` at the cursor; `explaining` keeps the text of
    /// what counts.
    static func stackTrace(_ scanner: inout JSONScanner, platform: GroupingPlatform, explaining: Bool = false)
        -> StackTraceGrouping?
    {
        var threads: [(isCrashed: Bool, isCurrent: Bool, stackTrace: StackTraceGrouping?)] = []
        func readThread(_ scanner: inout JSONScanner) -> Bool {
            guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
            var thread: (isCrashed: Bool, isCurrent: Bool, stackTrace: StackTraceGrouping?) = (false, false, nil)
            let isRead = scanner.object { key, scanner in
                if JSONScanner.isKey(key, "stacktrace") {
                    var stackTrace = StackTraceGrouping(explaining: explaining)
                    guard stackTrace.read(&scanner, platform: platform) else { return false }
                    thread.stackTrace = stackTrace
                    return true
                }
                let isCrashed = JSONScanner.isKey(key, "crashed")
                guard isCrashed || JSONScanner.isKey(key, "current"), scanner.nextValueKind() == .boolean else {
                    return scanner.skipValue()
                }
                let flag = scanner.boolean() ?? false
                if isCrashed { thread.isCrashed = flag } else { thread.isCurrent = flag }
                return true
            }
            threads.append(thread)
            return isRead
        }
        guard scanner.nextValueKind() == .object else { return nil }
        _ = scanner.object { key, scanner in
            guard JSONScanner.isKey(key, "values"), scanner.nextValueKind() == .array else {
                return scanner.skipValue()
            }
            return scanner.array(readThread)
        }
        let crashed = threads.filter(\.isCrashed)
        let current = threads.filter(\.isCurrent)
        let chosen =
            crashed.count == 1 ? crashed[0] : current.count == 1 ? current[0] : threads.count == 1 ? threads[0] : nil
        return chosen?.stackTrace
    }
}
