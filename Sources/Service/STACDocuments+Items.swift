import Catalog
import Foundation

/// Items (one per panorama) and item collections (a page of a search or of a sequence).
extension STACDocuments {
    /// A panorama's neighbours as its item links them: the previous and next in its sequence and the
    /// nearby panoramas of other sequences (`related`).
    struct Neighbours {
        var previous: PanoramaRecord?
        var next: PanoramaRecord?
        var related: [PanoramaRecord] = []
    }

    /// Whether a panorama covers the whole sphere (and has the tiled-assets template).
    static func isSphere(_ record: PanoramaRecord) -> Bool {
        !record.isCropped && record.fullWidth == 2 * record.fullHeight
    }

    func writeItem(_ writer: inout JSONWriter, _ record: PanoramaRecord, neighbours: Neighbours?) {
        let sphere = Self.isSphere(record)
        writer.beginObject()
        writer.field("type", "Feature")
        writer.field("stac_version", Self.stacVersion)
        writer.key("stac_extensions")
        writer.beginArray()
        // The perspective-imagery extension is not declared: its schema (v1.0.0) refuses every `pers:`
        // field it does not define, and Panoramax's `pers:pitch` and `pers:roll` are not among them
        // (geovisio declares it all the same, so its items fail stac-validator). Its fields are written
        // as Panoramax writes them, which is what Panoramax's viewer reads.
        writer.value(Self.viewExtension)
        if sphere { writer.value(Self.tiledAssetsExtension) }
        writer.endArray()
        writer.field("id", record.id)
        writer.field("collection", record.sequenceName)
        writer.key("geometry")
        writePoint(&writer, record)
        writer.key("bbox")
        writer.beginArray()
        for value in [record.coordinate.longitude, record.coordinate.latitude, record.coordinate.longitude, record.coordinate.latitude] {
            writer.value(value)
        }
        writer.endArray()
        writer.key("properties")
        writeProperties(&writer, record, sphere: sphere)
        writer.key("links")
        writer.beginArray()
        Self.link(&writer, "root", base)
        Self.link(&writer, "parent", collectionURL(record.sequenceName))
        Self.link(&writer, "collection", collectionURL(record.sequenceName))
        Self.link(&writer, "self", itemURL(record), type: "application/geo+json")
        if let neighbours {
            for (rel, other) in [("prev", neighbours.previous), ("next", neighbours.next)] {
                guard let other else { continue }
                neighbourLink(&writer, rel, other)
            }
            for other in neighbours.related { neighbourLink(&writer, "related", other) }
        }
        writer.endArray()
        writer.key("assets")
        writer.beginObject()
        asset(&writer, "hd", "HD picture", "Highest resolution available of this picture", role: "data", pictureURL(record.id, "hd.jpg"))
        asset(&writer, "sd", "SD picture", "Picture in standard definition (fixed width of \(PictureRoutes.standardWidth)px)", role: "visual",
              pictureURL(record.id, "sd.jpg"))
        asset(&writer, "thumb", "Thumbnail", "Picture in low definition (fixed width of \(PictureRoutes.thumbnailWidth)px)", role: "thumbnail",
              pictureURL(record.id, "thumb.jpg"))
        writer.endObject()
        if sphere {
            writer.key("asset_templates")
            writer.beginObject()
            asset(&writer, "tiles", "HD tiled picture", "Highest resolution available of this picture, as tiles", role: "data",
                  pictureURL(record.id, "tiled/{TileCol}_{TileRow}.jpg"))
            writer.endObject()
        }
        writer.endObject()
    }

    private func writePoint(_ writer: inout JSONWriter, _ record: PanoramaRecord) {
        writer.beginObject()
        writer.field("type", "Point")
        writer.key("coordinates")
        writer.beginArray()
        writer.value(record.coordinate.longitude)
        writer.value(record.coordinate.latitude)
        writer.endArray()
        writer.endObject()
    }

    private func writeProperties(_ writer: inout JSONWriter, _ record: PanoramaRecord, sphere: Bool) {
        writer.beginObject()
        writer.field("datetime", Catalog.iso8601String(record.captureTime))
        writer.field("view:azimuth", JSONWriter.tenths(record.headingDegrees))
        writer.key("pers:interior_orientation")
        writer.beginObject()
        writer.field("camera_manufacturer", record.make)
        writer.field("camera_model", record.model)
        writer.field("field_of_view", JSONWriter.tenths(record.horizontalCoverageDegrees))
        writer.key("sensor_array_dimensions")
        writer.beginArray()
        writer.value(record.fullWidth)
        writer.value(record.fullHeight)
        writer.endArray()
        if record.isCropped {
            writer.key("visible_area")
            writer.beginArray()
            for value in [record.croppedLeft, record.croppedTop, record.fullWidth - record.imageWidth - record.croppedLeft,
                          record.fullHeight - record.imageHeight - record.croppedTop] { writer.value(value) }
            writer.endArray()
        }
        writer.endObject()
        writer.field("pers:pitch", record.pitchDegrees)
        writer.field("pers:roll", record.rollDegrees)
        writer.field("geovisio:status", "ready")
        writer.field("geovisio:rank_in_collection", record.sequenceIndex + 1)
        writer.field("geovisio:image", pictureURL(record.id, "hd.jpg"))
        writer.field("geovisio:thumbnail", pictureURL(record.id, "thumb.jpg"))
        writer.field("original_file:name", uploadedNames?.originalName(ofPicture: record.id) ?? (record.imagePath as NSString).lastPathComponent)
        writer.field("original_file:size", Int(record.fileSize))
        writer.field("lookaround:source", record.source.rawValue)
        if sphere {
            writer.key("tiles:tile_matrix_sets")
            writer.beginObject()
            writer.key("geovisio")
            writer.beginObject()
            writer.field("type", "TileMatrixSetType")
            writer.field("title", "tile matrix of picture \(record.id)")
            writer.field("identifier", "geovisio-\(record.id)")
            writer.key("tileMatrix")
            writer.beginArray()
            writer.beginObject()
            writer.field("type", "TileMatrixType")
            writer.field("identifier", "0")
            writer.field("scaleDenominator", 1)
            writer.key("topLeftCorner")
            writer.beginArray()
            writer.value(0)
            writer.value(0)
            writer.endArray()
            writer.field("tileWidth", record.fullWidth / Self.tileColumns)
            writer.field("tileHeight", record.fullHeight / Self.tileRows)
            writer.field("matrixWidth", Self.tileColumns)
            writer.field("matrixHeight", Self.tileRows)
            writer.endObject()
            writer.endArray()
            writer.endObject()
            writer.endObject()
        }
        writer.endObject()
    }

    private func neighbourLink(_ writer: inout JSONWriter, _ rel: String, _ other: PanoramaRecord) {
        Self.link(&writer, rel, itemURL(other), type: "application/geo+json") { writer in
            writer.field("id", other.id)
            writer.field("datetime", Catalog.iso8601String(other.captureTime))
            writer.key("geometry")
            writePoint(&writer, other)
        }
    }

    private func asset(_ writer: inout JSONWriter, _ key: String, _ title: String, _ description: String, role: String, _ href: String) {
        writer.key(key)
        writer.beginObject()
        writer.field("title", title)
        writer.field("description", description)
        writer.key("roles")
        writer.beginArray()
        writer.value(role)
        writer.endArray()
        writer.field("type", "image/jpeg")
        writer.field("href", href)
        writer.endObject()
    }

    func item(_ record: PanoramaRecord, neighbours: Neighbours) -> [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        writeItem(&writer, record, neighbours: neighbours)
        return writer.bytes
    }

    /// A page of items: `self` is `selfURL`; `next` (and `prev` when given) are links of the same search.
    func itemCollection(_ records: [PanoramaRecord], selfURL: String, next: STACSearchRequest.PageLink?,
                        parent: String? = nil) -> [UInt8] {
        var writer = JSONWriter(capacity: 2048 * (records.count + 1))
        writer.beginObject()
        writer.field("type", "FeatureCollection")
        writer.key("features")
        writer.beginArray()
        for record in records { writeItem(&writer, record, neighbours: nil) }
        writer.endArray()
        writer.field("numberReturned", records.count)
        writer.key("links")
        writer.beginArray()
        Self.link(&writer, "self", selfURL, type: "application/geo+json")
        Self.link(&writer, "root", base)
        if let parent { Self.link(&writer, "collection", parent) }
        if let next {
            Self.link(&writer, "next", next.href, type: "application/geo+json") { writer in
                guard let body = next.body else { return }
                writer.field("method", "POST")
                writer.key("body")
                writer.raw(body)
                writer.field("merge", true)
            }
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
