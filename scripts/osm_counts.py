#!/usr/bin/env python3
"""Counts elements of an OSM file with pyosmium (an independent reader) and prints them as JSON.

Used by MapDataTests to cross-check the counts MapData gets through libreadosm. The definitions match
OSMElementCounts in Sources/MapData/OSMElementCounts.swift and PlaceCategory.classify exactly.

Usage: scripts/osm_counts.py FILE.osm.pbf [--xml-copy OUT.osm]
  --xml-copy OUT.osm  also write the file as OSM XML with pyosmium (to test MapData's XML path on
                      real data); the counts printed are those of FILE.
Exit codes: 0 ok, 2 usage, 3 pyosmium is not installed (pip install osmium), 4 the file cannot be read.
Data: the Helsinki extract is © OpenStreetMap contributors, ODbL.
"""
import json
import sys

try:
    import osmium
    import osmium.version
except ImportError as error:
    print(f"pyosmium is not installed ({error}); install it with: pip install osmium", file=sys.stderr)
    sys.exit(3)

PRIMARY_KEYS = ["amenity", "shop", "tourism", "historic", "leisure", "office", "craft", "healthcare"]
SELECTIVE_KEYS = [
    ("railway", {"station", "halt", "tram_stop", "subway_entrance"}),
    ("highway", {"bus_stop"}),
    ("public_transport", {"station"}),
    ("place", {"square"}),
]
RAILWAY_LINES = {"tram", "rail", "light_rail", "subway"}


def first_value(raw):
    value = raw.split(";", 1)[0].strip(" ")
    return value or None


def is_place(tags):
    """Mirror of PlaceCategory.classify(_:) != nil."""
    for key in PRIMARY_KEYS:
        if key in tags:
            value = first_value(tags[key])
            if value is not None and value != "no":
                return True
    for key, values in SELECTIVE_KEYS:
        if key in tags and first_value(tags[key]) in values:
            return True
    if "building" in tags:
        value = first_value(tags["building"])
        if value is not None and value != "no":
            return True
    return False


def non_no(tags, key):
    return key in tags and tags[key] != "no"


def count(path):
    c = dict.fromkeys([
        "nodes", "ways", "relations", "node_tags", "way_tags", "relation_tags", "way_node_references",
        "relation_members", "building_ways", "building_part_ways", "multipolygon_relations",
        "building_multipolygon_relations", "highway_ways", "railway_ways", "tree_nodes", "named_place_nodes"], 0)
    for obj in osmium.FileProcessor(path):
        tags = {tag.k: tag.v for tag in obj.tags}
        if obj.is_node():
            c["nodes"] += 1
            c["node_tags"] += len(tags)
            if tags.get("natural") == "tree":
                c["tree_nodes"] += 1
            if "name" in tags and is_place(tags):
                c["named_place_nodes"] += 1
        elif obj.is_way():
            c["ways"] += 1
            c["way_tags"] += len(tags)
            c["way_node_references"] += len(obj.nodes)
            c["building_ways"] += non_no(tags, "building")
            c["building_part_ways"] += non_no(tags, "building:part")
            c["highway_ways"] += "highway" in tags
            c["railway_ways"] += tags.get("railway") in RAILWAY_LINES
        elif obj.is_relation():
            c["relations"] += 1
            c["relation_tags"] += len(tags)
            c["relation_members"] += len(obj.members)
            if tags.get("type") == "multipolygon":
                c["multipolygon_relations"] += 1
                c["building_multipolygon_relations"] += non_no(tags, "building")
    return c


def write_xml_copy(path, out):
    with osmium.SimpleWriter(out, overwrite=True) as writer:
        for obj in osmium.FileProcessor(path):
            writer.add(obj)


def main():
    args = sys.argv[1:]
    xml_copy = None
    if len(args) == 3 and args[1] == "--xml-copy":
        xml_copy = args[2]
        args = args[:1]
    if len(args) != 1:
        print("usage: scripts/osm_counts.py FILE.osm.pbf [--xml-copy OUT.osm]", file=sys.stderr)
        sys.exit(2)
    try:
        counts = count(args[0])
        if xml_copy:
            write_xml_copy(args[0], xml_copy)
    except Exception as error:  # osmium raises RuntimeError/OSError for unreadable input
        print(f"{args[0]}: {error}", file=sys.stderr)
        sys.exit(4)
    counts["osmium_version"] = osmium.version.pyosmium_release
    print(json.dumps(counts, sort_keys=True))


if __name__ == "__main__":
    main()
