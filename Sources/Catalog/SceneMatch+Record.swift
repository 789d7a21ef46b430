import Foundation
import Geodesy

extension SceneMatch {
    /// The match for `record` seen from `requestCoordinate` (geodesic distance and bearing; a request at
    /// the panorama itself, or none, gives distance 0 and no bearing).
    public init(record: PanoramaRecord, links: [PanoramaLink], requestCoordinate: GeoCoordinate? = nil) {
        self.init(
            panoramaID: record.id, latitude: record.coordinate.latitude, longitude: record.coordinate.longitude,
            distanceMeters: 0, bearingFromRequestDegrees: nil,
            headingDegrees: record.headingDegrees, headingSource: record.headingSource, pitchDegrees: record.pitchDegrees, rollDegrees: record.rollDegrees,
            captureTime: Catalog.iso8601String(record.captureTime), source: record.source, imageWidth: record.imageWidth,
            imageHeight: record.imageHeight, horizontalCoverageDegrees: record.horizontalCoverageDegrees,
            imagePath: record.imagePath, depthPath: record.depthPath, labelsPath: record.labelsPath,
            mapsSource: record.mapsSource, poseAlignment: record.alignment,
            sequence: record.sequenceName, sequenceIndex: record.sequenceIndex, links: links)
        if let requestCoordinate { locate(from: requestCoordinate, panorama: record.coordinate) }
    }

    /// This match seen from `requestCoordinate` (`panorama` is the panorama's coordinate): geodesic
    /// distance, and the bearing unless the two are closer than ``bearingMinimumDistanceMeters``.
    public mutating func locate(from requestCoordinate: GeoCoordinate, panorama: GeoCoordinate) {
        let inverse = Geodesic.wgs84.inverse(from: requestCoordinate, to: panorama)
        distanceMeters = inverse.distanceMeters
        bearingFromRequestDegrees = distanceMeters >= Self.bearingMinimumDistanceMeters ? inverse.initialAzimuth.degrees : nil
    }
}
