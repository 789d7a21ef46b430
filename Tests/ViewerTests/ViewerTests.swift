import Catalog
import Foundation
import Imaging
import LookAround
import Terminal
import Testing
import TestSupport
@testable import Viewer

/// The viewer's parts without a terminal: keys, camera steps, link choice, layout, status line, and
/// views of the shipped Helsinki panoramas.
@Suite struct ViewerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped panoramas and places, indexed once for the suite.
    static let catalog = Result { () throws -> Catalog in
        let folder = try Lookaround.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("catalog.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(
            directories: [repository.appendingPathComponent("Panoramas/helsinki").path], catalogPath: path,
            osmFiles: [repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path]))
        return try Catalog(path: path)
    }

    func state(_ id: String = "aleksanterinkatu-030", heading: Double = 90) throws -> ViewerState {
        ViewerState(scene: try LookAroundScene(panoramaID: id, catalog: try Self.catalog.get()), headingDegrees: heading)
    }

    @Test func keysMapToCommands() {
        #expect(ViewerKeys.command(for: KeyEvent(.left)) == .turnLeft)
        #expect(ViewerKeys.command(for: KeyEvent(.character("l"))) == .turnRight)
        #expect(ViewerKeys.command(for: KeyEvent(.character("k"))) == .pitchUp)
        #expect(ViewerKeys.command(for: KeyEvent(.enter)) == .forward)
        #expect(ViewerKeys.command(for: KeyEvent(.character("L"))) == .cycleLabels)
        #expect(ViewerKeys.command(for: KeyEvent(.character("l"), modifiers: .control)) == .redraw, "Ctrl-L is no turn")
        #expect(ViewerKeys.command(for: KeyEvent(.character("c"), modifiers: .control)) == .quit)
        #expect(ViewerKeys.command(for: KeyEvent(.escape)) == .quit)
        #expect(ViewerKeys.command(for: KeyEvent(.right, modifiers: .shift)) == .turnRight)
        #expect(ViewerKeys.command(for: KeyEvent(.character("x"))) == nil)
        // Every command has a key, and no key means two things.
        #expect(Set(ViewerKeys.bindings.map(\.command)) == Set(ViewerCommand.allCases))
        let keys = ViewerKeys.bindings.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
        #expect(ViewerKeys.helpLines.contains { $0.hasPrefix("w Enter") && $0.contains("linked panorama") })
    }

    @Test func turnsPitchAndZoomStayInRange() throws {
        var s = try state(heading: 350)
        #expect(s.turnStep == 15)
        _ = s.apply(.turnRight)
        #expect(abs(s.headingDegrees - 5) < 1e-9, "wraps through north")
        for _ in 0..<3 { _ = s.apply(.zoomIn) }
        #expect(abs(s.fieldOfViewDegrees - 90 / pow(1.25, 3)) < 1e-9)
        #expect(abs(s.turnStep - 15 * s.fieldOfViewDegrees / 90) < 1e-9, "finer when zoomed in")
        for _ in 0..<20 { _ = s.apply(.zoomIn) }
        #expect(s.fieldOfViewDegrees == 20)
        for _ in 0..<20 { _ = s.apply(.zoomOut) }
        #expect(s.fieldOfViewDegrees == 120)
        for _ in 0..<30 { _ = s.apply(.pitchUp) }
        #expect(s.pitchDegrees == 90)
        _ = s.apply(.reset)
        #expect(s.headingDegrees == 350 && s.pitchDegrees == 0 && s.fieldOfViewDegrees == 90)
        #expect(s.labels == .all)
        for expected in [ViewerLabels.places, .roads, .none, .all] {
            _ = s.apply(.cycleLabels)
            #expect(s.labels == expected && s.message == "labels: \(expected.rawValue)")
        }
        #expect(s.apply(.forward) == false, "a move needs the navigator")
    }

    @Test func theLinkAheadIsTheNearestInTheViewDirection() {
        let links = [PanoramaLink(panoramaID: "next", headingDegrees: 87.2, distanceMeters: 12, kind: .sequence),
                     PanoramaLink(panoramaID: "after", headingDegrees: 87.19, distanceMeters: 24, kind: .proximity),
                     PanoramaLink(panoramaID: "back", headingDegrees: 266.8, distanceMeters: 12, kind: .sequence),
                     PanoramaLink(panoramaID: "side", headingDegrees: 170, distanceMeters: 8, kind: .proximity)]
        #expect(ViewerNavigator.link(toward: 90, in: links)?.panoramaID == "next", "the next capture, not the one after it")
        #expect(ViewerNavigator.link(toward: 150, in: links)?.panoramaID == "side")
        #expect(ViewerNavigator.link(toward: 280, in: links)?.panoramaID == "back")
        #expect(ViewerNavigator.link(toward: 0, in: links) == nil, "nothing within 67.5° of north")
        #expect(ViewerNavigator.headingDifference(350, 10) == 20 && ViewerNavigator.headingDifference(10, 350) == -20)
    }

    @Test func movesFollowTheShippedLinks() throws {
        let navigator = ViewerNavigator(catalog: try Self.catalog.get())
        let s = try state()
        func target(_ command: ViewerCommand, _ state: ViewerState) -> String? {
            if case .move(let scene) = navigator.destination(of: command, from: state) { return scene.panoramaID }
            return nil
        }
        #expect(target(.forward, s) == "aleksanterinkatu-031")
        #expect(target(.backward, s) == "aleksanterinkatu-029")
        #expect(target(.nextInSequence, s) == "aleksanterinkatu-031")
        #expect(target(.previousInSequence, s) == "aleksanterinkatu-029")
        #expect(navigator.destination(of: .forward, from: try state(heading: 0)) == .stay("no panorama ahead: turn towards an arrow"))
        let first = try state("aleksanterinkatu-000")
        #expect(navigator.destination(of: .previousInSequence, from: first) == .stay("first panorama of sequence aleksanterinkatu"))
        #expect(navigator.sequencePosition(of: s.scene) == "31/57")
        #expect(navigator.streetName(of: s.scene, language: nil) == "Aleksanterinkatu", "no house number of that street within 20 m")
        // Beside Stockmann the status line gives the house number, with the street in the label language.
        #expect(navigator.streetName(of: try state("aleksanterinkatu-002").scene, language: nil) == "Aleksanterinkatu 52")
        #expect(navigator.streetName(of: try state("aleksanterinkatu-002").scene, language: "sv") == "Alexandersgatan 52")
        // A click on the ground 12 m east lands on the next panorama.
        let match = s.scene.match
        let frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: match.latitude, longitude: match.longitude))
        let east = try frame.geodetic(from: EastNorthUp(east: 11.5, north: 0.6, up: 0)).coordinate
        if case .move(let scene) = navigator.destination(near: east, from: s) {
            #expect(scene.panoramaID == "aleksanterinkatu-031")
        } else {
            Issue.record("no move to the clicked point")
        }
        #expect(ViewerNavigator(catalog: nil).destination(of: .forward, from: s) == .stay("a single panorama file has no links"))
    }

    @Test func layoutSizesThePictureForEachProtocol() {
        let text = ViewerLayout(columns: 160, rows: 48, outputProtocol: .truecolor)
        #expect(text.picturePixelSize == PixelSize(width: 160, height: 94) && text.statusRow == 47 && text.pictureTopRow == 0)
        #expect(text.cell(showing: PixelPoint(x: 10.5, y: 21.5)) == (10, 10))
        #expect(text.picturePoint(column: 10, row: 10)! == PixelPoint(x: 10.5, y: 21))
        #expect(text.picturePoint(column: 10, row: 47) == nil, "the status line is no picture")
        let sixel = ViewerLayout(columns: 120, rows: 40, outputProtocol: .sixel, cellPixelSize: PixelSize(width: 6, height: 13))
        #expect(sixel.picturePixelSize == PixelSize(width: 720, height: 38 * 13) && sixel.pictureTopRow == 1)
        #expect(!sixel.pictureIsFitted && sixel.pictureLeftColumn == 0 && sixel.pictureColumns == 120)
        let kitty = ViewerLayout(columns: 300, rows: 100, outputProtocol: .kitty, cellPixelSize: PixelSize(width: 10, height: 20))
        let size = kitty.picturePixelSize
        #expect(size.width * size.height <= ViewerLayout.kittyPixelBudget && abs(Double(size.width) / Double(size.height) - 3000.0 / 1960) < 0.01)
        #expect(ViewerLayout(columns: 19, rows: 30, outputProtocol: .truecolor).isTooSmall)
        #expect(ViewerLayout(columns: 20, rows: 7, outputProtocol: .truecolor).isTooSmall)
        #expect(!ViewerLayout(columns: 20, rows: 8, outputProtocol: .truecolor).isTooSmall)
    }

    /// A sixel picture larger than the terminal shows is dropped (xterm's default limit is 1000×1000):
    /// the picture is fitted inside the limit in whole cells and centred, and cells map to its pixels.
    @Test func aSixelPictureFitsInsideTheTerminalsLimit() throws {
        // xterm at 200×60 cells of 6×13 px answers XTSMGRAPHICS with 1000×780 (the text area, capped).
        let xterm = ViewerLayout(columns: 200, rows: 60, outputProtocol: .sixel, cellPixelSize: PixelSize(width: 6, height: 13),
                                 sixelPixelLimit: PixelSize(width: 1000, height: 780))
        #expect(xterm.pictureColumns == 166 && xterm.pictureRows == 58 && xterm.picturePixelSize == PixelSize(width: 996, height: 754))
        #expect(xterm.pictureLeftColumn == 17 && xterm.pictureTopRow == 1 && xterm.pictureIsFitted)
        #expect(xterm.cell(showing: PixelPoint(x: 0, y: 0)) == (17, 1) && xterm.cell(showing: PixelPoint(x: 995, y: 753)) == (182, 58))
        #expect(xterm.picturePoint(column: 17, row: 1)! == PixelPoint(x: 3, y: 6.5))
        #expect(xterm.picturePoint(column: 16, row: 10) == nil && xterm.picturePoint(column: 183, row: 10) == nil)
        // Limited both ways: centred vertically too, under the message row.
        let tall = ViewerLayout(columns: 250, rows: 90, outputProtocol: .sixel, cellPixelSize: PixelSize(width: 6, height: 13),
                                sixelPixelLimit: PixelSize(width: 1000, height: 1000))
        #expect(tall.picturePixelSize == PixelSize(width: 996, height: 76 * 13) && tall.pictureTopRow == 1 + (88 - 76) / 2)
        #expect(tall.statusRow == 89 && tall.messageRow == 0)
        // No limit known: xterm's default is assumed. Kitty and the text modes are not limited.
        #expect(ViewerLayout(columns: 250, rows: 90, outputProtocol: .sixel, cellPixelSize: PixelSize(width: 6, height: 13)) == tall)
        #expect(ViewerLayout(columns: 250, rows: 90, outputProtocol: .truecolor, sixelPixelLimit: PixelSize(width: 10, height: 10))
                    .picturePixelSize == PixelSize(width: 250, height: 178))
        // The picture is placed at its cell: the sixel image starts with the cursor at row 2, column 18.
        var screen = ViewerScreen(kittyTransmission: .direct)
        let picture = RGB8Image(width: 996, height: 754)
        let frame = ViewerScreen.cells(layout: xterm, picture: picture, status: ("left", "right"), message: nil)
        let bytes = try screen.bytes(frame: frame, picture: picture, layout: xterm, pictureChanged: true)
        let text = String(decoding: bytes, as: UTF8.self)
        let position = try #require(text.range(of: "\u{1B}[2;18H\u{1B}P"), "the sixel image follows the cursor at its cell")
        #expect(text[position.upperBound...].contains("\"1;1;996;754"), "raster attributes give the fitted size")
    }

    @Test func statusLineSaysWhereAndWhichWay() throws {
        let s = try state(heading: 47.6)
        let status = ViewerScreen.statusText(state: s, street: "Aleksanterinkatu", sequencePosition: "31/57", mapShown: false)
        #expect(status.left == " Aleksanterinkatu · aleksanterinkatu-030 · 2026-06-15 · heading 48° NE · pitch 0° · fov 90° · 31/57")
        #expect(status.right.contains("? keys"))
        #expect(ViewerScreen.compassPoint(0) == "N" && ViewerScreen.compassPoint(359) == "N" && ViewerScreen.compassPoint(200) == "SSW")
        #expect(ViewerScreen.statusText(state: s, street: nil, sequencePosition: nil, mapShown: true).right.contains("OpenStreetMap"))
    }

    @Test func aTextModeViewHasThePictureLabelsArrowsAndStatus() throws {
        let catalog = try Self.catalog.get()
        let renderer = ViewerRenderer(navigator: ViewerNavigator(catalog: catalog), language: nil, map: nil)
        let layout = ViewerLayout(columns: 160, rows: 48, outputProtocol: .truecolor)
        let s = try state()
        let view = try renderer.render(s, layout: layout)
        #expect(view.picture.width == 160 && view.picture.height == 94)
        // The picture is the snapshot of the same camera, plus the arrows.
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: 160, height: 94),
                                                    camera: .init(headingDegrees: 90, pitchDegrees: 0, fieldOfViewDegrees: 90))
        options.pointOfInterestFilter = .excludingAll
        options.showsRoadLabels = false
        let snapshot = try LookAroundSnapshotter(scene: s.scene, options: options, catalog: catalog).render()
        let psnr = ImageMetrics.psnr(view.picture, snapshot.image)
        #expect(psnr > 30 && psnr.isFinite, "PSNR \(psnr) dB: the same view with a few arrow pixels")
        // The arrow ahead (yellow) points to 031, below the horizon.
        let arrow = try #require(view.arrows.first { $0.link.panoramaID == "aleksanterinkatu-031" })
        #expect(arrow.row > 24 && arrow.row < 47 && abs(arrow.column - 80) < 20, "\(arrow)")
        #expect(view.placeLabels.contains { $0.name == "Kulma" }, "\(view.placeLabels.map(\.name))")
        #expect(view.roadLabels.contains { $0.name == "Aleksanterinkatu" })
        let screen = ViewerScreen(kittyTransmission: .direct)
        let frame = screen.cells(for: view, picture: view.picture, status: ("left", "right"), message: "hello", mapStatus: nil)
        let row = { (r: Int) in String(String.UnicodeScalarView(frame.cells[r * 160..<(r + 1) * 160].map(\.character))) }
        #expect(row(47).hasPrefix("left") && row(47).hasSuffix("right"))
        #expect(row(46).contains(" hello "), "the message over the picture's last row")
        let kulma = try #require(view.placeLabels.first { $0.name == "Kulma" })
        #expect(row(kulma.row).contains(" Kulma "))
        #expect(frame.cells[0].character == TerminalCell.upperHalfBlock)
        // The help covers the middle of the frame, the too-small message names the sizes.
        let help = ViewerScreen.helpFrame(over: frame)
        #expect((0..<48).contains { row in
            String(String.UnicodeScalarView(help.cells[row * 160..<(row + 1) * 160].map(\.character))).contains("go to the linked panorama")
        })
        let small = ViewerScreen.tooSmallFrame(columns: 16, rows: 6)
        #expect(String(String.UnicodeScalarView(small.cells.map(\.character))).contains("16×6 cells"))
    }

    @Test func aMoveIsTheDepthWarpedTransition() throws {
        let frames = ViewerFrames(catalog: try Self.catalog.get())
        let layout = ViewerLayout(columns: 160, rows: 48, outputProtocol: .truecolor)
        let from = try frames.render(try state("aleksanterinkatu-030"), layout: layout)
        let to = try frames.render(try state("aleksanterinkatu-031"), layout: layout)
        var move = try #require(frames.transition(from: from, to: to))
        #expect(move.usesDepth, "both shipped panoramas have depth maps")
        let start = try move.render(fraction: 0, camera: to.camera), middle = try move.render(fraction: 0.5, camera: to.camera)
        let end = try move.render(fraction: 1, camera: to.camera)
        // The ends are the two views (the pictures add arrows on the road), the middle neither.
        #expect(ImageMetrics.psnr(start, from.picture) > 22 && ImageMetrics.psnr(end, to.picture) > 22)
        #expect(ImageMetrics.psnr(middle, from.picture) < ImageMetrics.psnr(start, from.picture))
        #expect(ImageMetrics.psnr(middle, to.picture) < ImageMetrics.psnr(end, to.picture))
        #expect(ViewerFrames(catalog: nil).transition(from: from, to: to) == nil, "no catalog, no records: the viewer crossfades")
    }

    @Test func crossfadeGoesFromOneViewToTheOther() {
        var a = RGB8Image(width: 4, height: 2), b = RGB8Image(width: 4, height: 2)
        for i in a.components.indices { a.components[i] = 0; b.components[i] = 200 }
        #expect(LookAroundViewer.crossfade(a, b, t: 0).components == a.components)
        #expect(LookAroundViewer.crossfade(a, b, t: 1).components == b.components)
        #expect(LookAroundViewer.crossfade(a, b, t: 0.5).components.allSatisfy { $0 == 100 })
    }

    @Test func aLocalPanoramaFileIsASceneWithItsPose() throws {
        let path = Self.repository.appendingPathComponent("Panoramas/helsinki/aleksanterinkatu-030.jpg").path
        let scene = try LookAroundScene(panoramaFile: path)
        let record = try Self.catalog.get().panorama(id: "aleksanterinkatu-030")
        #expect(scene.panoramaID == "aleksanterinkatu-030.jpg")
        #expect(abs(scene.match.headingDegrees - record.headingDegrees) < 1e-6, "GPano heading")
        #expect(abs(scene.match.latitude - record.coordinate.latitude) < 1e-6, "EXIF GPS")
        #expect(scene.match.links.isEmpty && scene.match.depthPath == nil)
        // A PNG panorama renders through the same snapshotter (decoded and reduced per level).
        let folder = try Lookaround.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = folder.appendingPathComponent("sphere.png").path
        let full = try ImageDecoder.decodeRGB(try ImageFile.read(path))
        let half = try Resampler.resize(full, to: PixelSize(width: full.width / 2, height: full.height / 2), filter: .area)
        try ImageFile.write(try PNGCodec.encode(half), to: png)
        let fromPNG = try LookAroundScene(panoramaFile: png)
        let options = LookAroundSnapshotter.Options(size: PixelSize(width: 160, height: 90),
                                                    camera: .init(headingDegrees: 90, pitchDegrees: 0, fieldOfViewDegrees: 90))
        let a = try LookAroundSnapshotter(scene: fromPNG, options: options).render().image
        // The PNG has no GPano: its centre looks north, where the JPEG's looks at its capture heading.
        var turned = options
        turned.camera.headingDegrees = 90 + scene.match.headingDegrees
        let b = try LookAroundSnapshotter(scene: scene, options: turned).render().image
        #expect(try ImageMetrics.psnr(a, b) > 25, "the PNG shows the same street")
        let none = folder.appendingPathComponent("none.jpg").path
        #expect(throws: ImagingError.fileNotFound(path: none)) { try LookAroundScene(panoramaFile: none) }
    }
}
