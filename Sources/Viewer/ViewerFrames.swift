import Foundation
import Imaging
import Geodesy
import LookAround
import Playback
import Reprojection
import Terminal

/// Frames of the viewer as bytes for the terminal, without a session: render a state, then turn the
/// view into the bytes of one write (only the changed cells after the first). What the viewer's render
/// thread does per frame; usable on its own, e.g. to measure a frame or to draw into another program's
/// screen.
///
/// ```swift
/// let frames = ViewerFrames(catalog: catalog, outputProtocol: .truecolor)
/// let view = try frames.render(state, layout: ViewerLayout(columns: 160, rows: 48, outputProtocol: .truecolor))
/// write(1, try frames.bytes(for: view))
/// ```
// @unchecked Sendable: handed to one render thread, which alone uses it (the screen state and the
// panorama cache are that thread's); it is never used from two threads at once.
public final class ViewerFrames: @unchecked Sendable {
    let navigator: ViewerNavigator
    let renderer: ViewerRenderer
    let map: ViewerMap?
    let language: String?
    var screen: ViewerScreen
    /// The street and sequence position of each panorama shown.
    private var panoramas: [String: (street: String?, position: String?)] = [:]

    /// - Parameters:
    ///   - catalog: links, labels and streets (nil for a single file).
    ///   - osmPath: the extract the map inset draws (nil: no map).
    ///   - kittyTransmission: how kitty frames travel (shared memory only for a local terminal).
    public init(catalog: Catalog?, language: String? = nil, osmPath: String? = nil,
                kittyTransmission: KittyGraphicsEncoder.Transmission = .direct, synchronizedOutput: Bool = true) {
        navigator = ViewerNavigator(catalog: catalog)
        map = osmPath.map { ViewerMap(osmPath: $0, catalog: catalog) }
        renderer = ViewerRenderer(navigator: navigator, language: language, map: map)
        self.language = language
        screen = ViewerScreen(kittyTransmission: kittyTransmission)
        screen.synchronizedOutput = synchronizedOutput
    }

    /// Called when the map inset has loaded (on the loading thread).
    public var onMapChange: (@Sendable () -> Void)? {
        get { map?.onChange }
        set { map?.onChange = newValue }
    }

    /// Renders `state` for `layout` (the picture, its labels and arrows, the status line).
    public func render(_ state: ViewerState, layout: ViewerLayout) throws -> RenderedView {
        var view = try renderer.render(state, layout: layout)
        // What the status line says of a panorama (its street, its place in the sequence) takes catalog
        // queries: asked once per panorama, not once per frame.
        let id = state.scene.panoramaID
        let about = panoramas[id] ?? {
            let found = (street: navigator.streetName(of: state.scene, language: language),
                         position: navigator.sequencePosition(of: state.scene))
            panoramas[id] = found
            return found
        }()
        view.status = ViewerScreen.statusText(state: state, street: about.street, sequencePosition: about.position,
                                              mapShown: state.showsMap)
        view.mapStatus = state.showsMap ? map?.statusText : nil
        return view
    }

    /// The bytes that show `view` (with `picture` instead of its own, for a transition's frames):
    /// only what changed since the last call, everything after ``invalidate()``.
    public func bytes(for view: RenderedView, picture: RGB8Image? = nil, pictureChanged: Bool = true) throws -> [UInt8] {
        let shown = picture ?? view.picture
        var frame = screen.cells(for: view, picture: shown, status: view.status, message: view.state.message, mapStatus: view.mapStatus)
        if view.state.showsHelp { frame = ViewerScreen.helpFrame(over: frame) }
        let graphics = view.state.showsHelp && view.layout.isGraphics ? nil : shown
        return try screen.bytes(frame: frame, picture: graphics, layout: view.layout, pictureChanged: pictureChanged)
    }

    /// The bytes of the "too small" message for a window below ``ViewerLayout/minimumColumns`` × ``ViewerLayout/minimumRows``.
    public func tooSmallBytes(layout: ViewerLayout) throws -> [UInt8] {
        try screen.bytes(frame: ViewerScreen.tooSmallFrame(columns: layout.columns, rows: layout.rows), picture: nil, layout: layout,
                         pictureChanged: false)
    }

    /// The move from `old` to `new` (two views of one camera from two panoramas): the depth-warped
    /// transition the walkthroughs use (a crossfade where a panorama has no depth map); nil without a
    /// catalog, or when either panorama cannot be read (the viewer then crossfades its two pictures).
    public func transition(from old: RenderedView, to new: RenderedView) -> PanoramaTransition? {
        guard let catalog = navigator.catalog,
              let a = try? catalog.panorama(id: old.state.scene.panoramaID), let b = try? catalog.panorama(id: new.state.scene.panoramaID),
              let frame = try? LocalTangentFrame(origin: a.coordinate) else { return nil }
        let level = PanoramaTransition.Endpoint.level(for: new.camera, panoramaWidth: a.fullWidth)
        guard let from = try? PanoramaTransition.Endpoint(record: a, frame: frame, level: level),
              let to = try? PanoramaTransition.Endpoint(record: b, frame: frame, level: level) else { return nil }
        return PanoramaTransition(from: from, to: to)
    }

    /// Repaint everything with the next frame.
    public func invalidate() { screen.invalidate() }

    /// What to send when leaving (the kitty image deleted; its shared memory released).
    public func finish(layout: ViewerLayout) -> [UInt8] { screen.finish(layout: layout) }
}
