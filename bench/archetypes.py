"""Would agreement with the archetypes written here (the critic's shapes, the plan library) accept faithful answers only? (no model is asked)

    .venv/bin/python bench/archetypes.py FOLDER [FOLDER ...] [--out FILE.md] [--cache DIR]

A fresh `make run` store holds no verified exemplar of a BlendNet prompt's kind, so the neighbour rule
(graph/review/agreement.py) gives no verdict there and nothing is accepted. The plan library (graph/plans/library.py) is the one
set of shapes written here, at real sizes, that a fresh install has of everyday kinds. This reads the answers kept in
benchmark result folders (bench/results/fidelity/*/MODEL/MODE/*.json with the folder's floors.json), measures each answer
that passed the objective and structural checks against its prompt's reference (faithful: F beats both floors, as
bench/fidelity.py) and against the library's archetypes of its kind (agreement.kind_archetypes, the loop's choice), and tabulates
rules of the form "its F against the first k archetypes beats a unit cube's against them by a margin".

Folders are given in two groups split by `--heldout`: the rules are ranked on the first group, and the held-out group is
reported beside them so that a rule picked on seen prompts is read on prompts it was not picked on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import UNIT_CUBE, compare, faithful, floor, geometry, load_rows, measure_cache  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.fidelity.plain import plainness  # noqa: E402
from bpywright.graph.loop.state import ExemplarBrief  # noqa: E402
from bpywright.graph.review.agreement import (  # noqa: E402
    ARCHETYPE_MARGIN,
    COVER,
    FLOORS,
    PATTERN_PARTS,
    PLAIN,
    PROPORTION,
    STRUCTURED,
    WRONG_MARGIN,
    WRONG_QUANTILE,
    Neighbour,
    flatness,
    kind_archetypes,
    known_archetypes,
    led_to,
    pattern_parts,
    shipped_floors,
    wrong_objects,
)
from bpywright.graph.review.copies import copied_exemplar, shown_sources  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
MARGINS = (0.0, 0.1, 0.2, 0.3)
VERSION = "4.5"


def digest(script: str) -> str:
    return hashlib.sha256(script.encode("utf-8")).hexdigest()[:16]


def rows_of(folder: Path) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The answer rows of one result folder (every model and mode) and its floors by prompt id."""
    entries = {e["id"]: e for e in json.loads((folder / "floors.json").read_text(encoding="utf-8"))}
    rows = []
    for path in sorted(folder.glob("*/*/*.json")):
        r = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(r, dict) and r.get("id") in entries and r.get("script"):
            rows.append(r | {"folder": folder.name})
    return rows, entries


def measured(cache: Any, key: str, script: str) -> Any:
    return geometry(cache.get(key, script))


def copied(r: dict[str, Any]) -> bool:
    """The answer copies what its prompt showed by today's copy test (graph/review/copies.py: its exemplars, their plans as
    built, the system prompt's example, the recipes, the plan library), which some kept rows predate: the loop no
    longer returns such an answer while it can ask again, and its checks fail it."""
    shown = [ExemplarBrief.model_validate(e) for e in r.get("shown") or [] if isinstance(e, dict) and "script" in e]
    return copied_exemplar(r["script"], shown_sources(VERSION, shown)) is not None


def archetype_geometries(cache: Any) -> dict[str, Any]:
    """Every archetype's measured geometry by id (None where it could not be measured)."""
    return {k.id: measured(cache, f"archetypes/{digest(k.script)}", k.script) for k in known_archetypes(VERSION)}


def judge(folders: list[Path], references: dict[str, str], cache: Any) -> list[dict[str, Any]]:
    """Every distinct answer that passed the checks and copies nothing shown, with its verdict and its F against each
    archetype shown."""
    cube = measured(cache, "cube", UNIT_CUBE)
    arch = archetype_geometries(cache)
    cube_against = {ident: compare(cube, g).fscore for ident, g in arch.items() if g is not None}
    plain_of = {ident: plainness(g)[0] for ident, g in arch.items() if g is not None}
    floors = shipped_floors()
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for folder in folders:
        rows, entries = rows_of(folder)
        for r in rows:
            if not r.get("objective") or (r["id"], r["script"]) in seen:
                continue
            seen.add((r["id"], r["script"]))
            if copied(r):
                print(f"{folder.name} {r['id'][:8]} {r.get('name', '')!r}: a copy of what its prompt showed, left out", file=sys.stderr)
                continue
            reference = measured(cache, f"references/{r['id']}", references[r["id"]])
            answer = measured(cache, f"answers/{r['id']}.{digest(r['script'])}", r["script"])
            if reference is None or answer is None:
                continue
            near = kind_archetypes(r["prompt"], VERSION)  # the first is the one the loop holds the answer against
            shown_ids = {str(e.get("id")) for e in r.get("shown") or [] if isinstance(e, dict)}
            tall, plain = flatness(answer), plainness(answer)[0]  # the answer's, the same against every archetype
            parts = pattern_parts(r["prompt"], answer)  # None where the request asks for no pattern
            out.append(
                {
                    "folder": folder.name,
                    "id": r["id"],
                    "name": r.get("name", ""),
                    "script": r["script"],
                    "mode": r.get("mode", ""),
                    "faithful": bool(faithful(compare(answer, reference), entries[r["id"]])),
                    "floor": floor(entries[r["id"]]),
                    "accepted": bool(r.get("accepted")),
                    "archetypes": [
                        {
                            "id": a.id,
                            "request": a.request,
                            "shown": led_to(a, shown_ids, r["prompt"], answer, arch[a.id]),  # as against_archetype reads it
                            "fscore": (against := compare(answer, arch[a.id])).fscore,
                            "cover": against.recall,
                            "proportion": tall / flatness(arch[a.id]),
                            "plain": plain,
                            "archetype_plain": plain_of[a.id],
                            "cube": cube_against[a.id],
                            "wrong": floors[a.digest].fscore if a.digest in floors else None,
                            "pattern_parts": parts,
                        }
                        for a in near
                        if arch[a.id] is not None
                    ],
                }
            )
    return out


def agrees(a: dict[str, Any], margin: float) -> bool:
    """Its F against the archetype beats a unit cube's by the margin, and repeats it not where it was shown (below
    REPEAT_F: agreement.Neighbour.repeats)."""
    return (
        a["fscore"] > a["cube"] + margin
        and not Neighbour("", "", a["fscore"], a["cube"], archetype=True, shown=a.get("shown", True)).repeats
    )


# The loop's bars beyond the wrong-object floor, in the order it took them up: each rule of RULES below turns on one more.
BARS = ("cover", "proportion", "plain", "wrong_margin", "pattern")


def agrees_as_the_loop(
    a: dict[str, Any], cover: bool = True, proportion: bool = True, plain: bool = True, wrong_margin: bool = True, pattern: bool = True
) -> bool:
    """The loop's rule (agreement.Neighbour.agrees): closer than other objects by WRONG_MARGIN (the shipped wrong-object
    floor, where the archetype has one; wrong_margin=False: closer at all) and, where the answer's cover of the archetype
    was measured, covering COVER of it and beating a cube by ARCHETYPE_MARGIN, else by MARGIN (cover=False: without the
    cover), in the archetype's proportions within PROPORTION (proportion=False: without them), and not one plain solid
    where the archetype is more (plain=False: without it), and of PATTERN_PARTS parts or more where the request asks for
    a pattern (pattern=False: without it). Each switch gives the rule as it stood before that bar was added."""
    bars: dict[str, Any] = {"archetype": True}  # a bar not measured is no bar (Neighbour.agrees)
    if not wrong_margin and a.get("wrong") is not None:
        bars["wrong"] = a["wrong"] - WRONG_MARGIN  # closer at all: the floor, less the margin the loop now adds to it
    if not cover:
        bars["cover"] = None
    if not proportion:
        bars["proportion"] = None
    if not plain:
        bars |= {"plain": None, "archetype_plain": None}
    if not pattern:
        bars["pattern_parts"] = None
    return Neighbour.from_summary(a | bars).agrees


def with_bars(taken: int) -> Any:
    """The rule: the answer agrees with the archetype the loop holds it against, by the first `taken` of BARS only."""

    def test(r: dict[str, Any]) -> bool:
        a = first(r, False) or first(r, True)
        return a is not None and agrees_as_the_loop(a, **{bar: i < taken for i, bar in enumerate(BARS)})

    return test


def first(row: dict[str, Any], shown: bool | None = None) -> dict[str, Any] | None:
    """The archetype the loop holds the answer against (shown: only the plan library's, or only the critic's shapes)."""
    return next((a for a in row["archetypes"] if shown is None or a["shown"] == shown), None)


def agrees_with(pick: Any, margin: float) -> Any:
    """The rule: the answer agrees by the margin with the archetype pick(row) chooses (none chosen: it does not)."""
    return lambda r: (a := pick(r)) is not None and agrees(a, margin)


RULES: list[tuple[str, Any]] = [
    ("the plan library's first archetype, margin 0.2", agrees_with(lambda r: first(r, True), 0.2)),
    *[(f"shapes and library, the first, margin {m}", agrees_with(first, m)) for m in MARGINS],
    (
        "the first shape, else the library's first, margin 0.2 (read by the kind's head)",
        agrees_with(lambda r: first(r, False) or first(r, True), 0.2),
    ),
    ("the critic's shapes only, the first, margin 0.2", agrees_with(lambda r: first(r, False), 0.2)),
    (
        f"the first shape, else the library's first, margin 0.2 and closer than {WRONG_QUANTILE:.0%} of other objects",
        with_bars(0),
    ),
    (f"the same, margin {ARCHETYPE_MARGIN}, covering {COVER:.0%} of the archetype", with_bars(1)),
    (f"the same, in the archetype's proportions within a factor of {PROPORTION:g}", with_bars(2)),
    (
        f"the same, not one plain solid ({PLAIN:g}) where the archetype is not near one ({STRUCTURED:g})",
        with_bars(3),
    ),
    (f"the same, closer than other objects by {WRONG_MARGIN:g}", with_bars(4)),
    (f"the same, a pattern of {PATTERN_PARTS} parts or more where the request asks for one (the loop's rule)", with_bars(len(BARS))),
]


def table(judged: list[dict[str, Any]]) -> list[str]:
    n, faithful_n = len(judged), sum(r["faithful"] for r in judged)
    prompts = len({r["id"] for r in judged})
    with_shape = sum(first(r, False) is not None for r in judged)
    lines = [
        f"{n} answers that passed the checks, {prompts} prompts, {faithful_n} faithful "
        f"({faithful_n / n:.0%} precision if all were accepted); {sum(bool(r['archetypes']) for r in judged)} have an archetype "
        f"of their kind ({with_shape} a critic's shape).",
        "",
        "| rule | accepted | prompts | faithful among them | precision |",
        "|---|---|---|---|---|",
    ]
    for name, test in RULES:
        acc = [r for r in judged if test(r)]
        good = sum(r["faithful"] for r in acc)
        precision = f"{good / len(acc):.2f}" if acc else "–"
        lines.append(f"| {name} | {len(acc)} of {n} ({len(acc) / n:.0%}) | {len({r['id'] for r in acc})} | {good} | {precision} |")
    acc = [r for r in judged if r["archetypes"]]
    good = sum(r["faithful"] for r in acc)
    lines.append(
        f"| an archetype of its kind at all (no shape test) | {len(acc)} of {n} ({len(acc) / n:.0%}) | {len({r['id'] for r in acc})} | "
        f"{good} | {good / len(acc):.2f} |"
        if acc
        else "| an archetype of its kind at all | 0 | 0 | 0 | – |"
    )
    return lines


def write_floors(cache: Any) -> None:
    """Every archetype's wrong-object floor (agreement.wrong_objects), measured as the loop measures, into FLOORS."""
    known = known_archetypes(VERSION)
    geometry_of = archetype_geometries(cache)

    def fscore(other: Any, archetype: Any) -> float | None:
        g, a = geometry_of[other.id], geometry_of[archetype.id]
        return None if g is None or a is None else compare(g, a).fscore

    floors = wrong_objects(known, fscore)
    by_digest = {k.digest: k.request for k in known}
    body = {
        "about": "each archetype's wrong-object floor: the F-score against it that this share of the archetypes of other "
        "kinds stay at or below (graph/review/agreement.py); written by bench/archetypes.py --write-floors",
        "quantile": WRONG_QUANTILE,
        "blender": VERSION,
        "floors": {
            d: {"request": by_digest[d], "fscore": f.fscore, "at": f.at} for d, f in sorted(floors.items(), key=lambda t: by_digest[t[0]])
        },
    }
    FLOORS.parent.mkdir(parents=True, exist_ok=True)
    FLOORS.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(floors)} floors to {FLOORS}", file=sys.stderr)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument("--heldout", nargs="*", type=Path, default=[], help="folders read only after the rules are ranked")
    p.add_argument("--cache", type=Path, default=ROOT / ".bench-cache" / "archetypes")
    p.add_argument("--out", type=Path)
    p.add_argument("--json", type=Path, help="the judged rows, as JSON")
    p.add_argument("--write-floors", action="store_true", help=f"measure every archetype's wrong-object floor and write {FLOORS.name}")
    args = p.parse_args()
    references = {r["id"]: r["script"] for r in load_rows(DATA)}
    cache = measure_cache(args.cache, Settings.from_env())
    try:
        if args.write_floors:
            write_floors(cache)
            shipped_floors.cache_clear()  # judge reads the floors just written
        seen = judge(args.folders, references, cache)
        heldout = judge(args.heldout, references, cache) if args.heldout else []
    finally:
        cache.close()
    lines = ["# Agreement with the archetypes of the kind against the reference (bench/archetypes.py)", ""]
    lines += [f"## Seen: {', '.join(f.name for f in args.folders)}", "", *table(seen), ""]
    if heldout:
        lines += [f"## Held out: {', '.join(f.name for f in args.heldout)}", "", *table(heldout), ""]
    lines += ["## Rows", "", "| folder | prompt | mode | faithful | archetypes (F / cube's F) |", "|---|---|---|---|---|"]
    for r in seen + heldout:
        shown = "; ".join(f"{a['id']} {a['request'][:28]}: {a['fscore']:.2f}/{a['cube']:.2f}" for a in r["archetypes"][:3]) or "–"
        lines.append(f"| {r['folder']} | {r['name']} (`{r['id'][:8]}`) | {r['mode']} | {'yes' if r['faithful'] else 'no'} | {shown} |")
    text = "\n".join(lines) + "\n"
    if args.json:
        args.json.write_text(json.dumps({"seen": seen, "heldout": heldout}, indent=1), encoding="utf-8")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
