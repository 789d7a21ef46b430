import Foundation
import Testing
import TestSupport

/// `lookaround serve` (a child process, as users run it) under clients that try to take it down: many
/// connections trickling their heads from one address, many connections holding large bodies. Each
/// test is bounded in connections and seconds and talks to loopback only.
@Suite(.serialized) struct HostileClientCLITests {
    /// The server's resident memory, MiB (`VmRSS` of /proc/PID/status).
    static func residentMegabytes(_ pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Double(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes / 1024
    }

    @Test func tricklingConnectionsFromOneAddressLeaveOthersServed() throws {
        let server = try ServeCLITests.Server(["--catalog", try ServeCLITests.catalog(), "--header-timeout-seconds", "4",
                                               "--max-connections-per-address", "256"])
        defer { _ = server.terminate() }
        let started = ContinuousClock.now
        // 2100 connections from 127.0.0.1, each sending part of a head.
        var trickling: [RawHTTPClient] = []
        for _ in 0..<2100 {
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 10)
            try? client.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n")
            trickling.append(client)
        }
        // The address holds 256; the others are answered 503 (JSON) and closed at once.
        var refused = 0
        var undecided = trickling
        let deadline = ContinuousClock.now + .seconds(10)
        while refused < 2100 - 256, ContinuousClock.now < deadline {
            undecided = undecided.filter { client in
                guard let bytes = client.receivedWithoutWaiting() else { return true }
                let text = String(decoding: bytes, as: UTF8.self)
                if text.hasPrefix("HTTP/1.1 503"), text.contains("\"too_many_connections\"") { refused += 1 }
                return false
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(refused == 2100 - 256)
        #expect(undecided.count == 256)
        // While those trickle a byte every 0.25 s, another client's health checks are answered at once.
        var slowest = Duration.zero
        for _ in 0..<8 {
            for client in undecided { try? client.send("X") }
            let clock = ContinuousClock.now
            let probe = try RawHTTPClient(port: server.port, timeoutSeconds: 5, sourceAddress: "127.0.0.2").get("/v1/health")
            slowest = max(slowest, ContinuousClock.now - clock)
            #expect(probe.status == 200)
            Thread.sleep(forTimeInterval: 0.25)
        }
        print("health from 127.0.0.2 beside 256 trickling connections (+1844 refused): slowest of 8 \(slowest)")
        #expect(slowest < .seconds(1))
        // Their heads never end: 4 s after their first byte each is answered 408 and closed.
        var timedOut = 0
        for client in undecided {
            if let answer = try? client.readResponse(), answer.status == 408 { timedOut += 1 }
        }
        #expect(timedOut == 256)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func heldBodiesOnAnUnknownRouteCostNoMemoryAndAreLogged() throws {
        let log = try Lookaround.temporaryDirectory().appendingPathComponent("access.log").path
        let server = try ServeCLITests.Server(["--catalog", try ServeCLITests.catalog(), "--api-key-file", try ServeCLITests.keyFile(),
                                               "--max-connections-per-address", "4000", "--access-log", log])
        defer { _ = server.terminate() }
        let pid = server.process.processIdentifier
        for _ in 0..<20 { _ = try RawHTTPClient(port: server.port).get("/v1/health") }
        let baseline = try Self.residentMegabytes(pid)
        // 1000 connections each declare a 1 MiB body, send 64 KiB of it and hold the socket.
        let chunk = [UInt8](repeating: 120, count: 64 * 1024)
        var held: [RawHTTPClient] = []
        for _ in 0..<1000 {
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 10)
            try client.send("POST /nonexistent HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
            try? client.send(chunk)
            held.append(client)
        }
        Thread.sleep(forTimeInterval: 0.5)
        let during = try Self.residentMegabytes(pid)
        var notFound = 0
        for client in held where (try? client.readResponse())?.status == 404 { notFound += 1 }
        #expect(notFound == 1000)
        held = []
        // The refused connections are read from for 2 s, then closed.
        Thread.sleep(forTimeInterval: 3)
        let after = try Self.residentMegabytes(pid)
        print(String(format: "resident memory: baseline %.1f MiB, 1000 held bodies %.1f MiB, after they closed %.1f MiB",
                     baseline, during, after))
        #expect(during - baseline < 50)
        #expect(abs(after - baseline) <= baseline * 0.1)
        // Every one of them is in the access log (the log is written once a second).
        Thread.sleep(forTimeInterval: 1.5)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains(" POST /nonexistent not_found 404 ") }.count == 1000)
    }

    @Test func aForgedLogLineIsARefusedRequest() throws {
        let log = try Lookaround.temporaryDirectory().appendingPathComponent("access.log").path
        let server = try ServeCLITests.Server(["--catalog", try ServeCLITests.catalog(), "--access-log", log])
        let forged = try RawHTTPClient(port: server.port).get("/v1/health%0a2026-01-01T00:00:00Z%20GET%20/v1/health%20health%20200")
        #expect(forged.status == 400)
        #expect(try RawHTTPClient(port: server.port).get("/v1/health").status == 200)
        // A space and a quote in a path are percent-encoded in the log: one field, not three.
        #expect(try RawHTTPClient(port: server.port).get("/v1/a%20b%22c").status == 404)
        _ = server.terminate()
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.contains(" malformed_request 400 ") == true, "\(lines)")
        #expect(lines.last?.contains(" GET /v1/a%20b%22c not_found 404 ") == true, "\(lines)")
    }
}
