/// A kind of secret that ``Scrubber`` finds by its shape inside free text (an exception's value, a server message, a
/// body preview, a breadcrumb's message, a log message), where no key names it. Only the secret is replaced with
/// `[Filtered]`, so that `invalid token eyJhbGciOi…` becomes `invalid token [Filtered]`.
///
/// Like Sentry Relay's pattern rules (`@bearer`, `@password`, `@creditcard`, `@pemkey`, `@urlauth`), applied on the
/// device: the local log and the outbox are written before any server sees an event. Each pattern is found by a
/// scan of the text's UTF-8 bytes for the bytes a secret starts with, then checked at those places only; no regular
/// expression runs.
public enum ValuePattern: Hashable, Sendable {
    /// A JSON Web Token: `eyJ…` and one or two more base64url segments after dots whose payload starts `ey` (a
    /// token cut short by a body preview is still found). The whole token is filtered.
    case jsonWebToken
    /// The credential after the word `Bearer`, `Token` or `Basic` (in any case) and a space: a bearer or token
    /// credential of 8 characters with a digit, or of 16; a Basic one when it decodes to `user:password`.
    case authorizationCredential
    /// The value in `key=value`, `"key": "value"` (JSON, Python, YAML) or `Key: value` when the key contains one
    /// of ``ScrubRules/sensitiveTerms`` or ``ScrubRules/isSensitiveName`` says it is sensitive, as in
    /// `api_key=…`, `"client_secret": "…"` or `X-Auth-Token: …`. A key that names a password or secret
    /// (`password`, `passwd`, `pwd`, `secret`, or the custom rule) has every value filtered. After any other
    /// sensitive key a small number or a plain word is kept, so that `token_count=5 exceeded` and `auth=ok` read as
    /// written: up to five digits (with a sign or a decimal part), or up to 16 letters, `-` and `_` in one case or
    /// capitalised. An unquoted value after `Key: ` counts only when it looks like a credential (8 characters with a
    /// digit, or 16), so `token: expired` stays readable.
    case sensitivePair
    /// The password in a URL's user info: `postgres://app:[Filtered]@db.internal/app`.
    case urlPassword
    /// The body of a PEM private key, between `-----BEGIN … PRIVATE KEY-----` and its `-----END` line (to the end of
    /// the text when a preview cut it off).
    case privateKey
    /// A payment card number: 13 to 19 digits, alone or grouped by spaces or dashes, starting with 2 to 6 as the
    /// issuers' ranges do (Visa, Mastercard, American Express, Discover, JCB, UnionPay), that passes the Luhn
    /// check. Longer digit runs, ids inside words and millisecond timestamps are left alone.
    case cardNumber
    /// A US social security number, `123-45-6789`, as Relay's `@usssn` finds it.
    case socialSecurityNumber
    /// An IBAN: a country's code, two check digits and 11 to 29 letters and digits (`DE89370400440532013000`), as
    /// Relay's `@iban` finds it, or in groups of four when its check digits are right (`DE89 3704 0044 0532 0130 00`).
    case iban
    /// The user's name in a home directory's path: `/Users/[Filtered]/Library/…`, `/home/[Filtered]/app/…`,
    /// `C:\Users\[Filtered]\…`, as Relay's `@userpath` finds it, but not in a URL's path (`/api/users/42`).
    case userPath
    /// An email address, as Relay's `@email` finds it. Not a default: ``Scrubber`` looks for it in an event's message
    /// only, as Relay does; add it to look in every text.
    case email
    /// An IPv4 or IPv6 address, as Relay's `@ip` finds it. Not a default: ``ScrubRules/scrubIpAddresses`` adds it.
    case ipAddress
    /// A token that starts with `prefix` at a word boundary, such as `sk_live_` or `ghp_`: the letters, digits,
    /// `_` and `-` after the prefix are filtered, the prefix is kept.
    case prefixedToken(String)

    /// The patterns ``ScrubRules`` uses by default: every pattern but ``email``, ``ipAddress`` and
    /// ``prefixedToken(_:)``, which needs a prefix.
    public static let defaults: Set<ValuePattern> = [
        .jsonWebToken, .authorizationCredential, .sensitivePair, .urlPassword, .privateKey, .cardNumber,
        .socialSecurityNumber, .iban, .userPath,
    ]
}
