import Foundation
import Testing
@testable import Reprojection

@Suite("View camera validation")
struct ViewCameraTests {
    @Test("field of view outside 10…120° is an error naming the value and the range")
    func fieldOfViewRange() {
        for fov in [9.9, 120.1, 0, -5, .nan] {
            #expect {
                _ = try ViewCamera(headingDegrees: 0, fieldOfViewDegrees: fov, width: 10, height: 10)
            } throws: { error in
                guard case ReprojectionError.invalidParameter(let name, let value, let allowed) = error else { return false }
                return name == "field of view" && value.contains("\(fov)") && allowed.contains("10…120")
            }
        }
        #expect(throws: Never.self) { _ = try ViewCamera(headingDegrees: 0, fieldOfViewDegrees: 10, width: 1, height: 1) }
        #expect(throws: Never.self) { _ = try ViewCamera(headingDegrees: 0, fieldOfViewDegrees: 120, width: 1, height: 1) }
    }

    @Test("pitch outside −90…90 and non-finite heading are errors; heading is normalised")
    func pitchAndHeading() throws {
        #expect(throws: ReprojectionError.invalidParameter(name: "pitch", value: "91.0°",
                                                           allowed: "-90…90 degrees (0 = horizon, +90 = straight up)")) {
            _ = try ViewCamera(headingDegrees: 0, pitchDegrees: 91, width: 8, height: 8)
        }
        #expect(throws: ReprojectionError.invalidParameter(name: "heading", value: "inf",
                                                           allowed: "a finite number of degrees")) {
            _ = try ViewCamera(headingDegrees: .infinity, width: 8, height: 8)
        }
        #expect(try ViewCamera(headingDegrees: -90, width: 8, height: 8).headingDegrees == 270)
        #expect(try ViewCamera(headingDegrees: 720, width: 8, height: 8).headingDegrees == 0)
    }

    @Test("the pixel budget is enforced and configurable")
    func pixelBudget() throws {
        #expect(throws: ReprojectionError.exceedsPixelBudget(width: 5000, height: 4000, budgetPixels: 16_000_000)) {
            _ = try ViewCamera(headingDegrees: 0, width: 5000, height: 4000)
        }
        #expect(throws: Never.self) { _ = try ViewCamera(headingDegrees: 0, width: 5000, height: 4000, pixelBudget: 20_000_000) }
        #expect(throws: ReprojectionError.invalidParameter(name: "view size", value: "0x4", allowed: "at least 1x1 pixels")) {
            _ = try ViewCamera(headingDegrees: 0, width: 0, height: 4)
        }
        let message = ReprojectionError.exceedsPixelBudget(width: 5000, height: 4000, budgetPixels: 16_000_000).description
        #expect(message.contains("5000x4000") && message.contains("16000000"))
    }

    @Test("vertical field of view follows from square pixels")
    func verticalFieldOfView() throws {
        let camera = try ViewCamera(headingDegrees: 0, fieldOfViewDegrees: 90, width: 200, height: 200)
        #expect(abs(camera.verticalFieldOfViewDegrees - 90) < 1e-9)
        #expect(abs(camera.focalLengthPixels - 100) < 1e-9)
    }

    @Test("Codable round trip in snake_case; decoding validates")
    func codable() throws {
        let camera = try ViewCamera(headingDegrees: 12, pitchDegrees: -5, fieldOfViewDegrees: 70, width: 640, height: 480)
        let json = try JSONEncoder().encode(camera)
        #expect(String(decoding: json, as: UTF8.self).contains("field_of_view_degrees"))
        #expect(try JSONDecoder().decode(ViewCamera.self, from: json) == camera)
        let bad = Data(#"{"heading_degrees":0,"pitch_degrees":0,"field_of_view_degrees":150,"width":10,"height":10}"#.utf8)
        #expect(throws: ReprojectionError.invalidParameter(name: "field of view", value: "150.0°",
                                                           allowed: "10…120 degrees (horizontal)")) {
            _ = try JSONDecoder().decode(ViewCamera.self, from: bad)
        }
    }
}
