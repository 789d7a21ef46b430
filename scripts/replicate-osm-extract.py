#!/usr/bin/env python3
"""Writes a large OSM extract made of copies of a small one, for measuring how the reader scales.

Usage: replicate-osm-extract.py IN.osm.pbf OUT.osm.pbf COPIES

The copies lie side by side on a grid (each shifted by the input's own extent plus 0.01 degrees), every
id shifted by copy x 10^10 so no two copies share an element, nodes first, then ways, then relations,
each in increasing id order (a sorted extract, as Geofabrik's). Deterministic: the same input and
count give the same bytes. Needs pyosmium (scripts/install-test-tools.sh).
"""
import math
import sys

import osmium

ID_STRIDE = 10_000_000_000


def main():
    source, target, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    nodes, ways, relations = [], [], []

    class Collect(osmium.SimpleHandler):
        def node(self, n):
            nodes.append((n.id, n.location.lat, n.location.lon, dict(n.tags)))

        def way(self, w):
            ways.append((w.id, [r.ref for r in w.nodes], dict(w.tags)))

        def relation(self, r):
            relations.append((r.id, [(m.type, m.ref, m.role) for m in r.members], dict(r.tags)))

    Collect().apply_file(source)
    lats = [n[1] for n in nodes]
    lons = [n[2] for n in nodes]
    step_lat = max(lats) - min(lats) + 0.01
    step_lon = max(lons) - min(lons) + 0.01
    columns = math.ceil(math.sqrt(copies))
    writer = osmium.SimpleWriter(target)
    try:
        for k in range(copies):
            shift = k * ID_STRIDE
            dlat, dlon = (k // columns) * step_lat, (k % columns) * step_lon
            for (i, lat, lon, tags) in nodes:
                writer.add_node(osmium.osm.mutable.Node(id=i + shift, location=(lon + dlon, lat + dlat), tags=tags, version=1))
        for k in range(copies):
            shift = k * ID_STRIDE
            for (i, refs, tags) in ways:
                writer.add_way(osmium.osm.mutable.Way(id=i + shift, nodes=[r + shift for r in refs], tags=tags, version=1))
        for k in range(copies):
            shift = k * ID_STRIDE
            for (i, members, tags) in relations:
                writer.add_relation(osmium.osm.mutable.Relation(
                    id=i + shift, members=[(t, r + shift, role) for (t, r, role) in members], tags=tags, version=1))
    finally:
        writer.close()


if __name__ == "__main__":
    main()
