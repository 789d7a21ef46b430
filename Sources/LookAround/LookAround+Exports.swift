// One import, as `import MapKit`: `import LookAround` gives a client every type the public API's
// signatures use, so a client package depends on and imports only `LookAround`.
//
// - Geodesy: GeoCoordinate, Angle, CoordinateRegion, CoordinateSpan (requests, map items, cameras).
// - Diagnostics: ErrorCategory and CategorizedError (what kind of failure any error is), LinkedLibrary.
// - Imaging: RGB8Image, RGBA8Image, PixelSize, JPEGCodec, PNGCodec (snapshot images and their encoders).
// - Catalog: Catalog, SceneAnswer, SceneMatch, ScenePreference, SourceFilter, CatalogPlace, CatalogBuilder
//   (scene requests and the catalog they read).
// - Reprojection: ViewCamera, PanoramaCache, ReprojectionError (what a snapshot was rendered with).
// - MapData: MapDataset, PostalAddress (the OSM data a map snapshot draws; addresses of map items).
// - MapSnapshot: MapSnapshotter, MapSnapshotOptions, MapCamera, MapType, PointOfInterestFilter.
@_exported import Catalog
@_exported import Diagnostics
@_exported import Geodesy
@_exported import Imaging
@_exported import MapData
@_exported import MapSnapshot
@_exported import Reprojection
