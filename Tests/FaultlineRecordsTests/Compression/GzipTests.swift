import Foundation
import TestSupport
import Testing

@testable import FaultlineRecords

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Gzip data round-trips with the system's `gzip`, and damaged, truncated or oversized data is refused with the
/// error that says which.
@Suite struct GzipTests {
    /// Event-like JSON lines, then bytes that do not compress: 1.5 MiB, many 64 KiB chunks, not a multiple of one.
    static let sample: Data = {
        var data = Data()
        for index in 0..<6000 {
            data.append(contentsOf: #"{"event_id":"\#(index)","message":"만료된 토큰입니다.","level":"error"}"#.utf8)
            data.append(UInt8(ascii: "\n"))
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while data.count < 1_500_001 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            data.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        return data
    }()

    /// 512 MiB of zeros as one gzip member, compressed 1 MiB at a time, never whole in memory.
    static let bomb: Data = {
        let deflater = Deflater(level: 6)
        var compressed = Data()
        let zeros = Data(count: 1024 * 1024)
        zeros.withUnsafeBytes { chunk in
            for _ in 0..<512 { deflater.compress(chunk, finish: false) { compressed.append(contentsOf: $0) } }
        }
        deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true) {
            compressed.append(contentsOf: $0)
        }
        return compressed
    }()

    @Test func oneDeflaterWritesMembersOneAfterAnother() throws {
        // Given one deflater, as the uploader keeps for its request bodies
        let deflater = Deflater(level: 1)
        let bodies = [Data(repeating: UInt8(ascii: "a"), count: 100_000), Data("short".utf8), Self.sample]

        // When it compresses several bodies in turn
        let members = bodies.map { Gzip.compress($0, with: deflater) }

        // Then each is a whole gzip member of its own body, none carrying state from the one before
        for (member, body) in zip(members, bodies) {
            #expect(try Gzip.decompress(member, maximumSize: body.count) == body)
        }
        #expect(members[1] == Gzip.compress(bodies[1], level: 1))
    }

    @Test(arguments: [0, 1, 6, 9] as [Int32])
    func theGzipToolAcceptsWhatWeCompressAndRestoresItByteForByte(level: Int32) async throws {
        // Given an empty input, a short one, and one of many chunks
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (name, input) in [("empty", Data()), ("short", Data("hello\n".utf8)), ("sample", Self.sample)] {
            // When we compress each and write it to a file
            let file = directory.file("\(name).gz")
            try Gzip.compress(input, level: level).write(to: file)

            // Then gzip tests it as valid and decompresses it to the same bytes
            let test = try await GzipTool.run(["-t", file.path])
            #expect(test.status == 0, "gzip -t \(name): \(test.errors)")
            let decompressed = try await GzipTool.run(["-dc", file.path])
            #expect(decompressed.status == 0, "gzip -dc \(name): \(decompressed.errors)")
            #expect(decompressed.output == input, "\(name) at level \(level)")
        }
    }

    @Test(arguments: ["-1", "-6", "-9"])
    func weDecompressWhatTheGzipToolCompressed(level: String) async throws {
        // Given a file gzip compressed
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("sample")
        try Self.sample.write(to: file)
        let compressed = try await GzipTool.run(["-c", level, "--name", file.path])
        #expect(compressed.status == 0, "\(compressed.errors)")

        // When we decompress it
        let decompressed = try Gzip.decompress(compressed.output, maximumSize: Self.sample.count)

        // Then it is the original, byte for byte
        #expect(decompressed == Self.sample)
    }

    @Test func concatenatedMembersDecompressToTheConcatenationOfTheirContents() async throws {
        // Given members gzip wrote and members we wrote, one of them empty, concatenated as `cat a.gz b.gz` does
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = Data(Self.sample.prefix(300_000))
        let second = Data("second member\n".utf8)
        try first.write(to: directory.file("first"))
        let byTool = try await GzipTool.run(["-c", directory.file("first").path]).output
        let concatenated = byTool + Gzip.compress(Data()) + Gzip.compress(second) + byTool
        try concatenated.write(to: directory.file("all.gz"))

        // When we and gzip decompress them
        let ours = try Gzip.decompress(concatenated, maximumSize: 1024 * 1024)
        let theirs = try await GzipTool.run(["-dc", directory.file("all.gz").path])

        // Then both read every member, in order
        #expect(ours == first + second + first)
        #expect(theirs.output == ours)
    }

    @Test func aStreamCutShortIsReportedAsTruncated() throws {
        // Given two members, cut inside the header, the data, the trailer, and inside the second member
        let member = Gzip.compress(Self.sample)
        let whole = member + Gzip.compress(Data("second\n".utf8))
        let cuts = [
            0, 1, 9, 10, member.count / 2, member.count - 8, member.count - 1, member.count + 5, whole.count - 1,
        ]

        for cut in cuts {
            // When each is decompressed
            #expect(throws: GzipError.truncated, "cut at byte \(cut) of \(whole.count)") {
                try Gzip.decompress(whole.prefix(cut), maximumSize: 8 * 1024 * 1024)
            }
        }
        // Then each is truncated, and the message says what to do
        #expect(GzipError.truncated.description.contains("cut short"))
    }

    @Test func damagedDataIsReportedAsCorruptWithZlibsReason() throws {
        // Given a member with its magic number, CRC, length or data changed, and one with bytes after its end
        let member = Gzip.compress(Self.sample)
        func flipping(_ offset: Int) -> Data {
            var damaged = member
            damaged[offset] ^= 0xFF
            return damaged
        }
        let cases: [(name: String, data: Data, reason: String)] = [
            ("magic number", flipping(0), "incorrect header check"),
            ("CRC-32", flipping(member.count - 8), "incorrect data check"),
            ("length", flipping(member.count - 1), "incorrect length check"),
            ("compressed data", flipping(12), "invalid"),
            ("trailing bytes", member + Data("not gzip".utf8), "incorrect header check"),
        ]

        for damage in cases {
            // When each is decompressed
            do {
                _ = try Gzip.decompress(damage.data, maximumSize: 8 * 1024 * 1024)
                Issue.record("\(damage.name): decompressed")
            } catch {
                // Then it is corrupt, with zlib's reason
                guard case .corrupt(let detail) = error else {
                    Issue.record("\(damage.name): \(error)")
                    continue
                }
                #expect(detail.contains(damage.reason), "\(damage.name): \(detail)")
                #expect(error.description.contains("not valid gzip"))
            }
        }
    }

    @Test func aGzipBombIsRefusedAfterInflatingOnlyTheLimit() throws {
        // Given 512 MiB of zeros compressed to a few hundred kilobytes
        let bomb = Self.bomb
        #expect(bomb.count < 1024 * 1024)
        let limit = 8 * 1024 * 1024
        let peakBefore = Self.peakResidentBytes()

        // When it is decompressed with an 8 MiB limit
        let start = ContinuousClock.now
        #expect(throws: GzipError.tooLarge(limit: limit)) {
            try Gzip.decompress(bomb, maximumSize: limit)
        }
        let elapsed = ContinuousClock.now - start

        // Then it is refused quickly, and the process never held the 512 MiB (its peak memory grew by far less)
        #expect(elapsed < slowed(.seconds(1)), "took \(elapsed)")
        let growth = Self.peakResidentBytes() - peakBefore
        #expect(growth < 64 * 1024 * 1024, "peak memory grew by \(growth) bytes")
    }

    @Test func outputOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() throws {
        // Given a member of 1 MiB of content
        let content = Data(Self.sample.prefix(1024 * 1024))
        let member = Gzip.compress(content)

        // When it is decompressed with a limit of exactly its size, and of one byte less
        // Then the first succeeds and the second is too large
        #expect(try Gzip.decompress(member, maximumSize: content.count) == content)
        #expect(throws: GzipError.tooLarge(limit: content.count - 1)) {
            try Gzip.decompress(member, maximumSize: content.count - 1)
        }
    }

    @Test func aFileIsCompressedToAGzipFileThatReplacesTheDestinationAndLeavesNoTemporaryFile() async throws {
        // Given a file of many chunks, and a stale file at the destination
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("events.jsonl")
        let destination = directory.file("events.jsonl.gz")
        try Self.sample.write(to: source)
        try Data("stale".utf8).write(to: destination)

        // When the file is compressed
        try Gzip.compressFile(at: source, to: destination, level: 6)

        // Then gzip reads the original back, the source is untouched, and only the two files remain
        let decompressed = try await GzipTool.run(["-dc", destination.path])
        #expect(decompressed.status == 0, "\(decompressed.errors)")
        #expect(decompressed.output == Self.sample)
        #expect(try Data(contentsOf: source) == Self.sample)
        #expect(try directory.names() == ["events.jsonl", "events.jsonl.gz"])
    }

    @Test func compressingAMissingFileFailsWithoutCreatingAnything() throws {
        // Given no source file
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        // When it is compressed
        #expect(throws: (any Error).self) {
            try Gzip.compressFile(at: directory.file("missing"), to: directory.file("missing.gz"), level: 6)
        }

        // Then no file was created
        #expect(try directory.names() == [])
    }

    /// The process's peak resident memory so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)
        #else
            getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
            return Int(usage.ru_maxrss) * 1024
        #endif
    }
}
