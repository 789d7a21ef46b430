#!/usr/bin/env python3
"""Generate Tests/SimulatorTests/Fixtures/solar-table.csv, the solar position reference table.

Ground truth for the Swift `SolarPosition` tests, computed with PyPI's `pysolar` (an implementation of
NREL's Solar Position Algorithm, Reda & Andreas 2004). Test data only, never a runtime dependency.

Deterministic: a fixed case list, so running it again rewrites the same bytes (given the same pysolar
version, written into the header comment).

    pip install pysolar && python3 scripts/make-solar-table.py

Columns: utc (ISO 8601), latitude_deg, longitude_deg, elevation_deg (geometric, topocentric, without
refraction: pressure 0), azimuth_deg (clockwise from true north, [0, 360)).
"""

import datetime
import sys

import pysolar
from pysolar import solar

PLACES = [
    ("helsinki", 60.1699, 24.9523),
    ("equator", 0.0, 0.0),
    ("sydney", -33.8688, 151.2093),
    ("reykjavik", 64.1466, -21.9426),
    ("new_york", 40.7128, -74.0060),
    ("tromso", 69.6492, 18.9553),
    ("quito", -0.1807, -78.4678),
    ("date_line", 10.0, 179.9),
]
TIMES = [
    datetime.datetime(2026, 6, 15, 9, 0, tzinfo=datetime.timezone.utc),
    datetime.datetime(2026, 12, 21, 10, 30, tzinfo=datetime.timezone.utc),
    datetime.datetime(2026, 3, 20, 15, 0, tzinfo=datetime.timezone.utc),
    datetime.datetime(2026, 9, 23, 5, 45, tzinfo=datetime.timezone.utc),
    datetime.datetime(2024, 2, 29, 21, 10, tzinfo=datetime.timezone.utc),
    datetime.datetime(2030, 7, 1, 0, 0, tzinfo=datetime.timezone.utc),
]


def main():
    out = sys.stdout if "--stdout" in sys.argv else open("Tests/SimulatorTests/Fixtures/solar-table.csv", "w")
    from importlib.metadata import version as package_version
    version = package_version("pysolar")
    out.write(f"# solar positions from pysolar {version} (NREL SPA); scripts/make-solar-table.py\n")
    out.write("utc,place,latitude_deg,longitude_deg,elevation_deg,azimuth_deg\n")
    for when in TIMES:
        for name, lat, lon in PLACES:
            elevation = solar.get_altitude(lat, lon, when, elevation=0, pressure=0)
            azimuth = solar.get_azimuth(lat, lon, when) % 360.0
            out.write(f"{when.strftime('%Y-%m-%dT%H:%M:%SZ')},{name},{lat!r},{lon!r},{elevation:.6f},{azimuth:.6f}\n")


if __name__ == "__main__":
    main()
