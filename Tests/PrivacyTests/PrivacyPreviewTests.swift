import Foundation
import Imaging
@testable import Privacy
import Testing

/// The `--dry-run` preview: each region's label is whole inside the picture, wherever the region is.
@Suite struct PrivacyPreviewTests {
    /// A face at the right edge (as on the shared face-and-sign fixture, where "f1 face 0.…" was cut at the
    /// edge): its label is drawn left of the box's corner, its last columns inside the picture, and the
    /// picture's last columns keep their grey.
    @Test func aLabelAtTheRightEdgeIsShiftedInsideNotCut() throws {
        let fonts = try FontLibrary()
        let grey = RGB8Image(width: 320, height: 120, components: [UInt8](repeating: 128, count: 320 * 120 * 3))
        let box = PixelBox(x: 300, y: 40, width: 18, height: 24)
        let region = PrivacyRegion(id: "f1", kind: .face, score: 0.93, box: box, blocks: box, state: .blurred)
        let preview = try PrivacyPreview.draw(grey, regions: [region], fonts: fonts)
        let labelWidth = try TextRenderer(fonts: fonts).measure("f1 face 0.93", style: TextStyle(pixelSize: 13, weight: .bold)).advanceWidth
        // The label's band (above the box): red text drawn from about width − labelWidth on.
        func redColumns(_ columns: Range<Int>) -> Int {
            var count = 0
            for x in columns {
                for y in 20..<38 {
                    let i = 3 * (y * preview.width + x)
                    if preview.components[i] > 200 && preview.components[i + 1] < 100 { count += 1; break }
                }
            }
            return count
        }
        let start = preview.width - Int(labelWidth.rounded(.up)) - 2
        #expect(redColumns(start..<(start + 12)) >= 4, "no label text where a shifted label starts")
        #expect(redColumns((preview.width - 2)..<preview.width) == 0, "the label runs to the picture's edge")
    }
}
