/// Maps business codes to categories: ranges agreed with the server team, plus explicit exceptions for the codes
/// that do not fit their range (real catalogues are messy: a server may answer a 404 with `40091`, a bad-request
/// code).
///
/// ```swift
/// let catalog = ServerCodeCatalog(
///     ranges: [40000...40099: .badRequest, 40100...40199: .unauthorized, 40400...40499: .notFound],
///     exceptions: [40091: .notFound])
/// ```
public struct ServerCodeCatalog: Sendable {
    /// A category of business codes. Define your own with `ServerCodeCategory(rawValue:)`.
    public struct Category: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The category's name, used in tags and reports.
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.init(rawValue: value) }
        public var description: String { rawValue }

        public static let badRequest: Category = "bad_request"
        public static let unauthorized: Category = "unauthorized"
        public static let forbidden: Category = "forbidden"
        public static let notFound: Category = "not_found"
        public static let methodNotAllowed: Category = "method_not_allowed"
        public static let conflict: Category = "conflict"
        public static let internalError: Category = "internal"
    }

    /// Integer ranges of codes and their categories; the first range that contains a code wins.
    public let ranges: [(codes: ClosedRange<Int>, category: Category)]
    /// Codes whose category is not the one their range implies; checked before the ranges.
    public let exceptions: [ServerCode: Category]

    /// Creates a catalogue from ranges and exceptions.
    public init(ranges: KeyValuePairs<ClosedRange<Int>, Category>, exceptions: [ServerCode: Category] = [:]) {
        self.ranges = ranges.map { (codes: $0.key, category: $0.value) }
        self.exceptions = exceptions
    }

    /// A catalogue that categorises nothing.
    public static let empty = ServerCodeCatalog(ranges: [:])

    /// The category of `code`: its exception if it has one, else the first range holding its integer value.
    public func category(for code: ServerCode) -> Category? {
        if let exception = exceptions[code] { return exception }
        guard let value = code.intValue else { return nil }
        return ranges.first { $0.codes.contains(value) }?.category
    }
}
