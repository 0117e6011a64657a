import FaultlineRecords
import FaultlineReporting
import Foundation

/// Relay's builtin rules, which a PII config names without defining them: `@kind` (with the kind's default
/// redaction) and `@kind:remove`, `:replace`, `:mask`, `:hash` (and `:filter`, `[Filtered]`, for some), and the lists
/// `@common` and `@common:filter`, and `@cookies:filter`.
///
/// Where Faultline's scanner finds a kind (IP addresses, emails, cards, IBANs, SSNs, PEM keys, URL passwords, home
/// paths, passwords by name), the builtin uses it, so a builtin finds what serve's own scrubbing finds: cards by
/// their Luhn digit, not every 16 digits, and in a URL only the password (`postgres://app:[auth]@db`; Relay's
/// `@urlauth` takes `app:` too).
enum PIIBuiltins {
    /// What a builtin is: a rule of a type (as a config's `type` names it), a list of other rules, or another name
    /// for one (`@ip` for `@ip:replace`), which is then the rule's id, as in Relay.
    enum Spec {
        case rule(type: String)
        case list([String])
        case alias(String)
    }

    /// A kind of builtin: the rule type, the redaction `@kind` alone uses, the text `:replace` writes, and whether it
    /// has a `:filter` variant.
    private struct Kind {
        let type: String
        let method: String
        let text: String
        var hasFilter = false
    }

    private static let kinds: [String: Kind] = [
        "anything": Kind(type: "anything", method: "replace", text: "[Filtered]", hasFilter: true),
        "ip": Kind(type: "ip", method: "replace", text: "[ip]"),
        "imei": Kind(type: "imei", method: "replace", text: "[imei]"),
        "mac": Kind(type: "mac", method: "mask", text: "[mac]"),
        "uuid": Kind(type: "uuid", method: "mask", text: "[uuid]"),
        "email": Kind(type: "email", method: "replace", text: "[email]"),
        "iban": Kind(type: "iban", method: "replace", text: "[iban]", hasFilter: true),
        "creditcard": Kind(type: "creditcard", method: "replace", text: "[creditcard]", hasFilter: true),
        "pemkey": Kind(type: "pemkey", method: "replace", text: "[pemkey]", hasFilter: true),
        "urlauth": Kind(type: "url_auth", method: "replace", text: "[auth]"),
        "usssn": Kind(type: "us_ssn", method: "mask", text: "[us-ssn]", hasFilter: true),
        "userpath": Kind(type: "userpath", method: "replace", text: "[user]"),
        "password": Kind(type: "password", method: "remove", text: "[password]", hasFilter: true),
        // Relay writes `Bearer [token]` for the whole match; Faultline's scanner finds the credential after the word.
        "bearer": Kind(type: "bearer", method: "replace", text: "[token]", hasFilter: true),
    ]

    /// The builtin `id`, with its redaction (`nil` for a list's or another name's: its rules have their own); `nil`
    /// when there is none of that name.
    static func rule(_ id: String) -> (Spec, PIIRedaction?)? {
        switch id {
        case "@common":
            return (
                .list([
                    "@iban", "@ip", "@email", "@creditcard", "@pemkey", "@urlauth", "@userpath", "@password", "@usssn",
                    "@bearer",
                ]), nil
            )
        case "@common:filter":
            // As Relay lists it: the legacy data scrubbing's patterns.
            return (
                .list([
                    "@creditcard:filter", "@iban:filter", "@pemkey:filter", "@urlauth:legacy", "@password:filter",
                    "@usssn:filter", "@bearer:filter",
                ]), nil
            )
        case "@urlauth:legacy":
            return (.rule(type: "url_auth"), .replace("[Filtered]"))
        case "@cookies:filter":
            return (.rule(type: "cookies"), .replace("[Filtered]"))
        default:
            break
        }
        guard id.hasPrefix("@") else { return nil }
        let parts = id.dropFirst().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let kind = kinds[String(parts[0])] else { return nil }
        guard parts.count == 2 else { return (.alias("\(id):\(kind.method)"), nil) }
        let method = String(parts[1])
        let redaction: PIIRedaction
        switch method {
        case "remove": redaction = .remove
        case "replace": redaction = .replace(kind.text)
        case "mask": redaction = .mask
        case "hash": redaction = .hash
        case "filter" where kind.hasFilter: redaction = .replace("[Filtered]")
        default: return nil
        }
        return (.rule(type: kind.type), redaction)
    }

    /// An IMEI or IMEISV: 15 or 16 digits, grouped 2-6-6-1 by dashes or not.
    static let imei = pattern(#"\b(\d{2}-?\d{6}-?\d{6}-?\d{1,2})\b"#)
    /// A MAC address: six pairs of hexadecimal digits joined by `:` or `-`.
    static let mac = pattern(#"\b([[:xdigit:]]{2}[:-]){5}[[:xdigit:]]{2}\b"#)
    /// A UUID, with its dashes or without.
    static let uuid = pattern(#"(?i)\b[a-z0-9]{8}-?[a-z0-9]{4}-?[a-z0-9]{4}-?[a-z0-9]{4}-?[a-z0-9]{12}\b"#)

    /// The value in a `name=value` pair, in any text, of a session or CSRF cookie Relay filters (`sessionid=…`,
    /// `XSRF-TOKEN=…`), the names compared case-insensitively: to the next `;`, or the end of the text, as Relay
    /// takes it.
    static let cookies: PIIRule.Matcher = .pattern(
        try! PIIPattern(
            "(?i)(?<![A-Za-z0-9_.-])(?:"
                + ScrubPlace.sensitiveCookies.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(
                    separator: "|") + ")=([^;]*)", rule: "@cookies:filter"),
        groups: [1])

    private static func pattern(_ text: String) -> PIIRule.Matcher {
        // These patterns are fixed and valid.
        .pattern(try! PIIPattern(text, rule: "builtin"), groups: [0])
    }
}
