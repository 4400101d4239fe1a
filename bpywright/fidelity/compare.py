"""Compare two measured scenes on the host (numpy): Chamfer, F-score at tau, silhouette IoU, size, parts, colours."""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from .models import MASK_SIZE, VIEWS, Fidelity, SceneGeometry

TAU = 0.05  # F-score threshold: 5 % of the bounding-box diagonal (a chair leg of a 1 m chair is ~3-5 cm thick)


def normalised(geometry: SceneGeometry) -> np.ndarray:
    """The surface points, centred on their scene's bounding-box centre and divided by its diagonal."""
    assert geometry.bbox is not None
    low, high = np.array(geometry.bbox[0]), np.array(geometry.bbox[1])
    diagonal = float(np.linalg.norm(high - low)) or 1.0
    return (np.array(geometry.points, dtype=np.float64) - (low + high) / 2) / diagonal


def nearest(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each point of a, the Euclidean distance to the nearest point of b (exact: a k-d tree over b, ~40x the
    brute-force distance matrix on 2048 points, which made comparing every archetype with every other too slow here)."""
    distances, _ = cKDTree(b).query(a, k=1)
    return np.asarray(distances, dtype=np.float64)


def mask(hex_bits: str) -> np.ndarray:
    """A silhouette (MASK_SIZE² bits in hex, row-major) as a boolean array."""
    bits = bin(int(hex_bits, 16))[2:].zfill(MASK_SIZE * MASK_SIZE)
    return np.frombuffer(bits.encode("ascii"), dtype=np.uint8).reshape(MASK_SIZE, MASK_SIZE) == ord("1")


def silhouette_iou(answer: SceneGeometry, reference: SceneGeometry) -> dict[str, float]:
    """IoU of the two scenes' silhouettes per view (1.0 where both are empty)."""
    out = {}
    for view in VIEWS:
        if view not in answer.masks or view not in reference.masks:
            out[view] = 0.0
            continue
        a, r = mask(answer.masks[view]), mask(reference.masks[view])
        union = int((a | r).sum())
        out[view] = float((a & r).sum() / union) if union else 1.0
    return out


def colour_distance(answer: SceneGeometry, reference: SceneGeometry) -> float | None:
    """Symmetric, area-weighted distance from each scene's colours to the other's nearest (sRGB, scaled to [0, 1])."""
    if not answer.colours or not reference.colours:
        return None

    def one_way(src: SceneGeometry, dst: SceneGeometry) -> float:
        targets = np.array([c for c, _ in dst.colours])
        weights = np.array([w for _, w in src.colours])
        dists = [float(np.min(np.linalg.norm(targets - np.array(c), axis=1))) for c, _ in src.colours]
        return float(np.dot(weights, dists) / (weights.sum() or 1.0)) / np.sqrt(3)

    return (one_way(answer, reference) + one_way(reference, answer)) / 2


def compare(answer: SceneGeometry | None, reference: SceneGeometry, tau: float = TAU) -> Fidelity:
    """How closely the answer's scene matches the reference's (an unmeasured or empty answer scores 0)."""
    parts = {"parts_answer": answer.parts if answer else 0, "parts_reference": reference.parts}
    if reference.empty:
        return Fidelity(measured=False, why="the reference built no visible surface", tau=tau, **parts)
    if answer is None or answer.empty:
        return Fidelity(measured=False, why="the answer built no visible surface", tau=tau, **parts)
    a, r = normalised(answer), normalised(reference)
    to_reference, to_answer = nearest(a, r), nearest(r, a)
    precision, recall = float((to_reference < tau).mean()), float((to_answer < tau).mean())
    fscore = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    ious = silhouette_iou(answer, reference)
    assert answer.bbox is not None and reference.bbox is not None
    size_a = float(np.linalg.norm(np.subtract(answer.bbox[1], answer.bbox[0])))
    size_r = float(np.linalg.norm(np.subtract(reference.bbox[1], reference.bbox[0])))
    return Fidelity(
        measured=True,
        tau=tau,
        fscore=fscore,
        precision=precision,
        recall=recall,
        chamfer=float((to_reference.mean() + to_answer.mean()) / 2),
        iou=float(np.mean(list(ious.values()))),
        iou_by_view=ious,
        size_ratio=size_a / size_r if size_r > 0 else None,
        colour_distance=colour_distance(answer, reference),
        **parts,
    )
