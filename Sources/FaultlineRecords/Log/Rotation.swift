import Foundation

/// One rotation of a log's active file, which names the files it goes through, such as
/// `events-20261122T104134.123Z-000042.jsonl.gz`: the log's name, the UTC time of its file's last line (or of the
/// rotation, when that is not known) to the millisecond,
/// and a sequence number that tells apart rotations in the same millisecond. Names sort by age, as text and as
/// values.
package struct Rotation: Hashable, Comparable {
    /// Where a rotated file is on its way from the active file to a compressed file.
    enum Stage: CaseIterable {
        /// Renamed from the active file, not compressed yet: `.jsonl`.
        case plain
        /// Being compressed: `.jsonl.gz.tmp`, renamed when complete.
        case compressing
        /// Compressed: `.jsonl.gz`.
        case compressed

        var suffix: String {
            switch self {
            case .plain: LogLayout.logSuffix
            case .compressing: LogLayout.rotatedLogSuffix + ".tmp"
            case .compressed: LogLayout.rotatedLogSuffix
            }
        }
    }

    /// The name of the log, `events` for `events.jsonl`.
    let logName: String
    /// The time of its file's last line, `yyyyMMdd'T'HHmmss.SSS'Z'`.
    let stamp: String
    let sequence: Int

    private static let stampStyle = Date.ISO8601FormatStyle(
        dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted, timeZoneSeparator: .omitted,
        includingFractionalSeconds: true, timeZone: .gmt)
    /// The shape of a stamp, `0` standing for any digit.
    private static let stampShape = Array("00000000T000000.000Z".utf8)

    /// The rotation of the log `logName` stamped with `date`.
    init(logName: String, stampedAt date: Date, sequence: Int) {
        self.logName = logName
        self.stamp = date.formatted(Self.stampStyle)
        self.sequence = sequence
    }

    /// Reads `fileName` as the file of a rotation of the log `logName`, and its stage; `nil` for any other name (the
    /// active file, another log's files).
    static func parse(_ fileName: String, logName: String) -> (rotation: Rotation, stage: Stage)? {
        let prefix = "\(logName)-"
        guard fileName.hasPrefix(prefix),
            let stage = Stage.allCases.first(where: { fileName.hasSuffix($0.suffix) })
        else { return nil }
        let middle = fileName.dropFirst(prefix.count).dropLast(stage.suffix.count)
        guard let dash = middle.lastIndex(of: "-") else { return nil }
        let stamp = middle[..<dash]
        let digits = middle[middle.index(after: dash)...]
        guard matchesStampShape(stamp), !digits.isEmpty, digits.utf8.allSatisfy(isDigit), let sequence = Int(digits)
        else { return nil }
        return (Rotation(logName: logName, stamp: String(stamp), sequence: sequence), stage)
    }

    private init(logName: String, stamp: String, sequence: Int) {
        self.logName = logName
        self.stamp = stamp
        self.sequence = sequence
    }

    /// The time of its stamp: when its file's last line was written; `nil` when the stamp is no date.
    var date: Date? { try? Date(stamp, strategy: Self.stampStyle) }

    /// The name of this rotation's file at `stage`; the sequence number has at least 6 digits.
    func fileName(_ stage: Stage) -> String {
        let digits = String(sequence)
        let padding = String(repeating: "0", count: max(0, 6 - digits.count))
        return "\(logName)-\(stamp)-\(padding)\(digits)\(stage.suffix)"
    }

    package static func < (lhs: Rotation, rhs: Rotation) -> Bool {
        (lhs.stamp, lhs.sequence) < (rhs.stamp, rhs.sequence)
    }

    private static func matchesStampShape(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == stampShape.count
            && zip(bytes, stampShape).allSatisfy { byte, shape in
                shape == UInt8(ascii: "0") ? isDigit(byte) : byte == shape
            }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
