import CFaultlineZlib

/// Decompresses gzip data that arrives in pieces, such as a rotated log file read a chunk at a time, handing out
/// each decompressed piece as it comes, so memory stays bounded whatever the file's size. Every member of
/// concatenated gzip data is read, as `gzip -dc` does.
package struct GzipStream: ~Copyable {
    private let inflater = Inflater()
    private var memberEnded = false
    private var failure: GzipError?

    package init() {}

    /// Decompresses the next piece of input, handing each decompressed piece to `output`. Pass `isEnd` with the
    /// last piece (it may be empty).
    ///
    /// - Returns: `nil` while the data is valid; ``GzipError/corrupt(_:)`` from the first invalid byte on, or
    ///   ``GzipError/truncated`` when the data ends inside a member. What was decompressed before is kept.
    package mutating func decompress(
        _ input: UnsafeRawBufferPointer, isEnd: Bool, into output: (UnsafeRawBufferPointer) -> Void
    ) -> GzipError? {
        if let failure { return failure }
        if !input.isEmpty {
            if memberEnded { inflater.reset() }
            let decompressed = inflater.decompress(piece: input) { piece in
                output(piece)
                return true
            }
            switch decompressed {
            case .failure(let error):
                failure = error
                return error
            case .success(let endedAtMember):
                memberEnded = endedAtMember
            }
        }
        if isEnd, !memberEnded { failure = .truncated }
        return failure
    }
}
