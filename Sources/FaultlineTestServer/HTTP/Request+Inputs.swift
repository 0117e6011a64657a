import Foundation
import Hummingbird

extension Request {
    /// The largest request body the server reads; bigger bodies are treated as unreadable.
    private static let maximumBodySize = 64 * 1024

    /// The token of `Authorization: Bearer <token>` (scheme matched case-insensitively); the whole header value when
    /// it uses another scheme, so it counts as a token nobody issued; `nil` when there is no `Authorization` header.
    var presentedAccessToken: String? {
        guard let authorization = headers[.authorization] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return authorization }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The JSON body decoded as `type`, or `nil` when it is missing, too large or not that JSON.
    func decodedJSONBody<Body: Decodable>(as type: Body.Type) async -> Body? {
        guard let buffer = try? await body.collect(upTo: Self.maximumBodySize) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
    }

    /// The query parameter `name` as an integer: `defaultValue` when absent, `nil` when it is not an integer in
    /// `range`.
    func integerQueryParameter(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) -> Int? {
        guard let text = uri.queryParameters.get(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
