#!/usr/bin/env python3
"""Decodes Mapbox Vector Tiles with PyPI's mapbox-vector-tile, unchanged, and prints them as JSON: for each
file its layers, each with its extent and features (geometry type, coordinates in tile units, y down as
stored, properties).

usage: mvt_decode.py TILE.mvt [TILE.mvt...]
"""
import json
import sys

import mapbox_vector_tile

tiles = {}
for path in sys.argv[1:]:
    with open(path, "rb") as file:
        decoded = mapbox_vector_tile.decode(file.read(), default_options={"y_coord_down": True})
    tiles[path] = {name: {"extent": layer["extent"], "version": layer.get("version"),
                          "features": [{"type": f["geometry"]["type"], "coordinates": f["geometry"]["coordinates"],
                                        "properties": f["properties"]} for f in layer["features"]]}
                   for name, layer in decoded.items()}
print(json.dumps(tiles))
