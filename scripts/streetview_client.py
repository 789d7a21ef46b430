#!/usr/bin/env python3
"""Fetches Street View metadata and an image from BASE with PyPI's google-streetview 1.2.9, unchanged:
its module API takes the two base URLs as arguments (its CLI cannot be pointed elsewhere; see
../shared/notes/service.md). Refuses any request to a host other than BASE's. Prints the metadata as
JSON and writes gsv_0.jpg (and metadata.json) into OUT.

usage: streetview_client.py BASE OUT [location]
"""
import json
import sys

import google_streetview.api

from requests_guard import only_to

base, out = sys.argv[1], sys.argv[2]
location = sys.argv[3] if len(sys.argv) > 3 else "60.1699,24.9523"
only_to(base)
params = [{"size": "640x400", "location": location, "heading": "151.78", "pitch": "-0.76", "key": "test-key"}]
results = google_streetview.api.results(params, site_api=base + "/maps/api/streetview",
                                        site_metadata=base + "/maps/api/streetview/metadata")
results.download_links(out)
print(json.dumps(results.metadata))
