#!/usr/bin/env python3
"""Shortest walking route lengths over the same OSM ways with networkx, an independent reference for
`lookaround`'s router: reads the .osm.pbf with pyosmium, builds an undirected networkx graph from the
ways and node chains the request names (edge weights: WGS84 geodesic lengths from geographiclib), and
prints one length in metres per node pair (null when no path joins them).

usage: networkx_routes.py EXTRACT.osm.pbf REQUEST.json
REQUEST.json: {"ways": [way ids], "chains": [[node ids]…], "pairs": [[from node, to node]…]}
Exit 3 (with the reason) when pyosmium, networkx or geographiclib is missing.
"""
import json

from networkx_peer import start

networkx, osmium, Geodesic, extract, request = start("networkx_routes.py")
wanted = set(request["ways"])
chains = [list(chain) for chain in request["chains"]]


class Ways(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.coordinates = {}
        self.chains = []

    def node(self, node):
        self.coordinates[node.id] = (node.location.lat, node.location.lon)

    def way(self, way):
        if way.id in wanted:
            self.chains.append([n.ref for n in way.nodes])


ways = Ways()
ways.apply_file(extract)
graph = networkx.Graph()
for chain in ways.chains + chains:
    for a, b in zip(chain, chain[1:]):
        if a == b or a not in ways.coordinates or b not in ways.coordinates:
            continue
        (lat1, lon1), (lat2, lon2) = ways.coordinates[a], ways.coordinates[b]
        length = Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2)["s12"]
        if not graph.has_edge(a, b) or graph[a][b]["weight"] > length:
            graph.add_edge(a, b, weight=length)
lengths = []
for a, b in request["pairs"]:
    try:
        lengths.append(networkx.dijkstra_path_length(graph, a, b, weight="weight"))
    except (networkx.NetworkXNoPath, networkx.NodeNotFound):
        lengths.append(None)
print(json.dumps(lengths))
