import FaultlineRecords
import Foundation
import Testing

/// Gzip data fed in pieces of any size decompresses to the same bytes as fed whole, member boundaries included.
@Suite struct GzipStreamTests {
    @Test(arguments: [1, 3, 64, 1 << 20])
    func piecesOfAnySizeGiveTheSameBytes(pieceSize: Int) {
        let first = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
        let second = Data("a second member\n".utf8)
        let gzip = Gzip.compress(first) + Gzip.compress(second)

        let (output, failure) = Self.decompress(gzip, pieceSize: pieceSize)

        #expect(failure == nil)
        #expect(output == first + second)
    }

    @Test func aCutInsideAMemberIsTruncatedAndKeepsWhatCameBefore() {
        let gzip = Gzip.compress(Data("kept\n".utf8)) + Gzip.compress(Data("lost\n".utf8)).prefix(12)

        let (output, failure) = Self.decompress(gzip, pieceSize: 7)

        #expect(failure == .truncated)
        #expect(output.starts(with: Data("kept\n".utf8)))  // and what zlib could inflate of the cut member
        #expect(Data("kept\nlost\n".utf8).starts(with: output))
    }

    @Test func textAfterAMemberIsCorrupt() {
        let (_, failure) = Self.decompress(Gzip.compress(Data("ok".utf8)) + Data("plain text".utf8), pieceSize: 5)
        guard case .corrupt? = failure else {
            Issue.record("expected corrupt, got \(String(describing: failure))")
            return
        }
    }

    @Test func nothingAtAllIsTruncated() {
        #expect(Self.decompress(Data(), pieceSize: 1).failure == .truncated)
    }

    private static func decompress(_ gzip: Data, pieceSize: Int) -> (output: Data, failure: GzipError?) {
        var stream = GzipStream()
        var output = Data()
        var failure: GzipError?
        var offset = 0
        repeat {
            let end = min(offset + pieceSize, gzip.count)
            let piece = gzip.subdata(in: offset..<end)
            failure = piece.withUnsafeBytes { bytes in
                stream.decompress(bytes, isEnd: end == gzip.count) { output.append(contentsOf: $0) }
            }
            offset = end
        } while offset < gzip.count && failure == nil
        return (output, failure)
    }
}
