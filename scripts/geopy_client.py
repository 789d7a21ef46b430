#!/usr/bin/env python3
"""Geocodes and reverse-geocodes against BASE with PyPI's geopy Nominatim geocoder, unchanged: only its
domain and scheme point at `lookaround serve`. Refuses any request to another host. Prints one JSON
object: for each query its first answer (address, latitude, longitude, raw) and the reverse answers.

usage: geopy_client.py BASE
"""
import json
import sys
import urllib.parse
import urllib.request

from geopy.geocoders import Nominatim

base = sys.argv[1]
netloc = urllib.parse.urlsplit(base).netloc
original = urllib.request.OpenerDirector.open


def guarded(self, request, *args, **kwargs):
    url = request.full_url if hasattr(request, "full_url") else request
    if urllib.parse.urlsplit(url).netloc != netloc:
        raise RuntimeError(f"refusing a request to {url}")
    return original(self, request, *args, **kwargs)


urllib.request.OpenerDirector.open = guarded
geolocator = Nominatim(user_agent="lookaround-tests", domain=netloc, scheme="http", timeout=20)


def answer(location):
    if location is None:
        return None
    return {"address": location.address, "latitude": location.latitude, "longitude": location.longitude, "raw": location.raw}


out = {"forward": {}, "structured": None, "reverse": {}}
for query in ["Aleksanterinkatu 52, Helsinki", "Senaatintori, Helsinki", "Stockmann", "Alexandersgatan 52", "00100 Helsinki",
              "Qqqxxzz Street 5"]:
    out["forward"][query] = answer(geolocator.geocode(query, addressdetails=True))
out["structured"] = answer(geolocator.geocode({"street": "52 Aleksanterinkatu", "city": "Helsinki"}))
out["all"] = [answer(l) for l in geolocator.geocode("Senaatintori", exactly_one=False, limit=3)]
out["swedish"] = answer(geolocator.geocode("Aleksanterinkatu 52", language="sv"))
for point in ["60.16845, 24.94205", "60.1600, 24.9600"]:
    out["reverse"][point] = answer(geolocator.reverse(point, exactly_one=True))
json.dump(out, sys.stdout, ensure_ascii=False)
