import Catalog

/// `snapshot --json` and `inspect --json` without coverage: `{"found": false, "no_coverage": {…}}`, as
/// `scene --json` answers.
struct NoCoverageReport: Encodable {
    var found = false
    var requestedPlace: String?
    var noCoverage: NoCoverage?
}
