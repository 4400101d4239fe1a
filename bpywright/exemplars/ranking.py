"""Ranking for the store: near-duplicate lookup, hash neighbours, reciprocal-rank fusion, one hit per group."""

from __future__ import annotations

import sqlite3

from . import features
from .models import ExemplarHit
from .schema import SELECT_COLUMNS, exemplar_of

RRF_K = 60  # reciprocal-rank fusion constant (BM25 + CLIP)


def near_duplicate_group(db: sqlite3.Connection, hashes: dict[str, str]) -> str | None:
    """The group id of the closest stored render that is a near-duplicate of one with these hashes, if any."""
    mine = features.hash_values(hashes)
    if mine is None or mine.colour is None:
        return None
    best: tuple[int, str] | None = None
    for group_id, phash, dhash, colour in db.execute("SELECT group_id, phash, dhash, colour FROM exemplars WHERE colour IS NOT NULL"):
        theirs = features.hash_values({"phash": phash, "dhash": dhash, "colour": colour})
        if theirs is not None and features.near_duplicate(mine, theirs):
            distance = features.hash_distance(mine, theirs)
            if best is None or distance < best[0]:
                best = (distance, group_id)
    return best[1] if best else None


def hash_scores(db: sqlite3.Connection, seq: int, phash: str | None, dhash: str | None) -> dict[int, tuple[float, str]]:
    """{seq: (1 - normalised phash+dhash distance, "hash")} of every other exemplar with a render."""
    mine = features.hash_values({"phash": phash, "dhash": dhash})
    if mine is None:
        return {}
    scored = {}
    for other, their_phash, their_dhash in db.execute(
        "SELECT seq, phash, dhash FROM exemplars WHERE phash IS NOT NULL AND seq != ?", (seq,)
    ):
        theirs = features.hash_values({"phash": their_phash, "dhash": their_dhash})
        if theirs is not None:
            scored[other] = (1.0 - features.hash_distance(mine, theirs) / (2 * features.HASH_BITS), "hash")
    return scored


def fuse(rankings: dict[str, list[int]]) -> dict[int, tuple[float, str]]:
    """Reciprocal-rank fusion of named rankings of seqs: {seq: (score, "text+clip")}."""
    scores: dict[int, float] = {}
    whys: dict[int, set[str]] = {}
    for name, ranking in rankings.items():
        for rank, seq in enumerate(ranking):
            scores[seq] = scores.get(seq, 0.0) + 1.0 / (RRF_K + rank + 1)
            whys.setdefault(seq, set()).add(name)
    return {seq: (score, "+".join(sorted(whys[seq]))) for seq, score in scores.items()}


def allowed(db: sqlite3.Connection, seqs: list[int], where: str, params: dict) -> set[int]:
    """The seqs that pass a filter clause."""
    if not seqs:
        return set()
    listed = ",".join(str(int(s)) for s in seqs)
    return {r[0] for r in db.execute(f"SELECT e.seq FROM exemplars e WHERE e.seq IN ({listed}) AND {where}", params)}


def hits(
    db: sqlite3.Connection, clip_key: str, scored: dict[int, tuple[float, str]], k: int, exclude_group: str | None = None
) -> list[ExemplarHit]:
    """Exemplars for {seq: (score, why)}, best first, one per near-duplicate group (its best-scoring member). Exemplars a
    person verified come before those only the machine accepted, whatever their scores: a wrong acceptance must not
    crowd out what a person vouched for (and compound as the example of the next request)."""
    machine = allowed(db, list(scored), "e.verified_by = 'machine'", {})  # only the machine accepted these
    ordered = sorted(scored.items(), key=lambda item: (item[0] in machine, -item[1][0], item[0]))
    found: list[ExemplarHit] = []
    groups = {exclude_group}
    batch = max(16, 2 * k)
    for start in range(0, len(ordered), batch):  # load rows a batch at a time: thousands of scored seqs stay cheap
        chunk = ordered[start : start + batch]
        seqs = ",".join(str(int(seq)) for seq, _ in chunk)
        rows = db.execute(f"SELECT {SELECT_COLUMNS} FROM exemplars e WHERE e.seq IN ({seqs})", {"clip_key": clip_key})
        by_seq = {row["seq"]: exemplar_of(row) for row in rows}
        for seq, (score, why) in chunk:
            exemplar = by_seq.get(seq)
            if exemplar is None or (exemplar.group_id or exemplar.id) in groups:
                continue
            groups.add(exemplar.group_id or exemplar.id)
            found.append(ExemplarHit(exemplar=exemplar, score=round(score, 6), why=why))
            if len(found) >= k:
                return found
    return found
