import Testing
@testable import Geodesy

/// The one coordinate parser, as a table: the text people paste, the point it names (1e-6° ≈ 11 cm).
@Suite("Coordinates as text")
struct CoordinateTextTests {
    /// 43°36′44.6″N 1°27′23″E in decimal degrees.
    static let capitoleDMS = (43 + 36.0 / 60 + 44.6 / 3600, 1 + 27.0 / 60 + 23.0 / 3600)

    static let table: [(text: String, latitude: Double, longitude: Double)] = [
        // Decimal degrees with every separator.
        ("43.6124,1.4564", 43.6124, 1.4564),
        ("43.6124, 1.4564", 43.6124, 1.4564),
        ("43.6124 1.4564", 43.6124, 1.4564),
        ("  43.6124 ,  1.4564  ", 43.6124, 1.4564),
        ("43.6124;1.4564", 43.6124, 1.4564),
        ("-33.8568,151.2153", -33.8568, 151.2153),
        ("-33.8568 -70.5", -33.8568, -70.5),
        ("−33.8568, 151.2153", -33.8568, 151.2153),
        ("+43.6124,+1.4564", 43.6124, 1.4564),
        ("52,12", 52, 12),
        ("43.6,180", 43.6, -180),
        ("90,-180", 90, -180),
        (".5,-.25", 0.5, -0.25),
        // Degree signs and hemispheres, before or after.
        ("43.6124° N, 1.4564° E", 43.6124, 1.4564),
        ("43.6124°N 1.4564°E", 43.6124, 1.4564),
        ("N43.6124 E1.4564", 43.6124, 1.4564),
        ("N 43.6124, E 1.4564", 43.6124, 1.4564),
        ("33.8568S 151.2153E", -33.8568, 151.2153),
        ("33.8568 S, 70.5 W", -33.8568, -70.5),
        ("1.4564 E 43.6124 N", 43.6124, 1.4564),
        ("1.4564E, 43.6124N", 43.6124, 1.4564),
        ("43.6124n 1.4564e", 43.6124, 1.4564),
        ("43.6124º N 1.4564º E", 43.6124, 1.4564),
        // Degrees and decimal minutes.
        ("43°36.743′N 1°27.383′E", 43 + 36.743 / 60, 1 + 27.383 / 60),
        ("N 43° 36.743' E 1° 27.383'", 43 + 36.743 / 60, 1 + 27.383 / 60),
        ("N 43 36.743 E 1 27.383", 43 + 36.743 / 60, 1 + 27.383 / 60),
        ("43 36.743, 1 27.383", 43 + 36.743 / 60, 1 + 27.383 / 60),
        // Degrees, minutes, seconds: typographic, ASCII, letters.
        ("43°36′44.6″N 1°27′23″E", capitoleDMS.0, capitoleDMS.1),
        ("43°36'44.6\"N 1°27'23\"E", capitoleDMS.0, capitoleDMS.1),
        ("43°36’44.6”N, 1°27’23”E", capitoleDMS.0, capitoleDMS.1),
        ("43°36'44.6''N 1°27'23''E", capitoleDMS.0, capitoleDMS.1),
        ("43° 36′ 44.6″ N, 1° 27′ 23″ E", capitoleDMS.0, capitoleDMS.1),
        ("N 43° 36′ 44.6″ E 1° 27′ 23″", capitoleDMS.0, capitoleDMS.1),
        ("43d36m44.6sN 1d27m23sE", capitoleDMS.0, capitoleDMS.1),
        ("43d 36m 44.6s N, 1d 27m 23s E", capitoleDMS.0, capitoleDMS.1),
        ("43°36′44.6″ 1°27′23″", capitoleDMS.0, capitoleDMS.1),
        ("43 36 44.6 1 27 23", capitoleDMS.0, capitoleDMS.1),
        ("33°51′24″S 151°12′55″E", -(33 + 51.0 / 60 + 24.0 / 3600), 151 + 12.0 / 60 + 55.0 / 3600),
        ("40°26′46″N 79°58′56″W", 40 + 26.0 / 60 + 46.0 / 3600, -(79 + 58.0 / 60 + 56.0 / 3600)),
        ("-0°30′, -0°15′", -0.5, -0.25),
        // geo: URIs.
        ("geo:43.6124,1.4564", 43.6124, 1.4564),
        ("GEO:43.6124,1.4564", 43.6124, 1.4564),
        ("geo:43.6124,1.4564,150", 43.6124, 1.4564),
        ("geo:43.6124,1.4564;u=30", 43.6124, 1.4564),
        ("geo:43.6124,1.4564,150;crs=wgs84;u=30", 43.6124, 1.4564),
        ("geo:0,0?q=43.6124,1.4564(Capitole)", 43.6124, 1.4564),
        ("geo:0,0?q=43.6124%2C1.4564", 43.6124, 1.4564),
        ("geo:43.6124,1.4564?z=17", 43.6124, 1.4564),
        // Map URLs.
        ("https://www.google.com/maps/@43.6124,1.4564,17z", 43.6124, 1.4564),
        ("https://www.google.com/maps/@43.6124,1.4564,3a,75y,90h,90t/data=!3m6!1e1", 43.6124, 1.4564),
        ("https://www.google.fr/maps/place/Capitole/@43.6044,1.4421,17z/data=!3m1!4b1!4m6!3m5!1s0x12aebb!8m2!3d43.6044622!4d1.4442073!16s",
         43.6044622, 1.4442073),
        ("https://maps.google.com/?q=43.6124,1.4564", 43.6124, 1.4564),
        ("https://maps.google.com/maps?ll=43.6124,1.4564&z=17", 43.6124, 1.4564),
        ("https://www.google.com/maps/search/?api=1&query=43.6124%2C1.4564", 43.6124, 1.4564),
        ("https://www.google.com/maps/@?api=1&map_action=pano&viewpoint=43.6124,1.4564&heading=90", 43.6124, 1.4564),
        ("www.google.com/maps/@43.6124,1.4564,15z", 43.6124, 1.4564),
        ("https://www.openstreetmap.org/#map=17/43.6124/1.4564", 43.6124, 1.4564),
        ("https://www.openstreetmap.org/?mlat=43.6124&mlon=1.4564#map=17/43.6/1.4", 43.6124, 1.4564),
        ("https://maps.apple.com/?ll=43.6124,1.4564&q=Capitole", 43.6124, 1.4564),
        ("http://127.0.0.1:8080/@43.6124,1.4564,3a,75y,90h,90t?pano=x", 43.6124, 1.4564),
        ("/@43.6124,1.4564,3a,75y,90h,90t", 43.6124, 1.4564),
        ("@43.6124,1.4564,17z", 43.6124, 1.4564),
    ]

    @Test(arguments: table)
    func reads(_ row: (text: String, latitude: Double, longitude: Double)) throws {
        let point = try #require(try CoordinateText.parse(row.text), "\(row.text) read as no coordinate")
        #expect(abs(point.latitude - row.latitude) < 1e-6, "\(row.text): latitude \(point.latitude), want \(row.latitude)")
        #expect(abs(point.longitude - row.longitude) < 1e-6, "\(row.text): longitude \(point.longitude), want \(row.longitude)")
    }

    /// Names, addresses, house numbers, postcodes and links without a point: looked up by name instead.
    static let notCoordinates = [
        "", "   ", "Toulouse", "Senaatintori", "Aleksanterinkatu 52", "52 Aleksanterinkatu", "00100", "00100 Helsinki", "12-14",
        "52 12", "Nice", "Essen", "New York", "SW", "N", "43.6124", "gopro-max-sequence/1", "single-cameras/R0014760",
        "photos/gopro-max-sequence/GoPro Max", "https://example.com/photos", "https://www.google.com/maps/place/Capitole",
        "geo:0,0?q=Capitole", "@home", "R0014760", "GSAG2002",
    ]

    @Test(arguments: notCoordinates)
    func leavesNamesAlone(_ text: String) throws {
        #expect(try CoordinateText.parse(text) == nil, "'\(text)' read as a coordinate")
    }

    /// A coordinate's form with an impossible part: an error naming it, never a guess.
    static let malformed: [(text: String, says: String)] = [
        ("91,0", "latitude 91.0"),
        ("-90.5 10.5", "latitude -90.5"),
        ("43.6,181", "longitude 181.0"),
        ("43°61′N 1°27′E", "minutes 61 is 60 or more"),
        ("43°36′60″N 1°27′E", "seconds 60 is 60 or more"),
        ("43.5°36′N 1°27′E", "degrees with a fraction"),
        ("43.6 N, 1.4 S", "both parts are latitudes"),
        ("1.4 E 43.6 W", "both parts are longitudes"),
        ("-43.6 S, 1.4 E", "a minus sign and a hemisphere letter"),
        ("geo:43.6", "a geo: URI is geo:LATITUDE,LONGITUDE"),
        ("/@43.6", "a map link's camera"),
        ("43′ 1″", "degrees, minutes and seconds come in that order"),
        ("1 2 3", "cannot tell the latitude from the longitude"),
    ]

    @Test(arguments: malformed)
    func refusesImpossibleParts(_ row: (text: String, says: String)) {
        #expect {
            _ = try CoordinateText.parse(row.text)
        } throws: { error in
            "\(error)".contains(row.says)
        }
    }
}
