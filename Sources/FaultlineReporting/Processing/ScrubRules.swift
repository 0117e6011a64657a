/// Which names and which values are sensitive: the values of matching headers, query items and JSON body keys, and
/// the secrets that ``valuePatterns`` find inside any text an event carries, are replaced with `[Filtered]` before
/// an event is written or sent. On by default.
public struct ScrubRules: Sendable {
    /// Header names whose values are always filtered, compared case-insensitively: `Authorization`,
    /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-API-Key`, `X-CSRF-Token`, `X-XSRF-Token`, `X-Forwarded-For`,
    /// `X-Real-IP`, `Forwarded` by default (sentry-cocoa's list).
    public var sensitiveHeaders: Set<String>
    /// A header, query item, cookie, JSON member or pair in text whose name holds one of these terms
    /// (case-insensitively) is filtered: Sentry's data-scrubbing terms by default (`auth`, `token`, `secret`,
    /// `password`, `passwd`, `pwd`, `key`, `jwt`, `bearer`, `sso`, `saml`, `csrf`, `xsrf`, `credentials`, `session`,
    /// `sid`, `identity`, `cookie`). Where words start and end decides: `auth`, `key`, `sid` and `sso` count as
    /// words or in known compounds (`x-auth-token`, `apiKey`, `apikey`, `oauth`, `jsessionid`), not in `author`,
    /// `keyboard`, `monkey` or `inside`, and `token` not in `tokenizer`; a term you add counts anywhere in a name.
    /// The value of a password, secret or credentials (`password`, `passwd`, `pwd`, `secret`, `credentials`, and
    /// `otp`, `two_factor`) is always filtered; after another term a small number or a plain word is kept
    /// (`token_count: 5`, `auth: ok`), anything else filtered.
    public var sensitiveTerms: [String]
    /// Your own rule, for names the terms miss (a pattern, a list): a name it accepts has its value always filtered;
    /// `nil` by default.
    public var isSensitiveName: (@Sendable (String) -> Bool)?
    /// The most bytes of a request body kept in an event; 8 KiB by default (Sentry trims `request.data` to ~8 kB).
    public var maxBodySize: Int
    /// The secrets found by their shape inside free text: exception values, server messages, body previews,
    /// decoding messages, breadcrumb messages and data, contexts, `extra`, log messages. ``ValuePattern/defaults``
    /// by default (JWTs, authorization credentials, values of sensitive pairs, URL passwords, PEM private keys, card
    /// numbers); remove one to keep what it matches, add ``ValuePattern/prefixedToken(_:)`` for your own token
    /// formats, or empty the set to turn value scrubbing off. ``ValuePattern/sensitivePair`` reads its keys with
    /// ``sensitiveTerms`` and ``isSensitiveName``.
    public var valuePatterns: Set<ValuePattern>
    /// Field names whose values are always filtered, besides the defaults: Sentry's `sensitiveFields` (a project's
    /// "Additional Sensitive Fields"). A name that holds one, compared case-insensitively, names a secret, in an
    /// event's members, pairs, headers, cookies and query items, and in `key=value` pairs in text. Empty by default.
    public var sensitiveFields: [String]
    /// Field names that are never filtered by their name, nor their text scanned: Sentry's `excludeFields` (a
    /// project's "Safe Fields"), compared case-insensitively with a member's, pair's, header's or cookie's whole name.
    /// What is inside an object of such a name is scrubbed as anywhere else. Empty by default.
    public var excludeFields: [String]
    /// Whether IP addresses are taken out of every text, and the fields that hold one (`user.ip_address`,
    /// `sdk.client_ip`, `request.env.REMOTE_ADDR`) removed: Sentry's `scrubIpAddresses` ("Prevent Storing of IP
    /// Addresses"). `false` by default, as in Sentry.
    public var scrubIpAddresses: Bool
    /// Whether Sentry's default rules apply: the default ``sensitiveTerms``, ``sensitiveHeaders`` and
    /// ``valuePatterns`` (all but ``ValuePattern/prefixedToken(_:)``), the session and CSRF cookies Relay filters,
    /// and emails in messages. Sentry's `scrubDefaults` ("Use Default Scrubbers"); `true` by default. Without them,
    /// only ``sensitiveFields``, ``isSensitiveName``, prefixed tokens, ``scrubText`` and ``scrubIpAddresses`` scrub.
    public var scrubDefaults: Bool
    /// Your own rule for secrets in free text that the patterns miss (a regular expression, a list of known
    /// values): it gets each text after the patterns and returns it with its secrets replaced; `nil` by default. It
    /// runs on every text of every event, so keep it cheap.
    public var scrubText: (@Sendable (String) -> String)?

    /// Creates rules; see the properties for the defaults.
    public init(
        sensitiveHeaders: Set<String> = [
            "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-csrf-token",
            "x-xsrf-token", "x-forwarded-for", "x-real-ip", "forwarded",
        ],
        sensitiveTerms: [String] = [
            "auth", "token", "secret", "password", "passwd", "pwd", "key", "jwt", "bearer", "sso", "saml", "csrf",
            "xsrf", "credentials", "session", "sid", "identity", "cookie",
        ],
        isSensitiveName: (@Sendable (String) -> Bool)? = nil, maxBodySize: Int = 8 << 10,
        valuePatterns: Set<ValuePattern> = ValuePattern.defaults, scrubText: (@Sendable (String) -> String)? = nil,
        sensitiveFields: [String] = [], excludeFields: [String] = [], scrubIpAddresses: Bool = false,
        scrubDefaults: Bool = true
    ) {
        self.sensitiveHeaders = Set(sensitiveHeaders.map { $0.lowercased() })
        self.sensitiveTerms = sensitiveTerms.map { $0.lowercased() }
        self.isSensitiveName = isSensitiveName
        self.maxBodySize = maxBodySize
        self.valuePatterns = valuePatterns
        self.scrubText = scrubText
        self.sensitiveFields = sensitiveFields
        self.excludeFields = excludeFields
        self.scrubIpAddresses = scrubIpAddresses
        self.scrubDefaults = scrubDefaults
    }

    /// The patterns that scrub texts: ``valuePatterns`` (only the prefixed tokens without ``scrubDefaults``), with
    /// IP addresses when ``scrubIpAddresses`` is set.
    var patterns: Set<ValuePattern> {
        var patterns =
            scrubDefaults
            ? valuePatterns
            : valuePatterns.filter {
                if case .prefixedToken = $0 { true } else { false }
            }
        if scrubIpAddresses { patterns.insert(.ipAddress) }
        return patterns
    }
}
