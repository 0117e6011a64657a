import Foundation

extension LogPiece {
    /// Reads `pieces` on every core, `read` making a part of what is found from each (it is given the piece's index),
    /// and hands the parts to `merge` in the pieces' order, as each is ready: merged that way, parts give what one
    /// sequential read gives. At most one piece per core is read at a time, so memory stays bounded by the parts
    /// waiting for an earlier one.
    package static func read<Part: Sendable>(
        _ pieces: [LogPiece], _ read: @escaping @Sendable (Int, LogPiece) -> Part,
        merge: (LogPiece, Part) -> Void
    ) async {
        await withTaskGroup(of: (Int, Part).self) { group in
            var started = 0
            var finished: [Int: Part] = [:]
            var merged = 0
            func startNext() {
                let index = started
                group.addTask { (index, read(index, pieces[index])) }
                started += 1
            }
            while started < min(pieces.count, ProcessInfo.processInfo.activeProcessorCount) { startNext() }
            for await (index, part) in group {
                if started < pieces.count { startNext() }
                finished[index] = part
                while let next = finished.removeValue(forKey: merged) {
                    merge(pieces[merged], next)
                    merged += 1
                }
            }
        }
    }
}
