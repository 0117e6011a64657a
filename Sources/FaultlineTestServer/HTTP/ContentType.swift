/// The `Content-Type` values the server sends.
enum ContentType {
    /// Every JSON body, including the deliberately broken ones that still claim to be JSON.
    static let json = "application/json; charset=utf-8"
    /// Generated HTML pages.
    static let html = "text/html; charset=utf-8"
    /// What nginx sends with its own error pages.
    static let nginxHTML = "text/html"
    /// Plain text such as `/health`'s `ok`.
    static let text = "text/plain; charset=utf-8"
}
