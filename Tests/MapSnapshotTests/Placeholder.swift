import Testing
@Test func placeholderMapSnapshotTests() { #expect(Bool(true)) }
