#!/usr/bin/env python3
"""Writes the small damaged and metadata test files for Tests/ImagingTests (deterministic).

Usage: python3 scripts/make-imaging-fixtures.py   (needs cjpeg and exiftool; stdlib only otherwise)
Every file is < 20 KB. The expected error for each is in Tests/ImagingTests/CorruptCorpusTests.swift.
"""
import os, random, struct, subprocess, tempfile, zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "ImagingTests", "Fixtures")
CORRUPT = os.path.join(ROOT, "corrupt")
META = os.path.join(ROOT, "metadata")
rng = random.Random(20261129)


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
    assert len(data) < 20_000, name


def chunk(kind, data, crc=None):
    c = zlib.crc32(kind + data) & 0xFFFFFFFF if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", c)


SIG = b"\x89PNG\r\n\x1a\n"


def png(width, height, rows=None, ihdr=None, idat=None):
    ihdr = ihdr or struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    if idat is None:
        raw = b"".join(b"\x00" + bytes((x * 7 + y * 3 + c) & 255 for x in range(width) for c in range(3))
                       for y in range(height)) if rows is None else rows
        idat = zlib.compress(raw, 9)
    return SIG + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def jpeg(width, height, noise=0, quality=75):
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            n = rng.randint(-noise, noise) if noise else 0
            pixels += bytes(max(0, min(255, v + n)) for v in ((x * 255) // max(1, width - 1),
                                                             (y * 255) // max(1, height - 1), 128))
    with tempfile.TemporaryDirectory() as d:
        ppm = os.path.join(d, "in.ppm")
        with open(ppm, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (width, height) + bytes(pixels))
        return subprocess.run(["cjpeg", "-quality", str(quality), ppm], check=True, capture_output=True).stdout


def segments(data):
    """(marker, start, end) of each segment before SOS, and the SOS offset."""
    i, out = 2, []
    while True:
        marker = data[i + 1]
        if marker == 0xDA:
            return out, i
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        out.append((marker, i, i + 2 + length))
        i += 2 + length


def insert_after_soi(data, *segs):
    return data[:2] + b"".join(segs) + data[2:]


def app1(payload):
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


# ---- shared valid files ----------------------------------------------------------------------
valid_png = png(16, 16)
valid_jpeg = jpeg(16, 16)
noisy_jpeg = jpeg(64, 64, noise=40, quality=90)
write(CORRUPT, "valid-16x16.png", valid_png)
write(CORRUPT, "valid-16x16.jpg", valid_jpeg)

# ---- generic ---------------------------------------------------------------------------------
write(CORRUPT, "zero-bytes.bin", b"")
write(CORRUPT, "random-bytes.bin", bytes(rng.randrange(256) for _ in range(512)))
write(CORRUPT, "text.txt", b"This is a text file, not an image.\n")
write(CORRUPT, "tiny.gif", b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
      b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

# ---- PNG -------------------------------------------------------------------------------------
write(CORRUPT, "png-signature-only.png", SIG)
write(CORRUPT, "png-truncated-ihdr.png", valid_png[:8 + 8 + 6])
ihdr = struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0)
write(CORRUPT, "png-bad-ihdr-crc.png", SIG + chunk(b"IHDR", ihdr, crc=0xDEADBEEF) + valid_png[33:])
write(CORRUPT, "png-bad-idat-zlib.png", png(16, 16, idat=b"\x78\x9c" + bytes(rng.randrange(256) for _ in range(40))))
good_idat = zlib.compress(bytes(16 * 49), 9)
write(CORRUPT, "png-bad-idat-crc.png", SIG + chunk(b"IHDR", ihdr) + chunk(b"IDAT", good_idat, crc=1)
      + chunk(b"IEND", b""))
write(CORRUPT, "png-huge-dimensions.png",
      png(0, 0, ihdr=struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0), idat=zlib.compress(b"\x00" * 64)))
write(CORRUPT, "png-zero-width.png", png(0, 0, ihdr=struct.pack(">IIBBBBB", 0, 16, 8, 2, 0, 0, 0), idat=good_idat))
write(CORRUPT, "png-cut-in-idat.png", valid_png[:len(valid_png) - 12 - 20])
write(CORRUPT, "png-no-iend.png", valid_png[:len(valid_png) - 12])
write(CORRUPT, "png-bad-colour-type.png",
      png(0, 0, ihdr=struct.pack(">IIBBBBB", 16, 16, 8, 5, 0, 0, 0), idat=good_idat))

# ---- JPEG ------------------------------------------------------------------------------------
segs, sos = segments(valid_jpeg)
sof = next(s for s in segs if s[0] == 0xC0)
write(CORRUPT, "jpeg-no-soi.jpg", valid_jpeg[2:])
write(CORRUPT, "jpeg-soi-only.jpg", b"\xff\xd8")
write(CORRUPT, "jpeg-cut-after-sof.jpg", valid_jpeg[:sof[2]])
nsegs, nsos = segments(noisy_jpeg)
write(CORRUPT, "jpeg-cut-halfway.jpg", noisy_jpeg[:nsos + (len(noisy_jpeg) - nsos) // 2])
huge = bytearray(valid_jpeg)
struct.pack_into(">HH", huge, sof[1] + 5, 65000, 65000)
write(CORRUPT, "jpeg-huge-sof.jpg", bytes(huge))
zero = bytearray(valid_jpeg)
struct.pack_into(">HH", zero, sof[1] + 5, 0, 16)
write(CORRUPT, "jpeg-zero-height-sof.jpg", bytes(zero))
garbled = bytearray(noisy_jpeg)
scan_start = nsos + 2 + struct.unpack(">H", noisy_jpeg[nsos + 2:nsos + 4])[0]
for k in range(scan_start + 40, scan_start + 240):
    garbled[k] = rng.choice([0x00, 0xFE, 0x7F, 0x3C, 0xA5])   # no 0xFF: no accidental markers
write(CORRUPT, "jpeg-corrupt-huffman.jpg", bytes(garbled))
bad_length = bytearray(valid_jpeg)
struct.pack_into(">H", bad_length, segs[0][1] + 2, 1)
write(CORRUPT, "jpeg-bad-segment-length.jpg", bytes(bad_length))
no_dht = b"".join(valid_jpeg[s:e] for (m, s, e) in segs if m != 0xC4)
write(CORRUPT, "jpeg-no-huffman-tables.jpg", valid_jpeg[:2] + no_dht + valid_jpeg[sos:])

# EXIF whose IFD0 offset points far outside the segment, and a GPS IFD pointer past the end.
exif_bad = b"Exif\x00\x00" + b"II*\x00" + struct.pack("<I", 0x7FFF0000)
write(CORRUPT, "jpeg-exif-broken-ifd-offset.jpg", insert_after_soi(valid_jpeg, app1(exif_bad)))
tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 2)
tiff += struct.pack(">HHII", 0x010F, 2, 200, 4000)                # Make: 200 bytes at offset 4000 (outside)
tiff += struct.pack(">HHII", 0x8825, 4, 1, 0x00FFFFFF)            # GPS IFD far outside
tiff += struct.pack(">I", 0)
write(CORRUPT, "jpeg-exif-pointers-outside.jpg", insert_after_soi(valid_jpeg, app1(b"Exif\x00\x00" + tiff)))
write(CORRUPT, "jpeg-exif-bad-byte-order.jpg",
      insert_after_soi(valid_jpeg, app1(b"Exif\x00\x00XX*\x00\x08\x00\x00\x00")))
write(CORRUPT, "jpeg-xmp-not-xml.jpg", insert_after_soi(
    valid_jpeg, app1(b"http://ns.adobe.com/xap/1.0/\x00" + b"GPano:PoseHeadingDegrees=90 this is not XML at all")))

# ---- metadata (valid, written by other tools or by hand) ---------------------------------------
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "x.jpg")
    with open(path, "wb") as f:
        f.write(valid_jpeg)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-ExifByteOrder=Big-endian",
                    "-GPSLatitude=60.1699", "-GPSLatitudeRef=N", "-GPSLongitude=24.9384", "-GPSLongitudeRef=E",
                    "-GPSAltitude=12.5", "-GPSAltitudeRef=Above Sea Level", "-GPSImgDirection=271.25",
                    "-GPSImgDirectionRef=T", "-GPSDateStamp=2024:06:21", "-GPSTimeStamp=09:30:15",
                    "-DateTimeOriginal=2024:06:21 12:30:15", "-Make=Ricoh", "-Model=Theta Z1", path], check=True)
    with open(path, "rb") as f:
        write(META, "exiftool-big-endian.jpg", f.read())

xmp_elements = b"""<?xpacket begin='\xef\xbb\xbf' id='W5M0MpCehiHzreSzNTczkc9d'?>
<x:xmpmeta xmlns:x='adobe:ns:meta/'>
 <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
  <rdf:Description rdf:about='' xmlns:gp='http://ns.google.com/photos/1.0/panorama/'>
   <gp:ProjectionType>equirectangular</gp:ProjectionType>
   <gp:UsePanoramaViewer>True</gp:UsePanoramaViewer>
   <gp:PoseHeadingDegrees>123.5</gp:PoseHeadingDegrees>
   <gp:PosePitchDegrees>-1.25</gp:PosePitchDegrees>
   <gp:PoseRollDegrees>0.5</gp:PoseRollDegrees>
   <gp:FullPanoWidthPixels>5376</gp:FullPanoWidthPixels>
   <gp:FullPanoHeightPixels>2688</gp:FullPanoHeightPixels>
   <gp:CroppedAreaImageWidthPixels>5376</gp:CroppedAreaImageWidthPixels>
   <gp:CroppedAreaImageHeightPixels>2688</gp:CroppedAreaImageHeightPixels>
   <gp:CroppedAreaLeftPixels>0</gp:CroppedAreaLeftPixels>
   <gp:CroppedAreaTopPixels>0</gp:CroppedAreaTopPixels>
   <gp:CaptureSoftware>Theta &amp; Co</gp:CaptureSoftware>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end='w'?>"""
write(META, "xmp-elements-other-prefix.jpg",
      insert_after_soi(valid_jpeg, app1(b"http://ns.adobe.com/xap/1.0/\x00" + xmp_elements)))
print("fixtures written to", os.path.normpath(ROOT))
