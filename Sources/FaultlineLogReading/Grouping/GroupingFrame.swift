import FaultlineRecords

/// One frame of a stack trace as Sentry's grouping reads it: the members it reads, as sent.
struct GroupingFrame {
    var absolutePath: String?
    var package: String?
    var module: String?
    var fileName: String?
    var function: String?
    /// The function as symbolicated before any trimming, when the SDK sent it: `function` is then used as sent.
    var rawFunction: String?
    var contextLine: String?
    /// Whether a source map resolved the frame (`data.sourcemap`): JavaScript function names are then unreliable.
    var hasSourceMap = false
    /// Whether the SDK said the frame is the app's; the stack trace rules may say otherwise (``FrameRuleState``).
    var inApp = false
    var platform: GroupingPlatform?
    /// What tells a frame from the one before it for recursion, as Sentry compares them: its paths, package,
    /// module, function and position as sent. A sum of each field's hash, so that the order they come in does not
    /// matter.
    private(set) var identity: UInt64 = 0

    /// The function as Sentry names it: trimmed to the name for native platforms unless the SDK sent the raw
    /// function (``NativeFunctionName``).
    func functionName(platform: GroupingPlatform) -> String? {
        guard let function, !function.isEmpty else { return rawFunction }
        guard rawFunction == nil, platform.family == .native else { return function }
        return NativeFunctionName.trimmed(function, platform: platform)
    }

    /// Whether the member named `key` is one grouping reads of a frame.
    static func reads(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        Field(key) != nil
    }

    /// Reads the frame object at the cursor; `false` when it is malformed.
    mutating func read(_ scanner: inout JSONScanner) -> Bool {
        scanner.object { key, scanner in
            guard let field = Field(key) else { return scanner.skipValue() }
            switch field {
            case .inApp:
                guard scanner.nextValueKind() == .boolean else { return scanner.skipValue() }
                inApp = scanner.boolean() ?? false
                return true
            case .lineNumber, .columnNumber:
                guard scanner.nextValueKind() == .number, let number = scanner.number() else {
                    return scanner.skipValue()
                }
                withUnsafeBytes(of: number.bitPattern) { addToIdentity(field, $0.bindMemory(to: UInt8.self)) }
                return true
            case .data:
                guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                return scanner.object { key, scanner in
                    if JSONScanner.isKey(key, "sourcemap") { hasSourceMap = scanner.nextValueKind() != .null }
                    return scanner.skipValue()
                }
            default:
                guard scanner.nextValueKind() == .string else { return scanner.skipValue() }
                return scanner.withStringBytes { read(field, $0) } != nil
            }
        }
    }

    private mutating func read(_ field: Field, _ bytes: UnsafeBufferPointer<UInt8>) {
        switch field {
        case .absolutePath, .package, .module, .fileName, .function: addToIdentity(field, bytes)
        default: break
        }
        let text = String(decoding: bytes, as: UTF8.self)
        switch field {
        case .absolutePath: absolutePath = text
        case .package: package = text
        case .module: module = text
        case .fileName: fileName = text
        case .function: function = text
        case .rawFunction: rawFunction = text
        case .contextLine: contextLine = text
        case .platform: platform = GroupingPlatform(bytes)
        case .lineNumber, .columnNumber, .inApp, .data: break
        }
    }

    private mutating func addToIdentity(_ field: Field, _ bytes: UnsafeBufferPointer<UInt8>) {
        var hash = GroupingHash()
        hash.add(UInt8(field.rawValue))
        hash.add(bytes)
        identity &+= hash.value
    }

    /// The frame members grouping reads.
    private enum Field: Int {
        case absolutePath, package, module, fileName, function, lineNumber, columnNumber
        case contextLine, inApp, platform, rawFunction, data

        init?(_ key: UnsafeBufferPointer<UInt8>) {
            guard let field = Self.names.first(where: { JSONScanner.isKey(key, $0.0) })?.1 else { return nil }
            self = field
        }

        private static let names: [(StaticString, Field)] = [
            ("abs_path", .absolutePath), ("package", .package), ("module", .module), ("filename", .fileName),
            ("function", .function), ("lineno", .lineNumber), ("colno", .columnNumber),
            ("context_line", .contextLine), ("in_app", .inApp), ("platform", .platform),
            ("raw_function", .rawFunction), ("data", .data),
        ]
    }
}
