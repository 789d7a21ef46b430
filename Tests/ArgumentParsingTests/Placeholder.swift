import Testing
@Test func placeholderArgumentParsingTests() { #expect(Bool(true)) }
