import Foundation
import Testing
import TestSupport

/// The test support's way of running programs (ProcessRunner's posix_spawn + waitpid).
@Suite struct ChildProcessTests {
    /// A descriptor this process holds without close-on-exec (as the build lock's, passed down by
    /// `flock … swift test`) does not reach the child: a daemon the child starts would keep it.
    @Test func inheritedDescriptorsAreNotPassedOn() throws {
        let path = try Lookaround.temporaryDirectory().appendingPathComponent("held").path
        let fd = open(path, O_CREAT | O_RDWR, 0o600)
        #expect(fd > 2)
        defer { close(fd) }
        let result = try Lookaround.runProcess("/bin/sh", ["-c", "if [ -e /proc/self/fd/\(fd) ]; then echo open; else echo closed; fi; echo err >&2"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "closed\n", "descriptor \(fd) reached the child")
        #expect(result.stderr == "err\n", "standard error is still captured")
    }
}
