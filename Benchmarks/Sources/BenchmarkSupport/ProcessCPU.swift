import Foundation

/// The CPU time processes have used, user and system: a steadier measure of a side's work than its rate on a machine
/// whose neighbours come and go.
public enum ProcessCPU {
    /// The seconds of CPU this process has used so far.
    public static var ownSeconds: Double {
        let usage = ResourceUsage.ofThisProcess
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The seconds of CPU the child process `pid` has used so far, from `/proc/<pid>/stat`; `nil` where there is no
    /// `/proc` or the process is gone.
    public static func seconds(ofProcess pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ", options: .backwards)
        else { return nil }
        // After the name: state is field 3, utime and stime are fields 14 and 15, in clock ticks.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }
}
