import FaultlineReporting
import FaultlineServe
import Foundation

/// Secrets scrubbed from the texts of events other SDKs send: over the JSON bytes (`faultline serve`) and in the
/// ingest's one pass, which must write the same bytes, and over free text (the reporter). Scrubbing the bytes keeps
/// every key and the shape of every value but those it filters whole, and filters only spans of the texts it keeps;
/// scrubbing what was scrubbed (a relay after the SDK) keeps all it filtered. It may filter more, since a value
/// filtered once can make the text before a later pair read as a sensitive key (`token [Filtered]":"…`).
///
/// A Relay PII config (`serve --pii-config`) applied to JSON makes JSON with the same keys and the same arrays'
/// lengths, where a value changes only to `null` or to a text; the user, whose scrubbed address may move to its id, is
/// left out of the comparison.
enum ScrubbingFuzzing {
    static let scrubber = Scrubber()

    /// A config with rules of every kind, on selectors of every kind.
    static let piiConfig = try! PIIConfig(
        json: Data(
            #"""
            {"rules": {"digits": {"type": "pattern", "pattern": "([0-9]{3,})", "replaceGroups": [1],
                                  "redaction": {"method": "mask"}},
                       "pairs": {"type": "redact_pair", "keyPattern": "(?i)id$", "redaction": {"method": "hash"}}},
             "applications": {"$string": ["@common", "digits", "@uuid:hash", "@cookies:filter"], "**": ["@password", "pairs"],
                              "$object.* && !$http.**": ["@anything:replace"], "extra.*.* || $frame.vars.*": ["@anything:remove"],
                              "$error.value || $frame.abs_path": ["@userpath:mask"]}}
            """#.utf8))

    static func run(_ data: Data) throws(Disagreement) {
        if let text = String(data: data, encoding: .utf8) {
            let once = scrubber.text(text)
            let twice = scrubber.text(once)
            try Disagreement.check(
                isFiltered(once, into: twice), "a second scrub keeps less than filtering more: \(once) becomes \(twice)"
            )
        }
        guard let tree = try? JSONValue(parsing: data) else { return }
        if let applied = piiConfig.applied(toEvent: data) {
            guard let redacted = try? JSONValue(parsing: applied) else {
                throw Disagreement(description: "applying a PII config makes text that is not JSON")
            }
            try Disagreement.check(
                isRedacted(tree, into: redacted, exceptUser: true), "a PII config changes more than values")
        }
        let scrubbedBytes = scrubber.scrubbedTexts(inJSON: data) ?? data
        guard let reread = try? JSONValue(parsing: scrubbedBytes) else {
            throw Disagreement(description: "scrubbing JSON bytes makes text that is not JSON")
        }
        try Disagreement.check(isFiltered(tree, into: reread), "scrubbing the bytes changes more than secrets")
        let again = scrubber.scrubbedTexts(inJSON: scrubbedBytes).flatMap { try? JSONValue(parsing: $0) } ?? reread
        try Disagreement.check(isFiltered(reread, into: again), "a second scrub of the bytes keeps less")
        guard case .object = tree else { return }
        guard let object = try? scrubber.scrubbedObject(parsing: data, members: []) else {
            throw Disagreement(description: "the one-pass scrubber refuses an object the parser accepts")
        }
        try Disagreement.check(
            object.bytes == scrubbedBytes, "the one-pass scrubber writes other bytes than the scrubber over bytes")
    }

    /// Whether `redacted` is `value` with some of its values replaced by `null` or a text: the same keys, the same
    /// arrays' lengths; at the top, the `user` is not compared when `exceptUser`.
    static func isRedacted(_ value: JSONValue, into redacted: JSONValue, exceptUser: Bool = false) -> Bool {
        switch (value, redacted) {
        case (_, .null), (_, .string): return true
        case (.object(let object), .object(let after)):
            return object.keys == after.keys
                && object.allSatisfy { key, member in
                    exceptUser && key == "user" || after[key].map { isRedacted(member, into: $0) } ?? false
                }
        case (.array(let array), .array(let after)):
            return array.count == after.count && zip(array, after).allSatisfy { isRedacted($0, into: $1) }
        default:
            return value == redacted
        }
    }

    /// Whether `more` is `value` with some of its values replaced whole by `[Filtered]` and spans of its texts
    /// filtered: the same keys, the same arrays' lengths, the same numbers and literals where they are kept.
    static func isFiltered(_ value: JSONValue, into more: JSONValue) -> Bool {
        if more == .string("[Filtered]") { return true }
        switch (value, more) {
        case (.string(let text), .string(let scrubbed)):
            return isFiltered(text, into: scrubbed)
        case (.object(let object), .object(let scrubbed)):
            return object.keys == scrubbed.keys
                && object.allSatisfy { key, member in scrubbed[key].map { isFiltered(member, into: $0) } ?? false }
        case (.array(let array), .array(let scrubbed)):
            return array.count == scrubbed.count && zip(array, scrubbed).allSatisfy { isFiltered($0, into: $1) }
        default:
            return value == more
        }
    }

    /// Whether `more` is `text` with some of its spans, `[Filtered]` or not, replaced by `[Filtered]`: what it keeps of
    /// `text` comes in the same order, and only filtered spans are between. Compared as UTF-8 bytes: a filter may end
    /// inside a grapheme (before a combining mark), which `String` would not find.
    static func isFiltered(_ text: String, into more: String) -> Bool {
        let bytes = Array(text.utf8)
        // Split on the bytes: `String` would not find `[Filtered]` where a combining mark follows it.
        let kept = Array(more.utf8).split(separator: Array("[Filtered]".utf8), omittingEmptySubsequences: false)
            .map(Array.init)
        guard kept.count > 1 else { return text == more }
        guard let first = kept.first, let last = kept.last, bytes.starts(with: first),
            bytes.reversed().starts(with: last.reversed()), bytes.count >= first.count + last.count
        else { return false }
        var rest = bytes[first.count..<(bytes.count - last.count)]
        for piece in kept.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.firstRange(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
