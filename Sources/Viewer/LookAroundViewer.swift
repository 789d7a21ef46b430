import Catalog
import Dispatch
import Foundation
import Imaging
import LookAround
import Terminal

/// The interactive terminal viewer (`lookaround view`): what `MKLookAroundViewController` is on iOS.
///
/// Two threads: the caller's reads keys, mouse and signals and changes the ``ViewerState``; a render
/// thread draws the newest state. Input never waits for a frame, and a frame is always of the newest
/// state: held keys coalesce (each render takes the state as it is then; states in between are
/// never drawn). A move between panoramas keeps the absolute heading and shows the street moving past
/// for a quarter of a second (``PanoramaTransition``, as the walkthroughs do).
// @unchecked Sendable: the state both threads see is under `condition` (see there); the rest belongs
// to one of them.
public final class LookAroundViewer: @unchecked Sendable {
    /// What the viewer shows and how.
    public struct Configuration: Sendable {
        public var scene: LookAroundScene
        /// The catalog the scene came from (links, labels, streets); nil for a single file.
        public var catalog: Catalog?
        /// Start heading (nil: the snapshotter's default for the scene), pitch, field of view.
        public var headingDegrees: Double?
        public var pitchDegrees: Double
        public var fieldOfViewDegrees: Double
        public var labels: ViewerLabels
        public var language: String?
        public var protocolChoice: OutputProtocolChoice
        /// The OSM extract the map inset draws (nil: no map).
        public var osmPath: String?
        /// Turn by itself for this long, then quit (a demo); nil: interactive until q.
        public var spinSeconds: Double?
        /// Called once, on the render thread, when the first frame's bytes have been written to the
        /// terminal, with the layout it was drawn in: a point scripts and tests can wait for
        /// instead of guessing from the screen (an empty terminal is as still as a drawn one).
        public var onFirstFrame: (@Sendable (ViewerLayout) -> Void)?

        public init(scene: LookAroundScene, catalog: Catalog?, headingDegrees: Double? = nil, pitchDegrees: Double = 0,
                    fieldOfViewDegrees: Double = 90, labels: ViewerLabels = .all, language: String? = nil,
                    protocolChoice: OutputProtocolChoice = .auto, osmPath: String? = nil, spinSeconds: Double? = nil,
                    onFirstFrame: (@Sendable (ViewerLayout) -> Void)? = nil) {
            self.scene = scene
            self.catalog = catalog
            self.headingDegrees = headingDegrees
            self.pitchDegrees = pitchDegrees
            self.fieldOfViewDegrees = fieldOfViewDegrees
            self.labels = labels
            self.language = language
            self.protocolChoice = protocolChoice
            self.osmPath = osmPath
            self.spinSeconds = spinSeconds
            self.onFirstFrame = onFirstFrame
        }
    }

    /// How a session ended.
    public struct Outcome: Sendable {
        /// The panorama shown last, and the camera.
        public var panoramaID: String
        public var headingDegrees: Double
        /// Frames drawn, and the protocol they used.
        public var frames: Int
        public var outputProtocol: OutputProtocol
        /// The last layout (its picture's pixel size and first row).
        public var layout: ViewerLayout
    }

    /// The move transition's length, seconds, and its frames.
    public static let transitionSeconds = 0.25
    static let transitionFrames = 6

    let configuration: Configuration
    let navigator: ViewerNavigator

    // Shared between the two threads, under `condition`.
    private let condition = NSCondition()
    private var state: ViewerState
    private var layout: ViewerLayout
    private var generation = 0
    private var quitting = false
    private var repaint = true
    private var lastView: RenderedView?
    private var renderError: (any Error)?
    private var framesDrawn = 0

    public init(configuration: Configuration) {
        self.configuration = configuration
        navigator = ViewerNavigator(catalog: configuration.catalog)
        let heading = configuration.headingDegrees ?? LookAroundSnapshotter.defaultHeadingDegrees(for: configuration.scene)
        state = ViewerState(scene: configuration.scene, headingDegrees: heading, pitchDegrees: configuration.pitchDegrees,
                            fieldOfViewDegrees: configuration.fieldOfViewDegrees, labels: configuration.labels)
        layout = ViewerLayout(columns: 80, rows: 24, outputProtocol: .truecolor)
    }

    /// Detects the terminal on stdin/stdout (environment, then queries with a timeout).
    public static func detect(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> TerminalCapabilities {
        var capabilities = TerminalDetector.fromEnvironment(ProcessInfo.processInfo.environment)
        TerminalDetector.query(&capabilities, input: input, output: output)
        return capabilities
    }

    /// Runs the session on the terminal until q (or the spin ends). The terminal is restored on
    /// every way out.
    /// - Throws: `TerminalError.notATerminal` when stdout is not a terminal; the render error that
    ///   ended the session (an unreadable panorama).
    public func run() throws -> Outcome {
        let session = try TerminalSession()
        defer { session.restore() }
        let capabilities = Self.detect(input: session.input, output: session.output)
        let start = ViewerLayout(session: session, capabilities: capabilities, choice: configuration.protocolChoice)
        let chosen = start.outputProtocol
        condition.lock()
        layout = start
        condition.unlock()

        let frames = ViewerFrames(catalog: configuration.catalog, language: configuration.language, osmPath: configuration.osmPath,
                                  kittyTransmission: capabilities.remote ? .direct : .sharedMemory,
                                  synchronizedOutput: capabilities.synchronizedOutput != false)
        frames.onMapChange = { [weak self] in self?.changed { _ in } }
        let renderThread = Thread { [self] in
            renderLoop(session: session, frames: frames)
            condition.lock()
            finalBytes = frames.finish(layout: layout)
            renderFinished = true
            condition.broadcast()
            condition.unlock()
        }
        renderThread.name = "viewer render"
        renderThread.start()
        let started = DispatchTime.now()
        inputLoop(session: session, spinStart: started)
        condition.lock()
        quitting = true
        condition.broadcast()
        while !renderFinished { condition.wait() }
        let error = renderError
        let outcome = Outcome(panoramaID: state.scene.panoramaID, headingDegrees: state.headingDegrees, frames: framesDrawn,
                              outputProtocol: chosen, layout: layout)
        let last = finalBytes
        condition.unlock()
        try? session.write(last)
        if let error { throw error }
        return outcome
    }

    private var renderFinished = false
    /// What the render thread leaves to send at the end (the kitty image's deletion).
    private var finalBytes: [UInt8] = []

    /// Changes the state under the lock and wakes the renderer.
    private func changed(_ change: (inout ViewerState) -> Void) {
        condition.lock()
        change(&state)
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Asks for the whole screen to be drawn again (after a resize, a resume, Ctrl-L), with `change` made
    /// to the layout under the lock first.
    private func repaintAll(_ change: (inout ViewerLayout) -> Void = { _ in }) {
        condition.lock()
        change(&layout)
        repaint = true
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Input

    /// Where a drag started: the cell and the camera then.
    private struct Drag { var column: Int, row: Int, heading: Double, pitch: Double, moved: Bool }

    /// Reads input until q, an error of the renderer, or the end of the spin.
    private func inputLoop(session: TerminalSession, spinStart: DispatchTime? = nil) {
        var drag: Drag?
        let spin = configuration.spinSeconds
        var lastSpin = DispatchTime.now()
        while true {
            condition.lock()
            let stop = quitting || renderError != nil
            condition.unlock()
            if stop { return }
            if let spin, let spinStart {
                let now = DispatchTime.now()
                if Double(now.uptimeNanoseconds - spinStart.uptimeNanoseconds) / 1e9 >= spin { return }
                let dt = Double(now.uptimeNanoseconds - lastSpin.uptimeNanoseconds) / 1e9
                lastSpin = now
                changed { $0.turn(by: 24 * dt) }  // a slow pan: 24°/s
            }
            let events = session.readEvents(timeoutMilliseconds: spin == nil ? 250 : 40)
            for event in events {
                switch event {
                case .resized(let columns, let rows):
                    repaintAll { $0.columns = columns; $0.rows = rows }
                case .resumed:
                    repaintAll()
                case .input(.key(let key)):
                    if handle(key: key, session: session) == false { return }
                case .input(.mouse(let mouse)):
                    handle(mouse: mouse, drag: &drag)
                case .input(.paste), .input(.focus), .input(.unknown):
                    break
                }
            }
            // Messages time out.
            condition.lock()
            if let _ = state.message, Date().timeIntervalSinceReferenceDate - state.messageTime > ViewerState.messageSeconds {
                state.message = nil
                generation += 1
                condition.broadcast()
            }
            condition.unlock()
        }
    }

    /// Handles a key; false to quit.
    private func handle(key: KeyEvent, session: TerminalSession) -> Bool {
        condition.lock()
        let helpShown = state.showsHelp
        condition.unlock()
        guard let command = ViewerKeys.command(for: key) else {
            if helpShown { changed { $0.showsHelp = false } }
            return true
        }
        if helpShown && command != .quit && command != .suspend {
            changed { $0.showsHelp = false }
            if command == .toggleHelp { return true }
        }
        switch command {
        case .quit: return false
        case .suspend:
            session.suspend()
        case .redraw:
            repaintAll()
        case .forward, .backward, .nextInSequence, .previousInSequence:
            condition.lock()
            let current = state
            condition.unlock()
            apply(navigator.destination(of: command, from: current))
        default:
            changed { _ = $0.apply(command) }
        }
        return true
    }

    /// Applies a move (keeping the absolute heading) or shows why there is none.
    private func apply(_ outcome: ViewerNavigator.Outcome) {
        switch outcome {
        case .move(let scene): changed { $0.scene = scene; $0.message = nil }
        case .stay(let reason): changed { $0.say(reason) }
        }
    }

    private func handle(mouse: MouseEvent, drag: inout Drag?) {
        condition.lock()
        let layout = self.layout, current = state
        condition.unlock()
        switch mouse.kind {
        case .wheelUp: changed { $0.zoom(steps: 1) }
        case .wheelDown: changed { $0.zoom(steps: -1) }
        case .press where mouse.button == .left:
            drag = Drag(column: mouse.column, row: mouse.row, heading: current.headingDegrees, pitch: current.pitchDegrees, moved: false)
        case .drag:
            guard var d = drag else { return }
            let dx = Double(mouse.column - d.column), dy = Double(mouse.row - d.row)
            if dx != 0 || dy != 0 { d.moved = true }
            drag = d
            // The picture moves with the pointer: degrees per cell at the centre of the view.
            let perColumn = current.fieldOfViewDegrees / Double(layout.pictureColumns)
            let size = layout.picturePixelSize
            let verticalFOV = 2 * atan(tan(current.fieldOfViewDegrees * .pi / 360) * Double(size.height) / Double(size.width)) * 180 / .pi
            let perRow = verticalFOV / Double(layout.pictureRows)
            let start = d
            changed {
                $0.look(headingDegrees: start.heading - dx * perColumn)
                $0.pitch(by: start.pitch + dy * perRow - $0.pitchDegrees)
            }
        case .release:
            defer { drag = nil }
            guard let d = drag, !d.moved else { return }
            click(column: mouse.column, row: mouse.row)
        default: break
        }
    }

    /// A click: a label says what it is; the ground moves to the panorama nearest the point.
    private func click(column: Int, row: Int) {
        condition.lock()
        let view = lastView
        condition.unlock()
        guard let view, let point = view.layout.picturePoint(column: column, row: row) else { return }
        for label in view.placeLabels where label.row == row && label.columns.contains(column) {
            changed { $0.say("\(label.name) — \(label.category.replacingOccurrences(of: "_", with: " ")), \(Int(label.distanceMeters.rounded())) m") }
            return
        }
        if let arrow = view.arrows.first(where: { abs($0.column - column) <= 1 && abs($0.row - row) <= 1 }) {
            apply(navigator.catalog.map { catalog in
                (try? LookAroundScene(panoramaID: arrow.link.panoramaID, catalog: catalog)).map { .move($0) }
                    ?? .stay("cannot open \(arrow.link.panoramaID)")
            } ?? .stay("no links"))
            return
        }
        let options = LookAroundSnapshotter.Options(
            size: PixelSize(width: view.camera.width, height: view.camera.height),
            camera: .init(headingDegrees: view.camera.headingDegrees, pitchDegrees: view.camera.pitchDegrees,
                          fieldOfViewDegrees: view.camera.fieldOfViewDegrees),
            pointOfInterestFilter: view.state.labels.placeFilter, language: configuration.language)
        guard let hit = try? LookAroundSnapshotter(scene: view.state.scene, options: options, catalog: navigator.catalog)
            .hitTest(x: point.x, y: point.y) else { return }
        if let place = hit.place {
            changed { $0.say("\(place.name) — \(place.category.replacingOccurrences(of: "_", with: " ")), \(Int(place.distanceMeters.rounded())) m") }
        } else if hit.surface == .ground, let p = hit.point {
            apply(navigator.destination(near: p.coordinate, from: view.state))
        } else if hit.isSky {
            changed { $0.say("sky") }
        } else if let p = hit.point {
            changed { $0.say("a wall \(Int(p.distanceMeters.rounded())) m away: click the ground to go somewhere") }
        }
    }

    // MARK: Rendering

    /// Draws the newest state whenever it changes, until quitting.
    private func renderLoop(session: TerminalSession, frames: ViewerFrames) {
        var drawnGeneration = -1
        var previous: RenderedView?
        while true {
            condition.lock()
            while generation == drawnGeneration && !quitting { _ = condition.wait(until: Date().addingTimeInterval(1)) }
            if quitting { condition.unlock(); return }
            let state = self.state, layout = self.layout, generationNow = generation
            let fullRepaint = repaint
            repaint = false
            condition.unlock()
            drawnGeneration = generationNow
            if fullRepaint { frames.invalidate() }
            do {
                if layout.isTooSmall {
                    try session.write(try frames.tooSmallBytes(layout: layout))
                    previous = nil
                    continue
                }
                if previous?.layout != layout { frames.invalidate() }
                let view = try frames.render(state, layout: layout)
                func write(_ picture: RGB8Image, changed: Bool) throws {
                    try session.write(try frames.bytes(for: view, picture: picture, pictureChanged: changed))
                    condition.lock()
                    framesDrawn += 1
                    let first = framesDrawn == 1
                    condition.unlock()
                    if first { configuration.onFirstFrame?(layout) }
                }
                // A move: the street moves past (the depth-warped transition of the walkthroughs; a
                // crossfade of the two pictures when it cannot be made), unless newer input arrives.
                if let old = previous, old.state.scene.panoramaID != state.scene.panoramaID, old.layout == layout,
                   old.picture.width == view.picture.width, old.picture.height == view.picture.height {
                    var move = frames.transition(from: old, to: view)
                    var moving = view
                    moving.placeLabels = []
                    moving.roadLabels = []
                    for k in 1..<Self.transitionFrames {
                        let start = DispatchTime.now()
                        let t = Double(k) / Double(Self.transitionFrames)
                        let picture = (try? move?.render(fraction: t, camera: view.camera)) ?? Self.crossfade(old.picture, view.picture, t: t)
                        try session.write(try frames.bytes(for: moving, picture: picture, pictureChanged: true))
                        condition.withLock { framesDrawn += 1 }
                        condition.lock()
                        let newer = generation != generationNow || quitting
                        condition.unlock()
                        if newer { break }
                        let spent = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                        let wait = Self.transitionSeconds / Double(Self.transitionFrames) - spent
                        if wait > 0 { usleep(UInt32(wait * 1e6)) }
                    }
                }
                try write(view.picture, changed: previous?.picture.components != view.picture.components || fullRepaint)
                previous = view
                condition.lock()
                lastView = view
                condition.unlock()
            } catch {
                condition.withLock { renderError = error; condition.broadcast() }
                return
            }
        }
    }

    /// `a` blended into `b` by `t` (0 = a, 1 = b).
    static func crossfade(_ a: RGB8Image, _ b: RGB8Image, t: Double) -> RGB8Image {
        var out = b
        let w = UInt32(max(0, min(256, (t * 256).rounded())))
        a.components.withUnsafeBufferPointer { pa in
            b.components.withUnsafeBufferPointer { pb in
                out.components.withUnsafeMutableBufferPointer { po in
                    for i in 0..<po.count {
                        po[i] = UInt8((UInt32(pa[i]) * (256 - w) + UInt32(pb[i]) * w) >> 8)
                    }
                }
            }
        }
        return out
    }
}
