import Hummingbird
import NIOCore

/// The context of a request to the ingest: Hummingbird's, with the client's address for the access log.
struct IngestRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
