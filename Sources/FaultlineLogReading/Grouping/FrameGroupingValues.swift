/// What one frame adds to its stack trace's grouping, as Sentry's `frame` component reads it, normalized by platform:
///
/// - its module; for Java without the parts code generation makes up (`$$EnhancerBySpringCGLIB$$1ebd…`,
///   `$HibernateProxy$oRWx…`, `GeneratedSerializationConstructorAccessor12`, `$$_javassist_74`, Clojure's `$fn__123`
///   become `<auto>`), a lambda's not at all; for JavaScript not when it only repeats the path;
/// - else its file's base name, lower-cased, unless the frame's path is a URL (`http:`, `blob:`; `file:` too except
///   for JavaScript) or the name a placeholder (`<anonymous>`, `[native code]`);
/// - its function: native names trimmed (``NativeFunctionName``) and without `<redacted>`/`<unknown>`; Ruby's
///   blocks as `block` and erb templates without their generated suffix; JavaScript's without their receiver
///   (`Foo.testMethod` is `testMethod`), none when anonymous, nor when a source map resolved it and the context line
///   counts; Java's and PHP's anonymous functions not at all;
/// - where the platform's source lines are trusted (``GroupingPlatform/usesContextLine``), its context line with
///   whitespace collapsed, when it is at most 120 characters.
///
/// A JavaScript frame of low quality (`eval`, a path of `native code`, `eval code`, `<anonymous>`) counts not at all.
struct FrameGroupingValues {
    enum Component: UInt8 {
        case module = 1
        case fileName, function, contextLine

        /// Its name in Sentry's grouping components.
        var name: String {
            switch self {
            case .module: "module"
            case .fileName: "filename"
            case .function: "function"
            case .contextLine: "context-line"
            }
        }
    }

    /// The values that count, in Sentry's order.
    let values: [(Component, String)]

    /// The frame's part of the hash: each value after its component's tag.
    var hash: GroupingHash {
        var hash = GroupingHash()
        for (component, text) in values {
            hash.add(component.rawValue)
            var value = GroupingHash()
            for byte in text.utf8 { value.add(byte) }
            value.end()
            hash.add(value)
        }
        return hash
    }

    var explained: [GroupingExplanation.Value] {
        values.map { GroupingExplanation.Value(path: "frame/" + $0.0.name, value: $0.1) }
    }

    /// What `frame` adds; `nil` when nothing of it counts.
    init?(_ frame: GroupingFrame, platform: GroupingPlatform) {
        let family = platform.family
        if family == .javascript, Self.isLowQualityJavaScript(frame) { return nil }
        var values: [(Component, String)] = []
        if let module = Self.module(frame, platform: platform) {
            values.append((.module, module))
        } else if let fileName = Self.fileName(frame, platform: platform) {
            values.append((.fileName, fileName))
        }
        let contextLine = platform.usesContextLine ? Self.contextLine(frame, family: family) : nil
        if let function = Self.function(frame, platform: platform, contextLineCounts: contextLine != nil) {
            values.append((.function, function))
        }
        if let contextLine { values.append((.contextLine, contextLine)) }
        guard !values.isEmpty else { return nil }
        self.values = values
    }

    private static func module(_ frame: GroupingFrame, platform: GroupingPlatform) -> String? {
        guard let module = frame.module else { return nil }
        switch platform.name {
        case "javascript":
            if module.contains("/"), frame.absolutePath?.hasSuffix(module) == true { return nil }
            return module
        case "java":
            if module.contains("$$Lambda$") { return nil }
            for prefix in ["sun.reflect.GeneratedMethodAccessor", "jdk.internal.reflect.GeneratedMethodAccessor"]
            where module.hasPrefix(prefix) {
                return prefix
            }
            return JavaGeneratedNames.replacingMarkers(in: module)
        default: return module
        }
    }

    private static func fileName(_ frame: GroupingFrame, platform: GroupingPlatform) -> String? {
        guard let fileName = frame.fileName else { return nil }
        let baseName = String(fileName.split(separator: "/").last?.split(separator: "\\").last ?? "").lowercased()
        guard !hasURLOrigin(frame.absolutePath, allowingFiles: platform.family == .javascript) else { return nil }
        guard baseName != "<anonymous>", baseName != "[native code]" else { return nil }
        return platform.name == "java" ? JavaGeneratedNames.replacingJavassist(in: baseName) : baseName
    }

    private static func function(_ frame: GroupingFrame, platform: GroupingPlatform, contextLineCounts: Bool)
        -> String?
    {
        guard var function = frame.functionName(platform: platform), !function.isEmpty else { return nil }
        switch platform.family {
        case .native:
            if function == "<redacted>" || function == "<unknown>" { return nil }
        case .javascript:
            function = String(function.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
            if frame.hasSourceMap, contextLineCounts { return nil }
            let name = String(
                (frame.rawFunction ?? frame.function ?? "").split(separator: ".", omittingEmptySubsequences: false)
                    .last ?? "")
            if name.isEmpty || ["?", "<anonymous function>", "<anonymous>", "Anonymous function"].contains(name)
                || name.hasSuffix("/<")
            {
                return nil
            }
        case .other:
            switch platform.name {
            case "ruby":
                if function.hasPrefix("block ") { return "block" }
                return RubyTemplateName.removingGeneratedSuffix(function)
            case "php":
                if function.hasPrefix("[Anonymous") || function.hasPrefix("class@anonymous\u{0}") { return nil }
            case "java":
                if function.hasPrefix("lambda$") { return nil }
            case "csharp":
                return function.components(separatedBy: " (").first
            default: break
            }
        }
        return function
    }

    /// The line with every run of whitespace made one space and none at its ends, as Sentry's
    /// `" ".join(line.split())`; `nil` when empty, longer than 120 characters as sent, or, for JavaScript, from a
    /// URL in a frame without a function.
    private static func contextLine(_ frame: GroupingFrame, family: GroupingPlatform.Family) -> String? {
        guard let line = frame.contextLine, let collapsed = collapsingWhitespace(line) else { return nil }
        if family == .javascript, frame.function?.isEmpty ?? true,
            hasURLOrigin(frame.absolutePath, allowingFiles: false)
        {
            return nil
        }
        return collapsed
    }

    /// The line with every run of whitespace (as Python's `str.split` sees it) made one space and none at its
    /// ends; `nil` when that leaves nothing or the line is longer than 120 characters. Read byte by byte when the
    /// line is ASCII, as most source is.
    private static func collapsingWhitespace(_ line: String) -> String? {
        var bytesOfLine = line
        return bytesOfLine.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return collapsingWhitespace(unicodeScalarsOf: line) }
            guard bytes.count <= 120 else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { collapsed in
                var count = 0
                var isAfterSpace = false
                for byte in bytes {
                    if isASCIISpace(byte) {
                        isAfterSpace = count > 0
                        continue
                    }
                    if isAfterSpace {
                        collapsed[count] = UInt8(ascii: " ")
                        count += 1
                    }
                    isAfterSpace = false
                    collapsed[count] = byte
                    count += 1
                }
                return count == 0
                    ? nil : String(decoding: UnsafeBufferPointer(rebasing: collapsed[..<count]), as: UTF8.self)
            }
        }
    }

    private static func collapsingWhitespace(unicodeScalarsOf line: String) -> String? {
        guard line.unicodeScalars.count <= 120 else { return nil }
        let words = line.unicodeScalars.split {
            $0.isASCII ? isASCIISpace(UInt8($0.value)) : $0.properties.isWhitespace
        }
        return words.isEmpty ? nil : words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }

    /// Python's whitespace among ASCII: space, tab to carriage return, and the separators 0x1C to 0x1F.
    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) || (0x1C...0x1F).contains(byte)
    }

    /// `eval`, or a path that is no file: what browsers put in for code they do not locate.
    private static func isLowQualityJavaScript(_ frame: GroupingFrame) -> Bool {
        let name = (frame.rawFunction ?? frame.function).flatMap { $0.split(separator: ".").last }
        if name == "eval" { return true }
        return ["[native code]", "native code", "eval code", "<anonymous>"].contains(frame.absolutePath ?? "")
    }

    /// A path that is a URL, whose file name says nothing stable.
    private static func hasURLOrigin(_ path: String?, allowingFiles: Bool) -> Bool {
        guard let path else { return false }
        if ["http:", "https:", "applewebdata:", "blob:"].contains(where: path.hasPrefix) { return true }
        return path.hasPrefix("file:") && !allowingFiles
    }
}
