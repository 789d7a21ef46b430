import Testing
@Test func placeholderCatalogTests() { #expect(Bool(true)) }
