import Crypto
import FaultlineRecords
import FaultlineReporting
import Foundation

/// A text as the rules of a PII config redact it, one after another: its parts, those a rule has redacted and those
/// the next rules still read.
struct PIIRedacting {
    /// A part of the text.
    private enum Part {
        case text(String)
        case redacted(String)
    }

    private var parts: [Part]
    private var isChanged = false

    init(_ text: String) { parts = [.text(text)] }

    /// The redacted text; `nil` when no rule changed it.
    var result: String? { isChanged ? text : nil }

    /// The text as the rules so far have left it.
    private var text: String {
        parts.map { part in
            switch part {
            case .text(let text), .redacted(let text): text
            }
        }.joined()
    }

    /// What names say of the values they name, as serve's own scrubbing reads them, for `password` rules.
    static let names = SensitiveNames(rules: ScrubRules())

    /// The scanner of `password` rules inside a text: credentials after `Bearer`, and sensitive pairs.
    private static let passwordScanner = ValueScanner(
        rules: ScrubRules(), patterns: [.authorizationCredential, .sensitivePair])

    /// Applies `rule` to the text, the value of the member or pair `key`; `false` when the rule removes the value
    /// whole, which then becomes `null`.
    mutating func apply(_ rule: PIIRule, key: String?) -> Bool {
        switch rule.matcher {
        case .anything:
            // Each line, as Relay's `.*` takes it.
            guard rule.redaction != .remove else { return false }
            redactParts(rule.redaction, Self.lines)
            return true
        case .redactPair(let pattern):
            if let key, pattern.isFound(in: key) { return redactWhole(rule.redaction) }
            // Relay matches the key's pattern against the value too, which may be an object written as text.
            if let text = Self.unredacted(parts), pattern.isFound(in: text) {
                parts = [.redacted(Self.redacted(text, rule.redaction))]
                isChanged = true
            }
            return true
        case .password:
            if let key {
                let naming = Self.names.naming(of: key)
                let filters = Array(text.utf8).withUnsafeBufferPointer {
                    ValueScanner.filters(naming, 0..<$0.count, in: $0)
                }
                if filters { return redactWhole(rule.redaction) }
            }
            redactParts(rule.redaction) { text in Self.byteRanges(Self.passwordScanner, in: text) }
            return true
        case .values(let scanner):
            redactParts(rule.redaction) { text in Self.byteRanges(scanner, in: text) }
            return true
        case .pattern(let pattern, let groups):
            redactParts(rule.redaction) { text in pattern.ranges(of: groups, in: text) }
            return true
        }
    }

    /// Redacts the whole text; `false` when the redaction removes it.
    private mutating func redactWhole(_ redaction: PIIRedaction) -> Bool {
        guard redaction != .remove else { return false }
        parts = [.redacted(Self.redacted(text, redaction))]
        isChanged = true
        return true
    }

    /// Redacts the ranges `find` gives in each part no rule has redacted yet.
    private mutating func redactParts(_ redaction: PIIRedaction, _ find: (String) -> [Range<String.Index>]) {
        var result: [Part] = []
        for part in parts {
            guard case .text(let text) = part else {
                result.append(part)
                continue
            }
            // Sliced by Unicode scalars: a match may end inside a character (`\r\n`, a combining mark).
            let scalars = text.unicodeScalars
            var copied = scalars.startIndex
            var lastEnd: String.Index?
            // An empty match right where the last one ended is none, as in Relay's regular expressions.
            for range in find(text) where range.lowerBound >= copied && !(range.isEmpty && range.lowerBound == lastEnd)
            {
                lastEnd = range.upperBound
                if copied < range.lowerBound { result.append(.text(String(scalars[copied..<range.lowerBound]))) }
                result.append(.redacted(Self.redacted(String(scalars[range]), redaction)))
                copied = range.upperBound
                isChanged = true
            }
            if copied < scalars.endIndex { result.append(.text(String(scalars[copied...]))) }
        }
        parts = result
    }

    /// The ranges of the lines of `text`, between line feeds, empty ones too: what Relay's `.*` matches.
    private static func lines(in text: String) -> [Range<String.Index>] {
        let scalars = text.unicodeScalars
        var lines: [Range<String.Index>] = []
        var start = scalars.startIndex
        while true {
            let end = scalars[start...].firstIndex(of: "\n") ?? scalars.endIndex
            lines.append(start..<end)
            guard end < scalars.endIndex else { return lines }
            start = scalars.index(after: end)
        }
    }

    /// The text of `parts` when no rule has redacted any of it.
    private static func unredacted(_ parts: [Part]) -> String? {
        guard parts.count == 1, case .text(let text) = parts[0] else { return nil }
        return text
    }

    /// The ranges of the secrets `scanner` finds in `text`.
    private static func byteRanges(_ scanner: ValueScanner, in text: String) -> [Range<String.Index>] {
        let utf8 = Array(text.utf8)
        return utf8.withUnsafeBufferPointer { scanner.secrets(in: $0) }.compactMap { range in
            let view = text.utf8
            let lower = view.index(view.startIndex, offsetBy: range.lowerBound)
            let upper = view.index(view.startIndex, offsetBy: range.upperBound)
            guard let start = lower.samePosition(in: text.unicodeScalars),
                let end = upper.samePosition(in: text.unicodeScalars)
            else { return nil }
            return start..<end
        }
    }

    /// What `redaction` writes instead of `text`.
    static func redacted(_ text: String, _ redaction: PIIRedaction) -> String {
        switch redaction {
        case .remove: ""
        case .replace(let replacement): replacement
        case .mask: String(repeating: "*", count: text.unicodeScalars.count)
        case .hash:
            HMAC<Insecure.SHA1>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data()))
                .map { String(format: "%02X", $0) }.joined()
        }
    }
}
