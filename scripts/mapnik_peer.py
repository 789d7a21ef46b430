"""Times Mapnik rendering the Helsinki layers (run by scripts/mapnik-peer.sh, from the layer folder).

Same layers and order as the Swift standard map: areas (water, parks, grass), roads with casings by
class, railways and trams, buildings with outlines, street names along lines, place names with halos.
Prints one JSON line: median render and PNG encode times in milliseconds over RUNS runs.
"""
import json
import statistics
import sys
import time

import mapnik

width, height, runs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
west, south, east, north = (float(v) for v in sys.argv[4:8])

MAJOR = "[highway] = 'primary' or [highway] = 'trunk' or [highway] = 'motorway'"
MID = "[highway] = 'secondary' or [highway] = 'tertiary'"
MINOR = "[highway] = 'residential' or [highway] = 'unclassified' or [highway] = 'living_street'"
SERVICE = "[highway] = 'service' or [highway] = 'pedestrian'"
PATH = "[highway] = 'footway' or [highway] = 'cycleway' or [highway] = 'path' or [highway] = 'steps' or [highway] = 'track'"


def line(rule_filter, color, width, cap="round"):
    return (f"<Rule><Filter>{rule_filter}</Filter><LineSymbolizer stroke=\"{color}\" stroke-width=\"{width}\" "
            f"stroke-linecap=\"{cap}\" stroke-linejoin=\"round\"/></Rule>")


style = f"""<Map srs="epsg:3857" background-color="#f5f3ee">
  <Style name="areas">
    <Rule><Filter>[natural] = 'water' or [landuse] = 'basin'</Filter><PolygonSymbolizer fill="#a3cef0"/></Rule>
    <Rule><Filter>[leisure] = 'park' or [leisure] = 'garden' or [landuse] = 'recreation_ground'</Filter><PolygonSymbolizer fill="#c4e4b8"/></Rule>
    <Rule><Filter>[landuse] = 'grass' or [landuse] = 'meadow' or [landuse] = 'village_green' or [natural] = 'grassland'</Filter><PolygonSymbolizer fill="#ceeac2"/></Rule>
    <Rule><Filter>[natural] = 'wood' or [landuse] = 'forest' or [natural] = 'scrub'</Filter><PolygonSymbolizer fill="#badbac"/></Rule>
    <Rule><Filter>[place] = 'square'</Filter><PolygonSymbolizer fill="#ece9ee"/></Rule>
  </Style>
  <Style name="casings">
    {line(MAJOR, "#d6a856", 11)}{line(MID, "#d2bc80", 9)}{line(MINOR, "#d0c9c0", 7.5)}{line(SERVICE, "#d6d0c8", 5)}
  </Style>
  <Style name="roads">
    {line(PATH, "#d6c8ba", 1)}{line(SERVICE, "#ffffff", 3)}{line(MINOR, "#ffffff", 5.5)}{line(MID, "#ffeca6", 7)}{line(MAJOR, "#ffd680", 9)}
  </Style>
  <Style name="rails">
    <Rule><Filter>[railway] = 'tram'</Filter><LineSymbolizer stroke="#80688c" stroke-width="1.1"/></Rule>
    <Rule><ElseFilter/><LineSymbolizer stroke="#969296" stroke-width="2"/></Rule>
  </Style>
  <Style name="buildings"><Rule>
    <PolygonSymbolizer fill="#e0dbd4"/><LineSymbolizer stroke="#c8c1b9" stroke-width="0.6"/>
  </Rule></Style>
  <Style name="street-names"><Rule><Filter>[name] != null and not ({PATH})</Filter>
    <TextSymbolizer face-name="DejaVu Sans Book" size="10.5" fill="#46423e" halo-fill="#ffffff" halo-radius="1.6"
      placement="line" spacing="320" max-char-angle-delta="20">[name]</TextSymbolizer>
  </Rule></Style>
  <Style name="place-names"><Rule><Filter>[name] != null</Filter>
    <TextSymbolizer face-name="DejaVu Sans Book" size="10.5" fill="#784caa" halo-fill="#ffffff" halo-radius="1.6"
      dx="6" horizontal-alignment="right">[name]</TextSymbolizer>
  </Rule></Style>
  <Layer name="areas" srs="epsg:4326"><StyleName>areas</StyleName><Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">areas.geojson</Parameter></Datasource></Layer>
  <Layer name="casings" srs="epsg:4326"><StyleName>casings</StyleName><Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">roads.geojson</Parameter></Datasource></Layer>
  <Layer name="roads" srs="epsg:4326"><StyleName>roads</StyleName><Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">roads.geojson</Parameter></Datasource></Layer>
  <Layer name="rails" srs="epsg:4326"><StyleName>rails</StyleName><Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">rails.geojson</Parameter></Datasource></Layer>
  <Layer name="buildings" srs="epsg:4326"><StyleName>buildings</StyleName><Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">buildings.geojson</Parameter></Datasource></Layer>
  <Layer name="street-names" srs="epsg:4326"><StyleName>street-names</StyleName><Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">roads.geojson</Parameter></Datasource></Layer>
  <Layer name="place-names" srs="epsg:4326"><StyleName>place-names</StyleName><Datasource><Parameter name="type">geojson</Parameter><Parameter name="file">places.geojson</Parameter></Datasource></Layer>
</Map>"""

start = time.perf_counter()
m = mapnik.Map(width, height)
mapnik.load_map_from_string(m, style)
load_ms = (time.perf_counter() - start) * 1000
box = mapnik.Box2d(west, south, east, north)
m.zoom_to_box(mapnik.ProjTransform(mapnik.Projection("epsg:4326"), mapnik.Projection(m.srs)).forward(box))
render, encode = [], []
image = None
for _ in range(runs + 1):
    image = mapnik.Image(width, height)
    t = time.perf_counter()
    mapnik.render(m, image)
    render.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter()
    data = image.tostring("png32")
    encode.append((time.perf_counter() - t) * 1000)
image.save("mapnik.png", "png32")
print(json.dumps({"load_ms": load_ms, "render_median_ms": statistics.median(render[1:]),
                  "encode_median_ms": statistics.median(encode[1:]), "png_bytes": len(data), "runs": runs,
                  "mapnik": mapnik.mapnik_version()}))
