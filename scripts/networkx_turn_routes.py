#!/usr/bin/env python3
"""Fastest driving or cycling times over an OSM extract with networkx, written from the rules alone, as an
independent reference for `lookaround`'s router (RoutingTests.NetworkxTurnRoutesTests).

It shares no code or data structure with the Swift router: it reads the extract with pyosmium, and
searches (networkx Dijkstra) over *directed OSM segments* (one state per way segment and direction, not the
router's junction-to-junction edges), with the rules of RoutingProfile and RoutingGraph+Restrictions as
documented:

- access per mode by the hierarchy access → vehicle → bicycle / motor_vehicle → motorcar, class defaults;
  one-way streets (oneway, -1, reversible, implied by roundabouts and motorways; for bicycles
  oneway:bicycle and contraflow cycleways); speeds (maxspeed × 0.8, class defaults; bicycles 15 km/h);
- turn restrictions as OSRM and GraphHopper read them: each mode's most specific restriction key, except=*,
  from/to ways that must end at the via node, several from only on no_entry and several to only on
  no_exit, via ways through copies of their segments that remember the way in;
- U-turns only where no other turn is allowed (dead ends, or every onward turn forbidden).

usage: networkx_turn_routes.py EXTRACT.osm[.pbf] REQUEST.json
REQUEST.json: {"mode": "driving"|"cycling", "pairs": [[way, node_a, node_b, t, way, node_a, node_b, t], …]}
  each end a point a fraction t of the way from node_a to node_b, consecutive nodes of the way.
Prints {"seconds": [… or null], "restrictions": n, "unresolved": n}.
Exit 3 (with the reason) when pyosmium, networkx or geographiclib is missing.
"""
import json

from networkx_peer import start

networkx, osmium, Geodesic, extract, request = start("networkx_turn_routes.py")
MODE = request["mode"]
assert MODE in ("driving", "cycling"), "driving or cycling"

# MARK: Access, directions and speed (RoutingProfile's rules)

OPEN = {"yes", "designated", "permissive", "official", "destination", "delivery", "customers", "permit"}
CLOSED = {"no", "private", "agricultural", "forestry", "use_sidepath", "emergency", "psv", "bus", "discouraged"}
DEFAULT = {
    "walking": {"trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street", "service",
                "pedestrian", "footway", "path", "trail", "steps", "track", "corridor", "platform", "crossing", "elevator", "road",
                "bridleway"},
    "cycling": {"trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street", "service", "cycleway",
                "path", "trail", "track", "road"},
    "driving": {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street", "service",
                "road"},
}
KEYS = {"walking": ["access", "foot"], "cycling": ["access", "vehicle", "bicycle"],
        "driving": ["access", "vehicle", "motor_vehicle", "motorcar"]}
DRIVING_KMH = {"motorway": 110, "trunk": 80, "primary": 50, "secondary": 50, "tertiary": 40, "unclassified": 30,
               "residential": 30, "living_street": 10, "service": 15, "pedestrian": 8}


def main_class(highway):
    return highway[:-5] if highway.endswith("_link") else highway


def allows(tags, mode):
    highway = tags.get("highway")
    if highway is None or (tags.get("area") == "yes" and mode != "walking"):
        return False
    if highway in ("construction", "proposed", "razed", "abandoned", "disused"):
        return False
    allowed = main_class(highway) in DEFAULT[mode]
    for key in KEYS[mode]:
        value = tags.get(key)
        if value is None:
            continue
        first = value.split(";")[0]
        if first in OPEN:
            allowed = True
        elif first in CLOSED or (first == "dismount" and mode == "cycling"):
            allowed = False
    if mode == "cycling" and main_class(highway) == "steps":
        return False
    # Service and road tunnels are no place to walk unless tagged so.
    if mode == "walking" and tags.get("tunnel", "no") != "no" and main_class(highway) in DEFAULT["driving"] \
            and "foot" not in tags and "sidewalk" not in tags:
        return False
    return allowed


def contraflow(tags):
    for key in ("cycleway", "cycleway:both", "cycleway:left", "cycleway:right"):
        if tags.get(key, "").startswith("opposite") or tags.get(key + ":oneway") in ("no", "-1"):
            return True
    return False


def directions(tags, mode):
    if not allows(tags, mode):
        return (False, False)
    oneway = tags.get("oneway")
    if mode == "cycling":
        if "oneway:bicycle" in tags:
            oneway = tags["oneway:bicycle"]
        elif contraflow(tags):
            oneway = "no"
    highway = main_class(tags.get("highway", ""))
    if oneway in ("yes", "true", "1"):
        return (True, False)
    if oneway in ("-1", "reverse"):
        return (False, True)
    if oneway in ("no", "false", "0"):
        return (True, True)
    if oneway in ("reversible", "alternating"):
        return (False, False)
    if highway == "motorway" or tags.get("junction") in ("roundabout", "circular"):
        return (True, False)
    return (True, True)


def maxspeed(value):
    text = value.strip().lower()
    try:
        number = float(text)
        return number if number > 0 else None
    except ValueError:
        pass
    if text.endswith("mph"):
        try:
            number = float(text[:-3].strip())
            return number * 1.609344 if number > 0 else None
        except ValueError:
            return None
    if text == "walk":
        return 7
    if text.endswith(":urban"):
        return 50
    if text.endswith(":rural"):
        return 80 if text.startswith("fi") else 100
    if text.endswith(":living_street"):
        return 10
    if "zone" in text:
        digits = "".join(ch for ch in text[text.index("zone") + 4:] if ch.isdigit())
        if digits and float(digits) > 0:
            return float(digits)
    return None


def speed(tags, mode):
    """metres per second"""
    if mode == "cycling":
        return 15 / 3.6
    posted = maxspeed(tags["maxspeed"]) if "maxspeed" in tags else None
    if posted is None:
        posted = DRIVING_KMH.get(main_class(tags.get("highway", "")), 20) / 0.8
    return max(posted * 0.8, 5) / 3.6


# MARK: Reading

class Reader(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.coordinates, self.ways, self.relations = {}, {}, []

    def node(self, node):
        self.coordinates[node.id] = (node.location.lat, node.location.lon)

    def way(self, way):
        if "highway" in way.tags:
            self.ways[way.id] = ([n.ref for n in way.nodes], dict(way.tags))

    def relation(self, relation):
        if relation.tags.get("type") == "restriction":
            self.relations.append((relation.id, dict(relation.tags), [(m.type, m.ref, m.role) for m in relation.members]))


reader = Reader()
reader.apply_file(extract)

# Every highway way; nodes outside the extract dropped (its edge), repeated nodes merged.
ways = {}
for wid, (nodes, tags) in reader.ways.items():
    kept = [n for n in nodes if n in reader.coordinates]
    kept = [n for k, n in enumerate(kept) if k == 0 or kept[k - 1] != n]
    if len(kept) >= 2:
        ways[wid] = (kept, tags)

length_cache = {}


def length(a, b):
    key = (a, b) if a < b else (b, a)
    if key not in length_cache:
        (lat1, lon1), (lat2, lon2) = reader.coordinates[a], reader.coordinates[b]
        length_cache[key] = Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2)["s12"]
    return length_cache[key]


# Directed segments (way, index, +1 along the way / -1 against): tail node, head node, seconds.
segments = {}
leaving = {}   # node → directed segments starting there
for wid, (nodes, tags) in ways.items():
    forward, backward = directions(tags, MODE)
    v = speed(tags, MODE)
    for i in range(len(nodes) - 1):
        a, b = nodes[i], nodes[i + 1]
        seconds = length(a, b) / v
        for direction, ok, tail, head in ((1, forward, a, b), (-1, backward, b, a)):
            segments[(wid, i, direction)] = (tail, head, seconds, ok)
            leaving.setdefault(tail, []).append((wid, i, direction))

# MARK: Restrictions (each mode's most specific key, except=*, GraphHopper's member checks)

KNOWN = {"no_left_turn", "no_right_turn", "no_straight_on", "no_u_turn", "no_entry", "no_exit",
         "only_left_turn", "only_right_turn", "only_straight_on", "only_u_turn"}
PRECEDENCE = {"cycling": ["restriction:bicycle", "restriction:vehicle", "restriction"],
              "driving": ["restriction:motorcar", "restriction:motor_vehicle", "restriction:vehicle", "restriction"]}
FREED = {"cycling": {"bicycle"}, "driving": {"motorcar", "motor_vehicle"}}


def usable(wid):
    """Whether the router keeps the way: some mode may use it."""
    return wid in ways and any(allows(ways[wid][1], m) for m in ("walking", "cycling", "driving"))


def touching(wid, node, arriving):
    """The directed segments of way `wid` that end at `node` (arriving) or start there."""
    nodes = ways[wid][0]
    found = []
    for i in range(len(nodes) - 1):
        if nodes[i + 1] == node:
            found.append((wid, i, 1) if arriving else (wid, i, -1))
        if nodes[i] == node:
            found.append((wid, i, -1) if arriving else (wid, i, 1))
    return found


banned = set()          # (from segment, to segment) at their shared node
only = {}               # from segment → set of allowed to segments
chains = []             # (from segment, [via segments…], to segment, "no"/"only")
resolved = unresolved = 0
for rid, tags, members in reader.relations:
    values = {k: v.strip() for k, v in tags.items()
              if (k == "restriction" or (k.startswith("restriction:") and not k.endswith("conditional"))) and v.strip() in KNOWN}
    if not values:
        unresolved += 1
        continue
    froms = [ref for t, ref, role in members if role == "from" and t == "w"]
    tos = [ref for t, ref, role in members if role == "to" and t == "w"]
    via_nodes = [ref for t, ref, role in members if role == "via" and t == "n"]
    via_ways = [ref for t, ref, role in members if role == "via" and t == "w"]
    bad_members = any(role in ("from", "to") and t != "w" for t, ref, role in members) or \
        any(role == "via" and t not in ("n", "w") for t, ref, role in members)
    kinds = set(values.values())
    if bad_members or not froms or not tos or (len(froms) > 1 and len(tos) > 1) \
            or (len(froms) > 1 and "no_entry" not in kinds) or (len(tos) > 1 and "no_exit" not in kinds) \
            or not ((len(via_nodes) == 1 and not via_ways) or (not via_nodes and via_ways)):
        unresolved += 1
        continue
    value = next((values[k] for k in PRECEDENCE[MODE] if k in values), None)
    if value is not None and set(e.strip() for e in tags.get("except", "").split(";")) & FREED[MODE]:
        value = None
    # Resolution needs every member way in the graph (kept for some mode), whichever mode binds.
    binds_any = any(next((values[k] for k in PRECEDENCE[m] if k in values), None) is not None
                    and not (set(e.strip() for e in tags.get("except", "").split(";")) & FREED[m]) for m in ("cycling", "driving")) \
        or "restriction:foot" in values
    if not binds_any:
        continue
    if any(not usable(w) for w in froms + tos + via_ways):
        unresolved += 1
        continue
    kind = None if value is None else ("only" if value.startswith("only_") else "no")
    if via_nodes:
        node = via_nodes[0]
        from_segments = [touching(w, node, True) for w in froms]
        to_segments = [touching(w, node, False) for w in tos]
        if any(len(s) != 1 for s in from_segments + to_segments):
            unresolved += 1
            continue
        resolved += 1
        if kind is None:
            continue
        for (f,) in from_segments:
            for (t,) in to_segments:
                if kind == "no":
                    banned.add((f, t))
                else:
                    only.setdefault(f, set()).add(t)
    else:
        # The via ways' segments, each travelled once, joining one from segment to one to segment.
        via_segments = [(w, i) for w in via_ways for i in range(len(ways[w][0]) - 1)]
        solutions = []

        def explore(node, used, path):
            if len(solutions) > 1:
                return
            if len(used) == len(via_segments):
                for w in tos:
                    for seg in touching(w, node, False):
                        if (seg[0], seg[1]) not in via_segments:
                            solutions.append(path + [seg])
                return
            for k, (w, i) in enumerate(via_segments):
                if k in used:
                    continue
                a, b = ways[w][0][i], ways[w][0][i + 1]
                for direction, tail, head in ((1, a, b), (-1, b, a)):
                    if tail == node:
                        explore(head, used | {k}, path + [(w, i, direction)])

        # GraphHopper's rule: the via chain starts where a from way's segment ends (any of its segments); one chain
        # for each pair of from and to way.
        found, ambiguous = [], False
        for w in froms:
            for to_way in tos:
                solutions.clear()
                to_ways = tos
                tos = [to_way]
                for i in range(len(ways[w][0]) - 1):
                    if (w, i) in via_segments:
                        continue
                    for direction in (1, -1):
                        explore(segments[(w, i, direction)][1], frozenset(), [(w, i, direction)])
                tos = to_ways
                if len(solutions) != 1:
                    ambiguous = True
                else:
                    found.append(solutions[0])
        if ambiguous:
            unresolved += 1
            continue
        resolved += 1
        if kind is not None:
            for chain in found:
                chains.append((chain[0], chain[1:-1], chain[-1], kind))

# Via-way chains as states that remember the way in: ("chain", from segment, index of via segment) for shared prefixes.
prefix_states = {}      # (previous state, next segment) → state
terminal_rules = {}     # state → list of (to segment, kind)
for first, vias, to, kind in chains:
    state = first
    for k, seg in enumerate(vias):
        key = (state, seg)
        if key not in prefix_states:
            prefix_states[key] = ("copy", seg, len(prefix_states))
        state = prefix_states[key]
    terminal_rules.setdefault(state, []).append((to, kind))


def base(state):
    return state[1] if state[0] == "copy" else state


def turn_ok(state, nxt):
    seg = base(state)
    if (seg, nxt) in banned:
        return False
    if seg in only and nxt not in only[seg]:
        return False
    rules = terminal_rules.get(state, [])
    if any(kind == "no" and to == nxt for to, kind in rules):
        return False
    allowed_only = [to for to, kind in rules if kind == "only"]
    if allowed_only and nxt not in allowed_only:
        return False
    return True


def successors(state):
    seg = base(state)
    head = segments[seg][1]
    back = (seg[0], seg[1], -seg[2])
    onward = [n for n in leaving.get(head, []) if n != back and segments[n][3] and turn_ok(state, n)]
    result = list(onward)
    if not onward and segments[back][3] and turn_ok(state, back):
        result.append(back)
    return [prefix_states.get((state, n), n) for n in result]


# The graph of states reachable from the request's ends (built lazily by a BFS from every source).
graph = networkx.DiGraph()
seen = set()


def grow(start_states):
    frontier = [s for s in start_states if s not in seen]
    seen.update(frontier)
    while frontier:
        state = frontier.pop()
        for nxt in successors(state):
            graph.add_edge(state, nxt, weight=segments[base(nxt)][2])
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)


def segment_index(way, a, b):
    nodes = ways[way][0]
    for i in range(len(nodes) - 1):
        if nodes[i] == a and nodes[i + 1] == b:
            return i, 1
        if nodes[i] == b and nodes[i + 1] == a:
            return i, -1
    raise KeyError((way, a, b))


answers = []
for number, pair in enumerate(request["pairs"]):
    w1, a1, b1, t1, w2, a2, b2, t2 = pair
    i1, d1 = segment_index(w1, a1, b1)
    i2, d2 = segment_index(w2, a2, b2)
    # Fractions along the segment's way order.
    s1 = t1 if d1 == 1 else 1 - t1
    s2 = t2 if d2 == 1 else 1 - t2
    best = None
    source = ("source", number)
    graph.add_node(source)
    starts = []
    for direction, share in ((1, 1 - s1), (-1, s1)):
        seg = (w1, i1, direction)
        if not segments[seg][3]:
            continue
        if (w2, i2) == (w1, i1):
            ahead = (s2 - s1) if direction == 1 else (s1 - s2)
            if ahead >= 0:
                best = ahead * segments[seg][2] if best is None else min(best, ahead * segments[seg][2])
        # The start: part of the segment travelled, then the turns at its head as from the segment itself.
        start = ("start", number, direction)
        graph.add_edge(source, start, weight=share * segments[seg][2])
        for nxt in successors(seg):
            graph.add_edge(start, nxt, weight=segments[base(nxt)][2])
            starts.append(nxt)
    grow(starts)
    lengths = networkx.single_source_dijkstra_path_length(graph, source, weight="weight")
    # The target: its segment entered from its tail, less the part beyond the point.
    for direction in (1, -1):
        seg = (w2, i2, direction)
        part = s2 if direction == 1 else 1 - s2
        for state, cost in lengths.items():
            if isinstance(state, tuple) and state and state[0] in ("source", "start"):
                continue
            if base(state) != seg:
                continue
            total = cost - (1 - part) * segments[seg][2]
            best = total if best is None else min(best, total)
    for node in [source, ("start", number, 1), ("start", number, -1)]:
        if graph.has_node(node):
            graph.remove_node(node)
    answers.append(best)
print(json.dumps({"seconds": answers, "restrictions": resolved, "unresolved": unresolved}))
