import Testing
@Test func placeholderGeodesyTests() { #expect(Bool(true)) }
