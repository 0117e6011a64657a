import Hummingbird

/// Seed 000's envelope, `{"success": Bool, "data": T|null, "error": {"code": Int, "message": String}|null}`, with
/// both optional members always present (as `null` when absent).
struct BoletoEnvelope<Payload: Encodable & Sendable>: Encodable, Sendable {
    /// The envelope's `error` member.
    struct Failure: Encodable, Sendable {
        let code: Int
        let message: String
    }

    let success: Bool
    let data: Payload?
    let error: Failure?

    private enum CodingKeys: String, CodingKey {
        case success
        case data
        case error
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encode(data, forKey: .data)
        try container.encode(error, forKey: .error)
    }
}

extension BoletoEnvelope {
    /// `{"success": true, "data": data, "error": null}`.
    init(data: Payload) {
        self.init(success: true, data: data, error: nil)
    }
}

extension BoletoEnvelope<Never> {
    /// `{"success": false, "data": null, "error": {"code": row.code, "message": row.message}}`.
    init(failure row: BoletoErrorCode) {
        self.init(success: false, data: nil, error: Failure(code: row.code, message: row.message))
    }
}

extension Response {
    /// The Boleto server's answer for `row`: its status (unless `status` overrides it) and an envelope carrying its
    /// code and message.
    static func boletoFailure(_ row: BoletoErrorCode, status: HTTPResponse.Status? = nil) throws -> Response {
        try json(BoletoEnvelope(failure: row), status: status ?? HTTPResponse.Status(code: row.httpStatus))
    }

    /// The Boleto server's success: `data` in an envelope.
    static func boletoSuccess(_ data: some Encodable & Sendable) throws -> Response {
        try json(BoletoEnvelope(data: data))
    }
}
