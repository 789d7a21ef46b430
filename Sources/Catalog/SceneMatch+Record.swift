import Foundation
import Geodesy

extension SceneMatch {
    /// The match for `record` seen from `requestCoordinate` (geodesic distance and bearing; a request at
    /// the panorama itself, or none, gives distance 0 and no bearing).
    public init(record: PanoramaRecord, links: [PanoramaLink], requestCoordinate: GeoCoordinate? = nil) {
        let inverse = requestCoordinate.map { Geodesic.wgs84.inverse(from: $0, to: record.coordinate) }
        let distance = inverse?.distanceMeters ?? 0
        self.init(
            panoramaID: record.id, latitude: record.coordinate.latitude, longitude: record.coordinate.longitude,
            distanceMeters: distance,
            bearingFromRequestDegrees: distance >= Self.bearingMinimumDistanceMeters ? inverse?.initialAzimuth.degrees : nil,
            headingDegrees: record.headingDegrees, pitchDegrees: record.pitchDegrees, rollDegrees: record.rollDegrees,
            captureTime: Catalog.iso8601String(record.captureTime), source: record.source, imageWidth: record.imageWidth,
            imageHeight: record.imageHeight, horizontalCoverageDegrees: record.horizontalCoverageDegrees,
            imagePath: record.imagePath, depthPath: record.depthPath, labelsPath: record.labelsPath,
            sequence: record.sequenceName, sequenceIndex: record.sequenceIndex, links: links)
    }
}
