import Catalog
import Foundation
@testable import Playback
import Testing
import TestSupport

/// What a walk's renderer keeps from one frame to the next: the next move, set up on another core while
/// this one's frames are rendered, and the last frame's labels. Its frames are the same as those of a
/// renderer that keeps nothing.
@Suite struct WalkRendererPrefetchTests {
    /// The shipped panoramas' catalog with the OSM extract's places and streets (built once) and the
    /// walk from aleksanterinkatu-053 to -051 (on Aleksanterinkatu, past labelled shops).
    static let walk: Result<(catalog: Catalog, timeline: WalkTimeline), any Error> = Result {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = try Lookaround.temporaryDirectory()
        let catalogPath = folder.appendingPathComponent("catalog.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [repository.appendingPathComponent("Panoramas/helsinki").path],
                                                         catalogPath: catalogPath,
                                                         osmFiles: [repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path]))
        let catalog = try Catalog(path: catalogPath)
        let route = try RoutePlanner(catalog: catalog).route(from: try catalog.panorama(id: "aleksanterinkatu-053").coordinate,
                                                             to: try catalog.panorama(id: "aleksanterinkatu-051").coordinate)
        return (catalog, try WalkTimeline(route: route))
    }

    @Test func aMoveSetUpAheadRendersAsOneSetUpInLine() throws {
        let (catalog, timeline) = try Self.walk.get()
        let route = timeline.route
        try #require(route.stops.count >= 3, "the route has \(route.stops.count) stops")
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

    /// The walk's first frame stands at its start (the first waypoint's pause): the first move is set up
    /// beside it, and renders as one set up in line.
    @Test func theFirstMoveIsSetUpBesideTheFirstFrame() throws {
        let (catalog, timeline) = try Self.walk.get()
        var options = WalkRenderOptions()
        options.size = .init(width: 160, height: 90)
        options.showsLabels = false
        #expect(timeline.frames[0].isPaused)
        let ahead = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: nil, options: options)
        _ = try ahead.render(frameAt: 0)
        #expect(ahead.upcoming?.segment == 0, "the first move is being set up")
        let moving = try #require(timeline.frames.first { $0.segment == 0 && !$0.isPaused && $0.fraction > 0 }).index
        let prefetched = try ahead.render(frameAt: moving)
        #expect(ahead.upcoming?.segment == 1, "the first move's frames set up the second")
        let inLine = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: nil, options: options).render(frameAt: moving)
        #expect(prefetched.image == inLine.image)
    }

    /// Two frames in a row with the same nearest panorama and camera: the second's labels are the
    /// first's, and the frame is the one a new renderer draws.
    @Test func labelsKeptFromTheFrameBeforeAreThoseDrawnAfresh() throws {
        let (catalog, timeline) = try Self.walk.get()
        var options = WalkRenderOptions()
        options.size = .init(width: 320, height: 180)
        let frames = timeline.frames
        // Pairs of frames in a row with the same nearest panorama and heading, until one shows a label.
        let pairs = frames.indices.dropLast().filter { i in
            let a = frames[i], b = frames[i + 1]
            return !a.isPaused && a.fraction > 0.1 && b.segment == a.segment && b.fraction < 0.5 && b.headingDegrees == a.headingDegrees
        }
        let walking = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: nil, options: options)
        var found: (pair: Int, kept: WalkFrame)?
        let tried = stride(from: 0, to: pairs.count, by: max(1, pairs.count / 8)).map { pairs[$0] }
        for pair in tried {
            _ = try walking.render(frameAt: pair)
            let kept = try walking.render(frameAt: pair + 1)
            if walking.labels?.layer != nil { found = (pair, kept); break }
        }
        let (pair, kept) = try #require(found, "a label in view at one of frames \(tried)")
        let fresh = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: nil, options: options).render(frameAt: pair + 1)
        #expect(kept.image == fresh.image)
        options.showsLabels = false
        let unlabelled = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: nil, options: options).render(frameAt: pair + 1)
        #expect(kept.image != unlabelled.image, "the labels are drawn")
    }
}
