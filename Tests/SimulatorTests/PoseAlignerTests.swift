import Foundation
import Geodesy
import Imaging
import MapData
import Testing
@testable import Simulator

/// The skyline aligner on the shipped panoramas, whose true pose is known (they were rendered from this
/// extract): a heading and position disturbed as a phone's compass and GPS would disturb them come back.
@Suite struct PoseAlignerTests {
    static let root = HelsinkiCityTests.root
    static let panoramas = root.appendingPathComponent("Panoramas/helsinki").path

    /// The city of the shipped panoramas' box (as `make panoramas` renders it), without signs.
    static let city: Result<CityModel, any Error> = Result {
        let dataset = try MapDataset(contentsOfFile: HelsinkiCityTests.osm)
        let box = OSMBoundingBox(minLatitude: 60.1660, minLongitude: 24.9390, maxLatitude: 60.1705, maxLongitude: 24.9540)
        return try CityModel(dataset: dataset, region: box, options: CityModelOptions(includeSigns: false, includeStreetPlates: false))
    }

    struct Truth: Decodable { var latitude: Double; var longitude: Double; var headingDegrees: Double; var cameraHeightMeters: Double }

    static func truth(_ id: String) throws -> Truth {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: "\(panoramas)/\(id).json")))
    }

    /// 40 shipped panoramas (every street) with their heading off by up to ±30° and their position by up
    /// to 5 m: at least 90 % come back within 2° (the bar); each answer is confident.
    @Test func disturbedPanoramasComeBackWithin2Degrees() throws {
        let model = try Self.city.get()
        let ids = try FileManager.default.contentsOfDirectory(atPath: Self.panoramas).filter { $0.hasSuffix(".jpg") }
            .map { String($0.dropLast(4)) }.sorted()
        let trials = PoseAlignmentTrial.cases(count: 40, seed: 33)
        var headingErrors: [Double] = [], positionErrors: [Double] = [], unconfident: [String] = []
        for (k, trial) in trials.enumerated() {
            let id = ids[k * ids.count / trials.count]
            let truth = try Self.truth(id)
            let image = try JPEGCodec.decodeRGB(try ImageFile.read("\(Self.panoramas)/\(id).jpg"), options: JPEGDecodeOptions(scale: .half)).image
            let truePosition = model.position(of: try GeoCoordinate(latitude: truth.latitude, longitude: truth.longitude),
                                              heightMeters: truth.cameraHeightMeters)
            let start = EastNorthUp(east: truePosition.east + trial.eastMeters, north: truePosition.north + trial.northMeters,
                                    up: truePosition.up)
            let photo = PhotoPanorama(image: image, headingDegrees: truth.headingDegrees + trial.headingDegrees)
            let found = try #require(PoseAligner.align(photo: photo, model: model, position: start), "\(id)")
            var error = (found.headingDegrees - truth.headingDegrees).truncatingRemainder(dividingBy: 360)
            if error > 180 { error -= 360 } else if error < -180 { error += 360 }
            headingErrors.append(abs(error))
            positionErrors.append(((found.position.east - truePosition.east) * (found.position.east - truePosition.east)
                                   + (found.position.north - truePosition.north) * (found.position.north - truePosition.north)).squareRoot())
            if !found.isConfident { unconfident.append(id) }
        }
        let within = headingErrors.count { $0 <= 2 }
        let sortedPositions = positionErrors.sorted()
        print(String(format: "pose alignment: %d of %d within 2° (largest %.2f°), position median %.2f m, %d within 0.5 m",
                     within, trials.count, headingErrors.max() ?? 0, sortedPositions[sortedPositions.count / 2],
                     positionErrors.count { $0 <= 0.5 }))
        #expect(within * 10 >= trials.count * 9, "within 2°: \(within) of \(trials.count); errors \(headingErrors)")
        #expect(unconfident.isEmpty, "not confident: \(unconfident)")
    }

    /// A camera held crooked (pose pitch 4°, roll −3°, written in its GPano): its skyline is read level
    /// through the pose, so the heading still comes back.
    @Test func aTiltedCameraIsReadThroughItsPose() throws {
        let model = try Self.city.get()
        let truth = try Self.truth("pohjoisesplanadi-020")
        let position = model.position(of: try GeoCoordinate(latitude: truth.latitude, longitude: truth.longitude),
                                      heightMeters: truth.cameraHeightMeters)
        let camera = try EquirectangularCamera(position: position, headingDegrees: truth.headingDegrees, pitchDegrees: 4,
                                               rollDegrees: -3, width: 1024)
        let picture = model.render(camera, settings: try RenderSettings(samplesPerPixel: 1, sun: SolarPosition(
            date: Date(timeIntervalSince1970: 1_781_514_000), coordinate: try GeoCoordinate(latitude: truth.latitude, longitude: truth.longitude))))
        let photo = PhotoPanorama(image: picture, headingDegrees: truth.headingDegrees + 20, pitchDegrees: 4, rollDegrees: -3)
        let found = try #require(PoseAligner.align(photo: photo, model: model, position: position))
        #expect(abs(found.headingCorrectionDegrees + 20) < 1, "correction \(found.headingCorrectionDegrees)")
        // Read as if level, the same picture fits worse.
        let level = try #require(PoseAligner.align(photo: PhotoPanorama(image: picture, headingDegrees: truth.headingDegrees + 20),
                                                   model: model, position: position))
        #expect(level.residualDegrees > found.residualDegrees, "level \(level.residualDegrees)°, posed \(found.residualDegrees)°")
    }

    /// A band without its top (a cropped panorama) has no skyline to read: no alignment, not a guess.
    @Test func aBandWithoutItsTopIsNotAligned() throws {
        let model = try Self.city.get()
        let image = try JPEGCodec.decodeRGB(try ImageFile.read("\(Self.panoramas)/pohjoisesplanadi-020.jpg"),
                                            options: JPEGDecodeOptions(scale: .quarter)).image
        // Rows 100…195 of the 256-row picture: from 20° above the horizon down.
        let band = RGB8Image(width: image.width, height: 96,
                             components: Array(image.components[(image.width * 3 * 100)..<(image.width * 3 * 196)]))
        let photo = PhotoPanorama(image: band, headingDegrees: 87, fullWidth: Double(image.width), fullHeight: Double(image.height),
                                  left: 0, top: 100)
        #expect(SkylineProfile(photo: photo, columns: 360).knownShare == 0)
        #expect(PoseAligner.align(photo: photo, model: model, position: model.position(of: try GeoCoordinate(latitude: 60.1677, longitude: 24.9470),
                                                                                          heightMeters: 2.5)) == nil)
    }
}
