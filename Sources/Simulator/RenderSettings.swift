import Foundation
import Geodesy

/// How to render: samples, seed, the sun, exposure, threads.
public struct RenderSettings: Sendable, Hashable {
    /// Samples per pixel (1…256), laid out on a stratified grid (⌈√n⌉ columns) with jitter.
    public var samplesPerPixel: Int
    /// Seed of the sample jitter: the same seed and inputs give byte-identical images.
    public var seed: UInt64
    /// Where the sun is (see ``SolarPosition/init(date:coordinate:)``).
    public var sun: SolarPosition
    /// Exposure multiplier before tone mapping (0.1…10; 1 is a sunny day).
    public var exposure: Double
    /// Upper bound on threads (nil = all cores); benchmarks use 1.
    public var maximumThreads: Int?

    /// The allowed samples per pixel.
    public static let samplesRange = 1...256

    /// Settings; values outside their ranges throw `SimulatorError.invalidParameter`.
    public init(samplesPerPixel: Int = 4, seed: UInt64 = 1, sun: SolarPosition, exposure: Double = 1,
                maximumThreads: Int? = nil) throws(SimulatorError) {
        try SimulatorError.check(samplesPerPixel, in: Self.samplesRange, name: "samples per pixel")
        try SimulatorError.check(exposure, in: 0.1...10, name: "exposure")
        self.samplesPerPixel = samplesPerPixel
        self.seed = seed
        self.sun = sun
        self.exposure = exposure
        self.maximumThreads = maximumThreads
    }
}
