/// One exception of an event's chain as Sentry's grouping reads it: its type (unless its mechanism says it is
/// synthetic, a type made up by the SDK), its `NSError` domain and code, its stack trace, and its value, which
/// counts only when no frame of the trace does.
struct ExceptionGrouping {
    var type: String?
    var value: String?
    var isSynthetic = false
    /// `domain code` of `mechanism.meta.ns_error`.
    var nsError: String?
    var stackTrace = StackTraceGrouping()

    /// The exceptions of `{"values": […]}`, or of the list alone, in the order sent: oldest first, the one raised
    /// last at the end.
    static func chain(_ scanner: inout JSONScanner, platform: GroupingPlatform) -> [ExceptionGrouping] {
        var chain: [ExceptionGrouping] = []
        func readValues(_ scanner: inout JSONScanner) -> Bool {
            guard scanner.nextValueKind() == .array else { return scanner.skipValue() }
            return scanner.array { scanner in
                guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                var exception = ExceptionGrouping()
                guard exception.read(&scanner, platform: platform) else { return false }
                chain.append(exception)
                return true
            }
        }
        switch scanner.nextValueKind() {
        case .object:
            _ = scanner.object { key, scanner in
                JSONScanner.isKey(key, "values") ? readValues(&scanner) : scanner.skipValue()
            }
        case .array: _ = readValues(&scanner)
        default: break
        }
        return chain
    }

    private mutating func read(_ scanner: inout JSONScanner, platform: GroupingPlatform) -> Bool {
        scanner.object { key, scanner in
            if JSONScanner.isKey(key, "type") { return Self.readString(&scanner, into: &type) }
            if JSONScanner.isKey(key, "value") { return Self.readString(&scanner, into: &value) }
            if JSONScanner.isKey(key, "stacktrace") { return stackTrace.read(&scanner, platform: platform) }
            if JSONScanner.isKey(key, "mechanism") { return readMechanism(&scanner) }
            return scanner.skipValue()
        }
    }

    /// `{"synthetic": true, "meta": {"ns_error": {"domain": …, "code": …}}}`.
    private mutating func readMechanism(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
        return scanner.object { key, scanner in
            if JSONScanner.isKey(key, "synthetic") {
                guard scanner.nextValueKind() == .boolean else { return scanner.skipValue() }
                isSynthetic = scanner.boolean() ?? false
                return true
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
                nsError = "\(domain ?? "") \(code ?? "")"
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
