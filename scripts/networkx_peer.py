"""What the networkx reference routers (networkx_routes.py, networkx_turn_routes.py) share: their
libraries, and the extract and request their command line names.

Not run on its own: `start(script)` is called by the two scripts.
"""
import json
import sys


def start(script):
    """(networkx, osmium, Geodesic, extract path, request) for `script` run as `script EXTRACT REQUEST.json`;
    exits 3, with the reason, when pyosmium, networkx or geographiclib is missing."""
    try:
        import networkx
        import osmium
        from geographiclib.geodesic import Geodesic
    except ImportError as error:
        print(f"{script} needs PyPI networkx, osmium and geographiclib: {error}", file=sys.stderr)
        sys.exit(3)
    extract, request_path = sys.argv[1], sys.argv[2]
    with open(request_path) as handle:
        request = json.load(handle)
    return networkx, osmium, Geodesic, extract, request
