import Testing
@Test func placeholderSimulatorTests() { #expect(Bool(true)) }
