#!/usr/bin/env python3
"""Render a binary little-endian PLY triangle mesh (as marching_cubes writes it) to a PNG with
matplotlib: flat shading from the triangle normals and one light, no other dependency than numpy.

    scripts/render_mesh.py mesh.ply picture.png [--title TEXT] [--elev 25 --azim -60]
"""
import argparse
import sys

import numpy as np


def read_ply(path):
    with open(path, "rb") as f:
        if f.readline().strip() != b"ply":
            sys.exit(f"{path}: not a PLY file")
        vertex_props, n_vertices, n_faces, element = [], 0, 0, None
        while True:
            line = f.readline()
            if not line:
                sys.exit(f"{path}: no end_header")
            words = line.split()
            if words[0] == b"format" and words[1] != b"binary_little_endian":
                sys.exit(f"{path}: only binary_little_endian PLY is read")
            if words[0] == b"element":
                element = words[1]
                if element == b"vertex":
                    n_vertices = int(words[2])
                elif element == b"face":
                    n_faces = int(words[2])
            if words[0] == b"property" and element == b"vertex":
                vertex_props.append(words[2])
            if words[0] == b"end_header":
                break
        vertices = np.frombuffer(f.read(4 * len(vertex_props) * n_vertices), dtype="<f4").reshape(n_vertices, -1)
        faces = np.frombuffer(f.read(13 * n_faces), dtype=np.dtype([("n", "u1"), ("i", "<u4", 3)]))
    if n_faces and not np.all(faces["n"] == 3):
        sys.exit(f"{path}: only triangles are read")
    return vertices[:, :3], faces["i"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ply")
    ap.add_argument("png")
    ap.add_argument("--title", default="")
    ap.add_argument("--elev", type=float, default=25)
    ap.add_argument("--azim", type=float, default=-60)
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    v, f = read_ply(a.ply)
    tri = v[f]  # (T, 3, 3)
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    light = np.array([0.4, -0.5, 0.75])
    light /= np.linalg.norm(light)
    shade = 0.25 + 0.75 * np.clip(n @ light, 0, 1)
    colors = np.column_stack([0.25 + 0.55 * shade, 0.45 + 0.45 * shade, 0.85 * shade + 0.1, np.ones_like(shade)])
    fig = plt.figure(figsize=(7, 7), dpi=110)
    ax = fig.add_subplot(projection="3d")
    ax.add_collection3d(Poly3DCollection(tri, facecolors=np.clip(colors, 0, 1), edgecolors="none"))
    lo, hi = v.min(axis=0), v.max(axis=0)
    centre, half = (lo + hi) / 2, (hi - lo).max() / 2
    for setter, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre):
        setter(c - half, c + half)
    ax.set_box_aspect((1, 1, 1))
    ax.view_init(elev=a.elev, azim=a.azim)
    ax.set_axis_off()
    ax.set_title(a.title or f"{a.ply}: {len(f)} triangles")
    fig.savefig(a.png, bbox_inches="tight")
    print(f"wrote {a.png}: {len(f)} triangles, {len(v)} vertices")


if __name__ == "__main__":
    main()
