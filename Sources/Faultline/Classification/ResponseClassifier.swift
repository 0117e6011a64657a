import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decides whether a response is a failure and, if so, reads it with the error contract and the code catalogue.
struct ResponseClassifier: Sendable {
    let contract: ErrorContract
    let catalog: ServerCodeCatalog
    let maximumErrorBodySize: Int
    let bodyPreviewLimit: Int

    /// The failure a response signals, or `nil` when it is a success.
    func failure(in response: HTTPURLResponse, body: Data) -> ServerFailure? {
        let status = response.statusCode
        let serverError: ServerError?
        if (200..<300).contains(status) {
            guard let reader = contract.failureInSuccessfulBody, let error = reader(status, body) else { return nil }
            serverError = error
        } else {
            serverError = body.count <= maximumErrorBodySize ? contract.errorBody(status, body) : nil
        }
        let preview =
            serverError == nil && !body.isEmpty
            ? BodyPreview(
                body: body, contentType: response.value(forHTTPHeaderField: "Content-Type"), limit: bodyPreviewLimit)
            : nil
        return ServerFailure(
            statusCode: status, serverError: serverError, category: serverError?.code.flatMap(catalog.category(for:)),
            bodyPreview: preview, bodySize: body.count, response: response)
    }
}
