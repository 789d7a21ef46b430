// The service's request path below the socket: the input is a raw request ("METHOD TARGET", header
// lines, a blank line, the body), split the way libmicrohttpd hands it over (path and query
// percent-decoded, `+` as space in the query, header names lower-cased), then SceneService.handle and,
// for image routes, the render work a worker would run. The catalog is two shipped panoramas with their
// depth and label maps, indexed once at start; since it is sound, any 5xx but 503 is a finding.
import Catalog
import Foundation
import FuzzSupport
import Service

let service: SceneService = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    let shipped = repository + "/Panoramas/helsinki"
    let folder = FuzzInput.scratchDirectory + "/panoramas/helsinki"
    try? FileManager.default.removeItem(atPath: FuzzInput.scratchDirectory + "/panoramas")
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in ["aleksanterinkatu-000", "aleksanterinkatu-001"] {
        for suffix in [".jpg", ".json", ".depth.png", ".labels.png"] {
            try! FileManager.default.copyItem(atPath: shipped + "/" + name + suffix, toPath: folder + "/" + name + suffix)
        }
    }
    let catalogPath = FuzzInput.scratchDirectory + "/panoramas/catalog.sqlite"
    _ = try! CatalogBuilder.build(CatalogBuildOptions(directories: [folder], catalogPath: catalogPath))
    var configuration = ServiceConfiguration()
    configuration.catalogPath = catalogPath
    configuration.osmPath = repository + "/Panoramas/sources/helsinki-centre.osm.pbf"
    configuration.maximumImagePixels = 64 * 64
    configuration.cacheMegabytes = 16
    return try! SceneService(configuration: configuration)
}()

/// `%XX` decoding as libmicrohttpd's MHD_http_unescape does it (a bad escape stays as it is).
func unescape(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
    while index < bytes.endIndex {
        let c = bytes[index]
        if c == 0x25, index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
            out.append(high << 4 | low)
            index += 3
            continue
        }
        out.append(plusIsSpace && c == 0x2B ? 0x20 : c)
        index += 1
    }
    // libmicrohttpd hands over C strings: a decoded NUL ends the value.
    if let nul = out.firstIndex(of: 0) { out.removeSubrange(nul...) }
    return String(decoding: out, as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    // The head ends at the first blank line; the body is the rest.
    var headEnd = bytes.count, bodyStart = bytes.count
    if bytes.count >= 2 {
        for i in 0..<(bytes.count - 1) where bytes[i] == 0x0A && bytes[i + 1] == 0x0A {
            headEnd = i
            bodyStart = i + 2
            break
        }
    }
    let lines = bytes[..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false)
    guard let requestLine = lines.first else { return 0 }
    let parts = requestLine.split(separator: 0x20, maxSplits: 1, omittingEmptySubsequences: false)
    let method = String(decoding: parts[0], as: UTF8.self)
    let target = parts.count > 1 ? parts[1] : []
    let question = target.firstIndex(of: 0x3F)
    let path = unescape(question.map { target[..<$0] } ?? target, plusIsSpace: false)
    var query: [(name: String, value: String)] = []
    if let question {
        for pair in target[(question + 1)...].split(separator: 0x26) {
            let equals = pair.firstIndex(of: 0x3D)
            query.append((unescape(equals.map { pair[..<$0] } ?? pair, plusIsSpace: true),
                          equals.map { unescape(pair[($0 + 1)...], plusIsSpace: true) } ?? ""))
        }
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: 0x3A) else { continue }
        headers[String(decoding: line[..<colon], as: UTF8.self).lowercased()] =
            String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
    let request = HTTPRequest(method: method, path: path, query: query, headers: headers,
                              body: Array(bytes[bodyStart...]))
    let (_, disposition) = service.handle(request)
    let response: HTTPResponse
    switch disposition {
    case .respond(let answer): response = answer
    case .render(let work): response = work()
    }
    precondition((200..<600).contains(response.status), "status \(response.status)")
    // The catalog and its files are sound: no request may make the service fail internally.
    precondition(response.status < 500 || response.status == 503,
                 "status \(response.status) for \(method) \(path): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
    return 0
}

@_cdecl("FuzzHTTP_main")
public func fuzzHTTPMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzHTTP)
}
