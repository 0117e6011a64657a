/// The fixed body of `GET /bench/item`, 1061 bytes of plain-ASCII JSON that the client-overhead benchmark decodes:
///
/// ```json
/// {"active":true,"bio":"Synthetic record served by … officia deserunt.","email":"bench@faultline.test","id":42,
///  "name":"Faultline Benchmark","score":97.5,"tags":["benchmark","fixture","ascii","profile","loopback"]}
/// ```
///
/// `id` is an `Int`, `name`, `email` and `bio` (896 characters) are `String`s, `active` a `Bool`, `score` a
/// `Double` and `tags` an array of five `String`s; keys sorted, no whitespace.
struct BenchItem: Encodable, Sendable {
    /// The item every request gets.
    static let fixture = BenchItem()

    let id = 42
    let name = "Faultline Benchmark"
    let email = "bench@faultline.test"
    let active = true
    let score = 97.5
    let tags = ["benchmark", "fixture", "ascii", "profile", "loopback"]
    let bio = """
        Synthetic record served by the Faultline test server for the client-overhead benchmark. It is plain ASCII \
        text so that decoding cost is dominated by the JSON structure rather than by Unicode handling. The record \
        mimics a typical user profile returned by a mobile API: an identifier, a display name, a contact address, \
        a flag, a numeric score and a handful of tags. The remaining sentences only pad the body to about one \
        kilobyte, the size of a small but realistic API response. Lorem ipsum dolor sit amet, consectetur \
        adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim \
        veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure \
        dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint \
        occaecat cupidatat non proident, sunt in culpa qui officia deserunt.
        """
}
