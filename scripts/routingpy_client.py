#!/usr/bin/env python3
"""Asks BASE for directions with PyPI's routingpy OSRM client, unchanged: only its base_url points at
`lookaround serve`. Refuses any request to another host. Prints one JSON object per profile with the
distance, duration, number of geometry points and the raw first route's step maneuvers.

usage: routingpy_client.py BASE
Exit 3 (with the reason) when routingpy is not installed.
"""
import json
import sys

try:
    import routingpy
    from requests_guard import only_to
except ImportError as error:
    print(f"routingpy_client.py needs PyPI routingpy: {error}", file=sys.stderr)
    sys.exit(3)

base = sys.argv[1]
only_to(base)
client = routingpy.OSRM(base_url=base)
senaatintori, stockmann = [24.9523, 60.1699], [24.9417, 60.1686]
out = {}
for profile in ["driving", "foot", "bike"]:
    direction = client.directions(locations=[senaatintori, stockmann], profile=profile, steps=True, geometries="geojson")
    steps = direction.raw["routes"][0]["legs"][0]["steps"]
    out[profile] = {"distance": direction.distance, "duration": direction.duration, "points": len(direction.geometry),
                    "first": direction.geometry[0], "maneuvers": [step["maneuver"] for step in steps]}
alternatives = client.directions(locations=[senaatintori, stockmann], profile="driving", alternatives=True)
out["alternatives"] = [{"distance": d.distance, "points": len(d.geometry)} for d in alternatives]
print(json.dumps(out))
