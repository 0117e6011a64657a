/// What becomes of an envelope after one attempt to send it.
enum DeliveryPolicy: Equatable {
    /// The server accepted it (2xx): delete it.
    case delivered
    /// Send it again later: no response (a network error), 429, 502, 503 or 504.
    case retry
    /// The server refused it for good (413, another 4xx, 500, any other status): delete it and count it as
    /// `send_error`.
    case drop

    /// The policy for a response with `status`, or for no response when `status` is `nil`.
    init(status: Int?) {
        switch status {
        case nil, 429?, 502?, 503?, 504?: self = .retry
        case (200..<300)?: self = .delivered
        default: self = .drop
        }
    }
}
