import FaultlineRecords
import Foundation

/// Scrubbing of an event as JSON bytes, for events that arrive from other SDKs: `faultline serve` scrubs them at
/// least as Sentry's Relay does by default, before they are stored or forwarded.
extension Scrubber {
    /// `json` with its secrets filtered, or `nil` when nothing changed or `json` is not one JSON text. The rest of
    /// the bytes (order, spacing, numbers) is kept.
    ///
    /// - The value of a member or pair whose name names a secret (`password`, `client_secret`, `mysql_pwd`,
    ///   `credentials`), one of ``ScrubRules/sensitiveHeaders`` in a `headers` object or list, or a session or CSRF
    ///   cookie Relay filters, is replaced whole with `[Filtered]`, an object or array too.
    /// - Under any other sensitive name (`api_key`, `x-auth-token`, `stripetoken`, `auth`), each text or number that
    ///   is not ordinary is filtered: `token_count: 5` and `auth: "ok"` stay.
    /// - Every other text is scrubbed as ``text(_:)`` scrubs it, the message (`message`, `logentry`, its `params`)
    ///   of emails too; a user's name is left in a stack frame's `filename` and `abs_path`, which grouping and source
    ///   maps read, and names in `debug_meta`, `sdk`, `modules` and the event's ids and times are not looked at. Keys
    ///   are kept.
    package func scrubbedTexts(inJSON json: Data) -> Data? {
        guard isEnabled else { return nil }
        return try? JSONValue.rewritten(parsing: json, by: eventRewrite)
    }

    /// `json` read in one pass as a JSON object (``JSONValue/ObjectText``), scrubbed as ``scrubbedTexts(inJSON:)``
    /// scrubs it and the values of its top-level members `names` located; `nil` when it is JSON but not an object.
    ///
    /// - Throws: ``JSONValue/ParseError`` where ``JSONValue/init(parsing:)`` throws one for `json`.
    package func scrubbedObject(
        parsing json: Data, members names: Set<String>
    ) throws(JSONValue.ParseError) -> JSONValue.ObjectText? {
        try JSONValue.object(parsing: json, members: names, rewriting: isEnabled ? eventRewrite : nil)
    }

    /// Whether scrubbing can change anything.
    private var isEnabled: Bool {
        scanner.isEnabled || rules.scrubText != nil || rules.isSensitiveName != nil || !rules.sensitiveFields.isEmpty
            || rules.scrubDefaults && (!rules.sensitiveTerms.isEmpty || !rules.sensitiveHeaders.isEmpty)
    }

    /// The rewrite that scrubs an event by the places of its values.
    private var eventRewrite: JSONRewrite {
        JSONRewrite(
            root: ScrubPlace.event.rawValue,
            member: { key, raw in self.place(ofMember: key, in: ScrubPlace(rawValue: raw)).rawValue },
            element: { pairKey, raw in
                let array = ScrubPlace(rawValue: raw)
                guard let pairKey else { return self.place(ofElementIn: array).rawValue }
                // A pair's value is named by its key, and is still an element of a message's parameters.
                return self.place(ofMember: pairKey, in: array).union(array.intersection(.message)).rawValue
            },
            container: { raw, _ in ScrubPlace(rawValue: raw).contains(.filtered) ? Self.filteredJSON : nil },
            scalar: { text, kind, raw in self.scrubbed(text, kind, in: ScrubPlace(rawValue: raw)) })
    }

    /// `[Filtered]` as a JSON string.
    private static let filteredJSON = Array("\"\(filtered)\"".utf8)

    /// The place of the value of the member `key` of a value in `place`.
    private func place(ofMember key: UnsafeBufferPointer<UInt8>, in place: ScrubPlace) -> ScrubPlace {
        var next = place.intersection(.inherited)
        if place.contains(.event) {
            switch String(decoding: key, as: UTF8.self) {
            case "request": next.insert(.request)
            case "user": next.insert(.user)
            case "sdk": next.formUnion([.sdk, .structural])
            case "debug_meta": next.insert(.debugMeta)
            case "logentry": next.insert(.logEntry)
            case "message": next.formUnion([.message, .logEntry])
            case let name where ScrubPlace.structuralMembers.contains(name): next.insert(.structural)
            default: break
            }
        }
        if place.contains(.logEntry),
            Self.equals(key, "message") || Self.equals(key, "formatted") || Self.equals(key, "params")
        {
            next.insert(.message)
        }
        if place.contains(.frame), Self.equals(key, "filename") || Self.equals(key, "abs_path") {
            next.insert(.framePath)
        }
        if place.contains(.request), Self.equals(key, "env") { next.insert(.environment) }
        if place.contains(.user) && Self.equals(key, "ip_address")
            || place.contains(.sdk) && Self.equals(key, "client_ip")
            || place.contains(.environment) && Self.equals(key, "REMOTE_ADDR")
        {
            next.insert(.ipAddress)
        }
        if Self.equals(key, "headers") { next.insert(.headers) }
        if Self.equals(key, "frames") { next.insert(.frames) }
        if place.contains(.request), Self.equals(key, "cookies") { next.insert(.cookies) }
        guard !next.contains(.debugMeta), !next.contains(.structural) else { return next }
        guard !names.isExcluded(key) else { return next.union(.excluded).subtracting(.sensitive) }
        if rules.scrubDefaults, place.contains(.headers) || place.contains(.cookies) {
            let name = String(decoding: key, as: UTF8.self).lowercased()
            if place.contains(.headers), rules.sensitiveHeaders.contains(name) { next.insert(.filtered) }
            if place.contains(.cookies), ScrubPlace.sensitiveCookies.contains(name) { next.insert(.filtered) }
        }
        switch names.naming(of: key) {
        case .none: break
        case .sensitive: next.insert(.sensitive)
        case .secret: next.insert(.filtered)
        }
        return next
    }

    /// The place of an element of an array in `place` that is no pair's value: a frame of `frames`; otherwise what
    /// the array's place says of its elements (a list of header pairs is a list of headers).
    private func place(ofElementIn place: ScrubPlace) -> ScrubPlace {
        var next = place.intersection(ScrubPlace.inherited.union([.headers, .cookies, .request, .message]))
        if place.contains(.frames) { next.insert(.frame) }
        return next
    }

    /// What to write instead of the scalar `text` in `place`, or `nil` to keep it.
    private func scrubbed(_ text: UnsafeBufferPointer<UInt8>, _ kind: JSONRewrite.Scalar, in place: ScrubPlace)
        -> [UInt8]?
    {
        if place.contains(.ipAddress), rules.scrubIpAddresses {
            // Removed, as Relay removes them: `null`.
            return ValueScanner.has("null", at: 0, in: text) ? nil : Array("null".utf8)
        }
        // Ids and times are not scanned: an upper-case event id can read as an IBAN (`DE89…`), and filtering it would
        // lose the event's identity. Relay's schema marks these members as holding no personal data.
        guard !place.contains(.excluded), !place.contains(.structural) else { return nil }
        switch kind {
        case .other:
            // A secret's number, and a number of more than five digits under a sensitive name; `true`, `false` and
            // `null` say nothing, as Relay has it.
            let isNumber = text.first.map { $0 == UInt8(ascii: "-") || ValueScanner.isDigit($0) } ?? false
            guard isNumber else { return nil }
            if place.contains(.filtered) { return Self.filteredJSON }
            return place.contains(.sensitive) && !ValueScanner.isOrdinary(0..<text.count, in: text)
                ? Self.filteredJSON : nil
        case .string(let hasEscapes):
            let inside = UnsafeBufferPointer(rebasing: text.dropFirst().dropLast())
            guard !inside.isEmpty, !ValueScanner.isFiltered(at: 0, in: inside) else { return nil }
            if place.contains(.filtered) { return Self.filteredJSON }
            if place.contains(.sensitive), !hasEscapes, Self.isCredentialShaped(inside) {
                return Self.filteredJSON
            }
            return scrubbedString(text, hasEscapes, in: place)
        }
    }

    /// The JSON string `quoted` (with its quotes) scrubbed as a text in `place` and written back as JSON, or `nil`
    /// when unchanged.
    private func scrubbedString(_ quoted: UnsafeBufferPointer<UInt8>, _ hasEscapes: Bool, in place: ScrubPlace)
        -> [UInt8]?
    {
        let scanner = scanner(for: place)
        if !hasEscapes, rules.scrubText == nil, !place.contains(.cookies), !place.contains(.sensitive) {
            // Most strings: scanned in place. Without escapes, the replaced text needs none either.
            let inside = UnsafeBufferPointer(rebasing: quoted.dropFirst().dropLast())
            let secrets = scanner.secrets(in: inside)
            guard !secrets.isEmpty else { return nil }
            return [UInt8(ascii: "\"")] + ValueScanner.replacing(secrets, in: inside, with: Self.filtered)
                + [UInt8(ascii: "\"")]
        }
        guard case .string(var text)? = try? JSONValue(parsing: quoted) else { return nil }
        if place.contains(.sensitive), text.withUTF8(Self.isCredentialShaped) {
            return Self.filteredJSON
        }
        let cookies = place.contains(.cookies) ? scrubbed(cookies: text) : nil
        let patterned = scanner.scrubbed(cookies ?? text, replacement: Self.filtered)
        let custom = rules.scrubText.map { $0(patterned ?? cookies ?? text) }
        guard let scrubbed = custom ?? patterned ?? cookies, scrubbed != text else { return nil }
        var writer = JSONWriter(capacity: quoted.count + 16)
        writer.string(scrubbed)
        return writer.bytes
    }

    /// Whether a text under a sensitive name is filtered whole: one run without spaces that is not ordinary. A text of
    /// several words (`tokens_used=1733 of 4096`) is prose: it is scrubbed as a text, which finds a credential in
    /// it (`Bearer …`, `token=…`).
    /// A value in quotes, as sentry-python writes a frame's variables (`'a9987d6e-…'`, Python's `repr`), is read
    /// inside them.
    private static func isCredentialShaped(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !text.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") })
        else { return false }
        var value = 0..<text.count
        if value.count >= 2, ValueScanner.isQuote(text[0]), text[value.count - 1] == text[0] {
            value = 1..<(value.count - 1)
        }
        return !ValueScanner.isOrdinary(value, in: text)
    }

    /// The scanner for texts in `place`: with emails in a message and its parameters, without users' names in frame
    /// paths.
    private func scanner(for place: ScrubPlace) -> ValueScanner {
        if place.contains(.message) { return messageScanner }
        if place.contains(.framePath) { return pathScanner }
        return scanner
    }

    /// A `Cookie` header's text (`name=value; name=value`) with the values of the cookies Relay filters and of
    /// sensitive names filtered as ``headers(_:)`` filters header values; `nil` when none is.
    private func scrubbed(cookies text: String) -> String? {
        var changed = false
        let pairs = text.split(separator: ";", omittingEmptySubsequences: false).map { pair -> Substring in
            guard let equals = pair.firstIndex(of: "=") else { return pair }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let value = String(pair[pair.index(after: equals)...])
            guard !value.isEmpty, value != Self.filtered,
                rules.scrubDefaults && ScrubPlace.sensitiveCookies.contains(name.lowercased())
                    || filters(value, namedBy: names.naming(of: name))
            else { return pair }
            changed = true
            return pair[...equals] + Self.filtered
        }
        return changed ? pairs.joined(separator: ";") : nil
    }

    private static func equals(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        key.count == name.utf8CodeUnitCount && ValueScanner.has(name, at: 0, in: key)
    }
}
