import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// `faultline forget` killed with SIGKILL in the middle of rewriting leaves every file as it was or as rewritten,
/// never between, and readable; run again, it finishes the work: exactly the user's lines blanked, every other line
/// byte-identical.
@Suite(.serialized) struct ForgetKillTests {
    static let rounds = 4

    @Test func aKillMidRewriteLeavesEachFileWholeAndARunAgainFinishes() async throws {
        let pristine = try TemporaryDirectory("forget-kill")
        defer { pristine.remove() }
        // A log of 6 rotated files of about 128 KB each and an active file; user-3 has events in every one
        let writer = try EventLog(configuration: .init(directory: pristine.url, maximumFileSize: 128 * 1024))
        let padding = String(repeating: "context ", count: 20)
        for index in 0..<4_500 {
            let line =
                #"{"event_id":"\#(String(format: "%032x", index))","timestamp":\#(1_795_000_000 + index),"#
                + #""message":"failure \#(index) \#(padding)","user":{"id":"user-\#(index % 10)"}}"#
            try await writer.append(Data(line.utf8))
        }
        try await writer.close()
        let original = try ForgetCommandTests.lines(in: pristine.url)
        #expect(original.count >= 6)
        let isUsers = { (line: Data) in line.range(of: Data(#""id":"user-3""#.utf8)) != nil }

        var killedMidRewrite = 0
        for round in 0..<Self.rounds {
            let work = try TemporaryDirectory("forget-kill-\(round)")
            defer { work.remove() }
            for name in try pristine.names() {
                try FileManager.default.copyItem(at: pristine.file(name), to: work.file(name))
            }
            // Given forget killed as soon as it writes a rewrite (or after a random moment, in odd rounds)
            let child = try ExternalProcess.start(
                BuiltFaultline.url, ["forget", "--user", "user-3", "--log-dir", work.path], output: .collected)
            let deadline = ContinuousClock.now + .milliseconds(round % 2 == 0 ? 20_000 : Int.random(in: 20...400))
            var sawRewrite = false
            while child.isRunning, ContinuousClock.now < deadline {
                if try work.names().contains(where: { $0.hasSuffix(".rewrite.tmp") }) {
                    sawRewrite = true
                    break
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            child.kill()
            let outcome = try await child.exit()
            if outcome.reason == .uncaughtSignal, sawRewrite { killedMidRewrite += 1 }

            // Then every file is whole: each line is the original, or the user's blanked to the same length
            let killed = try ForgetCommandTests.lines(in: work.url)
            #expect(Set(killed.keys) == Set(original.keys))
            for (name, lines) in original {
                let now = try #require(killed[name])
                #expect(now.count == lines.count, "\(name) lost or gained lines")
                for (old, new) in zip(lines, now) where new != old {
                    #expect(isUsers(old) && new == Data(repeating: UInt8(ascii: " "), count: old.count))
                }
            }
            // And forget run again finishes: the user's lines blanked, no temporary file left
            _ = try BuiltFaultline.run(["forget", "--user", "user-3", "--log-dir", work.path])
            let finished = try ForgetCommandTests.lines(in: work.url)
            for (name, lines) in original {
                let now = try #require(finished[name])
                #expect(
                    zip(lines, now).allSatisfy { old, new in
                        isUsers(old) ? new == Data(repeating: UInt8(ascii: " "), count: old.count) : new == old
                    }, "\(name) is not as forget leaves it")
            }
            #expect(try work.names().allSatisfy { !$0.hasSuffix(".tmp") })
        }
        #expect(killedMidRewrite > 0, "no round killed forget while it rewrote a file")
        print("forget kill test: \(killedMidRewrite) of \(Self.rounds) rounds killed forget mid-rewrite")
    }
}
