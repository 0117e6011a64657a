import Foundation

/// Which names of headers, query items, cookies, JSON members and pairs in text are sensitive, and how: the terms of
/// ``ScrubRules/sensitiveTerms`` found in a name by where words start and end, so that `api_key`, `apiKey`,
/// `x-auth-token`, `stripetoken` and `jsessionid` are sensitive and `author`, `tokenizer`, `keyboard` and `inside`
/// are not. A name matched by ``ScrubRules/isSensitiveName`` or holding one of ``ScrubRules/sensitiveFields`` is a
/// secret; one of ``ScrubRules/excludeFields`` names nothing.
package struct SensitiveNames: Sendable {
    /// What a name says of the value it names.
    package enum Naming: Comparable, Sendable {
        /// Names nothing sensitive.
        case none
        /// A token, an authorization, a key, a session (`token`, `auth`, `api_key`, `session`): the value is filtered
        /// unless it is ordinary (``ValueScanner/isOrdinary(_:in:)``), so that `token_count=5` and `auth=ok` read as
        /// written.
        case sensitive
        /// A password, a secret, credentials, a one-time password (`db_password`, `client_secret`, `mysql_pwd`,
        /// `otp`), or a name the custom rule gives: every value is filtered, whatever it looks like.
        case secret
    }

    /// How a term must sit in a name to count.
    private struct Term: Sendable {
        /// The term, lower-cased.
        let bytes: [UInt8]
        let naming: Naming
        /// Whether it counts inside a word (`stripetoken`, `userpassword`); otherwise only at a word's start or after
        /// one of `compounds` (`apikey`, `oauth`).
        let isInsideWords: Bool
        /// The words before it, within the same word, that make it count where it does not start one.
        let compounds: [[UInt8]]
        /// Whether it must end a word (`key`, `keys`, `sid`), or may run on (`sso_ticket`, `ssoticket`).
        let endsWord: Bool
        /// The continuations that make it no match (`tokenizer`), or, for a term that ends a word, that still end it
        /// (`authorization`, `keys`).
        let continuations: [[UInt8]]

        init(
            _ term: String, _ naming: Naming, isInsideWords: Bool = true, compounds: [String] = [],
            endsWord: Bool = false, continuations: [String] = []
        ) {
            self.bytes = Array(term.utf8)
            self.naming = naming
            self.isInsideWords = isInsideWords
            self.compounds = compounds.map { Array($0.utf8) }
            self.endsWord = endsWord
            self.continuations = continuations.map { Array($0.utf8) }
        }
    }

    /// How the default terms sit in names. A term of ``ScrubRules/sensitiveTerms`` not listed here counts anywhere in
    /// a name, as a sensitive one.
    private static let known: [String: Term] = [
        "password": Term("password", .secret, continuations: ["less"]), "passwd": Term("passwd", .secret),
        "pwd": Term("pwd", .secret),
        "secret": Term("secret", .secret, continuations: ["ar"]), "credentials": Term("credentials", .secret),
        "token": Term("token", .sensitive, continuations: ["iz", "is"]),
        "auth": Term(
            "auth", .sensitive, isInsideWords: false, compounds: ["o", "basic", "x", "http", "digest", "proxy"],
            endsWord: true, continuations: ["s", "n", "z", "orization", "orisation", "entication"]),
        "key": Term(
            "key", .sensitive, isInsideWords: false,
            compounds: [
                "api", "private", "public", "access", "secret", "signing", "encryption", "license", "master",
                "client", "app", "auth", "ssh", "crypto", "session",
            ], endsWord: true, continuations: ["s"]),
        "sid": Term("sid", .sensitive, endsWord: true),
        "sso": Term("sso", .sensitive, isInsideWords: false),
    ]

    /// Names that are secrets in Sentry's Relay whatever their terms: API and private keys, a one-time password and
    /// a second factor.
    private static let secretWords: [Term] = [
        Term("api_key", .secret), Term("api-key", .secret), Term("apikey", .secret), Term("private_key", .secret),
        Term("private-key", .secret), Term("privatekey", .secret),
        Term("otp", .secret, isInsideWords: false, endsWord: true),
        Term("two_factor", .secret), Term("two-factor", .secret), Term("twofactor", .secret),
    ]

    /// The last words that make a name with a sensitive term one about it, not of it (`password_rules`,
    /// `passwordPolicy`, `token_count`, `authentication_method`, `tokenTtl`, `secretsManagerRegion`): its value is no
    /// credential.
    private static let descriptors: Set<[UInt8]> = Set(
        [
            "sent", "rule", "rules", "policy", "policies", "length", "count", "enabled", "disabled", "required",
            "expires", "expiry", "expired", "expiration", "ttl", "type", "method", "methods", "region", "name", "names",
            "manager", "used", "limit", "limits", "version", "format", "status", "strength", "provider", "changed",
            "updated", "created", "age", "lifetime", "scheme", "mode",
        ].map { Array($0.utf8) })

    private let terms: [Term]
    /// For each lower-cased byte, the terms (bit `i` for `terms[i]`, the first 64) that start with it: a name is
    /// checked only for the terms whose first bytes it holds, without touching the terms' arrays.
    private let termsStartingWith: [UInt64]
    /// The first two bytes of each of the first 64 terms, lower-cased (the second 0 for a term of one byte).
    private let termHeads: [(first: UInt8, second: UInt8)]
    private let isSensitiveName: (@Sendable (String) -> Bool)?
    /// ``ScrubRules/excludeFields``, lower-cased.
    private let excluded: Set<[UInt8]>

    package init(rules: ScrubRules) {
        let defaults =
            rules.scrubDefaults
            ? rules.sensitiveTerms.filter { !$0.isEmpty }.map { Self.known[$0] ?? Term($0, .sensitive) }
                + Self.secretWords : []
        let fields = rules.sensitiveFields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let terms = defaults + fields.filter { !$0.isEmpty }.map { Term($0, .secret) }
        var termsStartingWith = [UInt64](repeating: 0, count: 256)
        for (index, term) in terms.prefix(64).enumerated() {
            termsStartingWith[Int(Self.lowercased(term.bytes[0]))] |= 1 << UInt64(index)
        }
        self.terms = terms
        self.termsStartingWith = termsStartingWith
        termHeads = terms.prefix(64).map { ($0.bytes[0], $0.bytes.count > 1 ? $0.bytes[1] : 0) }
        isSensitiveName = rules.isSensitiveName
        excluded = Set(
            rules.excludeFields.map { Array($0.trimmingCharacters(in: .whitespaces).lowercased().utf8) }.filter {
                !$0.isEmpty
            })
    }

    /// Whether the name in `bytes` is one of ``ScrubRules/excludeFields``: its value is not scrubbed.
    func isExcluded(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !excluded.isEmpty && excluded.contains(bytes.map(Self.lowercased))
    }

    /// Whether `name` is one of ``ScrubRules/excludeFields``.
    func isExcluded(_ name: String) -> Bool {
        guard !excluded.isEmpty else { return false }
        var name = name
        return name.withUTF8 { isExcluded($0) }
    }

    /// What `name` says of its value.
    package func naming(of name: String) -> Naming {
        var name = name
        return name.withUTF8 { naming(of: $0) }
    }

    /// What the name in `bytes` (UTF-8) says of its value.
    func naming(of bytes: UnsafeBufferPointer<UInt8>) -> Naming {
        guard !isExcluded(bytes) else { return .none }
        var naming = Naming.none
        // Most names hold no term: the table and the terms' first two bytes rule them out, byte by byte.
        var candidates: UInt64 = 0
        for byte in bytes { candidates |= termsStartingWith[Int(Self.lowercased(byte))] }
        while candidates != 0, naming != .secret {
            let index = candidates.trailingZeroBitCount
            candidates &= candidates - 1
            let head = termHeads[index]
            guard Self.name(bytes, hasHead: head) else { continue }
            let term = terms[index]
            if term.naming > naming, Self.name(bytes, has: term) { naming = term.naming }
        }
        for term in terms.dropFirst(64) where naming != .secret && term.naming > naming && Self.name(bytes, has: term) {
            naming = term.naming
        }
        if naming != .none, Self.descriptors.contains(Self.lastWord(of: bytes)) { naming = .none }
        if naming != .secret, let isSensitiveName, isSensitiveName(String(decoding: bytes, as: UTF8.self)) {
            return .secret
        }
        return naming
    }

    /// The last word of `name`, lower-cased: `policy` of `passwordPolicy` and `password_policy`.
    private static func lastWord(of name: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var end = name.count
        while end > 0, !isLetter(name[end - 1]) { end -= 1 }
        var start = end
        while start > 0, isLetter(name[start - 1]), !startsWord(in: name, at: start) { start -= 1 }
        return name[start..<end].map(lowercased)
    }

    /// Whether `name` holds a term's first two bytes, lower-cased, one after the other (the first alone when the
    /// second is 0).
    private static func name(_ name: UnsafeBufferPointer<UInt8>, hasHead head: (first: UInt8, second: UInt8)) -> Bool {
        guard head.second != 0 else { return name.contains { lowercased($0) == head.first } }
        guard name.count >= 2 else { return false }
        for index in 0..<(name.count - 1)
        where lowercased(name[index]) == head.first && lowercased(name[index + 1]) == head.second {
            return true
        }
        return false
    }

    /// Whether `term` occurs in `name` where it counts.
    private static func name(_ name: UnsafeBufferPointer<UInt8>, has term: Term) -> Bool {
        let length = term.bytes.count
        guard name.count >= length else { return false }
        for start in 0...(name.count - length)
        where (0..<length).allSatisfy({ lowercased(name[start + $0]) == term.bytes[$0] }) {
            if counts(term, in: name, at: start) { return true }
        }
        return false
    }

    private static func counts(_ term: Term, in name: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        // The rest of the word the term is in: `orization` of `authorization`, nothing in `apiKey`.
        var end = start + term.bytes.count
        var following: [UInt8] = []
        while end < name.count, isLetter(name[end]), !startsWord(in: name, at: end) {
            following.append(lowercased(name[end]))
            end += 1
        }
        if !term.isInsideWords, !startsWord(in: name, at: start) {
            // Inside a word, only after a word that compounds with it: `apikey`, `oauth`.
            var wordStart = start
            while wordStart > 0, isLetter(name[wordStart - 1]), !startsWord(in: name, at: wordStart) { wordStart -= 1 }
            let before = name[wordStart..<start].map(lowercased)
            guard term.compounds.contains(where: { $0.elementsEqual(before) }) else { return false }
        }
        if term.endsWord {
            return following.isEmpty || term.continuations.contains { $0 == following }
        }
        return !term.continuations.contains { following.starts(with: $0) }
    }

    /// Whether a word starts at `index` of `name`: after a byte that is no letter, or at a capital after a small
    /// letter (`apiKey`), or at the last capital of a run followed by a small letter (`APIKey`).
    private static func startsWord(in name: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index > 0 else { return true }
        guard index < name.count else { return false }
        let previous = name[index - 1]
        let byte = name[index]
        guard isLetter(previous) else { return true }
        if isUpper(byte), !isUpper(previous) { return true }
        return isUpper(byte) && isUpper(previous) && index + 1 < name.count && isLetter(name[index + 1])
            && !isUpper(name[index + 1])
    }

    private static func isLetter(_ byte: UInt8) -> Bool { ValueScanner.isLetter(byte) }

    private static func isUpper(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }

    private static func lowercased(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }
}
