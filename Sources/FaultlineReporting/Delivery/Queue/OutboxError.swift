/// Why an envelope could not be stored in the outbox.
enum OutboxError: Error, Hashable, CustomStringConvertible {
    /// The envelope alone is larger than the whole outbox may be.
    case envelopeTooLarge(size: Int, limit: Int)

    var description: String {
        switch self {
        case .envelopeTooLarge(let size, let limit):
            "The envelope takes \(size) bytes, more than the outbox's limit of \(limit) bytes; raise "
                + "Uploader.Configuration.maxOutboxBytes to keep envelopes this large."
        }
    }
}
