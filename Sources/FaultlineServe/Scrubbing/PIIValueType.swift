/// A type a selector names with `$`, as Relay names them: the JSON types, and the structures of Sentry's event
/// protocol (`$error` is an exception, `$stack` a stack trace, `$http` the request).
enum PIIValueType: String, CaseIterable, Hashable, Sendable {
    case string, number, boolean, datetime, array, object
    case event, error, stack, frame, http, user, logentry, message, thread, breadcrumb, span, sdk

    /// Other names Relay accepts for a type.
    static let aliases: [String: PIIValueType] = [
        "bool": .boolean, "list": .array, "exception": .error, "stacktrace": .stack, "request": .http,
    ]

    /// Whether the type is `$object` or `$array`.
    var isContainer: Bool { self == .object || self == .array }

    /// Whether the type is a JSON type rather than one of the protocol's: a selector of it alone names no specific
    /// place.
    var isBasic: Bool {
        switch self {
        case .string, .number, .boolean, .datetime, .array, .object: true
        default: false
        }
    }
}

/// A set of ``PIIValueType``s, one bit each.
struct PIIValueTypes: OptionSet, Hashable, Sendable {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ type: PIIValueType) { rawValue = Self.bits[type] ?? 0 }

    private static let bits = Dictionary(
        uniqueKeysWithValues: PIIValueType.allCases.enumerated().map { ($1, UInt32(1) << UInt32($0)) })

    func contains(_ type: PIIValueType) -> Bool { contains(PIIValueTypes(type)) }
}
