// swift-tools-version:6.0
// libFuzzer targets for every reader of the look-around system, one executable per target.
//
// A package of its own so that these executables, which link only with `-sanitize=fuzzer` (libFuzzer
// brings `main`), never take part in the main package's `swift build` or `swift test`. It depends on
// the main package by path; `make fuzz` (in the main package's Makefile) builds and runs it:
//
//     swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing
//
// `-parse-as-library` because SwiftPM links an executable's `main` to `<Module>_main`: each target
// defines that (``FuzzInput/run(_:_:_:)``, which hands over to libFuzzer's driver) beside its
// `LLVMFuzzerTestOneInput`. `-enable-testing` lets a target reach the internal readers the product calls (`@testable import`),
// so what is fuzzed is the code the product runs, not a copy.
import PackageDescription

/// The targets and the main package's products each one uses.
let fuzzTargets: [(name: String, products: [String])] = [
    ("FuzzJPEG", ["Imaging"]),
    ("FuzzPNG", ["Imaging"]),
    ("FuzzMetadata", ["Imaging"]),
    ("FuzzOSM", ["MapData"]),
    ("FuzzArguments", ["ArgumentParsing", "CommandOptions"]),
    ("FuzzGeoJSON", ["MapSnapshot", "Playback"]),
    ("FuzzGPX", ["Playback"]),
    ("FuzzSidecar", ["Catalog"]),
    ("FuzzTileFile", ["Reprojection"]),
    ("FuzzHTTP", ["Service", "Catalog"]),
    ("FuzzHTTPConnection", ["Service"]),
]

let package = Package(
    name: "LookAroundFuzz",
    dependencies: [.package(name: "LookAround", path: "..")],
    targets: [.target(name: "CLibFuzzer"), .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"])] + fuzzTargets.map { target in
        .executableTarget(name: target.name,
                          dependencies: ["FuzzSupport"] + target.products.map { .product(name: $0, package: "LookAround") })
    },
    swiftLanguageModes: [.v6]
)
