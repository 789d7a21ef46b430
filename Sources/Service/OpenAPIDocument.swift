import Foundation

/// The OpenAPI 3 description of the native routes and the Street View compatible ones
/// (`GET /v1/openapi.json`). A test checks it against the routes the server answers.
enum OpenAPIDocument {
    /// One parameter: name, where (query or path), type, whether required, description.
    struct Parameter {
        var name: String, location = "query", type = "string", required = false, description: String
    }

    /// One operation.
    struct Operation {
        var method: String, path: String, summary: String, parameters: [Parameter]
        var responses: [String: String]
        var contentType = "application/json"
    }

    static let sceneParameters: [Parameter] = [
        Parameter(name: "lat", type: "number", description: "Latitude, -90…90 degrees (with lon)."),
        Parameter(name: "lon", type: "number", description: "Longitude, -180…180 degrees (with lat)."),
        Parameter(name: "near", description: "A place name instead of a point (the best match of /v1/search)."),
        Parameter(name: "radius_meters", type: "number", description: "Search radius, 0…10000 metres (default 50)."),
        Parameter(name: "zoom", type: "number", description: "Instead of radius_meters: the web-map zoom (0…24) a click was made at; the radius is 22 map points there (at least 15 m, at most 10 km)."),
        Parameter(name: "preference", description: "nearest (default) or best."),
        Parameter(name: "source", description: "simulated, photo or any (default)."),
        Parameter(name: "after", description: "Captured on or after (YYYY-MM-DD or ISO 8601, UTC)."),
        Parameter(name: "before", description: "Captured on or before (YYYY-MM-DD: through that day)."),
        Parameter(name: "language", description: "Language for near names (OSM code such as sv)."),
        Parameter(name: "id", description: "An id echoed as request_id."),
    ]

    /// A tile route's parameters: `leading` (path parameters before the tile's), `first` (the tile's
    /// zoom or level), its column and row, and the key.
    static func tileParameters(_ first: Parameter, row: String = "Row.", after leading: Parameter? = nil) -> [Parameter] {
        [leading, first, Parameter(name: "x", location: "path", type: "integer", required: true, description: "Column."),
         Parameter(name: "y", location: "path", type: "integer", required: true, description: row), key].compactMap { $0 }
    }

    /// A tile's zoom, a path parameter.
    static func zoom(_ description: String) -> Parameter {
        Parameter(name: "z", location: "path", type: "integer", required: true, description: description)
    }

    static let key = Parameter(name: "key", description: "API key when the server requires one: give it once, as key= or as the X-API-Key header (both, or key= twice, is a 400).")

    static let snapshotParameters: [Parameter] = [
        Parameter(name: "lat", type: "number", description: "Latitude, -90…90 degrees."),
        Parameter(name: "lon", type: "number", description: "Longitude, -180…180 degrees."),
        Parameter(name: "near", description: "A place name."),
        Parameter(name: "scene", description: "A panorama id."),
        Parameter(name: "radius_meters", type: "number", description: "Search radius, 0…10000 metres (default 50)."),
        Parameter(name: "heading_degrees", type: "number", description: "View direction, clockwise from north (default: toward the point)."),
        Parameter(name: "pitch_degrees", type: "number", description: "Degrees above the horizon, -90…90 (default 0)."),
        Parameter(name: "fov_degrees", type: "number", description: "Horizontal field of view, 10…120 (default 90)."),
        Parameter(name: "size", description: "WxH pixels (default 1280x720; at most --max-image-pixels)."),
        Parameter(name: "labels", description: "all (default), places, roads or none."),
        Parameter(name: "road_labels", description: "on (default) or off."),
        Parameter(name: "exclude_categories", description: "Place groups not to label, comma-separated."),
        Parameter(name: "language", description: "Label language (OSM code)."),
        Parameter(name: "label_scale", type: "number", description: "Place labels' pixels per point, 1…4 (default 1; the web viewer sends its device pixel ratio)."),
        Parameter(name: "format", description: "jpeg (default) or png."),
        Parameter(name: "quality", type: "integer", description: "JPEG quality, 1…100 (default 90)."),
    ]

    static let mapParameters: [Parameter] = [
        Parameter(name: "center", description: "LAT,LON of the view's centre."),
        Parameter(name: "span", description: "DLAT,DLON degrees with center."),
        Parameter(name: "span_meters", type: "number", description: "Extent in metres with center (default 1000)."),
        Parameter(name: "camera", description: "LAT,LON,DISTANCE_METERS[,HEADING_DEGREES[,PITCH_DEGREES]]."),
        Parameter(name: "size", description: "WxH points (default 1024x768)."),
        Parameter(name: "scale", type: "number", description: "Pixels per point, 1…4 (default 1)."),
        Parameter(name: "type", description: "standard (default), muted, imagery or hybrid."),
        Parameter(name: "pin", description: "LAT,LON[,TITLE]; repeatable."),
        Parameter(name: "coverage", type: "boolean", description: "Draw where street imagery exists."),
        Parameter(name: "no_buildings", type: "boolean", description: "Leave buildings out."),
        Parameter(name: "poi_include", description: "Only label these place groups."),
        Parameter(name: "poi_exclude", description: "Label every place group except these."),
        Parameter(name: "language", description: "Label language (OSM code)."),
    ]

    static let streetViewParameters: [Parameter] = [
        Parameter(name: "location", description: "lat,lng, a place or an address (\"Aleksanterinkatu 52, Helsinki\"); this or pano is required."),
        Parameter(name: "pano", description: "A panorama id."),
        Parameter(name: "radius", type: "number", description: "Metres, 0…10000 (default 50)."),
        Parameter(name: "source", description: "default or outdoor."),
        key,
    ]

    static let operations: [Operation] = [
        Operation(method: "get", path: "/v1/health", summary: "Liveness: status, the kind of catalog (sqlite or postgis; never its path or URL), its panorama count and revision.", parameters: [],
                  responses: ["200": "ok"]),
        Operation(method: "get", path: "/metrics", summary: "Prometheus metrics.", parameters: [],
                  responses: ["200": "text exposition format 0.0.4"], contentType: "text/plain"),
        Operation(method: "get", path: "/v1/openapi.json", summary: "This document.", parameters: [], responses: ["200": "OpenAPI 3"]),
        Operation(method: "get", path: "/v1/scene", summary: "Is there street imagery here? The nearest or best panorama within a radius.",
                  parameters: sceneParameters + [key],
                  responses: ["200": "found: the scene", "404": "no coverage, with no_coverage.reason", "400": "invalid parameter"]),
        Operation(method: "post", path: "/v1/scenes", summary: "A batch of scene requests: a JSON array or JSON Lines / CSV lines; answers in order.",
                  parameters: [Parameter(name: "radius_meters", type: "number", description: "Default radius for items that set none."),
                               Parameter(name: "zoom", type: "number", description: "Default web-map zoom (0…24) for items that set neither radius_meters nor zoom: a click's radius there."),
                               Parameter(name: "preference", description: "Default preference."),
                               Parameter(name: "source", description: "Default source."), key],
                  responses: ["200": "answers in order (array, or JSON Lines)", "400": "a bad item or too many", "413": "body too large"]),
        Operation(method: "get", path: "/v1/search", summary: "Places by name; a coordinate in any common form (43.6124,1.4564, 43°36′44.6″N 1°27′23″E, geo:, a map URL), a panorama id or a sequence name, with or without an extract.",
                  parameters: [Parameter(name: "q", required: true, description: "The name, coordinate, panorama id or sequence name."),
                               Parameter(name: "near", description: "LAT,LON: equally good matches nearest first."),
                               Parameter(name: "category", description: "A category or group."),
                               Parameter(name: "language", description: "Names in this language."),
                               Parameter(name: "limit", type: "integer", description: "1…1000 (default 10)."), key],
                  responses: ["200": "matches", "400": "invalid parameter"]),
        Operation(method: "get", path: "/v1/coverage/{z}/{x}/{y}", summary: "The panoramas in a slippy tile, as GeoJSON.",
                  parameters: tileParameters(zoom("Zoom 0…30.")),
                  responses: ["200": "FeatureCollection", "400": "not a tile"], contentType: "application/geo+json"),
        Operation(method: "get", path: "/v1/coverage/clusters/{z}/{x}/{y}",
                  summary: "The coverage tiles' clusters in a slippy tile, as GeoJSON points: count, bounds [west, south, east, north], zoom (where a click should zoom to), panorama_id for a lone panorama. Below zoom 14 the panoramas of each 64-point cell of the world grid; from 14 on one feature per panorama.",
                  parameters: tileParameters(zoom("Zoom 0…30.")),
                  responses: ["200": "FeatureCollection", "400": "not a tile"], contentType: "application/geo+json"),
        Operation(method: "get", path: "/v1/panoramas/{id}", summary: "A panorama's record, links and tile levels.",
                  parameters: [Parameter(name: "id", location: "path", required: true, description: "The panorama id (may contain /)."), key],
                  responses: ["200": "the panorama", "404": "unknown id"]),
        Operation(method: "get", path: "/v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg",
                  summary: "One 256-pixel JPEG tile of the panorama's pyramid (level 0 the smallest).",
                  parameters: tileParameters(Parameter(name: "level", location: "path", type: "integer", required: true, description: "0 = smallest level."),
                                             after: Parameter(name: "id", location: "path", required: true, description: "The panorama id.")),
                  responses: ["200": "JPEG", "304": "not modified", "400": "no such tile", "404": "unknown id"], contentType: "image/jpeg"),
        Operation(method: "get", path: "/v1/snapshot", summary: "A perspective view with labels (lookaround snapshot's options).",
                  parameters: snapshotParameters + [key],
                  responses: ["200": "JPEG or PNG", "304": "not modified", "400": "invalid parameter", "404": "no coverage", "503": "busy"],
                  contentType: "image/jpeg"),
        Operation(method: "get", path: "/v1/map", summary: "A map snapshot (lookaround map's options that name no file).",
                  parameters: mapParameters + [key],
                  responses: ["200": "PNG", "304": "not modified", "400": "invalid parameter", "503": "busy"], contentType: "image/png"),
        Operation(method: "get", path: "/v1/tiles/{type}/{z}/{x}/{y}.png",
                  summary: "A 256-pixel XYZ map tile (write {y}@2x.png for 512 pixels): the lookaround map renderer, labels placed on a larger picture so they are not cut at tile edges, no attribution (it is in the TileJSON).",
                  parameters: tileParameters(zoom("Zoom 0…20."), row: "Row (…@2x for 512 pixels).",
                                             after: Parameter(name: "type", location: "path", required: true, description: "standard, muted, imagery, hybrid, or coverage (the street-imagery overlay on transparency).")),
                  responses: ["200": "PNG", "304": "not modified", "400": "invalid parameter", "503": "busy"], contentType: "image/png"),
        Operation(method: "get", path: "/v1/tiles/{type}.json", summary: "TileJSON 3.0.0 for a tile type: absolute tile URLs, attribution, bounds, centre, zoom range.",
                  parameters: [Parameter(name: "type", location: "path", required: true, description: "standard, muted, imagery, hybrid or coverage."), key],
                  responses: ["200": "TileJSON", "400": "invalid parameter"]),
        Operation(method: "get", path: "/v1/move",
                  summary: "The depth-warped move between two panoramas (the transition of lookaround walk and view; a crossfade where one has no depth map) as a burst of JPEG frames, one after another in the body, their byte lengths in X-Frame-Lengths; X-Move says depth-warp or crossfade. All frames together stay within the pixel budget.",
                  parameters: [Parameter(name: "from", required: true, description: "The panorama the move starts at."),
                               Parameter(name: "to", required: true, description: "The panorama it ends at."),
                               Parameter(name: "heading_degrees", type: "number", description: "View direction, clockwise from north (default 0)."),
                               Parameter(name: "pitch_degrees", type: "number", description: "Degrees above the horizon, -90…90 (default 0)."),
                               Parameter(name: "fov_degrees", type: "number", description: "Horizontal field of view, 10…120 (default 90)."),
                               Parameter(name: "size", description: "WxH of each frame (default 640x360)."),
                               Parameter(name: "frames", type: "integer", description: "2…30 (default 10): frames at 1/N … N/N of the way."),
                               Parameter(name: "quality", type: "integer", description: "JPEG quality 1…100 (default 80)."),
                               Parameter(name: "viewer", description: "A viewer's id: with seq, a frame still queued when a newer one of the same viewer arrives is dropped (204)."),
                               Parameter(name: "seq", type: "integer", description: "The viewer's frame number, increasing."), key],
                  responses: ["200": "frames", "204": "superseded by a newer frame of the same viewer", "304": "not modified",
                              "400": "invalid parameter", "404": "unknown panorama", "503": "busy"],
                  contentType: "application/x-lookaround-frames"),
        Operation(method: "get", path: "/v1/walk", summary: "The stops of a walk between two places over the panoramas' links (as lookaround walk --from --to), for a client to play move by move.",
                  parameters: [Parameter(name: "from", required: true, description: "A place, an address or LAT,LON."),
                               Parameter(name: "to", required: true, description: "A place, an address or LAT,LON."),
                               Parameter(name: "language", description: "Street names' language (OSM code)."), key],
                  responses: ["200": "{from, to, length_meters, stops: [{panorama_id, latitude, longitude, distance_meters, street, waypoint}]}",
                              "400": "invalid parameter", "404": "place not found or no walk"]),
        Operation(method: "get", path: "/", summary: "The web viewer: a map with the street-imagery coverage, place search, Look Around previews and the full-window viewer; /@LAT,LON,3a,FOVy,HEADINGh,TILTt and ?pano=ID&heading=&pitch=&fov= open a camera. No WebGL needed: frames are rendered here. Needs no key (the page asks for one when the API does).",
                  parameters: [], responses: ["200": "HTML"], contentType: "text/html"),
        Operation(method: "get", path: "/lookaround.js", summary: "The embeddable component, shaped like MapKit JS: lookaround.LookAround and lookaround.LookAroundPreview (see the README).",
                  parameters: [], responses: ["200": "JavaScript"], contentType: "text/javascript"),
        Operation(method: "get", path: "/search", summary: "Nominatim-compatible forward geocoding: addresses, streets, places, postcodes and localities of the extract (© OpenStreetMap contributors, ODbL).",
                  parameters: [Parameter(name: "q", description: "Free text: 'Aleksanterinkatu 52, Helsinki', 'Stockmann', '00100 Helsinki' (this or the structured parameters)."),
                               Parameter(name: "street", description: "Structured: house number and street."),
                               Parameter(name: "city", description: "Structured: city or another locality (narrows)."),
                               Parameter(name: "postalcode", description: "Structured: postcode."),
                               Parameter(name: "amenity", description: "Structured: a place's name."),
                               Parameter(name: "format", description: "json, jsonv2 (default), geojson or geocodejson."),
                               Parameter(name: "limit", type: "integer", description: "1…40 (default 10)."),
                               Parameter(name: "addressdetails", type: "integer", description: "1: include the address parts."),
                               Parameter(name: "accept-language", description: "Names in this language (also the Accept-Language header)."),
                               Parameter(name: "viewbox", description: "x1,y1,x2,y2: rank answers near its centre."),
                               Parameter(name: "bounded", type: "integer", description: "1: only answers inside viewbox."),
                               Parameter(name: "countrycodes", description: "ISO codes; none of the extract's: no answers."), key],
                  responses: ["200": "an array of places (empty when nothing matches)", "400": "invalid parameter"]),
        Operation(method: "get", path: "/reverse", summary: "Nominatim-compatible reverse geocoding: the house number, street, neighbourhood and city at a point.",
                  parameters: [Parameter(name: "lat", type: "number", required: true, description: "Latitude."),
                               Parameter(name: "lon", type: "number", required: true, description: "Longitude."),
                               Parameter(name: "zoom", type: "integer", description: "18 (default) a building, 16–17 a street, below a locality."),
                               Parameter(name: "format", description: "json, jsonv2 (default), geojson or geocodejson."),
                               Parameter(name: "addressdetails", type: "integer", description: "0: leave the address parts out."),
                               Parameter(name: "accept-language", description: "Names in this language."), key],
                  responses: ["200": "the place, or {\"error\": \"Unable to geocode\"}", "400": "invalid parameter"]),
        Operation(method: "get", path: "/v1/directions",
                  summary: "Directions over the OSM extract's streets: routes with distance_meters, expected_travel_time_seconds, an encoded polyline (precision 5), steps (instructions, maneuver type and modifier, bearings, street-level preview) and advisory notices (© OpenStreetMap contributors).",
                  parameters: [Parameter(name: "from", required: true, description: "lat,lon, a place or an address."),
                               Parameter(name: "to", required: true, description: "lat,lon, a place or an address."),
                               Parameter(name: "mode", description: "walking (default), cycling or driving."),
                               Parameter(name: "alternatives", type: "boolean", description: "Up to two other routes."),
                               Parameter(name: "language", description: "Street names in this language (OSM code)."),
                               Parameter(name: "previews", type: "boolean", description: "Each step's panorama, heading and /v1/snapshot URL."), key],
                  responses: ["200": "routes", "400": "invalid parameter", "404": "no route (no_street_near_source, no_street_near_destination, disconnected) or place not found"]),
        Operation(method: "get", path: "/route/v1/{profile}/{coordinates}",
                  summary: "OSRM-compatible route service: code, routes[].geometry/distance/duration/legs[].steps[].maneuver {type, modifier, location, bearing_before, bearing_after}, waypoints.",
                  parameters: [Parameter(name: "profile", location: "path", required: true, description: "driving (car), walking (foot) or cycling (bike)."),
                               Parameter(name: "coordinates", location: "path", required: true, description: "{lon},{lat};{lon},{lat}[;…] (2…25 waypoints)."),
                               Parameter(name: "alternatives", description: "false (default), true or a number 0…5."),
                               Parameter(name: "steps", type: "boolean", description: "Steps per leg (default false)."),
                               Parameter(name: "geometries", description: "polyline (default), polyline6 or geojson."),
                               Parameter(name: "overview", description: "simplified (default), full or false."), key],
                  responses: ["200": "code Ok", "400": "code InvalidUrl, InvalidOptions, InvalidValue, InvalidQuery, NoSegment or NoRoute"]),
        Operation(method: "get", path: "/maps/api/streetview/metadata", summary: "Google Street View Static API metadata.",
                  parameters: streetViewParameters, responses: ["200": "status OK, ZERO_RESULTS, NOT_FOUND, INVALID_REQUEST, REQUEST_DENIED or UNKNOWN_ERROR"]),
        Operation(method: "get", path: "/maps/api/streetview", summary: "Google Street View Static API image.",
                  parameters: [Parameter(name: "size", required: true, description: "{width}x{height}, up to 640x640."),
                               Parameter(name: "heading", type: "number", description: "Degrees clockwise from north; any finite value, taken modulo 360 (default: toward the location)."),
                               Parameter(name: "pitch", type: "number", description: "-90…90 (default 0)."),
                               Parameter(name: "fov", type: "number", description: "10…120 (default 90)."),
                               Parameter(name: "return_error_code", type: "boolean", description: "404 instead of a grey image when there is no imagery.")]
                      + streetViewParameters,
                  responses: ["200": "JPEG (grey when there is no imagery)", "400": "invalid", "403": "bad key", "404": "no imagery (return_error_code=true)"],
                  contentType: "image/jpeg"),
    ] + stacOperations

    static let stacErrors = ["400": "invalid parameter: {code, description, message, parameter, status_code}", "403": "bad key"]
    static let pageParameters = [Parameter(name: "limit", type: "integer", description: "Results per page."),
                                 Parameter(name: "page", description: "Where the page starts: follow the answer's next link."), key]
    static let searchParameters = [
        Parameter(name: "bbox", description: "WEST,SOUTH,EAST,NORTH, degrees."),
        Parameter(name: "datetime", description: "A RFC 3339 time or START/END, .. for an open end."),
        Parameter(name: "ids", description: "Item ids, comma-separated."),
        Parameter(name: "collections", description: "Collection (sequence) ids, comma-separated."),
        Parameter(name: "intersects", description: "A GeoJSON geometry (Point, LineString, Polygon, Multi*)."),
        Parameter(name: "place_position", description: "LON,LAT: pictures that show this place (Panoramax)."),
        Parameter(name: "place_distance", description: "MIN-MAX metres from the place, 0…1000 (default 3-15)."),
        Parameter(name: "place_fov_tolerance", type: "integer", description: "Degrees, 2…180 (default 30): how squarely a flat picture faces the place."),
    ] + pageParameters

    /// The STAC API under /api (STACRoutes, PictureRoutes, CoverageVectorTileRoutes).
    static let stacOperations: [Operation] = [
        Operation(method: "get", path: "/api", summary: "STAC API landing page (a Catalog): conformsTo, links data, search, conformance, child per sequence.",
                  parameters: [key], responses: ["200": "STAC Catalog"]),
        Operation(method: "get", path: "/api/", summary: "The STAC landing page (as /api).", parameters: [key], responses: ["200": "STAC Catalog"]),
        Operation(method: "get", path: "/api/conformance", summary: "STAC API and OGC API Features conformance classes.", parameters: [key],
                  responses: ["200": "conformsTo"]),
        Operation(method: "get", path: "/api/collections", summary: "STAC collections, one per sequence, with spatial and temporal extent; paged.",
                  parameters: pageParameters, responses: ["200": "collections and links"].merging(stacErrors) { a, _ in a }),
        Operation(method: "get", path: "/api/collections/{id}", summary: "A sequence as a STAC collection.",
                  parameters: [Parameter(name: "id", location: "path", description: "The sequence's name."), key],
                  responses: ["200": "STAC Collection", "404": "no such collection"]),
        Operation(method: "get", path: "/api/collections/{id}/items", summary: "A sequence's pictures as STAC items, in sequence order; paged.",
                  parameters: [Parameter(name: "id", location: "path", description: "The sequence's name.")] + searchParameters.prefix(4) + pageParameters,
                  responses: ["200": "GeoJSON FeatureCollection", "404": "no such collection"].merging(stacErrors) { a, _ in a },
                  contentType: "application/geo+json"),
        Operation(method: "get", path: "/api/collections/{id}/items/{itemId}", summary: "A picture as a STAC item: view:azimuth, pers:*, prev/next/related links, assets hd/sd/thumb.",
                  parameters: [Parameter(name: "id", location: "path", description: "The sequence's name."),
                               Parameter(name: "itemId", location: "path", description: "The panorama's id."), key],
                  responses: ["200": "STAC Item", "404": "no such item in the collection"], contentType: "application/geo+json"),
        Operation(method: "get", path: "/api/search", summary: "STAC item search.", parameters: searchParameters,
                  responses: ["200": "GeoJSON FeatureCollection with next links"].merging(stacErrors) { a, _ in a }, contentType: "application/geo+json"),
        Operation(method: "post", path: "/api/search", summary: "STAC item search with a JSON body (the GET parameters as members; bbox and ids as arrays).",
                  parameters: [key], responses: ["200": "GeoJSON FeatureCollection with next links (method POST, body to merge)"].merging(stacErrors) { a, _ in a },
                  contentType: "application/geo+json"),
        Operation(method: "get", path: "/api/pictures/{id}/{file}.jpg", summary: "A picture's file: hd (the original), sd (2048 wide), thumb (500 wide), tiled/{col}_{row} (8 × 4 tiles of a 360° picture).",
                  parameters: [Parameter(name: "id", location: "path", description: "The panorama's id."),
                               Parameter(name: "file", location: "path", description: "hd, sd, thumb or tiled/{col}_{row}."), key],
                  responses: ["200": "JPEG", "400": "no such tile", "404": "no such picture"], contentType: "image/jpeg"),
        Operation(method: "get", path: "/api/map/style.json", summary: "MapLibre style: the raster basemap under the coverage vector tiles.", parameters: [key],
                  responses: ["200": "MapLibre style"]),
        Operation(method: "get", path: "/api/map/{z}/{x}/{y}.mvt", summary: "Coverage as a Mapbox Vector Tile 2.1: layers sequences (lines) and, from zoom 15, pictures (points).",
                  parameters: tileParameters(zoom("Zoom, 0…22.")),
                  responses: ["200": "MVT", "400": "invalid tile"], contentType: "application/vnd.mapbox-vector-tile"),
    ] + uploadOperations

    /// Panoramax's upload API (`serve --upload-key-file`): every route but the configuration needs
    /// `Authorization: Bearer TOKEN` (401 without; 403 when the server takes no uploads).
    static let uploadOperations: [Operation] = {
        let set = Parameter(name: "id", location: "path", description: "The upload set's id.")
        let refused = ["401": "no valid upload token", "403": "uploads are off (no --upload-key-file)"]
        return [
            Operation(method: "get", path: "/api/configuration", summary: "The instance as Panoramax's clients read it: auth, upload limits, "
                      + "default split and de-duplication settings.", parameters: [key], responses: ["200": "configuration"]),
            Operation(method: "get", path: "/api/users/me", summary: "The account of the upload token.", parameters: [],
                      responses: ["200": "id and name"].merging(refused) { a, _ in a }),
            Operation(method: "post", path: "/api/upload_sets", summary: "Creates an upload set (JSON: title, split_distance, split_time, no_split, "
                      + "duplicate_distance, duplicate_rotation, no_deduplication, sort_method time-asc).", parameters: [],
                      responses: ["200": "the upload set", "400": "a bad setting"].merging(refused) { a, _ in a }),
            Operation(method: "get", path: "/api/upload_sets/{id}", summary: "An upload set: completed, ready, items_status, associated_collections.",
                      parameters: [set, key], responses: ["200": "the upload set", "404": "no such upload set"]),
            Operation(method: "get", path: "/api/upload_sets/{id}/files", summary: "An upload set's files: file_name, picture_id, content_md5, rejected.",
                      parameters: [set, key], responses: ["200": "the files", "404": "no such upload set"]),
            Operation(method: "post", path: "/api/upload_sets/{id}/files", summary: "Adds a picture (multipart/form-data field file; isBlurred): "
                      + "checked as lookaround index checks it, blurred unless lookaround blurred it, kept once.", parameters: [set],
                      responses: ["202": "the file", "400": "the picture's checks failed", "409": "already uploaded, or the set is completed",
                                  "413": "over --max-upload-bytes", "415": "not a JPEG", "503": "blurring unavailable"].merging(refused) { a, _ in a }),
            Operation(method: "post", path: "/api/upload_sets/{id}/complete", summary: "Completes an upload set: its pictures are indexed in the "
                      + "background; the set reads ready once they are in the catalog.", parameters: [set],
                      responses: ["200": "the upload set", "404": "no such upload set"].merging(refused) { a, _ in a }),
            Operation(method: "delete", path: "/api/collections/{id}", summary: "Deletes an uploaded sequence (its pictures leave the catalog and the disk).",
                      parameters: [Parameter(name: "id", location: "path", description: "The sequence's name.")],
                      responses: ["204": "deleted", "403": "not an uploaded collection", "404": "no such collection"].merging(["401": "no valid upload token"]) { a, _ in a }),
        ]
    }()

    /// The document as JSON (sorted keys), built once.
    static let bytes: [UInt8] = {
        var paths: [String: [String: Any]] = [:]
        for operation in operations {
            let parameters: [[String: Any]] = operation.parameters.map {
                ["name": $0.name, "in": $0.location, "required": $0.required || $0.location == "path",
                 "description": $0.description, "schema": ["type": $0.type]]
            }
            var responses: [String: Any] = [:]
            for (status, text) in operation.responses {
                responses[status] = ["description": text,
                                     "content": [status == "200" ? operation.contentType : "application/json": [:] as [String: Any]]]
            }
            paths[operation.path, default: [:]][operation.method] = ["summary": operation.summary, "parameters": parameters,
                                                                     "responses": responses]
        }
        let document: [String: Any] = [
            "openapi": "3.0.3",
            "info": ["title": "lookaround scene-request service", "version": "1",
                     "description": "Street imagery availability, panorama metadata, rendered views, maps and tiles; "
                        + "Google Street View Static API compatible routes under /maps/api/streetview."],
            "servers": [["url": "/"]],
            "paths": paths,
        ]
        return (try? [UInt8](JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]))) ?? []
    }()
}
