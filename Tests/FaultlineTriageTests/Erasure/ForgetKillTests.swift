import FaultlineRecords
import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// `faultline forget` killed with SIGKILL in the middle of rewriting leaves every file as it was or as rewritten,
/// never between, and readable; run again, it finishes the work: exactly the user's lines blanked, every other line
/// byte-identical.
@Suite(.serialized) struct ForgetKillTests {
    /// The most rounds. Odd rounds kill at a random moment of forget's run, timed here beforehand: in a loaded run
    /// the timing is off (forget took 20 s to be seen ending once, and every kill came after it), so even rounds kill
    /// when a thread of their own sees a rewrite's temporary file appear, which lands mid-rewrite most times.
    static let maximumRounds = 30

    @Test func aKillMidRewriteLeavesEachFileWholeAndARunAgainFinishes() async throws {
        let pristine = try TemporaryDirectory("forget-kill")
        defer { pristine.remove() }
        // A log of 6 rotated files of about 64 KB each and an active file; user-3 has events in every one
        let writer = try EventLog(configuration: .init(directory: pristine.url, maximumFileSize: 64 * 1024))
        let padding = String(repeating: "context ", count: 20)
        for index in 0..<2_400 {
            let line =
                #"{"event_id":"\#(String(format: "%032x", index))","timestamp":\#(1_795_000_000 + index),"#
                + #""message":"failure \#(index) \#(padding)","user":{"id":"user-\#(index % 10)"}}"#
            try await writer.append(Data(line.utf8))
        }
        try await writer.close()
        let original = try ForgetCommandTests.lines(in: pristine.url)
        #expect(original.count >= 6)
        let isUsers = { (line: Data) in line.range(of: Data(#""id":"user-3""#.utf8)) != nil }

        // How long forget takes to the end here, now, to kill it at random moments within that
        let timed = try TemporaryDirectory("forget-kill-timed")
        defer { timed.remove() }
        try Self.copy(pristine, to: timed)
        let started = ContinuousClock.now
        _ = try await BuiltFaultline.run(["forget", "--user", "user-3", "--log-dir", timed.path])
        let duration = ContinuousClock.now - started

        // Rounds until a kill landed while a file was being rewritten (forget spends about half its time so)
        var killedMidRewrite = 0
        var rounds = 0
        while killedMidRewrite < 1, rounds < Self.maximumRounds {
            rounds += 1
            let work = try TemporaryDirectory("forget-kill-\(rounds)")
            defer { work.remove() }
            try Self.copy(pristine, to: work)
            // Given forget killed at a random moment of its run, or as a rewrite starts
            let child = try await ExternalProcess.start(
                BuiltFaultline.url, ["forget", "--user", "user-3", "--log-dir", work.path], output: .collected)
            if rounds.isMultiple(of: 2) {
                Self.kill(child, whenARewriteStartsIn: work.url)
            } else {
                try await Task.sleep(for: duration * Double.random(in: 0.05...0.95))
                child.kill()
            }
            _ = try await child.exit()
            // a rewrite the kill cut short leaves its temporary file
            if try work.names().contains(where: { $0.hasSuffix(".rewrite.tmp") }) { killedMidRewrite += 1 }

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
            _ = try await BuiltFaultline.run(["forget", "--user", "user-3", "--log-dir", work.path])
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
        #expect(killedMidRewrite >= 1, "none of \(rounds) kills landed while a file was rewritten")
        print("forget kill test: \(killedMidRewrite) of \(rounds) kills landed mid-rewrite (forget takes \(duration))")
    }

    /// Kills `child` from a thread of its own as soon as a rewrite's temporary file appears in `directory`, checked
    /// every 100 µs while it runs: a rewrite lasts a few milliseconds, too short for a task of the loaded pool to see.
    private static func kill(_ child: ExternalProcess, whenARewriteStartsIn directory: URL) {
        Thread {
            while child.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                if names.contains(where: { $0.hasSuffix(".rewrite.tmp") }) {
                    child.kill()
                    return
                }
                usleep(100)
            }
        }.start()
    }

    private static func copy(_ source: TemporaryDirectory, to destination: TemporaryDirectory) throws {
        for name in try source.names() {
            try FileManager.default.copyItem(at: source.file(name), to: destination.file(name))
        }
    }
}
