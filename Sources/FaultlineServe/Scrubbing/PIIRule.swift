import FaultlineRecords
import FaultlineReporting
import Foundation

/// A rule of a Relay PII config, resolved: what it finds in a value, and what it writes there instead.
struct PIIRule: Sendable {
    /// What a rule finds.
    enum Matcher: Sendable {
        /// The whole value (`@anything`).
        case anything
        /// The matches of a regular expression, or of its groups `groups` (Relay's `replaceGroups`; 0, the whole
        /// match, by default).
        case pattern(PIIPattern, groups: Set<Int>)
        /// The whole value when the member's key matches `key`, or when the value contains a match of it (Relay's
        /// `redact_pair`: its `keyPattern` is matched against both).
        case redactPair(key: PIIPattern)
        /// The value of a password, secret, token or key by the name of its member or pair, as serve's own
        /// scrubbing reads names; in a text, the credential after `Bearer` and the values of sensitive pairs.
        case password
        /// What Faultline's scanner finds of these patterns: the builtins `@ip`, `@email`, `@creditcard`, `@iban`,
        /// `@usssn`, `@pemkey`, `@urlauth`, `@userpath` and the rule type `bearer`.
        case values(ValueScanner)
    }

    /// The rule's id, as the config names it (`@ip:hash`, `my_rule`).
    let id: String
    let matcher: Matcher
    let redaction: PIIRedaction
}

/// What a rule writes instead of what it finds.
enum PIIRedaction: Hashable, Sendable {
    /// Nothing: a whole value becomes `null`, a part of a text is taken out.
    case remove
    /// This text.
    case replace(String)
    /// As many `*` as the part has characters.
    case mask
    /// The part's HMAC-SHA1 with an empty key, in upper-case hexadecimal, as Relay writes it: the same value gives
    /// the same text, so that counts of distinct values survive.
    case hash
}

/// A regular expression of a PII config, in Relay's syntax (Rust's `regex`), read by ICU's engine: the syntax they
/// share (classes, `\b`, `(?i)`, `(?x)`, POSIX classes, groups); Rust's `(?P<name>…)` is read as `(?<name>…)`.
struct PIIPattern: Sendable {
    let expression: NSRegularExpression

    /// The pattern `text` says.
    ///
    /// - Throws: ``PIIConfig/Invalid`` naming the rule, when the text is not a regular expression.
    init(_ text: String, rule: String) throws(PIIConfig.Invalid) {
        do {
            expression = try NSRegularExpression(pattern: text.replacingOccurrences(of: "(?P<", with: "(?<"))
        } catch {
            throw PIIConfig.Invalid("the rule `\(rule)` has a pattern that is not a valid regular expression: \(text)")
        }
    }

    /// How many groups the pattern has, besides the whole match.
    var captureCount: Int { expression.numberOfCaptureGroups }

    /// Whether the pattern matches somewhere in `text`.
    func isFound(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The ranges of the groups `groups` of every match in `text`, in order.
    func ranges(of groups: Set<Int>, in text: String) -> [Range<String.Index>] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).flatMap { match in
            groups.sorted().compactMap { group in
                group < match.numberOfRanges ? Range(match.range(at: group), in: text) : nil
            }
        }
    }
}
