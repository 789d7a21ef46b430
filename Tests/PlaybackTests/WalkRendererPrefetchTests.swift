import Catalog
import Foundation
@testable import Playback
import Testing

/// The next move is set up on another core while this one's frames are rendered: its frames are the
/// same as those of a move set up in line.
@Suite struct WalkRendererPrefetchTests {
    @Test func aMoveSetUpAheadRendersAsOneSetUpInLine() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prefetch-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalogPath = folder.appendingPathComponent("catalog.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [repository.appendingPathComponent("Panoramas/helsinki").path],
                                                         catalogPath: catalogPath))
        let catalog = try Catalog(path: catalogPath)
        let route = try RoutePlanner(catalog: catalog).route(from: try catalog.panorama(id: "aleksanterinkatu-030").coordinate,
                                                             to: try catalog.panorama(id: "aleksanterinkatu-028").coordinate)
        try #require(route.stops.count >= 3, "the route has \(route.stops.count) stops")
        let timeline = try WalkTimeline(route: route)
        var options = WalkRenderOptions()
        options.size = .init(width: 160, height: 90)
        options.showsLabels = false
        let inMove = { (segment: Int) in try #require(timeline.frames.first { $0.segment == segment && !$0.isPaused && $0.fraction > 0.3 }).index }
        let ahead = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: nil, options: options)
        _ = try ahead.render(frameAt: inMove(0))
        #expect(ahead.upcoming?.segment == 1, "the first move's frames set up the second")
        let prefetched = try ahead.render(frameAt: inMove(1))
        let inLine = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: nil, options: options).render(frameAt: inMove(1))
        #expect(prefetched.image == inLine.image)
        #expect(ahead.upcoming?.segment != 1)
    }
}
