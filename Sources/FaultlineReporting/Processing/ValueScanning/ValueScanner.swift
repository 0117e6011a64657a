/// Finds the secrets of a set of ``ValuePattern``s in UTF-8 text, in one pass: a table says at which bytes a check
/// can start (`J` of `eyJ`, the first letters of `Bearer`, `Token` and `Basic` at the start of a word, `=`, `:`,
/// `@`, `-` of `-----BEGIN`, the digits a card number starts with, the first bytes of token prefixes), and only
/// there is a pattern checked, by reading the bytes around it. Text with no secret costs about one table lookup per
/// byte and no allocation.
package struct ValueScanner: Sendable {
    /// Which checks may start at a byte: a bit per check, indexed by the byte.
    private let starts: [UInt16]
    /// What the keys of pairs say of their values.
    let names: SensitiveNames
    /// The prefixes of ``ValuePattern/prefixedToken(_:)``.
    let prefixes: [[UInt8]]

    /// Whether any pattern is on.
    let isEnabled: Bool

    private static let jsonWebTokenStart: UInt16 = 1 << 0
    private static let schemeStart: UInt16 = 1 << 1
    private static let pairSeparator: UInt16 = 1 << 2
    private static let userInfoEnd: UInt16 = 1 << 3
    private static let privateKeyStart: UInt16 = 1 << 4
    private static let cardNumberStart: UInt16 = 1 << 5
    private static let prefixStart: UInt16 = 1 << 6
    private static let socialSecurityNumberStart: UInt16 = 1 << 7
    private static let ibanStart: UInt16 = 1 << 8
    private static let emailAt: UInt16 = 1 << 9
    private static let pathSeparator: UInt16 = 1 << 10
    private static let ipAddressStart: UInt16 = 1 << 11
    /// The checks of secrets that start a word: none starts inside one.
    private static let wordStartChecks = schemeStart | socialSecurityNumberStart | ibanStart | ipAddressStart

    /// A scanner for `rules`' patterns (``ScrubRules/patterns``), or for `patterns` instead.
    package init(rules: ScrubRules, patterns: Set<ValuePattern>? = nil) {
        var starts = [UInt16](repeating: 0, count: 256)
        func mark(_ characters: String, _ bit: UInt16) {
            for byte in characters.utf8 { starts[Int(byte)] |= bit }
        }
        var prefixes: [[UInt8]] = []
        for pattern in patterns ?? rules.patterns {
            switch pattern {
            case .jsonWebToken: mark("J", Self.jsonWebTokenStart)
            case .authorizationCredential: mark("bBtT", Self.schemeStart)
            case .sensitivePair: mark("=:", Self.pairSeparator)
            case .urlPassword: mark("@", Self.userInfoEnd)
            case .privateKey: mark("-", Self.privateKeyStart)
            case .cardNumber: mark("23456", Self.cardNumberStart)
            case .socialSecurityNumber: mark("0123456789", Self.socialSecurityNumberStart)
            case .iban: mark("ABCDEFGHIJKLMNOPQRSTUVWXYZ", Self.ibanStart)
            case .email: mark("@", Self.emailAt)
            case .userPath: mark("/\\", Self.pathSeparator)
            case .ipAddress: mark("0123456789abcdefABCDEF:", Self.ipAddressStart)
            case .prefixedToken(let prefix):
                guard let first = prefix.utf8.first else { continue }
                prefixes.append(Array(prefix.utf8))
                starts[Int(first)] |= Self.prefixStart
            }
        }
        self.starts = starts
        self.names = SensitiveNames(rules: rules)
        self.prefixes = prefixes
        self.isEnabled = starts.contains { $0 != 0 }
    }

    /// `text` with its secrets replaced by `replacement`, or `nil` when it has none.
    func scrubbed(_ text: String, replacement: String) -> String? {
        guard isEnabled else { return nil }
        if let result = text.utf8.withContiguousStorageIfAvailable({ scrubbed($0, replacement: replacement) }) {
            return result
        }
        // A bridged string without contiguous UTF-8: made native, then scanned.
        var native = text
        native.makeContiguousUTF8()
        return native.utf8.withContiguousStorageIfAvailable { scrubbed($0, replacement: replacement) } ?? nil
    }

    private func scrubbed(_ bytes: UnsafeBufferPointer<UInt8>, replacement: String) -> String? {
        let secrets = secrets(in: bytes)
        guard !secrets.isEmpty else { return nil }
        return String(decoding: Self.replacing(secrets, in: bytes, with: replacement), as: UTF8.self)
    }

    /// The byte ranges of the secrets in `bytes`, in order, not overlapping.
    package func secrets(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard isEnabled else { return [] }
        return starts.withUnsafeBufferPointer { starts in
            var secrets: [Range<Int>] = []
            var index = 0
            let count = bytes.count
            while index < count {
                var checks = starts[Int(bytes[index])]
                if checks & Self.wordStartChecks != 0, index > 0, Self.isWordByte(bytes[index - 1]) {
                    checks &= ~Self.wordStartChecks
                }
                if checks == 0 {
                    // Most bytes, and letters and digits inside words, start nothing.
                    index &+= 1
                } else if let secret = secret(at: index, checks: checks, in: bytes) {
                    Self.add(secret, to: &secrets)
                    index = max(index + 1, secret.upperBound)
                } else {
                    index += 1
                }
            }
            return secrets
        }
    }

    /// The secret that a check of `checks` finds starting at, or ending at, `index`.
    private func secret(at index: Int, checks: UInt16, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        if checks & Self.jsonWebTokenStart != 0, let secret = Self.jsonWebToken(at: index - 2, in: bytes) {
            return secret
        }
        if checks & Self.schemeStart != 0, let secret = Self.schemeCredential(at: index, in: bytes) {
            return secret
        }
        if checks & Self.pairSeparator != 0, let secret = pairValue(at: index, in: bytes) {
            return secret
        }
        if checks & Self.userInfoEnd != 0, let secret = Self.urlPassword(endingAt: index, in: bytes) {
            return secret
        }
        if checks & Self.privateKeyStart != 0, let secret = Self.privateKey(at: index, in: bytes) {
            return secret
        }
        if checks & Self.cardNumberStart != 0, let secret = Self.cardNumber(at: index, in: bytes) {
            return secret
        }
        if checks & Self.prefixStart != 0, let secret = prefixedToken(at: index, in: bytes) {
            return secret
        }
        if checks & Self.socialSecurityNumberStart != 0, let secret = Self.socialSecurityNumber(at: index, in: bytes) {
            return secret
        }
        if checks & Self.ibanStart != 0, let secret = Self.iban(at: index, in: bytes) {
            return secret
        }
        if checks & Self.emailAt != 0, let secret = Self.email(around: index, in: bytes) {
            return secret
        }
        if checks & Self.pathSeparator != 0, let secret = Self.userName(inPathAt: index, in: bytes) {
            return secret
        }
        if checks & Self.ipAddressStart != 0, let secret = Self.ipAddress(at: index, in: bytes) {
            return secret
        }
        return nil
    }

    /// Adds `secret` to `secrets`, merged with those it overlaps (a URL's password is found from its end, after
    /// what precedes it).
    private static func add(_ secret: Range<Int>, to secrets: inout [Range<Int>]) {
        guard let last = secrets.last, secret.lowerBound < last.upperBound else {
            secrets.append(secret)
            return
        }
        var merged = secret
        while let last = secrets.last, merged.lowerBound < last.upperBound {
            merged = min(last.lowerBound, merged.lowerBound)..<max(last.upperBound, merged.upperBound)
            secrets.removeLast()
        }
        secrets.append(merged)
    }

    /// `bytes` with each of `secrets` replaced by `replacement`.
    static func replacing(
        _ secrets: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>, with replacement: String
    ) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + secrets.count * replacement.utf8.count)
        var copied = 0
        for secret in secrets {
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<secret.lowerBound]))
            result.append(contentsOf: replacement.utf8)
            copied = secret.upperBound
        }
        result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        return result
    }
}
