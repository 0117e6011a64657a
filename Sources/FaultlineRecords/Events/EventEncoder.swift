import Foundation

/// Encodes events as the compact JSON that is both their local log line and their envelope payload: one line, keys
/// sorted so that the same event always has the same bytes, slashes unescaped. The bytes are those `JSONEncoder`
/// writes with `.sortedKeys` and `.withoutEscapingSlashes`, written directly, at a fraction of `JSONEncoder`'s cost
/// (Benchmarks/README.md).
package enum EventEncoder {
    /// The event's JSON bytes.
    ///
    /// - Parameter encodedBreadcrumbs: the bytes of the event's breadcrumbs, each as ``encode(_:)-(Breadcrumb)``
    ///   wrote it, when the caller has them (a scope encodes each breadcrumb once, as it enters); `nil` encodes them.
    package static func encode(_ event: SentryEvent, encodedBreadcrumbs: [[UInt8]]? = nil) -> Data {
        var writer = JSONWriter()
        writer.write(event, encodedBreadcrumbs: encodedBreadcrumbs)
        return Data(writer.bytes)
    }

    /// The breadcrumb's JSON bytes, as an event's encoding writes them.
    package static func encode(_ breadcrumb: Breadcrumb) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.write(breadcrumb)
        return writer.bytes
    }
}

// Each shape writes its members in the sorted order of their JSON keys, and leaves out what is `nil`, as the
// synthesized `Encodable` conformances do.
extension JSONWriter {
    fileprivate mutating func write(_ event: SentryEvent, encodedBreadcrumbs: [[UInt8]]?) {
        object { writer in
            if let breadcrumbs = event.breadcrumbs {
                writer.key("breadcrumbs")
                if let encoded = encodedBreadcrumbs {
                    writer.values(encoded) { $0.json($1) }
                } else {
                    writer.values(breadcrumbs.values) { $0.write($1) }
                }
            }
            writer.member("contexts", event.contexts)
            writer.member("dist", event.dist)
            writer.member("environment", event.environment)
            writer.member("event_id", event.eventID)
            if let exception = event.exception {
                writer.key("exception")
                writer.values(exception.values) { $0.write($1) }
            }
            writer.member("extra", event.extra)
            if let fingerprint = event.fingerprint {
                writer.key("fingerprint")
                writer.array(fingerprint) { $0.string($1) }
            }
            writer.member("level", event.level.rawValue)
            writer.member("logger", event.logger)
            writer.member("message", event.message)
            writer.member("platform", event.platform)
            writer.member("release", event.release)
            if let request = event.request {
                writer.key("request")
                writer.write(request)
            }
            writer.key("sdk")
            writer.object {
                $0.member("name", event.sdk.name)
                $0.member("version", event.sdk.version)
            }
            writer.member("server_name", event.serverName)
            writer.member("tags", event.tags)
            if let threads = event.threads {
                writer.key("threads")
                writer.values(threads.values) { $0.write($1) }
            }
            writer.member("timestamp", event.timestamp)
            writer.member("transaction", event.transaction)
            if let user = event.user {
                writer.key("user")
                writer.write(user)
            }
        }
    }

    /// Sentry's `{"values": [...]}` wrapper.
    private mutating func values<Element>(_ values: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        object {
            $0.key("values")
            $0.array(values, write)
        }
    }

    fileprivate mutating func write(_ breadcrumb: Breadcrumb) {
        object {
            $0.member("category", breadcrumb.category)
            $0.member("data", breadcrumb.data)
            $0.member("level", breadcrumb.level.rawValue)
            $0.member("message", breadcrumb.message)
            $0.member("timestamp", breadcrumb.timestamp)
            $0.member("type", breadcrumb.type)
        }
    }

    private mutating func write(_ exception: SentryEvent.Exception) {
        object {
            $0.key("mechanism")
            $0.object {
                $0.member("data", exception.mechanism.data)
                $0.key("handled")
                $0.bool(exception.mechanism.handled)
                $0.member("type", exception.mechanism.type)
            }
            if let stacktrace = exception.stacktrace {
                $0.key("stacktrace")
                $0.write(stacktrace)
            }
            $0.member("type", exception.type)
            $0.member("value", exception.value)
        }
    }

    private mutating func write(_ thread: SentryEvent.Thread) {
        object {
            if let current = thread.current {
                $0.key("current")
                $0.bool(current)
            }
            if let stacktrace = thread.stacktrace {
                $0.key("stacktrace")
                $0.write(stacktrace)
            }
        }
    }

    private mutating func write(_ stacktrace: SentryEvent.Stacktrace) {
        object {
            $0.key("frames")
            $0.array(stacktrace.frames) { writer, frame in
                writer.object {
                    $0.member("context_line", frame.contextLine)
                    $0.member("filename", frame.filename)
                    $0.member("function", frame.function)
                    if let inApp = frame.inApp {
                        $0.key("in_app")
                        $0.bool(inApp)
                    }
                    if let lineno = frame.lineno {
                        $0.key("lineno")
                        $0.value(.int(lineno))
                    }
                    $0.member("module", frame.module)
                    $0.member("package", frame.package)
                }
            }
        }
    }

    private mutating func write(_ request: SentryEvent.Request) {
        object {
            if let data = request.data {
                $0.key("data")
                $0.value(data)
            }
            $0.member("headers", request.headers)
            $0.member("method", request.method)
            $0.member("query_string", request.queryString)
            $0.member("url", request.url)
        }
    }

    /// Sentry's `user` interface, as an event and a transaction carry it.
    package mutating func write(_ user: UserContext) {
        object {
            $0.member("data", user.data)
            $0.member("email", user.email)
            $0.member("id", user.id)
            $0.member("ip_address", user.ipAddress)
            $0.member("segment", user.segment)
            $0.member("username", user.username)
        }
    }
}
