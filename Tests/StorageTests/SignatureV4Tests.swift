import Foundation
import Storage
import Testing
import TestSupport

/// The signer against AWS's published Signature Version 4 test suite (every case of
/// `aws-sig-v4-test-suite`, as botocore's source distribution ships it: Fixtures/aws4_testsuite, Apache-2.0),
/// against the S3 examples of AWS's documentation, and against botocore's S3 signer as an oracle.
@Suite struct SignatureV4Tests {
    static let suite = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/aws4_testsuite")
    static let credentials = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")

    /// A raw request of the suite: method, path, query, headers (continuation lines joined), body.
    struct RawRequest {
        var method: String, path: String, query: [(name: String, value: String)], headers: [(name: String, value: String)], body: [UInt8]

        init(_ text: String) {
            var lines = text.components(separatedBy: "\n")
            let requestLine = lines.removeFirst()
            let firstSpace = requestLine.firstIndex(of: " ")!
            let versionStart = requestLine.range(of: " HTTP/", options: .backwards)!.lowerBound
            method = String(requestLine[..<firstSpace])
            let target = String(requestLine[requestLine.index(after: firstSpace)..<versionStart])
            let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            path = String(pieces[0])
            query = pieces.count > 1 ? pieces[1].split(separator: "&").map { item in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (SignatureV4.percentDecoded(String(parts[0])), parts.count > 1 ? SignatureV4.percentDecoded(String(parts[1])) : "")
            } : []
            headers = []
            var bodyLines: [String]?
            for line in lines {
                if bodyLines != nil { bodyLines!.append(line); continue }
                if line.isEmpty { bodyLines = []; continue }
                if line.first == " " || line.first == "\t", !headers.isEmpty {
                    headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                    continue
                }
                let colon = line.firstIndex(of: ":")!
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
            body = Array((bodyLines ?? []).joined(separator: "\n").utf8)
        }
    }

    static func cases() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: suite.path)!
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".req") { found.append(String(relative.dropLast(4))) }
        }
        return found.sorted()
    }

    @Test func everyCaseOfTheAWSTestSuite() throws {
        let cases = try Self.cases()
        #expect(cases.count == 34, "\(cases)")
        var failures: [String] = []
        for name in cases {
            func file(_ suffix: String) throws -> String {
                try String(contentsOf: Self.suite.appendingPathComponent(name + suffix), encoding: .utf8)
            }
            var raw = RawRequest(try file(".req"))
            // As botocore's runner of the suite does: a case whose canonical request holds a session token
            // is signed with that token (the suite's readme: the token is part of the signed headers).
            if let line = try file(".creq").split(separator: "\n").first(where: { $0.hasPrefix("x-amz-security-token:") }),
               !raw.headers.contains(where: { $0.name.lowercased() == "x-amz-security-token" }) {
                raw.headers.append(("X-Amz-Security-Token", String(line.dropFirst("x-amz-security-token:".count))))
            }
            let timestamp = raw.headers.first { $0.name.lowercased() == "x-amz-date" }!.value
            let signer = SignatureV4(credentials: Self.credentials, region: "us-east-1", service: "service", isS3: false)
            let request = SignatureV4.Request(method: raw.method, path: raw.path, query: raw.query, headers: raw.headers,
                                              payloadHash: Digest.hex(Digest.sha256(raw.body)))
            let canonical = signer.canonicalRequest(request)
            let stringToSign = signer.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
            let authorization = signer.authorization(request, timestamp: timestamp)
            if canonical != (try file(".creq")) { failures.append("\(name): canonical request\n\(canonical)\n--- expected\n\(try file(".creq"))") }
            if stringToSign != (try file(".sts")) { failures.append("\(name): string to sign") }
            if authorization != (try file(".authz")) { failures.append("\(name): authorization \(authorization)") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// The four S3 examples of AWS's SigV4 documentation ("Examples: Signature Calculations in AWS
    /// Signature Version 4", header-based, single chunk). The GET, lifecycle and list signatures are also
    /// what botocore's S3 signer makes (checked with scripts/sigv4_oracle.py); the PUT example names its
    /// own Date header, which botocore rewrites.
    @Test func theS3ExamplesOfAWSDocumentation() {
        let signer = SignatureV4(credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                                            secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                 region: "us-east-1")
        let timestamp = "20130524T000000Z", host = ("host", "examplebucket.s3.amazonaws.com")
        func signature(_ request: SignatureV4.Request) -> String {
            var request = request
            request.headers += [("x-amz-date", timestamp), ("x-amz-content-sha256", request.payloadHash)]
            return String(signer.authorization(request, timestamp: timestamp).split(separator: "=").last!)
        }
        #expect(signature(.init(method: "GET", path: "/test.txt", headers: [host, ("Range", "bytes=0-9")]))
                == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        let body = Array("Welcome to Amazon S3.".utf8)
        #expect(Digest.hex(Digest.sha256(body)) == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        #expect(signature(.init(method: "PUT", path: "/test$file.text",
                                headers: [host, ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
                                payloadHash: Digest.hex(Digest.sha256(body))))
                == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        #expect(signature(.init(method: "GET", path: "/", query: [("lifecycle", "")], headers: [host]))
                == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
        #expect(signature(.init(method: "GET", path: "/", query: [("max-keys", "2"), ("prefix", "J")], headers: [host]))
                == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    /// S3's path rule: keys are signed as they are — repeated slashes, dot segments, spaces, UTF-8 and
    /// reserved characters — and every one agrees with botocore's S3 signer, given the URL as we send it.
    @Test(.enabled(if: SignatureV4Tests.hasBotocore, "botocore (PyPI) is not installed: scripts/install-test-tools.sh installs it"))
    func s3KeysAgreeWithBotocore() throws {
        let keys = ["Panoramas/helsinki/aleksanterinkatu-000.jpg", "a//b/./c/../d.jpg", "with space/and+plus&amp=eq.jpg",
                    "ütf-8/ääkköset/日本.jpg", "odd/$@!'()*,;:[]#%.bin", "catalog.tiles/helsinki_2Fpano.lktiles", "~tilde/-._"]
        let credentials = S3Credentials(accessKeyID: "AKIATESTKEY", secretAccessKey: "s3cr3t/with+chars=", sessionToken: "token/+=")
        let timestamp = "20261207T101112Z"
        var lines: [String] = [], expected: [String] = []
        for (i, key) in keys.enumerated() {
            let path = "/imagery/" + key
            let query: [(name: String, value: String)] = i % 2 == 0 ? [] : [("list-type", "2"), ("prefix", key), ("continuation-token", "a/b+c=")]
            let payload = i % 3 == 0 ? Array("payload \(i)".utf8) : []
            let signer = SignatureV4(credentials: credentials, region: "eu-north-1")
            let request = SignatureV4.Request(method: i % 3 == 0 ? "PUT" : "GET", path: path, query: query,
                                              headers: [("host", "127.0.0.1:8333"), ("range", "bytes=0-99")],
                                              payloadHash: Digest.hex(Digest.sha256(payload)))
            let date = ISO8601DateFormatter().date(from: "2026-12-07T10:11:12Z")!
            let headers = signer.signed(request, at: date)
            expected.append(headers.last!.value)
            let url = "http://127.0.0.1:8333" + SignatureV4.percentEncoded(path, keepingSlashes: true)
                + (query.isEmpty ? "" : "?" + query.map { SignatureV4.percentEncoded($0.name, keepingSlashes: false) + "="
                    + SignatureV4.percentEncoded($0.value, keepingSlashes: false) }.joined(separator: "&"))
            let object: [String: Any] = ["method": request.method, "url": url, "headers": ["Range": "bytes=0-99"],
                                         "body_hex": payload.map { String(format: "%02x", $0) }.joined(), "timestamp": timestamp,
                                         "access_key": credentials.accessKeyID, "secret_key": credentials.secretAccessKey,
                                         "session_token": credentials.sessionToken!, "region": "eu-north-1"]
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }
        let oracle = try Lookaround.runProcess("/usr/bin/env", ["python3", Lookaround.repository.appendingPathComponent("scripts/sigv4_oracle.py").path],
                                               stdin: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(oracle.exitCode == 0, "\(oracle.stderr)")
        let answers = oracle.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])?["authorization"] ?? ""
        }
        #expect(answers.count == keys.count)
        for (i, answer) in answers.enumerated() {
            #expect(answer == expected[i], "key \(keys[i]): botocore \(answer), ours \(expected[i])")
        }
    }

    static let hasBotocore: Bool = {
        (try? Lookaround.runProcess("/usr/bin/env", ["python3", "-c", "import botocore"]).exitCode) == 0
    }()

    @Test func percentEncodingIsRFC3986() {
        #expect(SignatureV4.percentEncoded("a b+c/d~e", keepingSlashes: true) == "a%20b%2Bc/d~e")
        #expect(SignatureV4.percentEncoded("a b+c/d~e", keepingSlashes: false) == "a%20b%2Bc%2Fd~e")
        #expect(SignatureV4.percentEncoded("ä", keepingSlashes: false) == "%C3%A4")
        #expect(SignatureV4.percentDecoded("%C3%A4%2f%zz%") == "ä/%zz%")
    }
}
