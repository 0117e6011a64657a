import Faultline
import FaultlineLogging
import FaultlineMetrics
import FaultlineOpenAPI
import FaultlineReporting
import Foundation
import Logging

// Each adapter set up as an app would: swift-log records become breadcrumbs and error records events, the pipeline's
// counts go to swift-metrics, and a swift-openapi-runtime client would take the capture middleware.
// scripts/check-footprint runs it and reads what it prints.
let logs = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-adapters-app-\(UUID())")
defer { try? FileManager.default.removeItem(at: logs) }
let reporter = try Reporter(options: Reporter.Options(logDirectory: logs))
let recorder = LogRecorder(reporter: reporter)
let logger = Logger(label: "app") { label in
    BreadcrumbLogHandler(label: label, recorder: recorder, captureLevel: .error)
}
let metrics = ReporterMetrics(reporter: reporter)
let middleware = CaptureClientMiddleware(reporter: reporter)
logger.error("the database is unreachable")
// The recorder hands records to the reporter on a task of its own: wait for the capture, for 5 seconds at most.
var captured = 0
for _ in 0..<500 where captured == 0 {
    try await Task.sleep(for: .milliseconds(10))
    captured = await reporter.statistics.captured.values.reduce(0, +)
}
print("captured: \(captured) event(s) through \(type(of: middleware)) and \(type(of: metrics))")
_ = await reporter.close()
