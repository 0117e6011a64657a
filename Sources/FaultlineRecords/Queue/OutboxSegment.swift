import Foundation

/// The files of the outbox's log, `<number, 12 digits>.segment`: records one after another, each an envelope framed by
/// its length, so that envelopes may span lines and hold binary attachments.
///
/// A record is the payload's length (4 bytes, little-endian, more than 0), a byte whose low 6 bits are the length of
/// the category's name (1 to 32) and whose high bit says a time follows the name, the name of the category the
/// envelope is rate-limited by (`error`, `session`: printable ASCII; a name the reader does not know ends the segment
/// as a record not well formed does), when the flag is set the time the envelope was stored (8
/// bytes, little-endian milliseconds since 1970), then the envelope's bytes. An envelope `faultline forget` erased is
/// blanked with spaces of the same length (``Record/isErased``), so that every other record keeps its offset. Records
/// are written with the time; those an earlier version wrote, without it, are read as well. Reading stops at the first record that is not whole
/// or not well formed: the tail a crash cut short, or zeros a power loss left.
package enum OutboxSegment {
    /// A whole record in a segment.
    package struct Record: Hashable {
        /// Where the record starts in its file.
        package let offset: Int
        /// The envelope's length in bytes.
        package let length: Int32
        /// The name of the data category the envelope is rate-limited by (`error`, `session`).
        package let category: String
        /// When the envelope was stored; `nil` for a record an earlier version wrote.
        package let stored: Date?
        /// The bytes before the envelope's.
        package let headerSize: Int
        /// Whether the envelope was blanked by an erasure (it starts with a space): it is never sent.
        package let isErased: Bool

        /// Where the envelope's bytes start in the file.
        package var payloadOffset: Int { offset + headerSize }
    }

    /// The records of a file, and where the last whole one ends.
    package struct Contents {
        package var records: [Record] = []
        /// Where the last whole record ends.
        package var end = 0
        /// The file's size: more than ``end`` when a crash cut a record short.
        package var fileSize = 0
    }

    static let fileExtension = ".segment"

    /// The name of the segment file numbered `number`.
    package static func fileName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits + fileExtension
    }

    /// The number of the segment file `name`; `nil` when it is no segment.
    package static func number(ofFile name: String) -> Int? {
        guard name.hasSuffix(fileExtension), !name.hasPrefix(".") else { return nil }
        return Int(name.dropLast(fileExtension.count))
    }

    /// The flag of the name's length byte that says the record holds the time it was stored.
    private static let timeFlag: UInt8 = 0x80

    /// The record of `envelope`, stored at `date`, to be appended with one write.
    package static func record(of envelope: Data, category: String, stored date: Date) -> Data {
        let name = Array(category.utf8)
        var record = Data(capacity: headerSize(of: category) + envelope.count)
        withUnsafeBytes(of: UInt32(envelope.count).littleEndian) { record.append(contentsOf: $0) }
        record.append(UInt8(name.count) | timeFlag)
        record.append(contentsOf: name)
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded()))
        withUnsafeBytes(of: milliseconds.littleEndian) { record.append(contentsOf: $0) }
        record.append(envelope)
        return record
    }

    /// The bytes before the envelope in a record this version writes.
    static func headerSize(of category: String) -> Int {
        13 + category.utf8.count
    }

    /// Appends `bytes` with one `write(2)` (more when the kernel takes part of them); what a failure left half written
    /// is cut off, so that the segment ends with a whole record.
    static func append(_ bytes: Data, to descriptor: Int32, at end: Int) throws {
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno != EINTR { break }
                offset += max(count, 0)
            }
            return offset
        }
        guard written == bytes.count else {
            let error = lastError()
            ftruncate(descriptor, off_t(end))
            throw error
        }
    }

    /// The error `errno` names, for a failed system call on a segment.
    package static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }

    /// The whole records of the file at `path`.
    ///
    /// - Throws: When the file cannot be read.
    package static func contents(of path: String) throws -> Contents {
        records(in: try Data(contentsOf: URL(fileURLWithPath: path, isDirectory: false)))
    }

    /// The whole records of a file's `bytes`.
    package static func records(in bytes: Data) -> Contents {
        var contents = Contents(fileSize: bytes.count)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while let record = record(in: buffer, at: offset) {
                contents.records.append(record)
                offset = record.payloadOffset + Int(record.length)
            }
            contents.end = offset
        }
        return contents
    }

    /// The record at `offset` when it is whole and well formed.
    private static func record(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Record? {
        guard bytes.count - offset >= 6 else { return nil }
        let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
        let isTimed = bytes[offset + 4] & timeFlag != 0
        let nameLength = Int(bytes[offset + 4] & 0x3F)
        let nameEnd = offset + 5 + nameLength
        let payload = nameEnd + (isTimed ? 8 : 0)
        guard length > 0, length <= Int(Int32.max), bytes[offset + 4] & 0x40 == 0, (1...32).contains(nameLength),
            payload + length <= bytes.count,
            bytes[(offset + 5)..<nameEnd].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        let category = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 5)..<nameEnd]), as: UTF8.self)
        let stored =
            isTimed
            ? Date(
                timeIntervalSince1970: Double(
                    bytes.loadUnaligned(fromByteOffset: nameEnd, as: UInt64.self).littleEndian)
                    / 1000) : nil
        return Record(
            offset: offset, length: Int32(length), category: category, stored: stored, headerSize: payload - offset,
            isErased: bytes[payload] == UInt8(ascii: " "))
    }
}
