import Catalog
import Foundation
import Imaging
import Reprojection

/// The picture files a STAC item's assets name, at geovisio's paths: `/api/pictures/{id}/hd.jpg` (the
/// original file as it was captured or uploaded), `sd.jpg` (2048 pixels wide), `thumb.jpg` (500 wide)
/// and, for 360° pictures, `tiled/{col}_{row}.jpg` (the full sphere cut into 8 × 4 tiles, what Photo
/// Sphere Viewer's tiled adapter asks for). Made by the render workers, cached with the other answers.
struct PictureRoutes: RouteFamily {
    let catalog: Catalog

    /// Width of `sd.jpg`, pixels (narrower pictures are served at their own width).
    static let standardWidth = 2048
    /// Width of `thumb.jpg`, pixels.
    static let thumbnailWidth = 500

    var routes: [Route] {
        [Route(.get, PathPattern("/api/pictures/{id}/{file}.jpg", accepts: { PicturePath($0) != nil }), label: "stac_picture",
               errors: .stac, parameters: [], .rendered { try pictureJob($0) })]
    }

    /// A picture path's parts.
    struct PicturePath {
        enum File: Equatable { case hd, sd, thumb, tile(column: Int, row: Int) }
        var panoramaID: String
        var file: File

        init?(_ path: String) {
            guard path.hasPrefix("/api/pictures/") else { return nil }
            var parts = path.dropFirst("/api/pictures/".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, let last = parts.popLast() else { return nil }
            switch last {
            case "hd.jpg": file = .hd
            case "sd.jpg": file = .sd
            case "thumb.jpg": file = .thumb
            default:
                guard parts.count >= 2, parts.popLast() == "tiled", last.hasSuffix(".jpg") else { return nil }
                let numbers = last.dropLast(4).split(separator: "_").compactMap { Int($0) }
                guard numbers.count == 2 else { return nil }
                file = .tile(column: numbers[0], row: numbers[1])
            }
            panoramaID = parts.joined(separator: "/")
            guard !panoramaID.isEmpty else { return nil }
        }
    }

    func pictureJob(_ request: HTTPRequest) throws -> RenderJob {
        guard let picture = PicturePath(request.path) else { throw ServiceError.notFound(path: request.path) }
        let record = try catalog.panorama(id: picture.panoramaID)
        if case .tile(let column, let row) = picture.file {
            guard STACDocuments.isSphere(record) else {
                throw ServiceError.invalidParameter(parameter: "tile", message: "picture '\(record.id)' is not a full 360° sphere; "
                                                    + "it has no tiles, use its hd.jpg")
            }
            guard (0..<STACDocuments.tileColumns).contains(column), (0..<STACDocuments.tileRows).contains(row) else {
                throw ServiceError.invalidParameter(parameter: "tile", message: "tile \(column)_\(row) does not exist; allowed columns "
                                                    + "0…\(STACDocuments.tileColumns - 1), rows 0…\(STACDocuments.tileRows - 1)")
            }
        }
        let file = picture.file
        return RenderJob(key: RenderPipeline.cacheKey("stac_picture", request, extra: record.imagePath), cacheControl: "public, max-age=86400") {
            let bytes: [UInt8]
            do {
                // A file, or an object (an indexed bucket, uploads kept there): the store down is a 503.
                bytes = try ImageryFile.read(record.imagePath)
            } catch ReprojectionError.storageFailed(let error) where error.isUnavailable {
                throw ServiceError.storageUnavailable(reason: error.publicReason, detail: error.description)
            } catch {
                throw ServiceError.unreadableImagery(panoramaID: record.id, detail: "\(error)")
            }
            return HTTPResponse(contentType: "image/jpeg", body: try ImageRoutes.rendering(record.id) { try Self.picture(file, of: bytes) })
        }
    }

    /// The bytes of `file` made from the original JPEG `bytes`.
    static func picture(_ file: PicturePath.File, of bytes: [UInt8]) throws -> [UInt8] {
        let header = try JPEGCodec.readHeader(bytes)
        switch file {
        case .hd:
            return bytes
        case .sd, .thumb:
            let width = min(header.width, file == .sd ? standardWidth : thumbnailWidth)
            // The smallest DCT scale still at least as wide as the answer: decoding is most of the time.
            let scale = JPEGScale.supported.filter { $0.numerator <= $0.denominator && $0.scaled(header.width) >= width }.last ?? .full
            let decoded = try JPEGCodec.decodeRGB(bytes, options: JPEGDecodeOptions(scale: scale, fastDCT: true)).image
            let height = max(1, Int((Double(decoded.height) * Double(width) / Double(decoded.width)).rounded()))
            return try JPEGCodec.encode(try Resampler.resize(decoded, to: PixelSize(width: width, height: height)), quality: 85)
        case .tile(let column, let row):
            let image = try JPEGCodec.decodeRGB(bytes).image
            let tileWidth = image.width / STACDocuments.tileColumns, tileHeight = image.height / STACDocuments.tileRows
            return try JPEGCodec.encode(image.cropped(x: column * tileWidth, y: row * tileHeight, width: tileWidth, height: tileHeight),
                                        quality: 90)
        }
    }
}
