// The service's request path below the socket: the input is a raw request (request line, header
// lines, a blank line, the body), parsed by the HTTP layer's own head parser (HTTPHeadParser), then
// SceneService.admit and .handle and, for image routes, the render work a worker would run. No control
// character may reach a route, and a refused head is answered from the one error table. The catalog is two shipped panoramas with their
// depth and label maps, indexed once at start; since it is sound, any 5xx but 503 is a finding.
import Catalog
import Foundation
import FuzzSupport
@testable import Service

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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let parsed = bytes.withUnsafeBytes { HTTPHeadParser.parse($0, limits: HTTPHeadLimits()) }
    let head: HTTPRequestHead, used: Int
    switch parsed {
    case .incomplete: return 0
    case .failed(let error, let path):
        // Refused by the HTTP layer: a 4xx or 5xx of the one table, answered in the JSON (or Google's) shape.
        precondition(error.httpStatus >= 400 && error.httpStatus != 500, "\(error)")
        precondition(path.map { !$0.utf8.contains { $0 < 32 || $0 == 127 } } ?? true, "a control character in \(path ?? "")")
        let answer = service.protocolError(error, path: path)
        precondition(answer.status == error.httpStatus)
        return 0
    case .complete(let complete, let consumed):
        (head, used) = (complete, consumed)
    }
    for text in [head.path] + head.query.flatMap({ [$0.name, $0.value] }) {
        precondition(!text.utf8.contains { $0 < 32 || $0 == 127 }, "a control character reached a route: \(text.debugDescription)")
    }
    var body: [UInt8] = []
    var decision: (any Sendable)?
    switch service.admit(head.request()) {
    case .refuse(_, let answer):
        precondition(answer.status >= 400, "a refusal with status \(answer.status)")
        return 0
    case .accept(let limit, let admitted):
        decision = admitted
        // The body as the loop would hand it over: Content-Length bytes (chunked bodies are the loop's).
        guard !head.isChunked else { return 0 }
        let length = head.contentLength ?? 0
        guard length <= limit, bytes.count - used >= length else { return 0 }
        body = Array(bytes[used..<(used + length)])
    }
    let request = head.request(body: body)
    let (_, disposition) = service.handle(request, admitted: decision)
    let response: HTTPResponse
    switch disposition {
    case .respond(let answer), .respondAndPrepare(let answer, _): response = answer
    case .render(let work): response = work()
    }
    precondition((200..<600).contains(response.status), "status \(response.status)")
    // The catalog and its files are sound: no request may make the service fail internally.
    precondition(response.status < 500 || response.status == 503,
                 "status \(response.status) for \(request.method) \(request.path): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
    return 0
}

@_cdecl("FuzzHTTP_main")
public func fuzzHTTPMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzHTTP)
}
