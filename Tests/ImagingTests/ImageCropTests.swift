import Testing
@testable import Imaging

@Suite struct ImageCropTests {
    /// A crop keeps exactly the pixels of its rectangle, every channel, row by row.
    @Test func aCropKeepsItsRectangle() {
        var image = RGBA8Image(width: 5, height: 4)
        for y in 0..<4 { for x in 0..<5 { for c in 0..<4 { image[x, y, c] = UInt8(y * 40 + x * 8 + c) } } }
        let cut = image.cropped(x: 1, y: 2, width: 3, height: 2)
        #expect(cut.width == 3 && cut.height == 2)
        for y in 0..<2 { for x in 0..<3 { for c in 0..<4 { #expect(cut[x, y, c] == image[x + 1, y + 2, c]) } } }
        #expect(image.cropped(x: 0, y: 0, width: 5, height: 4) == image)
    }
}
