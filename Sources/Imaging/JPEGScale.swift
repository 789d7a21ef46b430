import CTurboJPEG

/// A DCT scaling factor for JPEG decoding: the output is `ceil(size × numerator / denominator)`.
/// libjpeg-turbo scales inside the inverse DCT, so 1/2, 1/4 and 1/8 cost a fraction of a full decode.
public struct JPEGScale: Sendable, Hashable, CustomStringConvertible {
    /// Numerator (1…16).
    public let numerator: Int
    /// Denominator (8, 4, 2 or 1 as libjpeg-turbo reduces them).
    public let denominator: Int

    /// Full size (1/1).
    public static let full = JPEGScale(checkedNumerator: 1, denominator: 1)
    /// 1/2 per side.
    public static let half = JPEGScale(checkedNumerator: 1, denominator: 2)
    /// 1/4 per side.
    public static let quarter = JPEGScale(checkedNumerator: 1, denominator: 4)
    /// 1/8 per side (the DC coefficient only: fastest).
    public static let eighth = JPEGScale(checkedNumerator: 1, denominator: 8)

    /// Every factor TurboJPEG offers (from `tjGetScalingFactors`: 2/1, 15/8, …, 1/1, 7/8, …, 1/8),
    /// largest first.
    public static let supported: [JPEGScale] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [.full] }
        return (0..<Int(count)).map { JPEGScale(checkedNumerator: Int(factors[$0].num), denominator: Int(factors[$0].denom)) }
    }()

    private init(checkedNumerator: Int, denominator: Int) {
        self.numerator = checkedNumerator
        self.denominator = denominator
    }

    /// A factor `numerator/denominator`; it must equal one of `supported` (3/8 and 6/16 are the same).
    /// - Throws: `ImagingError.invalidParameter` listing the supported factors.
    public init(numerator: Int, denominator: Int) throws {
        guard numerator > 0, denominator > 0,
              let match = JPEGScale.supported.first(where: { $0.numerator * denominator == numerator * $0.denominator })
        else {
            throw ImagingError.invalidParameter(
                name: "JPEG scale", value: "\(numerator)/\(denominator)",
                allowed: JPEGScale.supported.map(\.description).joined(separator: ", "))
        }
        self = match
    }

    /// The scaled length of a side of `length` pixels: `ceil(length × numerator / denominator)`
    /// (TurboJPEG's `TJSCALED`).
    public func scaled(_ length: Int) -> Int { (length * numerator + denominator - 1) / denominator }

    /// `"1/2"`.
    public var description: String { "\(numerator)/\(denominator)" }
}
