import Testing
@Test func placeholderMapData() { #expect(Bool(true)) }
