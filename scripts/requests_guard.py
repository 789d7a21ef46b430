"""For the client scripts that test `lookaround serve` through a PyPI client built on requests
(routingpy_client.py, streetview_client.py, stac_client.py): no request leaves for another host.

Not run on its own: the scripts call `only_to(base)` before they make their client.
"""
import urllib.parse

import requests


def only_to(base):
    """From now on every request requests sends (redirects included) to a host:port other than BASE's
    raises RuntimeError naming its URL. Returns BASE's host:port."""
    netloc = urllib.parse.urlsplit(base).netloc
    original_send = requests.Session.send

    def guarded(self, request, **kwargs):
        if urllib.parse.urlsplit(request.url).netloc != netloc:
            raise RuntimeError(f"refusing a request to {request.url}")
        return original_send(self, request, **kwargs)

    requests.Session.send = guarded
    return netloc
