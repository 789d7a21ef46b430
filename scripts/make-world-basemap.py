#!/usr/bin/env python3
"""Builds the shipped world basemap (Sources/MapData/Resources/world-basemap.bin) from Natural Earth.

Usage: scripts/make-world-basemap.py [SOURCE_DIR] [OUTPUT] [SAMPLE]
  SOURCE_DIR  holds ne_110m_admin_0_countries.geojson and ne_10m_admin_0_countries.geojson
              (default ../shared/data/natural-earth; public domain, "Made with Natural Earth")
  OUTPUT      default Sources/MapData/Resources/world-basemap.bin
  SAMPLE      default Tests/MapDataTests/Fixtures/natural-earth-sample.json: the source geometry of a
              few countries (SAMPLE_CODES), which the tolerance test compares the output with, so that
              the test runs on a clean clone without the 10 MB source: {source file: {adm0_a3:
              [polygon: [ring: [[lon, lat] in 1e-4 degrees]]]}}, rings open (the closing point left out)

Three zoom bands, each simplified with Douglas–Peucker in Web Mercator degrees (x = longitude,
y = Mercator northing scaled so that 360 spans the world; one pixel at zoom z is 360 / (256 · 2^z)):

  band  zooms   source   tolerance (Mercator degrees)   ≈ pixels at the band's top zoom
  0     0–2.9   1:110 m  0.10                          0.28 at zoom 2
  1     3–5.9   1:10 m   0.02                          0.45 at zoom 5
  2     6 up    1:10 m   0.004                         0.73 at zoom 8

Shared borders are simplified once (the rings are cut into arcs where the set of countries owning an
edge changes, each arc is simplified with its end points fixed, and the rings are rebuilt from the
simplified arcs), so neighbouring countries keep meeting exactly and the border lines (arcs owned by
two countries) lie on both. Rings whose Mercator extent is under twice the tolerance are dropped.
Every vertex written is a vertex of the source, rounded to 1e-4 degrees.

Format (little-endian; varint = unsigned LEB128; zigzag for signed values; coordinates in 1e-4 degrees,
each ring or line delta-coded from its previous point):
  "LKWORLD1"
  varint country count; per country: 6 strings (varint length + UTF-8: adm0_a3, name, name_en, name_sv,
    name_ja, name_zh), zigzag label longitude, zigzag label latitude, varint min_label × 10,
    varint max_label × 10, varint pop_est
  varint band count; per band: varint minimum zoom × 10, varint tolerance × 1e6,
    varint polygon count; per polygon: varint country, varint ring count (outer first);
      per ring: varint point count (closed: last == first), points
    varint border line count; per line: varint point count, points
"""
import json
import math
import os
import sys

QUANTUM = 1e4  # units per degree
BANDS = [  # (minimum zoom, source file, tolerance in Mercator degrees)
    (0.0, "ne_110m_admin_0_countries.geojson", 0.10),
    (3.0, "ne_10m_admin_0_countries.geojson", 0.02),
    (6.0, "ne_10m_admin_0_countries.geojson", 0.004),
]
MAX_LATITUDE = 85.05112878
# Borders, islands, a lake shore, and Fiji across the 180th meridian.
SAMPLE_CODES = ["BEL", "CHE", "EST", "FIN", "FJI", "LUX", "LVA", "NZL"]


def mercator_y(lat_units):
    lat = max(-MAX_LATITUDE, min(MAX_LATITUDE, lat_units / QUANTUM))
    return math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))


def merc(p):
    return (p[0] / QUANTUM, mercator_y(p[1]))


def segment_distance(p, a, b):
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(px - ax, py - ay)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def douglas_peucker(points, tolerance):
    """Indices kept of an open polyline (end points always kept), distances in Mercator degrees."""
    n = len(points)
    if n <= 2:
        return list(range(n))
    m = [merc(p) for p in points]
    keep = [False] * n
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        first, last = stack.pop()
        best, best_index = -1.0, -1
        for i in range(first + 1, last):
            d = segment_distance(m[i], m[first], m[last])
            if d > best:
                best, best_index = d, i
        if best > tolerance:
            keep[best_index] = True
            stack.append((first, best_index))
            stack.append((best_index, last))
    return [i for i in range(n) if keep[i]]


def load(path):
    with open(path, encoding="utf-8") as f:
        features = json.load(f)["features"]
    countries = []
    for feature in features:
        geometry = feature["geometry"]
        polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        rings_of_polygons = []
        for polygon in polygons:
            rings = []
            for ring in polygon:
                q = []
                for lon, lat in ring:
                    p = (round(lon * QUANTUM), round(lat * QUANTUM))
                    if not q or q[-1] != p:
                        q.append(p)
                if len(q) >= 2 and q[0] == q[-1]:
                    q.pop()
                if len(q) >= 3:
                    rings.append(q)  # open: the closing point is implied
            if rings:
                rings_of_polygons.append(rings)
        countries.append((feature["properties"], rings_of_polygons))
    return countries


def simplify_band(countries, tolerance):
    """Returns (polygons, borders): polygons as (country, [closed ring]), borders as open lines."""
    # Edge owners: which countries have each undirected edge.
    owners = {}
    all_rings = []  # (country, polygon index, ring)
    for c, (_, polygons) in enumerate(countries):
        for pi, rings in enumerate(polygons):
            for ring in rings:
                all_rings.append((c, pi, ring))
                n = len(ring)
                for i in range(n):
                    a, b = ring[i], ring[(i + 1) % n]
                    key = (a, b) if a < b else (b, a)
                    owners.setdefault(key, set()).add(c)

    def edge_owners(a, b):
        return frozenset(owners[(a, b) if a < b else (b, a)])

    simplified_arcs = {}  # canonical arc -> simplified points (in canonical direction)
    arc_owner_sets = {}

    def simplified(arc, arc_owners):
        forward = tuple(arc)
        backward = tuple(reversed(arc))
        canonical = min(forward, backward)
        if canonical not in simplified_arcs:
            kept = douglas_peucker(list(canonical), tolerance)
            simplified_arcs[canonical] = [canonical[i] for i in kept]
            arc_owner_sets[canonical] = arc_owners
        result = simplified_arcs[canonical]
        return result if canonical == forward else list(reversed(result))

    rebuilt = {}  # (country, polygon index) -> [rings]
    for c, pi, ring in all_rings:
        n = len(ring)
        sets = [edge_owners(ring[i], ring[(i + 1) % n]) for i in range(n)]  # edge i: ring[i] -> ring[i+1]
        junctions = [i for i in range(n) if sets[i - 1] != sets[i]]
        if not junctions:
            # One closed arc: rotate to its smallest vertex (so both owners cut it alike), split at the
            # farthest vertex, simplify the two halves.
            start = min(range(n), key=lambda i: ring[i])
            rotated = ring[start:] + ring[:start]
            # A shared closed ring may run the other way round in its other owner: canonical direction.
            forward = rotated + [rotated[0]]
            backward = [rotated[0]] + list(reversed(rotated[1:])) + [rotated[0]]
            canonical = min(forward, backward)
            m0 = merc(canonical[0])
            far = max(range(1, n), key=lambda i: math.hypot(merc(canonical[i])[0] - m0[0], merc(canonical[i])[1] - m0[1]))
            first = simplified(canonical[:far + 1], sets[0])
            second = simplified(canonical[far:], sets[0])
            points = first + second[1:]
            if len(points) < 4:
                # Both halves were straight within the tolerance: keep the vertex farthest from the
                # chord too, so that the ring stays a polygon (it is at least twice the tolerance wide).
                a, b = merc(canonical[0]), merc(canonical[far])
                extra = max((i for i in range(1, n) if i != far),
                            key=lambda i: segment_distance(merc(canonical[i]), a, b))
                points = [canonical[i] for i in sorted({0, far, extra})] + [canonical[0]]
            if canonical != forward:
                points = list(reversed(points))
        else:
            points = []
            for k, j in enumerate(junctions):
                end = junctions[(k + 1) % len(junctions)]
                arc = ring[j:end + 1] if end > j else ring[j:] + ring[:end + 1]
                piece = simplified(arc, sets[j])
                points += piece if not points else piece[1:]
        if points[0] != points[-1]:
            points.append(points[0])
        xs = [merc(p)[0] for p in ring]
        ys = [merc(p)[1] for p in ring]
        if max(max(xs) - min(xs), max(ys) - min(ys)) < 2 * tolerance or len(points) < 4:
            continue
        rebuilt.setdefault((c, pi), []).append((ring is countries[c][1][pi][0], points))

    polygons = []
    for (c, pi), rings in sorted(rebuilt.items()):
        outer = [r for is_outer, r in rings if is_outer]
        if not outer:
            continue  # the outer ring was dropped: its holes go with it
        polygons.append((c, outer + [r for is_outer, r in rings if not is_outer]))
    borders = [points for arc, points in simplified_arcs.items() if len(arc_owner_sets[arc]) >= 2]
    borders.sort()
    return polygons, borders


class Writer:
    def __init__(self):
        self.out = bytearray(b"LKWORLD1")

    def varint(self, value):
        assert value >= 0
        while True:
            byte = value & 0x7F
            value >>= 7
            if value:
                self.out.append(byte | 0x80)
            else:
                self.out.append(byte)
                return

    def zigzag(self, value):
        self.varint((value << 1) if value >= 0 else ((-value << 1) - 1))

    def string(self, text):
        data = (text or "").encode("utf-8")
        self.varint(len(data))
        self.out += data

    def points(self, points):
        self.varint(len(points))
        px, py = 0, 0
        for x, y in points:
            self.zigzag(x - px)
            self.zigzag(y - py)
            px, py = x, y


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/natural-earth"
    output = sys.argv[2] if len(sys.argv) > 2 else "Sources/MapData/Resources/world-basemap.bin"
    sample_path = sys.argv[3] if len(sys.argv) > 3 else "Tests/MapDataTests/Fixtures/natural-earth-sample.json"
    sources = {name: load(os.path.join(source, name)) for name in sorted({b[1] for b in BANDS})}
    # The country table comes from the 1:10 m file (it has label points); 1:110 m countries are matched
    # by adm0_a3.
    table = list(sources["ne_10m_admin_0_countries.geojson"])
    index = {props["adm0_a3"]: i for i, (props, _) in enumerate(table)}
    for props, polygons in sources["ne_110m_admin_0_countries.geojson"]:
        if props["adm0_a3"] not in index and polygons:
            # Only in the 1:110 m edition (e.g. Northern Cyprus): label at the largest ring's mean vertex.
            ring = max((p[0] for p in polygons), key=len)
            props = dict(props, label_x=sum(x for x, _ in ring) / len(ring) / QUANTUM,
                         label_y=sum(y for _, y in ring) / len(ring) / QUANTUM)
            index[props["adm0_a3"]] = len(table)
            table.append((props, polygons))
    writer = Writer()
    writer.varint(len(table))
    for props, _ in table:
        for key in ("adm0_a3", "name", "name_en", "name_sv", "name_ja", "name_zh"):
            writer.string(props.get(key))
        writer.zigzag(round(props.get("label_x", 0) * QUANTUM))
        writer.zigzag(round(props.get("label_y", 0) * QUANTUM))
        writer.varint(round((props.get("min_label") or 0) * 10))
        writer.varint(round((props.get("max_label") or 0) * 10))
        writer.varint(max(0, int(props.get("pop_est") or 0)))
    writer.varint(len(BANDS))
    for minimum_zoom, name, tolerance in BANDS:
        countries = sources[name]
        polygons, borders = simplify_band(countries, tolerance)
        writer.varint(round(minimum_zoom * 10))
        writer.varint(round(tolerance * 1e6))
        writer.varint(len(polygons))
        vertices = 0
        for c, rings in polygons:
            code = countries[c][0]["adm0_a3"]
            if code not in index:
                raise SystemExit(f"{name}: {code} is not in the 1:10 m country table")
            writer.varint(index[code])
            writer.varint(len(rings))
            for ring in rings:
                writer.points(ring)
                vertices += len(ring)
        writer.varint(len(borders))
        for line in borders:
            writer.points(line)
            vertices += len(line)
        print(f"band {minimum_zoom:g}+ ({name}, tolerance {tolerance:g}): {len(polygons)} polygons, "
              f"{len(borders)} border lines, {vertices} vertices", file=sys.stderr)
    os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
    with open(output, "wb") as f:
        f.write(writer.out)
    print(f"wrote {output}: {len(writer.out)} bytes", file=sys.stderr)
    sample = {}
    for name in sorted({b[1] for b in BANDS}):
        sample[name] = {props["adm0_a3"]: [[[list(p) for p in ring] for ring in polygon] for polygon in polygons]
                        for props, polygons in sources[name] if props["adm0_a3"] in SAMPLE_CODES}
    with open(sample_path, "w", encoding="utf-8") as f:
        json.dump(sample, f, separators=(",", ":"))
    print(f"wrote {sample_path}: {os.path.getsize(sample_path)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
