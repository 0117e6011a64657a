import Faultline
import FaultlineRecords
import FaultlineReporting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A large local log made by the pipeline's own event builder and encoder: classified server, decoding and
/// transport failures on many routes, with Zipf-distributed issues, thousands of users, several releases, unique
/// event ids and times spread over a week, in time order. The same seed and shape make the same bytes.
public struct LogCorpus {
    /// How big the events are.
    public enum Shape: String, Sendable, CaseIterable {
        /// 0–100 breadcrumbs each, about 7 KB an event on average, 2 000 users: bytes dominate.
        case mixed
        /// 4–5 breadcrumbs each, about 2 KB an event, 10 000 users: the cost per event shows.
        case small

        /// The breadcrumbs of one event, from `random`.
        func breadcrumbCount(_ random: UInt64) -> Int {
            switch self {
            case .mixed: Int(random % 101)
            case .small: 4 + Int(random % 2)
            }
        }

        var users: Int { self == .mixed ? 2_000 : 10_000 }
        var averageLine: Int { self == .mixed ? 7_000 : 2_000 }
    }

    /// What was written.
    public struct Written: Sendable {
        public let events: Int
        public let bytes: Int
    }

    private var generator: SplitMix64
    private let templates: [SentryEvent]
    private let breadcrumbs: [Breadcrumb]
    /// The running sums of the templates' Zipf weights, 1 / (index + 1).
    private let cumulativeWeights: [Double]
    private let releases = ["boleto-ios@4.2.0+310", "boleto-ios@4.1.3+301", "boleto-android@4.2.0", "web@2026.11.2"]
    private let shape: Shape

    public init(seed: UInt64, shape: Shape = .mixed) {
        generator = SplitMix64(seed: seed)
        self.shape = shape
        templates = Self.failures().compactMap { failure, request in
            FailureEventBuilder().event(for: failure, request: request)
        }
        cumulativeWeights = (1...templates.count).reduce(into: []) { sums, rank in
            sums.append((sums.last ?? 0) + 1 / Double(rank))
        }
        breadcrumbs = (0..<100).map { index in
            Breadcrumb(
                type: "http", category: "http",
                data: [
                    "method": "GET", "url": .string("https://api.boleto.example/v1/items/\(index)"),
                    "status_code": .int(200),
                ])
        }
    }

    /// Writes at least `bytes` of JSON Lines to `url`, replacing it.
    public mutating func write(to url: URL, bytes target: Int) throws -> Written {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        let end = Date(timeIntervalSince1970: 1_795_392_000)  // 2026-11-23T00:00:00Z
        let week = 7 * 86_400.0
        let expectedEvents = max(1, target / shape.averageLine)
        var written = Written(events: 0, bytes: 0)
        var buffer = Data()
        while written.bytes < target {
            let offset = week * Double(min(written.events, expectedEvents)) / Double(expectedEvents)
            let line = nextEvent(at: end.addingTimeInterval(offset - week)).json
            buffer.append(line)
            buffer.append(UInt8(ascii: "\n"))
            written = Written(events: written.events + 1, bytes: written.bytes + line.count + 1)
            if buffer.count >= 1 << 20 {
                file.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        file.write(buffer)
        return written
    }

    /// The next event of the corpus, dated `date`, with its id.
    public mutating func nextEvent(at date: Date) -> (id: String, json: Data) {
        var event = templates[zipfIndex()]
        event.eventID = String(format: "%016llx%016llx", generator.next(), generator.next())
        event.timestamp = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let user = Int(generator.next() % UInt64(shape.users))
        event.user = UserContext(id: "user-\(user)", segment: ["KAKAO", "APPLE", "EMAIL"][user % 3])
        event.release = releases[Int(generator.next() % UInt64(releases.count))]
        let crumbs = shape.breadcrumbCount(generator.next())
        event.breadcrumbs = crumbs == 0 ? nil : SentryEvent.Values(Array(breadcrumbs.suffix(crumbs)))
        return (event.eventID, EventEncoder.encode(event))
    }

    /// A template's index, with probability proportional to 1 / (index + 1).
    private mutating func zipfIndex() -> Int {
        let point = Double(generator.next() >> 11) / Double(1 << 53) * cumulativeWeights[cumulativeWeights.count - 1]
        return cumulativeWeights.firstIndex { point < $0 } ?? cumulativeWeights.count - 1
    }

    /// Failures as the client classifies them: business codes on ten routes, an HTML 502, decoding paths, transport
    /// families.
    private static func failures() -> [(RequestFailure, URLRequest)] {
        let classifier = FailureClassifier(
            contract: .envelope(), catalog: ServerCodeCatalog(ranges: [40000...40999: .badRequest]))
        var failures: [(RequestFailure, URLRequest)] = []
        let routes: [(HTTPMethod, String)] = [
            (.post, "/v1/boletos"), (.get, "/v1/boletos/{id}"), (.post, "/boleto/travels"),
            (.patch, "/boleto/travels/{id}"), (.get, "/boleto/users/{id}"), (.post, "/boleto/auth/refresh"),
            (.get, "/e05/posts/{id}"), (.post, "/v1/payments"), (.get, "/v1/orders/{id}"), (.delete, "/v1/cards/{id}"),
        ]
        let statuses: [(Int, String?, String)] = [
            (400, "40013", "여행 일정이 중복됩니다."), (409, "40901", "Boleto already issued"),
            (403, "40304", "이미 잠긴 여행입니다."), (500, nil, "internal error"),
        ]
        for (routeIndex, (method, route)) in routes.enumerated() {
            for (status, code, message) in statuses.prefix(2 + routeIndex % 3) {
                let body = code.map { #"{"success": false, "error": {"code": \#($0), "message": "\#(message)"}}"# }
                let (request, context) = Self.request(method, route, status: status)
                let response = HTTPURLResponse(
                    url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                    headerFields: ["Content-Type": "application/json"])!
                let failure = classifier.failure(in: response, body: Data((body ?? message).utf8))!
                failures.append((RequestFailure(.server(failure), context: context), request))
            }
        }
        let html = "<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>"
        let (proxied, proxyContext) = Self.request(.get, "/proxy/users/{id}", status: 502)
        let badGateway = HTTPURLResponse(
            url: proxied.url!, statusCode: 502, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/html"])!
        failures.append(
            (
                RequestFailure(
                    .server(classifier.failure(in: badGateway, body: Data(html.utf8))!), context: proxyContext),
                proxied
            ))
        for (type, path) in [
            ("Envelope<User>", "data.profileImage"), ("Envelope<Travel>", "data.startDate"),
            ("Envelope<[Sticker]>", "data[3].code"), ("Envelope<Boleto>", "data.amount"),
        ] {
            let (request, context) = Self.request(.get, "/boleto/users/{id}", status: 200)
            let decoding = DecodingFailure(
                typeName: type, codingPath: path, kind: .valueNotFound, expectedType: "String",
                debugDescription: "Cannot get value of type String -- found null value instead")
            failures.append((RequestFailure(.decoding(decoding), context: context), request))
        }
        for code in [URLError.Code.timedOut, .notConnectedToInternet, .cannotFindHost, .networkConnectionLost] {
            let (request, context) = Self.request(.get, "/v1/orders/{id}", status: nil)
            failures.append((RequestFailure(.transport(TransportFailure(URLError(code))), context: context), request))
        }
        return failures
    }

    private static func request(_ method: HTTPMethod, _ route: String, status: Int?) -> (URLRequest, RequestContext) {
        let url = URL(string: "https://api.boleto.example\(route.replacingOccurrences(of: "{id}", with: "8812"))")!
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.setValue(
            "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if method != .get { request.httpBody = Data(#"{"amount": 1250, "due": "2026-12-01", "password": "x"}"#.utf8) }
        var context = RequestContext(requestID: "4f1c2a9e", method: method, route: route, url: url, allowsRetry: false)
        context.statusCode = status
        return (request, context)
    }
}

/// Sebastiano Vigna's SplitMix64: a small, fast, seedable generator, so that a seed always makes the same corpus.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
