/// A response that arrived with a success status but whose body did not decode into the expected type.
///
/// The failure names the field: ``codingPath`` is `data.profileImage` when a user's `profileImage` came back `null`
/// inside the envelope's `data`. For a missing key the key itself is appended, because Swift's `codingPath` stops at
/// the container that lacked it.
public struct DecodingFailure: Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, mirroring the cases of `Swift.DecodingError`.
    public enum Kind: String, Hashable, Sendable {
        /// A required key was absent.
        case keyNotFound
        /// A value was `null` where the type does not allow it.
        case valueNotFound
        /// A value had another JSON type than expected (a string where a number was expected).
        case typeMismatch
        /// The body was not valid JSON, or a value was invalid for its type.
        case dataCorrupted
    }

    /// The type being decoded, such as `Envelope<User>`.
    public let typeName: String
    /// The dotted path to the failing value, with array indices in brackets: `data.items[3].name`; empty for the root.
    public let codingPath: String
    /// What went wrong.
    public let kind: Kind
    /// The type the decoder expected at ``codingPath``, when the error names one.
    public let expectedType: String?
    /// The decoder's own explanation.
    public let debugDescription: String

    /// Creates a decoding failure from its parts.
    public init(typeName: String, codingPath: String, kind: Kind, expectedType: String?, debugDescription: String) {
        self.typeName = typeName
        self.codingPath = codingPath
        self.kind = kind
        self.expectedType = expectedType
        self.debugDescription = debugDescription
    }

    /// Describes any error thrown while decoding `type`; errors other than `DecodingError` count as corrupted data.
    public init(_ error: any Error, decoding type: Any.Type) {
        let typeName = String(describing: type)
        guard let error = error as? DecodingError else {
            self.init(
                typeName: typeName, codingPath: "", kind: .dataCorrupted, expectedType: nil,
                debugDescription: String(describing: error))
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(
                typeName: typeName, codingPath: Self.format(context.codingPath + [key]), kind: .keyNotFound,
                expectedType: nil, debugDescription: context.debugDescription)
        case .valueNotFound(let expected, let context):
            self.init(
                typeName: typeName, codingPath: Self.format(context.codingPath), kind: .valueNotFound,
                expectedType: String(describing: expected), debugDescription: context.debugDescription)
        case .typeMismatch(let expected, let context):
            self.init(
                typeName: typeName, codingPath: Self.format(context.codingPath), kind: .typeMismatch,
                expectedType: String(describing: expected), debugDescription: context.debugDescription)
        case .dataCorrupted(let context):
            self.init(
                typeName: typeName, codingPath: Self.format(context.codingPath), kind: .dataCorrupted,
                expectedType: nil, debugDescription: Self.describe(context))
        @unknown default:
            self.init(
                typeName: typeName, codingPath: "", kind: .dataCorrupted, expectedType: nil,
                debugDescription: String(describing: error))
        }
    }

    public var description: String {
        let path = codingPath.isEmpty ? "the root" : "'\(codingPath)'"
        let expected = expectedType.map { " (expected \($0))" } ?? ""
        return "\(kind.rawValue) at \(path) decoding \(typeName)\(expected): \(debugDescription)"
    }

    private static func format(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { formatted, key in
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                formatted += "[\(index)]"
            } else {
                formatted += formatted.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    private static func describe(_ context: DecodingError.Context) -> String {
        guard let underlying = context.underlyingError else { return context.debugDescription }
        return "\(context.debugDescription) \(underlying)"
    }
}
