/// One stack trace as Sentry's default grouping reads it: each frame counts by its module (else its file's base
/// name, lower-cased), its function and, where the platform's source lines are trusted (``GroupingPlatform``), its
/// `context_line` with whitespace collapsed when it is at most 120 characters; never by its line number. A frame
/// identical to the one just before it (recursion) counts once. The in-app frames make the app hash and every frame
/// the system hash, as Sentry's two grouping variants do.
struct StackTraceGrouping {
    private(set) var app = GroupingHash()
    private(set) var appFrames = 0
    private(set) var system = GroupingHash()
    private(set) var systemFrames = 0
    /// The identity of the frame before, to find recursion.
    private var previousFrame: UInt64?

    /// Reads the stack trace object at the cursor, `{"frames": […]}`; `false` when it is malformed.
    mutating func read(_ scanner: inout JSONScanner, platform: GroupingPlatform) -> Bool {
        guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
        return scanner.object { key, scanner in
            guard JSONScanner.isKey(key, "frames"), scanner.nextValueKind() == .array else {
                return scanner.skipValue()
            }
            return scanner.array { scanner in
                guard scanner.nextValueKind() == .object else { return scanner.skipValue() }
                var frame = Frame()
                guard frame.read(&scanner) else { return false }
                add(frame, platform: frame.platform ?? platform)
                return true
            }
        }
    }

    private mutating func add(_ frame: Frame, platform: GroupingPlatform) {
        defer { previousFrame = frame.identity }
        guard frame.identity != previousFrame, let contribution = frame.contribution(platform: platform) else {
            return
        }
        system.add(contribution)
        systemFrames += 1
        guard frame.isInApp else { return }
        app.add(contribution)
        appFrames += 1
    }
}

/// The fields of one frame that grouping reads, each hashed as it is scanned.
private struct Frame {
    var module: GroupingHash?
    /// The base name, lower-cased; `nil` also for the placeholders of frames without a file.
    var fileName: GroupingHash?
    var function: GroupingHash?
    var isPlaceholderFunction = false
    var contextLine: GroupingHash?
    var isLongContextLine = false
    /// An `abs_path` that is a URL, whose file name says nothing stable.
    var hasURLOrigin = false
    var isInApp = false
    var platform: GroupingPlatform?
    /// What tells a frame from the one before it for recursion, as Sentry compares them: its paths, package,
    /// module, function and position as sent. A sum of each field's hash, so that the order they come in does not
    /// matter.
    var identity: UInt64 = 0

    private mutating func addToIdentity(_ field: Field, _ bytes: UnsafeBufferPointer<UInt8>) {
        var hash = GroupingHash()
        hash.add(UInt8(field.rawValue))
        hash.add(bytes)
        identity &+= hash.value
    }

    /// What the frame adds to its stack trace's hash: `nil` when none of its parts counts.
    func contribution(platform: GroupingPlatform) -> GroupingHash? {
        var hash = GroupingHash()
        var counts = false
        func add(_ tag: UInt8, _ part: GroupingHash?) {
            guard let part else { return }
            hash.add(tag)
            hash.add(part)
            counts = true
        }
        if let module { add(1, module) } else if !hasURLOrigin { add(2, fileName) }
        if !(platform.isNative && isPlaceholderFunction) { add(3, function) }
        if platform.usesContextLine, !isLongContextLine { add(4, contextLine) }
        return counts ? hash : nil
    }

    mutating func read(_ scanner: inout JSONScanner) -> Bool {
        scanner.object { key, scanner in
            guard let field = Field(key) else { return scanner.skipValue() }
            if field == .inApp {
                guard scanner.nextValueKind() == .boolean else { return scanner.skipValue() }
                isInApp = scanner.boolean() ?? false
                return true
            }
            if field == .lineNumber || field == .columnNumber {
                guard scanner.nextValueKind() == .number, let number = scanner.number() else {
                    return scanner.skipValue()
                }
                withUnsafeBytes(of: number.bitPattern) { addToIdentity(field, $0.bindMemory(to: UInt8.self)) }
                return true
            }
            guard scanner.nextValueKind() == .string else { return scanner.skipValue() }
            return scanner.withStringBytes { read(field, $0) } != nil
        }
    }

    private mutating func read(_ field: Field, _ bytes: UnsafeBufferPointer<UInt8>) {
        switch field {
        case .absolutePath, .package, .module, .fileName, .function: addToIdentity(field, bytes)
        default: break
        }
        switch field {
        case .module: module = GroupingHash(bytes)
        case .fileName:
            guard !JSONScanner.isKey(bytes, "<anonymous>"), !JSONScanner.isKey(bytes, "[native code]") else { return }
            let start = bytes.lastIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }.map { $0 + 1 } ?? 0
            var hash = GroupingHash()
            for byte in bytes[start...] { hash.add(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte) }
            hash.end()
            fileName = hash
        case .absolutePath:
            hasURLOrigin = ["http:", "https:", "applewebdata:", "blob:"].contains { (prefix: StaticString) in
                bytes.count >= prefix.utf8CodeUnitCount
                    && JSONScanner.isKey(UnsafeBufferPointer(rebasing: bytes[..<prefix.utf8CodeUnitCount]), prefix)
            }
        case .function:
            function = GroupingHash(bytes)
            isPlaceholderFunction = JSONScanner.isKey(bytes, "<redacted>") || JSONScanner.isKey(bytes, "<unknown>")
        case .contextLine: readContextLine(bytes)
        case .platform: platform = GroupingPlatform(bytes)
        case .package, .lineNumber, .columnNumber, .inApp: break
        }
    }

    /// The line with every run of whitespace made one space and none at its ends, as Sentry's `" ".join(line.split())`;
    /// a line longer than 120 characters as sent does not count.
    private mutating func readContextLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        isLongContextLine = bytes.lazy.filter { $0 & 0xC0 != 0x80 }.count > 120
        var hash = GroupingHash()
        var isEmpty = true
        var isAfterSpace = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                isAfterSpace = !isEmpty
            default:
                if isAfterSpace { hash.add(UInt8(ascii: " ")) }
                isAfterSpace = false
                isEmpty = false
                hash.add(byte)
            }
        }
        hash.end()
        contextLine = isEmpty ? nil : hash
    }

    /// The frame members grouping reads.
    private enum Field: Int {
        case absolutePath, package, module, fileName, function, lineNumber, columnNumber
        case contextLine, inApp, platform

        init?(_ key: UnsafeBufferPointer<UInt8>) {
            guard let field = Self.names.first(where: { JSONScanner.isKey(key, $0.0) })?.1 else { return nil }
            self = field
        }

        private static let names: [(StaticString, Field)] = [
            ("abs_path", .absolutePath), ("package", .package), ("module", .module), ("filename", .fileName),
            ("function", .function), ("lineno", .lineNumber), ("colno", .columnNumber),
            ("context_line", .contextLine), ("in_app", .inApp), ("platform", .platform),
        ]
    }
}
