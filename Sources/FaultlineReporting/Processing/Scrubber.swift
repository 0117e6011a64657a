import Foundation

/// Removes credentials from what an event says about a request and its response, before anything is written or
/// sent: sensitive header values, query item values (the URL itself is kept) and JSON body values become
/// `[Filtered]`, and so do the secrets found inside free text by their shape (see ``text(_:)``).
public struct Scrubber: Sendable {
    /// The replacement for a sensitive value.
    public static let filtered = "[Filtered]"

    /// What counts as sensitive.
    public let rules: ScrubRules
    /// What finds the secrets of ``ScrubRules/valuePatterns`` in text.
    let scanner: ValueScanner
    /// What finds them in an event's message, where emails are taken out too, as Relay does.
    let messageScanner: ValueScanner
    /// What finds them in a stack frame's path and in `debug_meta`, where a user's name is kept, as Relay keeps it.
    let pathScanner: ValueScanner
    /// What the names of headers, query items, cookies and members say of their values.
    let names: SensitiveNames

    /// Creates a scrubber.
    public init(rules: ScrubRules = ScrubRules()) {
        self.rules = rules
        self.scanner = ValueScanner(rules: rules)
        self.messageScanner = ValueScanner(
            rules: rules, patterns: rules.scrubDefaults ? rules.patterns.union([.email]) : rules.patterns)
        self.pathScanner = ValueScanner(rules: rules, patterns: rules.patterns.subtracting([.userPath]))
        self.names = scanner.names
    }

    /// Header fields with lower-cased names and sensitive values filtered: the values of
    /// ``ScrubRules/sensitiveHeaders``, of names that name a secret, and of names with another sensitive term
    /// unless the value is ordinary (`X-Auth-Token: 7f3a…` is filtered, `X-Token-Count: 5` is not).
    public func headers(_ fields: [String: String]) -> [String: String] {
        var scrubbed: [String: String] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            let isFiltered =
                (rules.scrubDefaults && rules.sensitiveHeaders.contains(key) && !names.isExcluded(key))
                || filters(value, namedBy: names.naming(of: key))
            scrubbed[key] = isFiltered ? Self.filtered : value
        }
        return scrubbed
    }

    /// Whether a text value named as `naming` says is filtered: a secret's always, a sensitive one's unless it is
    /// ordinary (a small number, a plain word).
    func filters(_ value: String, namedBy naming: SensitiveNames.Naming) -> Bool {
        guard naming != .none else { return false }
        var value = value
        return value.withUTF8 { ValueScanner.filters(naming, 0..<$0.count, in: $0) }
    }

    /// The URL without user info, query or fragment, and its query string with sensitive values filtered.
    ///
    /// Taken apart from the URL's text rather than with `URLComponents`, which costs more, since every request the
    /// client records is scrubbed.
    public func url(_ url: URL) -> (url: String, queryString: String?) {
        let whole = url.absoluteString
        var rest = whole[...]
        // The delimiters are ASCII: searching the UTF-8 view finds them without breaking the text into characters.
        if let fragment = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<fragment] }
        var query: Substring?
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = rest[rest.utf8.index(after: mark)...]
            rest = rest[..<mark]
        }
        return (Self.removingUserInfo(from: rest), query.map(scrubbed(query:)))
    }

    /// `url` (without query or fragment) without the user and password of its authority: after `scheme://`, or at the
    /// start of a reference without a scheme (`//user@host/path`).
    private static func removingUserInfo(from url: Substring) -> String {
        let bytes = url.utf8
        let authorityStart: Substring.Index
        let isSchemeByte = { (byte: UInt8) in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default: false
            }
        }
        if let colon = bytes.firstIndex(where: { !isSchemeByte($0) }), colon != bytes.startIndex,
            bytes[colon...].starts(with: "://".utf8)
        {
            authorityStart = bytes.index(colon, offsetBy: 3)
        } else if bytes.starts(with: "//".utf8) {
            authorityStart = bytes.index(bytes.startIndex, offsetBy: 2)
        } else {
            return String(url)
        }
        let authority = bytes[authorityStart...].prefix { $0 != UInt8(ascii: "/") }
        guard let at = authority.lastIndex(of: UInt8(ascii: "@")) else { return String(url) }
        return String(url[..<authorityStart] + url[bytes.index(after: at)...])
    }

    /// A query string with the values of sensitive items filtered, as ``headers(_:)`` filters header values; an item
    /// of a secret's name without a value gets the filtered one.
    private func scrubbed(query: Substring) -> String {
        guard !query.isEmpty else { return "" }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { item in
            let name = item.prefix { $0 != "=" }
            let decodedName = name.contains("%") ? String(name).removingPercentEncoding ?? String(name) : String(name)
            let value = item.dropFirst(name.count + 1)
            let decodedValue = String(value).removingPercentEncoding ?? String(value)
            guard filters(decodedValue, namedBy: names.naming(of: decodedName)) else { return String(item) }
            return "\(name)=\(Self.filtered)"
        }.joined(separator: "&")
    }

    /// A request or response body as it may appear in an event: JSON with sensitive keys filtered at any depth,
    /// form fields likewise, anything else only described by its size and type, as is a body over
    /// ``ScrubRules/maxBodySize``, which is not parsed. `nil` for an empty body.
    public func body(_ data: Data, contentType: String?) -> JSONValue? {
        guard !data.isEmpty else { return nil }
        let description = "\(data.count) bytes\(contentType.map { " of \($0)" } ?? "")"
        guard data.count <= rules.maxBodySize else { return .string("[\(description), over the limit]") }
        if contentType?.lowercased().contains("x-www-form-urlencoded") == true {
            return form(String(decoding: data, as: UTF8.self))
        }
        guard let json = try? JSONValue(parsing: data) else { return .string("[\(description)]") }
        return scrub(json, namedBy: .none)
    }

    /// Data of a breadcrumb or context, with the values of sensitive keys filtered at any depth: a secret's whole,
    /// and under another sensitive key every text, and number of more than five digits, that is not ordinary.
    public func data(_ data: [String: JSONValue]) -> [String: JSONValue] {
        scrubbed(data, under: .none)
    }

    private func scrubbed(_ object: [String: JSONValue], under naming: SensitiveNames.Naming) -> [String: JSONValue] {
        Dictionary(
            uniqueKeysWithValues: object.map { key, value in
                (key, scrub(value, namedBy: max(naming, names.naming(of: key))))
            })
    }

    private func scrub(_ value: JSONValue, namedBy naming: SensitiveNames.Naming) -> JSONValue {
        switch value {
        case .object(let object):
            naming == .secret ? .string(Self.filtered) : .object(scrubbed(object, under: naming))
        case .array(let array):
            naming == .secret ? .string(Self.filtered) : .array(array.map { scrub($0, namedBy: naming) })
        case .string(let text):
            filters(text, namedBy: naming) ? .string(Self.filtered) : value
        case .int(let number):
            filters(String(number), namedBy: naming) ? .string(Self.filtered) : value
        case .double(let number):
            filters(String(number), namedBy: naming) ? .string(Self.filtered) : value
        case .bool, .null:
            value
        }
    }

    private func form(_ text: String) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            fields[name] = .string(filters(value, namedBy: names.naming(of: name)) ? Self.filtered : value)
        }
        return .object(fields)
    }
}
