import FaultlineRecords

/// One exception of an event's chain as Sentry's grouping reads it: its type (unless its mechanism says it is
/// synthetic, a type made up by the SDK), its `NSError` domain and code, its stack trace, and its value, which
/// counts only when no frame of the trace does.
struct ExceptionGrouping {
    var type: String?
    var value: String?
    var isSynthetic = false
    /// `mechanism.exception_id` and `parent_id`: where it is in an exception group's tree.
    var exceptionID: Double?
    var parentID: Double?
    /// `mechanism.is_exception_group`: it only gathers the exceptions under it.
    var isExceptionGroup = false
    /// `mechanism.meta.ns_error`.
    var nsError: (domain: String, code: String)?
    var stackTrace: StackTraceGrouping

    init(explaining: Bool) {
        stackTrace = StackTraceGrouping(explaining: explaining)
    }

    /// The exceptions of `{"values": […]}`, of the list alone or the one exception alone, in the order sent: oldest
    /// first, the one raised last at the end; `explaining` keeps the text of what counts (``GroupingExplanation``).
    static func chain(_ scanner: inout JSONScanner, platform: GroupingPlatform, explaining: Bool = false)
        -> [ExceptionGrouping]
    {
        var chain: [ExceptionGrouping] = []
        func readValues(_ scanner: inout JSONScanner) -> Bool {
            guard scanner.nextValueKind() == .array else { return scanner.skipValue() }
            return scanner.array { scanner in
                guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                var exception = ExceptionGrouping(explaining: explaining)
                guard exception.read(&scanner, platform: platform) else { return false }
                chain.append(exception)
                return true
            }
        }
        switch scanner.nextValueKind() {
        case .object:
            var alone = ExceptionGrouping(explaining: explaining)
            var hasValues = false
            _ = scanner.object { key, scanner in
                if JSONScanner.isKey(key, "values") {
                    hasValues = true
                    return readValues(&scanner)
                }
                return alone.read(key, &scanner, platform: platform)
            }
            if !hasValues, alone.type != nil || alone.value != nil { chain.append(alone) }
        case .array: _ = readValues(&scanner)
        default: break
        }
        return chain
    }

    private mutating func read(_ scanner: inout JSONScanner, platform: GroupingPlatform) -> Bool {
        scanner.object { key, scanner in read(key, &scanner, platform: platform) }
    }

    private mutating func read(
        _ key: UnsafeBufferPointer<UInt8>, _ scanner: inout JSONScanner, platform: GroupingPlatform
    ) -> Bool {
        if JSONScanner.isKey(key, "type") { return Self.readString(&scanner, into: &type) }
        if JSONScanner.isKey(key, "value") { return Self.readString(&scanner, into: &value) }
        if JSONScanner.isKey(key, "stacktrace") { return stackTrace.read(&scanner, platform: platform) }
        if JSONScanner.isKey(key, "mechanism") { return readMechanism(&scanner) }
        return scanner.skipValue()
    }

    /// `{"synthetic": true, "meta": {"ns_error": {"domain": …, "code": …}}}`.
    private mutating func readMechanism(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
        return scanner.object { key, scanner in
            let isSyntheticKey = JSONScanner.isKey(key, "synthetic")
            if isSyntheticKey || JSONScanner.isKey(key, "is_exception_group") {
                guard scanner.nextValueKind() == .boolean else { return scanner.skipValue() }
                let flag = scanner.boolean() ?? false
                if isSyntheticKey { isSynthetic = flag } else { isExceptionGroup = flag }
                return true
            }
            let isExceptionIDKey = JSONScanner.isKey(key, "exception_id")
            if isExceptionIDKey || JSONScanner.isKey(key, "parent_id") {
                guard scanner.nextValueKind() == .number else { return scanner.skipValue() }
                let number = scanner.number()
                if isExceptionIDKey { exceptionID = number } else { parentID = number }
                return number != nil
            }
            guard JSONScanner.isKey(key, "meta"), scanner.nextValueKind() == .object else { return scanner.skipValue() }
            return scanner.object { key, scanner in
                guard JSONScanner.isKey(key, "ns_error"), scanner.nextValueKind() == .object else {
                    return scanner.skipValue()
                }
                var domain: String?
                var code: String?
                let isRead = scanner.object { key, scanner in
                    if JSONScanner.isKey(key, "domain") { return Self.readString(&scanner, into: &domain) }
                    guard JSONScanner.isKey(key, "code"), let text = scanner.scalarText() else {
                        return scanner.skipValue()
                    }
                    code = text
                    return true
                }
                nsError = (domain ?? "", code ?? "")
                return isRead
            }
        }
    }

    private static func readString(_ scanner: inout JSONScanner, into value: inout String?) -> Bool {
        guard scanner.nextValueKind() == .string else { return scanner.skipValue() }
        value = scanner.string()
        return value != nil
    }
}
