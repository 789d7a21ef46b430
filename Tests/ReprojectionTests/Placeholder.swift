import Testing
@Test func placeholderReprojectionTests() { #expect(Bool(true)) }
