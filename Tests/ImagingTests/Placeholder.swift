import Testing
@Test func placeholderImagingTests() { #expect(Bool(true)) }
