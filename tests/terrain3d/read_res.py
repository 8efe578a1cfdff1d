#!/usr/bin/env python3
"""A Godot 4 binary resource reader written apart from relief's (no code shared), for
tests/terrain3d_world.rs: it reads one exported Terrain3D region file and prints its structure
as JSON, which the test compares with what relief meant to write.

Written from Godot's own description of the format (core/io/file_access_compressed.cpp and
core/io/resource_format_binary.cpp): an RSCC container of zstd frames (decompressed here by
the zstd command-line tool), then the header, string table, external and internal resource
lists, and each resource's properties as tagged variants. Only the variant types a region
holds are understood; anything else is an error.
"""

import json
import struct
import subprocess
import sys

# Godot's binary variant tags (resource_format_binary.cpp).
NIL, BOOL, INT, FLOAT, STRING, VECTOR2 = 1, 2, 3, 4, 5, 10
OBJECT, DICTIONARY, ARRAY, PACKED_BYTE_ARRAY = 24, 26, 30, 31
INT64, DOUBLE = 40, 41
OBJECT_EMPTY, OBJECT_INTERNAL = 0, 2


class Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def take(self, n):
        if self.at + n > len(self.data):
            raise ValueError(f"runs past the end at {self.at}")
        b = self.data[self.at:self.at + n]
        self.at += n
        return b

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def f32(self):
        return struct.unpack("<f", self.take(4))[0]

    def string(self):
        n = self.u32()
        raw = self.take(n)
        return raw.rstrip(b"\0").decode("utf-8")

    def variant(self):
        tag = self.u32()
        if tag == NIL:
            return None
        if tag == BOOL:
            return self.u32() != 0
        if tag == INT:
            return struct.unpack("<i", self.take(4))[0]
        if tag == INT64:
            return struct.unpack("<q", self.take(8))[0]
        if tag == FLOAT:
            return self.f32()
        if tag == DOUBLE:
            return struct.unpack("<d", self.take(8))[0]
        if tag == STRING:
            return self.string()
        if tag == VECTOR2:
            return [self.f32(), self.f32()]
        if tag == OBJECT:
            kind = self.u32()
            if kind == OBJECT_EMPTY:
                return None
            if kind == OBJECT_INTERNAL:
                return {"internal": self.u32()}
            raise ValueError(f"object kind {kind}")
        if tag == DICTIONARY:
            n = self.u32() & 0x7FFFFFFF
            out = {}
            for _ in range(n):
                k = self.variant()
                out[k] = self.variant()
            return out
        if tag == PACKED_BYTE_ARRAY:
            n = self.u32()
            b = self.take(n)
            self.take((4 - n % 4) % 4)
            return b
        raise ValueError(f"variant tag {tag} at {self.at - 4}")


def decompress(raw):
    if raw[:4] != b"RSCC":
        raise ValueError("not an RSCC container")
    mode, block, total = struct.unpack("<III", raw[4:16])
    count = total // block + 1
    sizes = struct.unpack(f"<{count}I", raw[16:16 + 4 * count])
    start = 16 + 4 * count
    frames = raw[start:start + sum(sizes)]
    if raw[start + sum(sizes):] != b"RSCC":
        raise ValueError("no closing RSCC after the blocks")
    out = subprocess.run(["zstd", "-d", "-c", "-q"], input=frames, capture_output=True, check=True).stdout
    if len(out) != total:
        raise ValueError(f"{len(out)} bytes decompressed, {total} declared")
    return mode, out


def main(path):
    with open(path, "rb") as f:
        mode, stream = decompress(f.read())
    r = Reader(stream)
    big_endian, real64, major, minor, fmt = (r.u32() for _ in range(5))
    if big_endian or real64:
        raise ValueError("expected little-endian, 32-bit reals")
    cls = r.string()
    r.u64()  # import metadata offset
    flags = r.u32()
    r.u64()  # uid
    for _ in range(11):  # reserved
        r.u32()
    strings = [r.string() for _ in range(r.u32())]
    for _ in range(r.u32()):  # external resources: type, path, uid
        r.string(), r.string(), r.u64()
    internal = [(r.string(), r.u64()) for _ in range(r.u32())]
    bodies = []
    for res_path, offset in internal:
        r.at = offset
        body_class = r.string()
        props = []
        for _ in range(r.u32()):
            name = strings[r.u32()]
            props.append((name, r.variant()))
        bodies.append((res_path, body_class, props))

    out_bodies = []
    maps = {}
    for res_path, body_class, props in bodies:
        d = dict(props)
        entry = {"class": body_class, "properties": [p[0] for p in props]}
        if body_class == "Image":
            data = d["data"]
            entry.update({
                "width": data["width"], "height": data["height"], "format": data["format"],
                "mipmaps": data["mipmaps"], "bytes": len(data["data"]),
            })
        else:
            entry.update({
                "path": res_path, "region_size": d["region_size"],
                "vertex_spacing": d["vertex_spacing"], "height_range": d["height_range"],
            })
            for m in ("height_map", "control_map"):
                image = dict(bodies[d[m]["internal"]][2])
                maps[m] = image["data"]["data"]
        out_bodies.append(entry)
    print(json.dumps({
        "compression": mode,
        "class": cls,
        "format": fmt,
        "bodies": out_bodies,
        "height_0": struct.unpack("<f", maps["height_map"][:4])[0],
        "control_last": struct.unpack("<I", maps["control_map"][-4:])[0],
    }))


if __name__ == "__main__":
    main(sys.argv[1])
