/// One row of seed 000's error-code table: the Boleto server's business code, the HTTP status it travels with,
/// and the user-facing Korean message.
///
/// ``all`` is the table verbatim, in the order of the post, messy rows included: codes shared by several names
/// (40400 twice, 40401 six times, 40903 twice) and codes outside their agreed range (`NOT_FOUND_SYS_STICKER` is
/// 40091 with a 404, `NOT_FOUND_SYS_FRAME` 40490, `NOT_FOUND_TICKET` 40492).
package struct BoletoErrorCode: Sendable, Equatable {
    /// The Java enum constant, such as `EXPIRED_TOKEN_ERROR`.
    package let name: String
    /// The business code, such as `40101`.
    package let code: Int
    /// The HTTP status code the server sends with it, such as `401`.
    package let httpStatus: Int
    /// The user-facing message, byte for byte as in the post.
    package let message: String

    /// The first row of ``all`` called `name`, or `nil` when the table has none.
    package static func named(_ name: String) -> BoletoErrorCode? {
        all.first { $0.name == name }
    }
}

extension BoletoErrorCode {
    /// `401` 40101: an expired access token, and the refresh endpoint's answer to any refresh token it refuses.
    static let expiredToken = row("EXPIRED_TOKEN_ERROR")
    /// `401` 40102: an access token the server never issued.
    static let invalidToken = row("INVALID_TOKEN_ERROR")
    /// `404` 40401: no `Authorization` header (the seed really maps it to 404).
    static let missingAuthorizationHeader = row("NOT_FOUND_AUTHORIZATION_HEADER")
    /// `400` 40002: a path or query parameter in the wrong format.
    static let invalidParameterFormat = row("INVALID_PARAMETER_FORMAT")
    /// `404` 40401: no user with that id.
    static let userNotFound = row("NOT_FOUND_USER")
    /// `400` 40013: the travel overlaps another.
    static let travelOverlap = row("TRAVEL_OVERLAP")
    /// `403` 40304: the travel is locked.
    static let travelAlreadyLocked = row("TRAVEL_ALREADY_LOCKED")
    /// `409` 40903: the sticker code is duplicated (sent inside a 200 by the sticker route).
    static let duplicatedSystemStickerCode = row("DUPLICATED_SYS_STICKER_CODE")
    /// `404` 40400: no such endpoint.
    static let endpointNotFound = row("NOT_FOUND_END_POINT")
    /// `500` 50000: the server failed.
    static let internalServerError = row("INTERNAL_SERVER_ERROR")

    private static func row(_ name: String) -> BoletoErrorCode {
        guard let row = named(name) else { preconditionFailure("\(name) is not in seed 000's table") }
        return row
    }
}
