import Foundation

extension ProcessCPU {
    /// The seconds of CPU the process `pid` and its running descendants have used so far, from `/proc` (a server
    /// whose workers are its children, such as gunicorn); `nil` where there is no `/proc` or the process is gone.
    /// A descendant that has ended counts only once its parent has waited for it.
    public static func seconds(ofTree pid: Int32) -> Double? {
        guard var total = seconds(ofProcess: pid) else { return nil }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ Int32($0) }) {
                total += seconds(ofTree: child) ?? 0
            }
        }
        return total
    }

    /// The seconds of CPU used by the children this process has waited for, and their descendants they waited for:
    /// a program run to completion, such as a load generator, is measured by the difference around it.
    public static var waitedChildrenSeconds: Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
            getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1_000_000
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1_000_000
    }
}
