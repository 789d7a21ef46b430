#!/usr/bin/env python3
"""Runs PyPI's stac-validator, unchanged, on each URL, offline: a schema config (stac-validator's own
--schema-config option) maps every schema URL to a local copy, the STAC 1.1.0 core and GeoJSON schemas
that PyPI's pystac ships and the extension schemas in Tests/Fixtures/stac-schemas. Prints one JSON
object: for each URL stac-validator's own report (a list with "valid_stac"), and exits 1 when any
document is invalid.

usage: stac_validate.py URL [URL...]   (a URL ending in /collections is validated with --collections,
                                        one ending in /items or holding /search with --item-collection)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema_specifications
import pystac.validation.jsonschemas as bundled

repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fixtures = os.path.join(repository, "Tests", "Fixtures", "stac-schemas")
core = os.path.join(list(bundled.__path__)[0], "stac-spec", "v1.1.0")
geojson = os.path.join(list(bundled.__path__)[0], "geojson")
draft7 = os.path.join(list(jsonschema_specifications.__path__)[0], "schemas", "draft7", "metaschema.json")

stacspec = "https://schemas.stacspec.org"
schemas = {f"{stacspec}/v1.1.0/item-spec/json-schema/{name}": os.path.join(core, name) for name in os.listdir(core)}
schemas[f"{stacspec}/v1.1.0/collection-spec/json-schema/collection.json"] = os.path.join(core, "collection.json")
schemas[f"{stacspec}/v1.1.0/catalog-spec/json-schema/catalog.json"] = os.path.join(core, "catalog.json")
for name in os.listdir(os.path.join(fixtures, "stac-v1.0.0")):
    schemas[f"{stacspec}/v1.0.0/item-spec/json-schema/{name}"] = os.path.join(fixtures, "stac-v1.0.0", name)
for name in ("Feature.json", "Geometry.json"):
    schemas[f"https://geojson.org/schema/{name}"] = os.path.join(geojson, name)
schemas["http://json-schema.org/draft-07/schema"] = draft7
for extension in ("view", "perspective-imagery", "tiled-assets"):
    schemas[f"https://stac-extensions.github.io/{extension}/v1.0.0/schema.json"] = os.path.join(fixtures, f"{extension}-v1.0.0.json")

validator = shutil.which("stac-validator")
if validator is None:
    sys.exit("stac_validate.py: stac-validator is not installed (scripts/install-test-tools.sh installs it)")
reports = {}
failed = False
with tempfile.TemporaryDirectory() as folder:
    config = os.path.join(folder, "schemas.json")
    with open(config, "w") as file:
        json.dump({"schemas": schemas}, file)
    for url in sys.argv[1:]:
        mode = []
        path = url.split("?")[0]
        if path.endswith("/collections"):
            mode = ["--collections"]
        elif path.endswith("/items") or "/search" in path:
            mode = ["--item-collection"]
        run = subprocess.run([validator, "validate", url, "--schema-config", config, *mode],
                             capture_output=True, text=True, timeout=120)
        # stac-validator prints a greeting and a timing around its JSON report.
        text = run.stdout
        starts = [i for i in (text.find("\n["), text.find("\n{")) if i >= 0]
        try:
            report = json.loads(text[min(starts):max(text.rfind("]"), text.rfind("}")) + 1])
        except (ValueError, json.JSONDecodeError):
            report = {"stdout": text[-2000:], "stderr": run.stderr[-2000:]}
        verdicts = []

        def collect(value):
            if isinstance(value, dict):
                if "valid_stac" in value:
                    verdicts.append(value["valid_stac"] is True)
                for member in value.values():
                    collect(member)
            elif isinstance(value, list):
                for member in value:
                    collect(member)

        collect(report)
        # An item collection's report exits 0 even when its items are invalid: every verdict counts.
        valid = run.returncode == 0 and bool(verdicts) and all(verdicts)
        reports[url] = {"exit": run.returncode, "valid": valid, "documents": len(verdicts), "report": report}
        failed = failed or not valid
print(json.dumps(reports, indent=1))
sys.exit(1 if failed else 0)
