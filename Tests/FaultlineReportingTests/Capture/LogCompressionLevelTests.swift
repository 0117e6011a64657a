import FaultlineRecords
import FaultlineReporting
import Foundation
import Testing

/// `Options.logCompressionLevel` sets the gzip level of the log's rotated files: what an app trades between CPU and
/// the events its log keeps.
@Suite struct LogCompressionLevelTests {
    @Test func theLevelChosenIsTheLevelRotatedFilesAreWrittenAt() async throws {
        var rotatedBytes: [Int32: Int] = [:]
        var rotatedLines: [Int32: [Data]] = [:]
        for level: Int32 in [0, 9] {
            let log = try LogDirectory()
            defer { log.remove() }
            var options = Reporter.Options(logDirectory: log.url)
            options.maxLogFileSize = 16 * 1024
            options.logCompressionLevel = level
            let reporter = try Reporter(options: options)
            for index in 0..<60 {
                await reporter.capture(
                    message: "checkout failed for order \(index): \(String(repeating: "x", count: 400))")
            }
            await reporter.close()
            let rotated = try FileManager.default.contentsOfDirectory(at: log.url, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "gz" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            #expect(rotated.count >= 2)
            for file in rotated {
                let compressed = try Data(contentsOf: file)
                rotatedBytes[level, default: 0] += compressed.count
                let lines = try Gzip.decompress(compressed, maximumSize: 1 << 20).split(separator: 0x0A)
                rotatedLines[level, default: []] += lines.map { Data($0) }
            }
        }
        // Level 0 stores the lines as they are; level 9 compresses their repeated text.
        let stored = try #require(rotatedBytes[0])
        let smallest = try #require(rotatedBytes[9])
        let lineBytes = try #require(rotatedLines[0]).reduce(0) { $0 + $1.count + 1 }
        #expect(stored > lineBytes)
        #expect(smallest * 5 < stored)
        #expect(rotatedLines[0]?.count == rotatedLines[9]?.count)
    }
}
