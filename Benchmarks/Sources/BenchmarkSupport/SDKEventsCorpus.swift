import Foundation

/// A log of error events as the official Python SDK sends them from a Django service, with no fingerprint, so that
/// `faultline` groups them as Sentry does: fifteen frames each, Django, REST framework, SQLAlchemy and requests from
/// site-packages (not in-app) among the app's own, every frame with its source line, context and local variables,
/// about 8.7 KB an event (`averageLine`). Sixty stack traces recur, as every event of one bug sends the same frames with other local
/// variables; with `distinctLineNumbers`, each event's frames have line numbers of their own, which Python's grouping
/// does not read, so the same events group into the same issues while no stack trace is ever seen twice. The same
/// seed makes the same bytes.
public struct SDKEventsCorpus {
    /// What was written.
    public struct Written: Sendable {
        public let events: Int
        public let bytes: Int
    }

    private struct Frame {
        let path: String
        let module: String
        let function: String
        let isInApp: Bool
    }

    /// About how many bytes an event takes.
    public static let averageLine = 8_700

    private var generator: SplitMix64
    private let stacks: [(type: String, frames: [Frame])]
    private let distinctLineNumbers: Bool
    private let withFingerprint: Bool

    /// - Parameters:
    ///   - distinctLineNumbers: every event's frames with line numbers of their own, so that no stack trace recurs.
    ///   - withFingerprint: every event with a fingerprint of its type and last frame's function, as an SDK's
    ///     `before_send` sets one, so that nothing is grouped by its stack trace.
    public init(seed: UInt64, distinctLineNumbers: Bool = false, withFingerprint: Bool = false) {
        var generator = SplitMix64(seed: seed)
        let libraries = [
            ("django/core/handlers/base.py", "django.core.handlers.base", "_get_response"),
            ("django/core/handlers/exception.py", "django.core.handlers.exception", "inner"),
            ("django/views/generic/base.py", "django.views.generic.base", "view"),
            ("django/views/generic/base.py", "django.views.generic.base", "dispatch"),
            ("rest_framework/views.py", "rest_framework.views", "dispatch"),
            ("rest_framework/views.py", "rest_framework.views", "handle_exception"),
            ("sqlalchemy/orm/query.py", "sqlalchemy.orm.query", "one"),
            ("sqlalchemy/engine/base.py", "sqlalchemy.engine.base", "_execute_context"),
            ("requests/api.py", "requests.api", "request"),
            ("requests/sessions.py", "requests.sessions", "send"),
            ("urllib3/connectionpool.py", "urllib3.connectionpool", "urlopen"),
        ].map {
            Frame(path: "/usr/local/lib/python3.11/site-packages/" + $0.0, module: $0.1, function: $0.2, isInApp: false)
        }
        let appFrames = ["views", "service", "repo", "billing", "cart"].flatMap { file in
            ["get", "create", "lookup", "charge", "total", "render"].map { function in
                Frame(
                    path: "/srv/shop/app/orders/\(file).py", module: "app.orders.\(file)", function: function,
                    isInApp: true)
            }
        }
        let types = ["KeyError", "ValueError", "OperationalError", "TimeoutError"]
        stacks = (0..<60).map { _ in
            let frames = (0..<15).map { index in
                let choices = index < 6 || index % 3 == 0 ? libraries : appFrames
                return choices[Int(generator.next() % UInt64(choices.count))]
            }
            return (types[Int(generator.next() % UInt64(types.count))], frames)
        }
        self.generator = generator
        self.distinctLineNumbers = distinctLineNumbers
        self.withFingerprint = withFingerprint
    }

    /// Writes `events` events as JSON Lines to `url`, replacing it: a second apart, ending an hour ago.
    public mutating func write(to url: URL, events: Int) throws -> Written {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        let start = Date().timeIntervalSince1970 - 3_600 - Double(events)
        var written = Written(events: 0, bytes: 0)
        var buffer = Data()
        while written.events < events {
            var line = event(written.events, at: start + Double(written.events))
            line.append("\n")
            buffer.append(contentsOf: line.utf8)
            written = Written(events: written.events + 1, bytes: written.bytes + line.utf8.count)
            if buffer.count >= 1 << 20 {
                file.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        file.write(buffer)
        return written
    }

    private mutating func event(_ index: Int, at timestamp: Double) -> String {
        let (type, stack) = stacks[index % stacks.count]
        let frames = stack.enumerated().map { position, frame in
            let line = distinctLineNumbers ? 10 + Int(generator.next() % 5_000) : 10 + position * 37
            let file = frame.path.split(separator: "/").suffix(2).joined(separator: "/")
            return """
                {"filename":"\(file)","abs_path":"\(frame.path)","function":"\(frame.function)",\
                "module":"\(frame.module)","lineno":\(line),"in_app":\(frame.isInApp),\
                "context_line":"        result = \(frame.function)(request, *args, **kwargs)",\
                "pre_context":["    def \(frame.function)(self, request):","        try:","            self.check()"],\
                "post_context":["        except Exception:","            raise"],\
                "vars":{"request":"<WSGIRequest: GET '/orders/\(index)'>",\
                "self":"<View object at 0x7f\(String(generator.next() & 0xFFFF_FFFF, radix: 16))>","args":"()",\
                "kwargs":{"id":"\(index)"}}}
                """
        }
        let fingerprint = withFingerprint ? #","fingerprint":["\#(type)","\#(stack[stack.count - 1].function)"]"# : ""
        return """
            {"event_id":"\(hex(16))","timestamp":\(timestamp),"platform":"python","level":"error",\
            "release":"shop@1.\(index % 3)","environment":"production","server_name":"web-\(index % 8)",\
            "sdk":{"name":"sentry.python","version":"2.19.0"},\
            "user":{"id":"\(index % 500)","ip_address":"10.0.0.\(index % 250)"},\
            "contexts":{"runtime":{"name":"CPython","version":"3.11.4"},\
            "trace":{"trace_id":"\(hex(16))","span_id":"\(hex(8))"}},\
            "exception":{"values":[{"type":"\(type)","value":"'order-\(index)'","module":null,\
            "mechanism":{"type":"django","handled":false},"stacktrace":{"frames":[\(frames.joined(separator: ","))]}}]}\
            \(fingerprint)}
            """
    }

    /// `bytes` random bytes in lower-case hex.
    private mutating func hex(_ bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", generator.next() & 0xFF) }.joined()
    }
}
