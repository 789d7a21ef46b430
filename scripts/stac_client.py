#!/usr/bin/env python3
"""Reads `lookaround serve`'s STAC API at BASE (http://HOST:PORT/api) with PyPI's pystac-client,
unchanged, and works out what each answer should be from the catalog file itself (Python's sqlite3, not
our code). Refuses any request to another host. Prints one JSON object:

  conformance   the item-search, collections and features classes pystac-client checks, true/false
  collections   the collections pystac-client listed (paged) and the sequences in the catalog
  search_get, search_post
                a bbox + datetime search with a small limit, so it takes several pages: the item ids
                found, the pages walked, and the ids the catalog holds inside the box and the time
  intersects    the same box as a GeoJSON polygon (POST): ids found and the catalog's ids inside
  place         a `place_position` search (Panoramax's): ids found with their distance to the place,
                and the catalog's panoramas within the distance (haversine)
  item          one item read through its collection: its properties, assets and link relations

usage: stac_client.py BASE CATALOG.sqlite
"""
import json
import math
import sqlite3
import sys
from datetime import datetime, timezone

from pystac_client import Client, ItemSearch
from pystac_client.stac_api_io import StacApiIO

from requests_guard import only_to

base, catalog_path = sys.argv[1], sys.argv[2]
only_to(base)
database = sqlite3.connect(f"file:{catalog_path}?mode=ro", uri=True)
rows = database.execute(
    "SELECT p.id, p.latitude, p.longitude, p.capture_time, s.name FROM panoramas p JOIN sequences s ON s.id = p.sequence"
).fetchall()
sequences = sorted(name for (name,) in database.execute("SELECT name FROM sequences"))
answers = {}

client = Client.open(base)
answers["conformance"] = {name: client.conforms_to(name) for name in ("ITEM_SEARCH", "COLLECTIONS", "FEATURES")}
listed = [collection.id for collection in client.get_collections()]
answers["collections"] = {"listed": listed, "catalog": sequences}

# The box: the middle half of the catalog's extent; the time: from the earliest capture to the median one.
south, north = min(r[1] for r in rows), max(r[1] for r in rows)
west, east = min(r[2] for r in rows), max(r[2] for r in rows)
box = [west + (east - west) / 4, south + (north - south) / 4, east - (east - west) / 4, north - (north - south) / 4]
times = sorted(r[3] for r in rows)
start, end = datetime.fromtimestamp(times[0], timezone.utc), datetime.fromtimestamp(times[len(times) // 2], timezone.utc)
expected = sorted(r[0] for r in rows
                  if box[1] <= r[1] <= box[3] and box[0] <= r[2] <= box[2] and times[0] <= r[3] <= times[len(times) // 2])
for method in ("GET", "POST"):
    search = client.search(method=method, bbox=box, datetime=[start, end], limit=7)
    pages, found = 0, []
    for page in search.pages():
        pages += 1
        found += [item.id for item in page.items]
    answers[f"search_{method.lower()}"] = {"found": found, "pages": pages, "expected": expected, "matched": search.matched()}

# The same box as a GeoJSON polygon (`intersects`), over all times.
polygon = {"type": "Polygon", "coordinates": [[[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]], [box[0], box[1]]]]}
search = client.search(intersects=polygon, limit=50)
answers["intersects"] = {"found": [item.id for item in search.items()],
                         "expected": sorted(r[0] for r in rows if box[1] <= r[1] <= box[3] and box[0] <= r[2] <= box[2])}


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


# The place: 6 m north of the catalog's middle panorama; pictures 0-40 m from it.
middle = sorted(rows, key=lambda r: r[0])[len(rows) // 2]
place = (middle[2], middle[1] + 6 / 111_195)
io = StacApiIO(parameters={"place_position": f"{place[0]},{place[1]}", "place_distance": "0-40", "place_fov_tolerance": "60"})
search = ItemSearch(f"{base}/search", method="GET", stac_io=io, limit=100)
found = [(item.id, haversine(place[1], place[0], item.geometry["coordinates"][1], item.geometry["coordinates"][0]))
         for item in search.items()]
answers["place"] = {"position": place, "found": found,
                    "catalog": sorted((r[0], haversine(place[1], place[0], r[1], r[2])) for r in rows
                                      if haversine(place[1], place[0], r[1], r[2]) <= 40)}

collection = client.get_collection(sequences[0])
first = next(collection.get_items())
item = collection.get_item(first.id)
answers["item"] = {"id": item.id, "collection": item.collection_id, "properties": item.properties,
                   "assets": {key: asset.href for key, asset in item.assets.items()},
                   "links": sorted({link.rel for link in item.links}), "extensions": item.stac_extensions}
print(json.dumps(answers, indent=1, default=str))
