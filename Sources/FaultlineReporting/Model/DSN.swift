import Foundation

/// A Sentry DSN, `{scheme}://{public key}[:{secret}]@{host}[:{port}][/{path prefix}]/{project id}`: where to send
/// events and with which key (Sentry developer docs, "Authentication / Parsing the DSN").
public struct DSN: Hashable, Sendable, CustomStringConvertible {
    /// Why a DSN string could not be read.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let dsn: String
        public let reason: String

        public var description: String {
            "The DSN \"\(dsn)\" is not valid: \(reason). Expected scheme://publickey@host[:port][/path]/project-id."
        }
    }

    /// `http` or `https`.
    public let scheme: String
    /// The public key, sent as `sentry_key`.
    public let publicKey: String
    /// The deprecated secret key, when the DSN has one.
    public let secretKey: String?
    public let host: String
    /// The port, when the DSN names one.
    public let port: Int?
    /// Path segments between the host and the project id, kept in the endpoint (`/sentry` in `…/sentry/42`).
    public let pathPrefix: String
    /// The project id: the last path segment, an integer.
    public let projectID: String

    /// Reads a DSN.
    public init(_ string: String) throws(ParseError) {
        func failure(_ reason: String) -> ParseError { ParseError(dsn: string, reason: reason) }
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased() else {
            throw failure("it is not a URL")
        }
        guard scheme == "http" || scheme == "https" else { throw failure("the scheme must be http or https") }
        guard let key = components.user, !key.isEmpty else { throw failure("it has no public key before the @") }
        guard Self.isPlain(key), components.password.map({ Self.isPlain($0) }) ?? true else {
            throw failure("the keys may hold only letters, digits and - . _ ~")
        }
        // As written, not decoded: a host of `%5d` would be written back as `]`, which no URL holds there.
        guard let host = components.percentEncodedHost, !host.isEmpty else { throw failure("it has no host") }
        guard Self.isPlain(host) || Self.isIPv6Literal(host) else {
            throw failure("the host may hold only letters, digits and - . _ ~ (and an IPv6 address in brackets)")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw failure("the port must be from 1 to 65535")
        }
        var segments = components.path.split(separator: "/").map(String.init)
        guard let project = segments.popLast(), Int(project) != nil else {
            throw failure("the last path segment must be the numeric project id")
        }
        guard segments.allSatisfy({ Self.isPlain($0, allowing: "!$&'()*+,;=:@") }) else {
            throw failure("the path may hold only letters, digits and - . _ ~ ! $ & ' ( ) * + , ; = : @")
        }
        self.scheme = scheme
        self.publicKey = key
        self.secretKey = components.password
        self.host = host
        self.port = components.port
        self.pathPrefix = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        self.projectID = project
    }

    /// Whether `text` holds only the characters a URL's part may hold as they are: ASCII letters and digits, `-._~`,
    /// and `extra`. A DSN is written back as text (``description``, an envelope's header), so it holds nothing a URL
    /// would have to escape, no control character, space or `%`.
    private static func isPlain(_ text: String, allowing extra: String = "") -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "-._~".unicodeScalars.contains(scalar) || extra.unicodeScalars.contains(scalar))
        }
    }

    /// Whether `host` is an IPv6 address in brackets (`[::1]`), as a URL writes one: hex digits, `:` and `.` inside.
    private static func isIPv6Literal(_ host: String) -> Bool {
        guard host.count > 2, host.hasPrefix("["), host.hasSuffix("]") else { return false }
        return host.dropFirst().dropLast().unicodeScalars.allSatisfy {
            $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "."
        }
    }

    /// The envelope endpoint, `{scheme}://{host}[:{port}]{prefix}/api/{project}/envelope/`.
    public var envelopeURL: URL {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        components.path = "\(pathPrefix)/api/\(projectID)/envelope/"
        return components.url!
    }

    /// The `X-Sentry-Auth` header value for a client named `client` (`name/version`).
    public func authHeader(client: String) -> String {
        var pairs = ["sentry_version=7", "sentry_client=\(client)", "sentry_key=\(publicKey)"]
        if let secretKey { pairs.append("sentry_secret=\(secretKey)") }
        return "Sentry " + pairs.joined(separator: ", ")
    }

    /// The DSN as text, without the secret key.
    public var description: String {
        let portPart = port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(publicKey)@\(host)\(portPart)\(pathPrefix)/\(projectID)"
    }
}
