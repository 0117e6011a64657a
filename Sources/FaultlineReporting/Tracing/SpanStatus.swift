import Faultline

/// How a span ended, in Sentry's span statuses (those of gRPC), as its SDKs map HTTP statuses to them.
enum SpanStatus: String, Sendable {
    case ok
    case cancelled
    case unknown
    case invalidArgument = "invalid_argument"
    case deadlineExceeded = "deadline_exceeded"
    case notFound = "not_found"
    case alreadyExists = "already_exists"
    case permissionDenied = "permission_denied"
    case resourceExhausted = "resource_exhausted"
    case failedPrecondition = "failed_precondition"
    case unimplemented
    case unavailable
    case internalError = "internal_error"
    case unauthenticated

    /// The status of a response with HTTP status `status`.
    init(httpStatus status: Int) {
        switch status {
        case 200..<400: self = .ok
        case 401: self = .unauthenticated
        case 403: self = .permissionDenied
        case 404: self = .notFound
        case 409: self = .alreadyExists
        case 412: self = .failedPrecondition
        case 429: self = .resourceExhausted
        case 499: self = .cancelled
        case 400..<500: self = .invalidArgument
        case 501: self = .unimplemented
        case 503: self = .unavailable
        case 504: self = .deadlineExceeded
        case 500..<600: self = .internalError
        default: self = .unknown
        }
    }

    /// The status of a request that failed with `failure`: its response's, else its kind's.
    init(_ failure: RequestFailure) {
        switch failure.reason {
        case .server(let server): self.init(httpStatus: server.statusCode)
        case .decoding: self = .internalError
        case .sessionExpired: self = .unauthenticated
        case .cancelled: self = .cancelled
        case .transport(let transport): self = transport.family == .timeout ? .deadlineExceeded : .unavailable
        }
    }
}
