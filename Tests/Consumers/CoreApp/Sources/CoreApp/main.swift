import Faultline
import FaultlineReporting
import Foundation

// A request to a loopback port where nothing listens, through a capturing client: the failure is classified, and
// event is written to a local log in a temporary directory. scripts/check-footprint runs it and reads what it prints.
let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-core-app-\(UUID())")
defer { try? FileManager.default.removeItem(at: logs) }
var options = Reporter.Options(logDirectory: logs)
// The event model (declared by the record layer below the SDK) is named through FaultlineReporting alone: the event,
// its breadcrumbs, its user and their free-form values.
options.beforeSend = { (event: SentryEvent) -> SentryEvent? in
    var event = event
    event.tags["consumer"] = "core-app"
    return event
}
let reporter = try Reporter(options: options)
let device: JSONValue = ["model": "loopback", "cores": 2]
await reporter.configureScope { $0.contexts["device"] = device }
await reporter.setUser(UserContext(id: "core-app"))
await reporter.addBreadcrumb(Breadcrumb(category: "app", level: Breadcrumb.Level.info, message: "started"))
let api = URL(string: "http://127.0.0.1:9")!
let client = APIClient(baseURL: api) { $0.middlewares = [CaptureMiddleware(reporter: reporter, baseURL: api)] }
do throws(RequestFailure) {
    _ = try await client.send(APIRequest<EmptyResponse>(.get, "/health"))
    print("unexpected: a server answered on 127.0.0.1:9")
} catch {
    print("classified: \(error.reason)")
}
_ = await reporter.close()
let captured = await reporter.statistics.captured.values.reduce(0, +)
print("captured: \(captured) event(s) by Faultline \(FaultlineVersion.current)")
