"""Plain solids fitted to a scene's bounds: how much of a scene's shape one box or one cylinder already draws.

A scene whose surface a box or a cylinder filling its bounding box matches (F-score at TAU, as compare.py measures two
scenes) is, to this measure, that plain solid: a microscope drawn as one box, a coat rack drawn as one pole. Sampled on
the host with numpy, as the measurement snippet samples a mesh: SAMPLES points spread by area, from a fixed seed.
"""

from __future__ import annotations

import numpy as np

from .compare import compare
from .measure import SAMPLES
from .models import SceneGeometry

SEED = 11  # fixed: the same bounds give the same solids
AXES = "xyz"


def _box(low: np.ndarray, high: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """SAMPLES points on the surface of the box low..high, by area."""
    size = np.maximum(high - low, 1e-9)
    faces = np.repeat([size[1] * size[2], size[0] * size[2], size[0] * size[1]], 2)  # -x +x -y +y -z +z
    face = rng.choice(6, SAMPLES, p=faces / faces.sum())
    points = low + rng.random((SAMPLES, 3)) * size
    axis = face // 2
    rows = np.arange(SAMPLES)
    points[rows, axis] = np.where(face % 2 == 1, high[axis], low[axis])
    return points


def _cylinder(low: np.ndarray, high: np.ndarray, axis: int, rng: np.random.Generator) -> np.ndarray:
    """SAMPLES points on the surface of the (elliptic) cylinder that fills low..high along the axis, by area."""
    centre, size = (low + high) / 2, np.maximum(high - low, 1e-9)
    u, v = (i for i in range(3) if i != axis)
    a, b, h = size[u] / 2, size[v] / 2, size[axis]
    side = np.pi * (a + b) * h  # the ellipse's perimeter, near enough for a share of the points
    cap = np.pi * a * b
    where = rng.choice(3, SAMPLES, p=np.array([side, cap, cap]) / (side + 2 * cap))  # the side, the bottom, the top
    angle = rng.random(SAMPLES) * 2 * np.pi
    radius = np.where(where == 0, 1.0, np.sqrt(rng.random(SAMPLES)))  # on the rim, or spread over a cap
    points = np.empty((SAMPLES, 3))
    points[:, u] = centre[u] + a * radius * np.cos(angle)
    points[:, v] = centre[v] + b * radius * np.sin(angle)
    points[:, axis] = np.where(where == 0, low[axis] + rng.random(SAMPLES) * h, np.where(where == 1, low[axis], high[axis]))
    return points


def _scene(points: np.ndarray) -> SceneGeometry:
    low, high = points.min(axis=0), points.max(axis=0)
    return SceneGeometry(
        parts=1,
        triangles=0,
        points=[(float(x), float(y), float(z)) for x, y, z in points],
        bbox=((float(low[0]), float(low[1]), float(low[2])), (float(high[0]), float(high[1]), float(high[2]))),
        colours=[],
        masks={},
    )


def plain_solids(geometry: SceneGeometry) -> dict[str, SceneGeometry]:
    """A box and a cylinder along each axis, each filling the scene's bounding box."""
    assert geometry.bbox is not None
    low, high = np.array(geometry.bbox[0], dtype=np.float64), np.array(geometry.bbox[1], dtype=np.float64)
    rng = np.random.default_rng(SEED)
    solids = {"a box": _scene(_box(low, high, rng))}
    for axis, name in enumerate(AXES):
        solids[f"a cylinder along {name}"] = _scene(_cylinder(low, high, axis, rng))
    return solids


def plainness(geometry: SceneGeometry) -> tuple[float, str]:
    """The best F-score of a plain solid fitted to the scene's bounds against the scene, and which solid it is (1.0: the
    scene is that solid, at the F-score's tolerance; a long thin or flat scene is close to every one of them)."""
    scored = [(compare(solid, geometry).fscore, name) for name, solid in plain_solids(geometry).items()]
    return max(scored, key=lambda t: t[0])
