#if OpenAPIRuntime
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime

    /// A response body read so that the classifier can look at it, and the body passed on to the generated client in
    /// its place.
    struct ResponseBody {
        /// The bytes read, or `nil` when the body was not read: it is over the limit, or a success body that is not JSON
        /// (a stream, a download).
        let data: Data?
        /// What the next middleware or the client reads instead: a fresh body with the same bytes.
        let body: HTTPBody?

        /// Reads `body` when `response` failed, or succeeded with JSON when `successfulBodies` is set, up to `limit`
        /// bytes. A body whose length is known to be over the limit is not read; one of unknown length is read whole,
        /// as the client would read it, and only a body within the limit is classified.
        static func read(
            _ body: HTTPBody?, of response: HTTPResponse, limit: Int, successfulBodies: Bool
        ) async throws -> ResponseBody {
            guard let body else { return ResponseBody(data: Data(), body: nil) }
            if response.status.kind == .successful {
                let type = response.headerFields[.contentType]?.lowercased() ?? ""
                guard successfulBodies, type.contains("json") else { return ResponseBody(data: nil, body: body) }
            }
            if case .known(let length) = body.length, length > Int64(limit) {
                return ResponseBody(data: nil, body: body)
            }
            let bytes = try await [UInt8](collecting: body, upTo: .max)
            return ResponseBody(data: bytes.count <= limit ? Data(bytes) : nil, body: HTTPBody(bytes))
        }
    }
#endif
