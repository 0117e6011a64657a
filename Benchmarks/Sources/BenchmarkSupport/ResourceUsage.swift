import Foundation

/// `getrusage(2)` of this process, which the CPU and memory measures both read.
enum ResourceUsage {
    static var ofThisProcess: rusage {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage
    }
}
