import Testing
@Test func placeholderLookaroundCLITests() { #expect(Bool(true)) }
