import Catalog
import Foundation
import Imaging
import LookAround
import Reprojection

// A hand-run measurement of the road-label pass (not a benchmark section, not a test): for each view,
// the placement of street names and their painting onto a view, timed separately. The first paint of
// a process renders the glyphs at a size nothing has asked for yet (the glyph cache is cold), as a
// one-shot `lookaround snapshot` does; later paints of the same labels find them cached.
//
// Usage (from the package root, after `lookaround index`):
//   swift build -c release --product RoadLabelTiming && .build/release/RoadLabelTiming [WIDTHxHEIGHT] [ITERATIONS]

let arguments = Array(CommandLine.arguments.dropFirst())
let size = arguments.first.map { $0.split(separator: "x").compactMap { Int($0) } } ?? [1280, 720]
let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
guard size.count == 2 else {
    FileHandle.standardError.write(Data("usage: RoadLabelTiming [WIDTHxHEIGHT] [ITERATIONS]\n".utf8))
    exit(64)
}
let views: [(scene: String, headingDegrees: Double)] = [
    ("aleksanterinkatu-030", 250), ("aleksanterinkatu-010", 70), ("aleksanterinkatu-010", 250),
    ("pohjoisesplanadi-020", 90), ("pohjoisesplanadi-020", 270),
]

func microseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func format(_ microseconds: Double) -> String { String(format: "%7.0f µs", microseconds) }

do {
    let catalog = try Catalog(path: Catalog.defaultPath)
    print("road-label pass, \(size[0])×\(size[1]), median (fastest) of \(iterations) runs; first paint: cold glyph cache")
    print("view                         labels   placement            painting             first paint")
    for view in views {
        let scene = try LookAroundScene(panoramaID: view.scene, catalog: catalog)
        let options = LookAroundSnapshotter.Options(size: PixelSize(width: size[0], height: size[1]),
                                                    camera: .init(headingDegrees: view.headingDegrees))
        let snapshotter = LookAroundSnapshotter(scene: scene, options: options, catalog: catalog)
        let camera = try snapshotter.viewCamera()
        let places = try snapshotter.placeLabels(for: camera, catalog: catalog)
        var labels: [LookAroundRoadLabel] = []
        _ = try snapshotter.roadLabels(for: camera, catalog: catalog, avoiding: places)  // depth map read and cached
        let background = RGB8Image(width: camera.width, height: camera.height)
        var image = background
        let first = try microseconds { try LookAroundSnapshotter.paint(roadLabels: try snapshotter.roadLabels(
            for: camera, catalog: catalog, avoiding: places), camera: camera, on: &image) }
        var placement: [Double] = [], painting: [Double] = []
        for _ in 0..<iterations {
            placement.append(try microseconds { labels = try snapshotter.roadLabels(for: camera, catalog: catalog, avoiding: places) })
            image = background
            image.components.withUnsafeMutableBufferPointer { _ in }  // the copy happens here, not in the paint
            painting.append(try microseconds { try LookAroundSnapshotter.paint(roadLabels: labels, camera: camera, on: &image) })
        }
        let name = "\(view.scene) \(Int(view.headingDegrees))°".padding(toLength: 28, withPad: " ", startingAt: 0)
        print("\(name) \(String(format: "%6d", labels.count))  \(format(median(placement))) (\(format(placement.min()!)))"
              + "  \(format(median(painting))) (\(format(painting.min()!)))  \(format(first))")
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(70)
}
