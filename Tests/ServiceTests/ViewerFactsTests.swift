import Foundation
@testable import Service
import Testing
import TestSupport

/// The web viewer's shared facts (ViewerFacts.swift) are defined once and served to the page as
/// `/lookaround/facts.js`; the Swift side (FirstViewCamera, the server's reading of a deep link and its
/// first frame) and the JavaScript side (lookaround/addresses.js, run by Node on the same modules the
/// browser loads) must read the same links and write the same frames.
@Suite struct ViewerFactsTests {
    /// Deep links and windows (CSS pixels and device pixel ratio): each side's first frame of them.
    static let cases: [(address: String, width: Int, height: Int, ratio: Double)] = [
        ("/@60.1685,24.9500,3a,75y,123h,95t?pano=aleksanterinkatu-012", 1280, 800, 1),
        ("/@60.1694770,24.9523993,3a,60y,75.125h,95t/data=!3m1?pano=senaatintori-005", 640, 360, 1.5),
        ("/?pano=x&heading=-45&pitch=100&fov=5", 390, 844, 3),
        ("/?pano=a%2Fb%20c&heading=200.125&pitch=-85.005&fov=120.004", 333, 222, 2.625),
        ("/?pano=p&heading=1e2&fov=.5e2", 800, 600, 0.5),
        ("/?pano=p&heading=10&heading=20", 800, 600, 1),
        ("/@60.1,24.9,3a,,h,90t?pano=p", 800, 600, 1),
        ("/@60.1,24.9,3a,75y,0x10h,90t?pano=p", 800, 600, 1),
        ("/@north,24.9,3a,75y,10h,90t?pano=p", 800, 600, 1),
        ("/@60.1,24.9,3a,75y,10h,90t?pano=", 800, 600, 1),
        ("/?pano=p&heading=%205", 800, 600, 1),
        ("/?pano=p&heading=Infinity", 800, 600, 1),
        ("/?pano=p", 800, 600, 1),
        ("/?viewpoint=60.1,24.9&heading=10", 800, 600, 1),
        ("/@60.1,24.9,3a,75y,10h,90t", 800, 600, 1),
        ("/@60.1,24.9,3a,90y,359.999h,0t?pano=q", 1001, 601, 2),
    ]

    /// The Swift side of a case: the first frame's key and URL, or nil (the page has no first view).
    static func swiftSide(_ address: String, width: Int, height: Int, ratio: Double) throws -> [String]? {
        let url = try #require(URLComponents(string: "http://host" + address))
        let query = (url.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        let request = HTTPRequest(path: url.path, query: query)
        guard let camera = FirstViewCamera(request) else { return nil }
        let hints = ["sec-ch-viewport-width": String(width), "sec-ch-viewport-height": String(height), "sec-ch-dpr": String(ratio)]
        guard let size = camera.pixelSize(hints: hints) else { return ["no size"] }
        return [camera.key(size: size), camera.snapshotRequest(size: size).url]
    }

    @Test func theServedModuleIsTheFacts() throws {
        let served = try #require(try WebResources.current().files["/lookaround/facts.js"])
        #expect(served.bytes == ViewerFacts.module && served.contentType.hasPrefix("text/javascript"))
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(ViewerFacts.json)) as? [String: [String: Any]])
        #expect(facts["camera"]?["pitchDegrees"] as? [Double] == [ViewerFacts.pitchDegrees.lowerBound, ViewerFacts.pitchDegrees.upperBound])
        #expect(facts["camera"]?["fieldOfViewDegrees"] as? [Double] == [20, 120])
        #expect(facts["frame"]?["keyFields"] as? [String] == ViewerFacts.frameKeyFields)
        #expect(facts["deepLink"]?["units"] as? [String: String] == ["h": "heading", "t": "tilt", "y": "fov"])
        // Every fact has its type in facts.d.ts (the checker's view of the module), and the declaration names no other.
        let declared = try String(contentsOf: Lookaround.repository.appendingPathComponent("Sources/Service/Resources/web/lookaround/facts.d.ts"),
                                  encoding: .utf8)
        var keys: Set<String> = []
        for (group, values) in facts {
            keys.insert(group)
            for key in values.keys { keys.insert(key) }
            for key in (values["query"] as? [String: String] ?? [:]).keys { keys.insert(key) }
        }
        for key in keys { #expect(declared.contains(" \(key):"), "facts.d.ts does not declare \(key)") }
        let declaredKeys = declared.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("/") && !text.hasPrefix("*"), let colon = text.firstIndex(of: ":"), !text.hasPrefix("declare") else { return nil }
            return String(text[..<colon])
        }
        #expect(Set(declaredKeys).subtracting(keys).isEmpty, "facts.d.ts declares \(Set(declaredKeys).subtracting(keys)), which the server does not serve")
        // The page is not served its parts or the declaration.
        #expect(try WebResources.current().files.keys.allSatisfy { !$0.hasPrefix("/page/") && !$0.hasSuffix(".d.ts") })
    }

    @Test func theSwiftSideReadsLinksAsTheViewer() throws {
        // A table of what the viewer's first frame is for each link (its key, as lookaround.js writes it).
        let expected: [String: String?] = [
            "/@60.1685,24.9500,3a,75y,123h,95t?pano=aleksanterinkatu-012": "aleksanterinkatu-012|123.00|5.00|75.00|1280|800|all|1.00",
            "/?pano=x&heading=-45&pitch=100&fov=5": "x|315.00|85.00|20.00|1170|2532|all|3.00",
            "/?pano=a%2Fb%20c&heading=200.125&pitch=-85.005&fov=120.004": "a/b c|200.13|-85.00|120.00|874|583|all|2.63",
            "/?pano=p&heading=1e2&fov=.5e2": "p|100.00|0.00|50.00|400|300|all|1.00",
            "/?pano=p&heading=10&heading=20": "p|20.00|0.00|90.00|800|600|all|1.00",
            "/@60.1,24.9,3a,,h,90t?pano=p": nil, "/@60.1,24.9,3a,75y,0x10h,90t?pano=p": nil, "/@north,24.9,3a,75y,10h,90t?pano=p": nil,
            "/@60.1,24.9,3a,75y,10h,90t?pano=": nil, "/?pano=p&heading=%205": nil, "/?pano=p&heading=Infinity": nil, "/?pano=p": nil,
            "/?viewpoint=60.1,24.9&heading=10": nil, "/@60.1,24.9,3a,75y,10h,90t": nil,
        ]
        for (address, key) in expected {
            let case_ = try #require(Self.cases.first { $0.address == address })
            #expect(try Self.swiftSide(address, width: case_.width, height: case_.height, ratio: case_.ratio)?.first == key, "\(address)")
        }
    }

    /// The same links through lookaround/addresses.js in Node (the modules as served: facts.js the
    /// server's): the same frame, key and URL, or the same "no first view".
    @Test func theJavaScriptSideAgrees() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/node") else {
            try Test.cancel("skipped: node is missing (scripts/install-test-tools.sh installs Debian's node-typescript, which brings it)")
        }
        let folder = try Lookaround.temporaryDirectory()
        let modules = folder.appendingPathComponent("lookaround")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let resources = try WebResources.current()
        for name in ["addresses.js", "geometry.js", "facts.js"] {
            try Data(try #require(resources.files["/lookaround/" + name]).bytes).write(to: modules.appendingPathComponent(name))
        }
        try Data(#"{"type": "module"}"#.utf8).write(to: folder.appendingPathComponent("package.json"))
        // What first-view.js does with a link and a window: the frame's key and its URL (path and query).
        let script = """
            import { cameraFromAddress, firstFrameLabels, frameRequest, labelScale, limitCamera } from "./lookaround/addresses.js";
            const cases = JSON.parse(process.argv[2]);
            console.log(JSON.stringify(cases.map(([address, width, height, ratio]) => {
              const url = new URL("http://host" + address), wanted = cameraFromAddress(url);
              if (!wanted || !("id" in wanted.location) || wanted.camera.heading === undefined) return null;
              const frame = frameRequest(wanted.location.id, limitCamera(wanted.camera), Math.round(width * ratio), Math.round(height * ratio),
                                         firstFrameLabels, labelScale(ratio));
              const query = Object.entries(frame.query).map(([n, v]) => n + "=" + encodeURIComponent(v).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())).join("&");
              return [frame.key, frame.path + "?" + query];
            })));
            """
        try Data(script.utf8).write(to: folder.appendingPathComponent("check.js"))
        let input = try JSONSerialization.data(withJSONObject: Self.cases.map { [$0.address, $0.width, $0.height, $0.ratio] as [Any] })
        let run = try Lookaround.runProcess("/usr/bin/node", ["check.js", String(decoding: input, as: UTF8.self)], in: folder)
        #expect(run.exitCode == 0, "\(run.stderr)")
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [Any], "\(run.stdout)")
        #expect(answers.count == Self.cases.count)
        for (index, answer) in answers.enumerated() where index < Self.cases.count {
            let c = Self.cases[index]
            let swift = try Self.swiftSide(c.address, width: c.width, height: c.height, ratio: c.ratio)
            #expect(answer as? [String] == swift, "\(c.address): JavaScript \(answer), Swift \(String(describing: swift))")
        }
    }
}
