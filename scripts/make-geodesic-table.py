#!/usr/bin/env python3
"""Generate Tests/GeodesyTests/Fixtures/geodesic-table.csv, the WGS84 geodesic reference table.

The table is the ground truth for the Swift `Geodesy` module's geodesic tests. It is computed with
PyPI's `geographiclib` (C. F. F. Karney's reference implementation), which is a test-data generator
only, never a runtime dependency.

Deterministic: a fixed seed and a fixed case list, so running it again rewrites the same bytes
(given the same geographiclib version, which is written into the header comment).

    python3 scripts/make-geodesic-table.py            # writes the fixture
    python3 scripts/make-geodesic-table.py --stdout   # prints it instead

Columns (one geodesic per row, every row is both an inverse and a direct test case):
    category      why the row is there (random, short, near_antipodal, antipodal, antimeridian,
                  polar, equatorial, meridional, coincident)
    lat1_deg, lon1_deg, lat2_deg, lon2_deg
                  the two end points, WGS84 degrees, longitudes in [-180, 180)
    distance_m    geodesic distance between them, metres
    azi1_deg      azimuth of the geodesic at point 1, degrees clockwise from north, (-180, 180]
    azi2_deg      forward azimuth of the geodesic at point 2, same convention
Numbers are written with repr(), which round-trips IEEE doubles exactly.
"""

import math
import random
import sys

import geographiclib
from geographiclib.geodesic import Geodesic

SEED = 20131105  # Karney, "Algorithms for geodesics", J. Geodesy 87 (2013): received 2012, published 2013
OUTPUT = "Tests/GeodesyTests/Fixtures/geodesic-table.csv"
WGS84 = Geodesic.WGS84


def wrap_lon(lon):
    """Longitude into [-180, 180)."""
    lon = math.fmod(lon + 180.0, 360.0)
    if lon < 0:
        lon += 360.0
    return lon - 180.0


def clamp_lat(lat):
    return max(-90.0, min(90.0, lat))


def random_lat(rng):
    """Latitude of a point uniform on the sphere."""
    return math.degrees(math.asin(rng.uniform(-1.0, 1.0)))


def random_lon(rng):
    return rng.uniform(-180.0, 180.0)


def cases(rng):
    # Random global pairs.
    for _ in range(400):
        yield "random", random_lat(rng), random_lon(rng), random_lat(rng), random_lon(rng)

    # Short lines, 1 mm to 10 km: the second point is found by the direct problem from the first.
    for _ in range(160):
        lat1, lon1 = random_lat(rng), random_lon(rng)
        s = 10.0 ** rng.uniform(-3.0, 4.0)
        d = WGS84.Direct(lat1, lon1, rng.uniform(-180.0, 180.0), s)
        yield "short", lat1, lon1, d["lat2"], wrap_lon(d["lon2"])

    # Near-antipodal pairs: point 2 within a small distance of the antipode of point 1,
    # including the region where the astroid starting guess is needed (near the equator).
    for i in range(180):
        lat1 = random_lat(rng) if i % 2 else rng.uniform(-5.0, 5.0)
        lon1 = random_lon(rng)
        scale = 10.0 ** rng.uniform(-7.0, 0.0)
        lat2 = clamp_lat(-lat1 + rng.uniform(-1.0, 1.0) * scale)
        lon2 = wrap_lon(lon1 + 180.0 + rng.uniform(-1.0, 1.0) * scale)
        yield "near_antipodal", lat1, lon1, lat2, lon2

    # Exactly antipodal pairs (the geodesic is not unique; distances still are).
    for lat1, lon1 in [(0.0, 0.0), (0.0, -179.5), (30.0, 10.0), (-45.0, 100.0), (89.0, -60.0),
                       (1.0, 20.0), (-0.5, 0.25), (60.0, 179.0)]:
        yield "antipodal", lat1, lon1, -lat1, wrap_lon(lon1 + 180.0)

    # Pairs across the 180th meridian.
    for _ in range(120):
        lat1 = random_lat(rng)
        lat2 = clamp_lat(lat1 + rng.uniform(-20.0, 20.0))
        lon1 = rng.uniform(170.0, 180.0)
        lon2 = rng.uniform(-180.0, -170.0)
        if rng.random() < 0.5:
            lon1, lon2 = lon2, lon1
        yield "antimeridian", lat1, lon1, lat2, lon2

    # At and near the poles.
    for i in range(90):
        pole = 90.0 if i % 2 else -90.0
        offset = 0.0 if i % 3 == 0 else 10.0 ** rng.uniform(-9.0, 0.0)
        lat1 = math.copysign(abs(pole) - offset, pole)
        if i % 5 == 0:
            lat2 = random_lat(rng)
        elif i % 5 == 1:
            lat2 = -lat1
        else:
            lat2 = math.copysign(90.0 - 10.0 ** rng.uniform(-9.0, 1.0), pole if i % 4 else -pole)
        yield "polar", lat1, random_lon(rng), lat2, random_lon(rng)

    # Equatorial pairs, including longitude differences beyond (1 - f) * 180 degrees,
    # where the shortest path leaves the equator.
    for i in range(70):
        lon1 = random_lon(rng)
        if i % 2:
            dlon = rng.uniform(0.0, 180.0)
        else:
            dlon = 180.0 - 10.0 ** rng.uniform(-6.0, 0.3)
        yield "equatorial", 0.0, lon1, 0.0, wrap_lon(lon1 + math.copysign(dlon, rng.uniform(-1, 1)))

    # Meridional pairs: same longitude, or opposite longitudes (the path crosses a pole).
    for i in range(70):
        lon1 = random_lon(rng)
        lon2 = lon1 if i % 2 else wrap_lon(lon1 + 180.0)
        yield "meridional", random_lat(rng), lon1, random_lat(rng), lon2

    # Coincident points.
    for i in range(30):
        lat = random_lat(rng) if i < 26 else [0.0, 90.0, -90.0, 45.0][i - 26]
        lon = random_lon(rng)
        yield "coincident", lat, lon, lat, lon


def main():
    rng = random.Random(SEED)
    lines = [
        "# WGS84 geodesics from geographiclib %s (Python), made by scripts/make-geodesic-table.py"
        % geographiclib.__version__,
        "# units: degrees for lat/lon/azimuths (azimuths clockwise from north), metres for distance_m",
        "category,lat1_deg,lon1_deg,lat2_deg,lon2_deg,distance_m,azi1_deg,azi2_deg",
    ]
    for category, lat1, lon1, lat2, lon2 in cases(rng):
        lon1, lon2 = wrap_lon(lon1), wrap_lon(lon2)
        g = WGS84.Inverse(lat1, lon1, lat2, lon2)
        lines.append(",".join([category] + [repr(float(v)) for v in
                     (lat1, lon1, lat2, lon2, g["s12"], g["azi1"], g["azi2"])]))
    text = "\n".join(lines) + "\n"
    if "--stdout" in sys.argv[1:]:
        sys.stdout.write(text)
    else:
        with open(OUTPUT, "w") as f:
            f.write(text)
        print("wrote %s: %d cases, %d bytes" % (OUTPUT, len(lines) - 3, len(text)))


if __name__ == "__main__":
    main()
