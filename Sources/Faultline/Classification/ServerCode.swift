/// A business code from a server's error body, such as `40101` or `"E05"`.
///
/// Servers disagree on whether codes are numbers or strings, so the code keeps its text and offers an integer view.
/// It compares equal to integer and string literals: `failure.code == 40013`, `failure.code == "E05"`.
public struct ServerCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral
{
    /// The code as text, exactly as the server sent it (numbers in their decimal form).
    public let rawValue: String

    /// Creates a code from its text.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public init(integerLiteral value: Int) {
        self.init(rawValue: String(value))
    }

    /// The code as an integer, or `nil` when it is not a whole number (`"E05"`).
    public var intValue: Int? { Int(rawValue) }

    public var description: String { rawValue }

    /// Decodes a code sent either as a JSON string or as a JSON number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self.init(integerLiteral: number)
        } else {
            self.init(rawValue: try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let intValue {
            try container.encode(intValue)
        } else {
            try container.encode(rawValue)
        }
    }
}
