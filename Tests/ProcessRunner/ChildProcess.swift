import Foundation

/// Runs a program to completion with `posix_spawn` and `waitpid`: what the test support and the
/// benchmarks both need ("run this, wait, give me its status and output"), in one place.
///
/// Why not Foundation's `Process`: `waitUntilExit` polls (rounding times up to ~50 ms steps) and, when
/// the program leaves a daemon behind (`scripts/postgis.sh up` starts PostgreSQL), it spun forever on
/// the script's zombie (2026-12-01); reading its pipes to the end would also wait for the daemon, which
/// inherits them. Here the output goes to unlinked temporary files that are read after `waitpid`, so a
/// daemon holding them open blocks nothing.
public enum ChildProcess {
    /// How a run ended and what it wrote.
    public struct Outcome: Sendable {
        /// The exit code; 128 + the signal number when a signal ended it (as a shell reports it).
        public var exitStatus: Int32
        /// What it wrote to standard output (empty when output was discarded).
        public var stdout: [UInt8]
        /// What it wrote to standard error (empty when output was discarded).
        public var stderr: [UInt8]
        /// Wall time from the spawn to the end of `waitpid`, nanoseconds.
        public var wallNanoseconds: UInt64
    }

    /// Why a program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// The program's path.
        public var path: String
        /// What failed (`posix_spawn`, creating a capture file…) and the errno text.
        public var detail: String
        public var description: String { "cannot run \(path): \(detail)" }
    }

    /// Runs the program at `path` (an absolute path; no PATH lookup) with `arguments`, feeding it
    /// `stdin`, in `directory` (this process's when nil), with `environment` set on top of this process's
    /// own, and waits for it. Signal dispositions and the mask are reset to the defaults in the child.
    /// - Parameter captureOutput: false sends stdout and stderr to /dev/null (for timing a run).
    /// - Throws: ``Failure`` when it cannot be started (missing program, no temporary files).
    public static func run(_ path: String, _ arguments: [String], stdin: [UInt8] = [], directory: String? = nil,
                           environment: [String: String] = [:], captureOutput: Bool = true) throws(Failure) -> Outcome {
        func failure(_ what: String, _ code: Int32 = errno) -> Failure {
            Failure(path: path, detail: "\(what): \(String(cString: strerror(code)))")
        }
        // Capture files: close-on-exec (so children other threads spawn later inherit none; one spawned
        // in the instant between mkstemp and fcntl holds an unlinked file, which blocks nothing),
        // unlinked at once; dup2 in the file actions gives this child its own copies.
        func scratchFile() throws(Failure) -> Int32 {
            var template = Array((NSTemporaryDirectory() + "/lookaround-child-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw failure("creating a temporary file") }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            return fd
        }
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        let input: Int32
        if stdin.isEmpty {
            input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        } else {
            input = try scratchFile()
            let written = stdin.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            guard written == stdin.count, lseek(input, 0, SEEK_SET) == 0 else { close(input); throw failure("writing stdin") }
        }
        opened.append(input)
        let output = try captureOutput ? scratchFile() : open("/dev/null", O_WRONLY | O_CLOEXEC)
        opened.append(output)
        let errors = try captureOutput ? scratchFile() : open("/dev/null", O_WRONLY | O_CLOEXEC)
        opened.append(errors)
        guard input >= 0, output >= 0, errors >= 0 else { throw failure("opening /dev/null") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory {
            guard let addChdirAction = addChdir else { throw failure("this C library cannot set a child's directory", ENOSYS) }
            let code = addChdirAction(&actions, directory)
            guard code == 0 else { throw failure("setting the directory \(directory)", code) }
        }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        // Nothing else is inherited: a descriptor this process got without close-on-exec (the build
        // lock's, which `flock … swift test` passes down) would otherwise live on in a daemon the
        // child starts (PostgreSQL from scripts/postgis.sh) and hold the lock until it stops (seen
        // 2026-12-01: a test cluster kept /tmp/lookaround-build.lock for minutes after its tests).
        let code = closeDescriptors(from: 3, in: &actions)
        guard code == 0 else { throw failure("closing inherited descriptors", code) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }

        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw failure("posix_spawn", spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let wall = DispatchTime.now().uptimeNanoseconds - start
        let signal = status & 0x7f
        return Outcome(exitStatus: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
                       stdout: captureOutput ? contents(of: output) : [],
                       stderr: captureOutput ? contents(of: errors) : [],
                       wallNanoseconds: wall)
    }

    /// Everything in the file open at `fd` (read from its start).
    private static func contents(of fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
            offset += off_t(count)
        }
        return bytes
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), looked up at run time: Swift's Glibc
    /// module does not declare the GNU extensions.
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChdir: AddChdir? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    /// Adds to `actions` the closing of every descriptor from `lowest` up in the child (glibc's
    /// `posix_spawn_file_actions_addclosefrom_np`); 0, or the error code. Without it a child inherits
    /// every descriptor the process holds without close-on-exec at the moment it is spawned,
    /// whichever thread opened it. Nothing is added where the C library lacks it.
    public static func closeDescriptors(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) -> Int32 {
        guard let addClosefrom else { return 0 }
        return addClosefrom(&actions, lowest)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+; Debian 12 has 2.36), the same way.
    private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addClosefrom: AddClosefrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddClosefrom.self)
    }()
}
