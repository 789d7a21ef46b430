import Imaging
import Testing

@Suite struct ColorTests {
    @Test func hexForms() {
        #expect(RGBAColor(hex: "#1d2b4f") == RGBAColor(red: 0x1d, green: 0x2b, blue: 0x4f))
        #expect(RGBAColor(hex: "#1D2B4F") == RGBAColor(red: 0x1d, green: 0x2b, blue: 0x4f))
        #expect(RGBAColor(hex: "#f80") == RGBAColor(red: 0xff, green: 0x88, blue: 0x00))
        #expect(RGBAColor(hex: "#11223380") == RGBAColor(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x80))
        for bad in ["1d2b4f", "#1d2b4", "#+1d2b4", "#12345g", "#", "", "#1122334455"] {
            #expect(RGBAColor(hex: bad) == nil, "\(bad)")
        }
    }
}
