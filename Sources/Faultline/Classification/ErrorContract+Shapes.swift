import Foundation

extension ErrorContract {
    /// An envelope around every response: `{"success": Bool, "data": T?, "error": {"code": Int|String, "message":
    /// String}?}`.
    ///
    /// - Parameters:
    ///   - successKey: The key of the success flag. When it is set (`"success"` by default), a 2xx whose flag is
    ///     `false` is a failure. `nil` ignores the flag.
    ///   - errorKey: The key of the error object, `"error"` by default.
    ///   - codeKey: The key of the business code inside the error object, `"code"` by default.
    ///   - messageKey: The key of the message inside the error object, `"message"` by default.
    public static func envelope(
        successKey: String? = "success", errorKey: String = "error", codeKey: String = "code",
        messageKey: String = "message"
    ) -> ErrorContract {
        let readError: Reader = { _, body in
            guard let object = jsonObject(body), let error = object[errorKey] as? [String: Any] else { return nil }
            return serverError(code: error[codeKey], message: error[messageKey])
        }
        guard let successKey else { return ErrorContract(errorBody: readError) }
        return ErrorContract(
            errorBody: readError,
            failureInSuccessfulBody: { status, body in
                guard let object = jsonObject(body), (object[successKey] as? Bool) == false else { return nil }
                return readError(status, body) ?? ServerError(code: nil, message: nil)
            })
    }

    /// A flat error body: `{"errorCode": "E05"}`, with an optional message beside the code.
    ///
    /// - Parameters:
    ///   - codeKey: The key of the business code, `"errorCode"` by default.
    ///   - messageKey: The key of the message, `"message"` by default.
    public static func flatCode(codeKey: String = "errorCode", messageKey: String = "message") -> ErrorContract {
        ErrorContract(errorBody: { _, body in
            guard let object = jsonObject(body), object[codeKey] != nil else { return nil }
            return serverError(code: object[codeKey], message: object[messageKey])
        })
    }

    /// RFC 9457 problem details (`application/problem+json`).
    ///
    /// The code is the `code` extension member when present, else the `type` URI unless it is `about:blank`;
    /// the message is `detail`, else `title`.
    public static let problemDetails = ErrorContract(errorBody: { _, body in
        guard let object = jsonObject(body), object["title"] != nil || object["detail"] != nil || object["type"] != nil
        else { return nil }
        let type = (object["type"] as? String).flatMap { $0 == "about:blank" ? nil : $0 }
        return serverError(code: object["code"] ?? type, message: object["detail"] ?? object["title"])
    })

    private static func jsonObject(_ body: Data) -> [String: Any]? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    private static func serverError(code: Any?, message: Any?) -> ServerError? {
        let code = serverCode(code)
        let message = message as? String
        guard code != nil || message != nil else { return nil }
        return ServerError(code: code, message: message)
    }

    private static func serverCode(_ value: Any?) -> ServerCode? {
        switch value {
        case let text as String:
            ServerCode(rawValue: text)
        case let number as Int:
            ServerCode(integerLiteral: number)
        default:
            nil
        }
    }
}
