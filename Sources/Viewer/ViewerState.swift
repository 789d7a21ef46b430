import Foundation
import LookAround
import Reprojection

/// Which labels the view draws (`L` cycles them in this order).
public enum ViewerLabels: String, Sendable, CaseIterable {
    case all, places, roads, none

    /// The next mode of the cycle.
    public var next: ViewerLabels {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The snapshotter's place filter and road-label switch for this mode.
    var placeFilter: PointOfInterestFilter { self == .all || self == .places ? .includingAll : .excludingAll }
    var showsRoadLabels: Bool { self == .all || self == .roads }

    /// Parses `--labels` (all, places, roads, none).
    public init?(option text: String) { self.init(rawValue: text.lowercased()) }
}

/// Where the viewer looks and what it shows: a value the input thread changes and the render thread
/// reads (the newest state wins; frames for older states are never drawn).
public struct ViewerState: Sendable, Equatable {
    /// The scene shown.
    public var scene: LookAroundScene
    /// Degrees clockwise from north, [0, 360).
    public private(set) var headingDegrees: Double
    /// Degrees above the horizon, −90…90.
    public private(set) var pitchDegrees: Double
    /// Horizontal field of view, degrees, ``fieldOfViewRange``.
    public private(set) var fieldOfViewDegrees: Double
    public var labels: ViewerLabels
    public var showsMap = false
    public var showsHelp = false
    /// A line shown for a few seconds (what a click found, why a move did not happen).
    public var message: String?
    /// When `message` was set (seconds since the reference date; cleared after ``messageSeconds``).
    public var messageTime: Double = 0
    /// The camera `r` returns to.
    public let initialHeadingDegrees: Double, initialPitchDegrees: Double, initialFieldOfViewDegrees: Double

    /// The zoom range of the viewer, degrees.
    public static let fieldOfViewRange = 20.0...120.0
    /// A turn at 90° field of view, degrees; proportionally finer when zoomed in.
    public static let turnStepDegrees = 15.0
    /// A pitch step at 90° field of view, degrees.
    public static let pitchStepDegrees = 10.0
    /// One zoom step multiplies or divides the field of view by this.
    public static let zoomFactor = 1.25
    /// How long a message stays, seconds.
    public static let messageSeconds = 4.0

    public init(scene: LookAroundScene, headingDegrees: Double, pitchDegrees: Double = 0, fieldOfViewDegrees: Double = 90,
                labels: ViewerLabels = .all) {
        self.scene = scene
        self.headingDegrees = Self.normalized(headingDegrees)
        self.pitchDegrees = max(-90, min(90, pitchDegrees))
        self.fieldOfViewDegrees = max(Self.fieldOfViewRange.lowerBound, min(Self.fieldOfViewRange.upperBound, fieldOfViewDegrees))
        self.labels = labels
        initialHeadingDegrees = self.headingDegrees
        initialPitchDegrees = self.pitchDegrees
        initialFieldOfViewDegrees = self.fieldOfViewDegrees
    }

    /// Degrees into [0, 360).
    static func normalized(_ degrees: Double) -> Double {
        let d = degrees.truncatingRemainder(dividingBy: 360)
        return d < 0 ? d + 360 : (d >= 360 ? 0 : d)
    }

    /// The turn of one key press at the current zoom: 15° at 90° field of view and wider, finer when zoomed in.
    public var turnStep: Double { Self.turnStepDegrees * min(1, fieldOfViewDegrees / 90) }

    /// Turns by `degrees` (positive: clockwise, to the right).
    public mutating func turn(by degrees: Double) { headingDegrees = Self.normalized(headingDegrees + degrees) }

    /// Looks up (positive) or down by `degrees`, stopping at ±90°.
    public mutating func pitch(by degrees: Double) { pitchDegrees = max(-90, min(90, pitchDegrees + degrees)) }

    /// Sets the heading, e.g. to keep the absolute direction after a move (normalised).
    public mutating func look(headingDegrees: Double) { self.headingDegrees = Self.normalized(headingDegrees) }

    /// Zooms by `steps` (positive: in), within ``fieldOfViewRange``.
    public mutating func zoom(steps: Double) {
        fieldOfViewDegrees = max(Self.fieldOfViewRange.lowerBound,
                                 min(Self.fieldOfViewRange.upperBound, fieldOfViewDegrees / pow(Self.zoomFactor, steps)))
    }

    /// Back to the camera the viewer started with.
    public mutating func reset() {
        headingDegrees = initialHeadingDegrees
        pitchDegrees = initialPitchDegrees
        fieldOfViewDegrees = initialFieldOfViewDegrees
    }

    /// Shows `text` for ``messageSeconds``.
    public mutating func say(_ text: String?, now: Double = Date().timeIntervalSinceReferenceDate) {
        message = text
        messageTime = now
    }

    /// The camera of a view of `size` pixels.
    public func camera(width: Int, height: Int) throws -> ViewCamera {
        try ViewCamera(headingDegrees: headingDegrees, pitchDegrees: pitchDegrees, fieldOfViewDegrees: fieldOfViewDegrees,
                       width: width, height: height)
    }

    /// Applies a view command that needs no catalog (turns, zoom, toggles); false for the others.
    public mutating func apply(_ command: ViewerCommand) -> Bool {
        let fine = min(1, fieldOfViewDegrees / 90)
        switch command {
        case .turnLeft: turn(by: -turnStep)
        case .turnRight: turn(by: turnStep)
        case .pitchUp: pitch(by: Self.pitchStepDegrees * fine)
        case .pitchDown: pitch(by: -Self.pitchStepDegrees * fine)
        case .zoomIn: zoom(steps: 1)
        case .zoomOut: zoom(steps: -1)
        case .toggleMap: showsMap.toggle()
        case .cycleLabels:
            labels = labels.next
            say("labels: \(labels.rawValue)")
        case .reset: reset()
        case .toggleHelp: showsHelp.toggle()
        case .forward, .backward, .nextInSequence, .previousInSequence, .redraw, .suspend, .quit: return false
        }
        return true
    }
}
