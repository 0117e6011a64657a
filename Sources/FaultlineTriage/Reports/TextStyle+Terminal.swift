import Foundation

extension TextStyle {
    /// The style for this process's standard output: its terminal's width and colours, as
    /// ``TextStyle/forStandardOutput(environment:isTerminal:terminalWidth:)`` decides from the environment.
    package static var standardOutput: TextStyle {
        var size = winsize()
        let width = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        return forStandardOutput(
            environment: ProcessInfo.processInfo.environment, isTerminal: isatty(STDOUT_FILENO) == 1,
            terminalWidth: width)
    }
}
