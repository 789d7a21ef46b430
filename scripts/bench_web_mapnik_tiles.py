#!/usr/bin/env python3
"""Mapnik rendering XYZ tiles, the peer of `Benchmarks web`'s map-tile figure (run from the layer folder
that scripts/mapnik-peer.sh makes: areas, roads, rails, buildings and places as GeoJSON).

    bench_web_mapnik_tiles.py LIST PROCESSES

LIST holds one z/x/y a line. The style is the one of scripts/mapnik_peer.py (the same layers and order as
our standard map), loaded once per process; PROCESSES worker processes (2 = the two cores) share the list,
each rendering 256x256 tiles (buffer 128 px, so labels near an edge are placed as across it) and encoding
them as PNG (png32). Prints one JSON line: tiles/s over the wall time of the whole list, the median render
and encode milliseconds of one tile, and the mean PNG size. Uses /usr/bin/python3 (Debian's mapnik).
"""
import json
import math
import multiprocessing
import os
import statistics
import sys
import time

import mapnik

HERE = os.path.dirname(os.path.abspath(__file__))


def style():
    # The style string of mapnik_peer.py, taken from its source (everything it defines before it renders).
    source = open(os.path.join(HERE, "mapnik_peer.py")).read()
    start = source.index('MAJOR = ')
    end = source.index('start = time.perf_counter()')
    scope = {}
    exec(source[start:end], scope)
    return scope["style"]


def tile_box(z, x, y):
    n = 2 ** z
    half = 20037508.342789244
    size = 2 * half / n
    west = -half + x * size
    north = half - y * size
    return mapnik.Box2d(west, north - size, west + size, north)


def worker(args):
    paths, xml = args
    m = mapnik.Map(256, 256)
    mapnik.load_map_from_string(m, xml)
    m.buffer_size = 128
    render, encode, sizes = [], [], []
    for path in paths:
        z, x, y = (int(v) for v in path.split("/"))
        m.zoom_to_box(tile_box(z, x, y))
        image = mapnik.Image(256, 256)
        t = time.perf_counter()
        mapnik.render(m, image)
        render.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        data = image.tostring("png32")
        encode.append((time.perf_counter() - t) * 1000)
        sizes.append(len(data))
    return render, encode, sizes


def main():
    paths = [line.strip() for line in open(sys.argv[1]) if line.strip()]
    processes = int(sys.argv[2])
    xml = style()
    # Warm-up in this process (file cache, fonts), not timed.
    worker((paths[:2], xml))
    chunks = [(paths[i::processes], xml) for i in range(processes)]
    with multiprocessing.Pool(processes) as pool:
        # The pool's start-up and style load are outside the timing: each worker loads the style once,
        # as a tile server does at start.
        pool.map(worker, [([], xml)] * processes)
        start = time.perf_counter()
        results = pool.map(worker, chunks)
        elapsed = time.perf_counter() - start
    render = [v for r in results for v in r[0]]
    encode = [v for r in results for v in r[1]]
    sizes = [v for r in results for v in r[2]]
    print(json.dumps({"tiles": len(render), "seconds": elapsed, "tiles_per_second": len(render) / elapsed,
                      "render_median_ms": statistics.median(render), "encode_median_ms": statistics.median(encode),
                      "mean_png_bytes": sum(sizes) / len(sizes), "mapnik": mapnik.mapnik_version()}))


if __name__ == "__main__":
    main()
