import Dispatch
import Foundation
import Geodesy
import Imaging

/// The move between two panoramas: the perspective view of a virtual camera part of the way from one
/// capture to the next, made from both panoramas re-projected through their depth maps.
///
/// **Depth warp** (both ends have depth maps). The virtual camera is at
/// `from.position + t · (to.position − from.position)`, on the line between the two captures, so every
/// surface point moves, as the camera goes, along the great circle through it and the line's
/// direction (an epipolar line). When the transition is made, each end's panorama is resampled into one
/// grid shared by both whose pole is the direction of travel, with each sample's distance from the
/// line (from its depth map: ``PanoramaDepthMap/rangeMeters(x:y:)``, sky at ``skyDistanceMeters``).
/// Per frame, each column of that grid (a meridian: one half-plane through the line) is warped on its
/// own, in one dimension and in McMillan's occlusion-compatible order, no z-buffer: samples of one
/// surface are joined, so a surface seen nearer than it was captured stretches without holes, and gaps
/// open only where a nearer surface uncovers a farther one (``EpipolarWarp`` has the details). The two
/// warped meridians are blended sample by sample: where both saw a surface at about the same range,
/// by position (`1 − t` and `t`); where one saw a nearer surface (by ``occlusionToleranceFraction``),
/// that one (the other had it hidden); where only one saw anything, that one. Samples neither saw
/// (disocclusions both panoramas miss) are filled along the meridian — the direction in which they
/// open — from the farther side. The view is looked up in the blended grid.
///
/// **Crossfade** (either end without depth: real photos). Each panorama's view from its own
/// position, blended `1 − t`, `t` — the documented fallback; ``usesDepth`` says which one is used.
///
/// Positions are the camera centres in any local metric frame shared by both ends (east-north-up
/// metres, e.g. of a ``Geodesy/LocalTangentFrame``). Set up once (O(panorama pixels) per end, the two
/// ends on the two cores); each frame warps only the meridians and rows the view can show, and of each
/// meridian only the samples that can land there, O(visible grid samples + view pixels), meridians
/// shared between the cores.
public struct PanoramaTransition: Sendable {
    /// One end of a transition.
    public struct Endpoint: Sendable {
        /// The panorama (any pyramid level; the first end's size is the size of the move's grid).
        public var image: PanoramaImage
        /// Its depth map (same layout and pose), or nil for a photo without one.
        public var depth: PanoramaDepthMap?
        /// Capture pose.
        public var pose: PanoramaPose
        /// Camera centre, metres, in the frame shared with the other end.
        public var position: EastNorthUp

        /// An endpoint from its parts.
        public init(image: PanoramaImage, depth: PanoramaDepthMap?, pose: PanoramaPose, position: EastNorthUp) {
            self.image = image
            self.depth = depth
            self.pose = pose
            self.position = position
        }
    }

    /// How far sky is put, metres.
    public static let skyDistanceMeters: Float = 10_000
    /// Where the two ends disagree by more than this fraction, the nearer surface wins.
    public static let occlusionToleranceFraction: Float = 0.12

    /// The start.
    public let from: Endpoint
    /// The end.
    public let to: Endpoint
    /// Whether the depth warp is used (both ends have depth maps); otherwise a crossfade.
    public var usesDepth: Bool { warp != nil }

    private let warp: EpipolarWarp?
    private var renderer: ViewRenderer
    private var scratch = EpipolarWarp.Scratch()

    /// Prepares the move from `from` to `to`: resamples both panoramas into the move's grid (each end on
    /// a core of its own).
    public init(from: Endpoint, to: Endpoint) {
        self.from = from
        self.to = to
        if let a = from.depth, let b = to.depth {
            warp = EpipolarWarp(from: from, depth: a, to: to, depth: b)
        } else {
            warp = nil
        }
        // 64-px blocks are always in range: this cannot throw.
        renderer = (try? ViewRenderer()) ?? { preconditionFailure("default ViewRenderer") }()
    }

    /// The virtual camera's centre at `fraction` (0 = `from`, 1 = `to`), metres.
    public func position(at fraction: Double) -> EastNorthUp {
        let a = from.position, b = to.position
        return EastNorthUp(east: a.east + fraction * (b.east - a.east), north: a.north + fraction * (b.north - a.north),
                           up: a.up + fraction * (b.up - a.up))
    }

    /// Renders the view of `camera` at `fraction` of the way (0…1) into a new image.
    /// - Throws: `ReprojectionError.invalidParameter` for a fraction outside 0…1.
    public mutating func render(fraction: Double, camera: ViewCamera) throws(ReprojectionError) -> RGB8Image {
        var out = RGB8Image(width: camera.width, height: camera.height)
        try render(fraction: fraction, camera: camera, into: &out)
        return out
    }

    /// Renders the view of `camera` at `fraction` of the way (0…1) into `output`, reusing its memory.
    /// - Throws: `ReprojectionError.invalidParameter` for a fraction outside 0…1,
    ///   `.outputSizeMismatch` when `output` is not the camera's size.
    public mutating func render(fraction: Double, camera: ViewCamera, into output: inout RGB8Image) throws(ReprojectionError) {
        guard fraction.isFinite, (0...1).contains(fraction) else {
            throw .invalidParameter(name: "transition fraction", value: "\(fraction)", allowed: "0…1 (0 = the first panorama)")
        }
        guard output.width == camera.width, output.height == camera.height else {
            throw .outputSizeMismatch(expectedWidth: camera.width, expectedHeight: camera.height,
                                      actualWidth: output.width, actualHeight: output.height)
        }
        if let warp {
            warp.render(fraction: Float(fraction), camera: camera, occlusionTolerance: Self.occlusionToleranceFraction, scratch: &scratch,
                        into: &output)
        } else {
            try crossfade(fraction: fraction, camera: camera, into: &output)
        }
    }

    /// The plain crossfade at `fraction` (each end's view from its own position, blended), whatever
    /// the depth maps: the fallback, and the baseline the warp is measured against.
    public mutating func crossfade(fraction: Double, camera: ViewCamera, into output: inout RGB8Image) throws(ReprojectionError) {
        var a = RGB8Image(width: camera.width, height: camera.height), b = a
        try renderer.render(from.image, camera: camera, pose: from.pose, into: &a)
        try renderer.render(to.image, camera: camera, pose: to.pose, into: &b)
        let wb = Int((fraction * 256).rounded()), wa = 256 - wb
        a.components.withUnsafeBufferPointer { pa in
            b.components.withUnsafeBufferPointer { pb in
                output.components.withUnsafeMutableBufferPointer { po in
                    for i in 0..<po.count { po[i] = UInt8((Int(pa[i]) * wa + Int(pb[i]) * wb + 128) >> 8) }
                }
            }
        }
    }
}
