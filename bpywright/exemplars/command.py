"""`bpywright exemplars …`: add, seed, import, list, search, show, export (stdlib imports only at module level)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..cliargs import VERSION_DEFAULT, UsageError, add_cluster_flag, add_version, cluster_spec, target_version
from ..config import Settings

IMPORT_PROMPT_FIELDS = ("prompt", "instruction")  # BlendNet rows: {"instruction": …, "script": …}


def _validation_options(p: argparse.ArgumentParser) -> None:
    add_version(p, "--version", help=f"Blender version to validate on (its runtime) and store under (default: {VERSION_DEFAULT})")
    p.add_argument("--resolution", type=int, default=256, help="render size in pixels (default 256)")
    p.add_argument("--no-lint", action="store_true", help="skip the static checks (ruff/mypy/pyright) before each run")
    p.add_argument("--jobs", "-j", type=int, help="warm workers (default: BPYWRIGHT_WORKERS or cores)")
    add_cluster_flag(p, "the validation runs: ")
    p.add_argument("--no-clip", action="store_true", help="do not compute CLIP vectors even when weights are configured")


def _filter_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--status", help="only this run status (ok, error, …)")
    add_version(p, "--version", help="only this Blender version")
    p.add_argument("--source", choices=["recipe", "generated", "imported", "user"], help="only this source")
    p.add_argument("--symbol", help="only scripts using this bpy name (or a prefix such as bpy.ops.mesh)")
    p.add_argument("--json", action="store_true", help="print JSON")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define `exemplars` and its actions (called when the CLI parser is built, so keep it import-light)."""
    sub = parser.add_subparsers(dest="exemplars_command", metavar="ACTION", required=True)
    add = sub.add_parser("add", help="validate a script (lint + run + render) and store it when it runs ok")
    add.add_argument("script", type=Path, metavar="SCRIPT")
    add.add_argument("--prompt", required=True, help="the prompt the script answers")
    add.add_argument("--source", choices=["recipe", "generated", "imported", "user"], default="user")
    _validation_options(add)
    seed = sub.add_parser("seed", help="validate and store every bundled recipe (a no-op when already stored)")
    _validation_options(seed)
    imp = sub.add_parser("import", help="validate and store prompt/script pairs from a JSONL file (fields prompt|instruction, script)")
    imp.add_argument("file", type=Path, metavar="FILE.jsonl")
    imp.add_argument("--limit", type=int, help="the first N rows with a script only")
    _validation_options(imp)
    ls = sub.add_parser("list", help="list exemplars (one per near-duplicate group), newest first")
    _filter_options(ls)
    ls.add_argument("--limit", type=int, default=50)
    ls.add_argument("--offset", type=int, default=0)
    search = sub.add_parser("search", help="search prompts, symbols and scripts (BM25; CLIP text→image when on)")
    search.add_argument("query")
    search.add_argument("-k", type=int, default=10, help="hits to show (default 10)")
    _filter_options(search)
    show = sub.add_parser("show", help="one exemplar: prompt, status, render, symbols, group and script")
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    export = sub.add_parser("export", help="every exemplar as JSON lines")
    export.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    sub.add_parser("status", help="exemplar count, groups, CLIP on/off and why")
    trust = sub.add_parser("trust", help="let generation learn from an exemplar (user-submitted scripts never do until trusted)")
    trust.add_argument("id")
    trust.add_argument("--revoke", action="store_true", help="stop generation from learning from it")
    sub.add_parser("reindex", help="compute missing CLIP vectors (after CLIP weights were configured) and rebuild the FAISS index")


def _usage(message: str) -> int:
    print(f"bpywright exemplars: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run one `exemplars` action; 0 ok, 1 something failed, 2 usage."""
    action = args.exemplars_command
    if action in {"add", "seed", "import"}:
        return _validate_action(args, settings)
    from .store import ExemplarStore, Filters

    if getattr(args, "limit", None) is not None and args.limit < 0 or getattr(args, "offset", 0) < 0:
        return _usage("--limit and --offset must be >= 0")
    with ExemplarStore.open(settings, clip=action in {"search", "status", "reindex"}) as store:
        if action == "list":
            filters = Filters(status=args.status, blender_version=args.blender_version, source=args.source, symbol=args.symbol)
            page = store.list(filters=filters, offset=args.offset, limit=args.limit)
            if args.json:
                print(page.model_dump_json(indent=2))
            else:
                for exemplar in page.items:
                    print(_one_line(exemplar))
                print(f"{len(page.items)} of {page.total} (offset {page.offset})")
        elif action == "search":
            filters = Filters(status=args.status, blender_version=args.blender_version, source=args.source, symbol=args.symbol)
            hits = store.search(args.query, filters=filters, k=args.k)
            if args.json:
                print(json.dumps([json.loads(h.model_dump_json()) for h in hits], indent=2))
            else:
                for hit in hits:
                    print(f"{hit.score:.4f} [{hit.why}] {_one_line(hit.exemplar)}")
                if not hits:
                    print("no matches")
        elif action == "show":
            found = store.get(args.id)
            if found is None:
                print(f"error: no exemplar {args.id}: see `bpywright exemplars list`", file=sys.stderr)
                return 1
            members = store.members(args.id)
            if args.json:
                print(json.dumps(json.loads(found.model_dump_json()) | {"members": [m.id for m in members]}, indent=2))
            else:
                print(_details(found, members, store))
        elif action == "export":
            if args.output is not None:
                args.output.parent.mkdir(parents=True, exist_ok=True)
                with args.output.open("w", encoding="utf-8") as out:
                    count = store.export(out)
                print(f"{count} exemplars → {args.output}", file=sys.stderr)
            else:
                store.export(sys.stdout)
        elif action == "status":
            print(store.status().model_dump_json(indent=2))
        elif action == "trust":
            if not store.set_trusted(args.id, not args.revoke):
                print(f"error: no exemplar {args.id}: see `bpywright exemplars list`", file=sys.stderr)
                return 1
            print(f"{args.id}: {'no longer ' if args.revoke else ''}used as a generation example")
        elif action == "reindex":
            done = store.backfill_clip()
            status = store.status()
            if not status.clip_enabled:
                print(f"error: {status.clip_reason}", file=sys.stderr)
                return 1
            print(f"{done} CLIP vectors computed ({status.clip_reason})")
    return 0


VERIFIED = {
    "person": "by a person",
    "machine": "accepted by the machine's checks alone; `bpywright exemplars trust ID` once a person has looked at it",
}


def _one_line(exemplar) -> str:
    from ..harness.summary import escape_controls

    group = f" (+{exemplar.group_size - 1} near-duplicates)" if exemplar.group_size > 1 else ""
    prompt = exemplar.prompt.splitlines()[0][:90] if exemplar.prompt else ""
    machine = " [accepted by the machine]" if exemplar.verified_by == "machine" else ""
    return escape_controls(
        f"{exemplar.id}  {exemplar.status:<7} {exemplar.blender_version:<5} {exemplar.source:<9} {prompt}{group}{machine}"
    )


def _details(exemplar, members, store) -> str:
    from ..harness.summary import escape_controls

    lines = [
        f"id:       {exemplar.id}",
        f"prompt:   {exemplar.prompt}",
        f"status:   {exemplar.status} (Blender {exemplar.blender_version}, source {exemplar.source}, {exemplar.created_at:%Y-%m-%d %H:%M})",
        f"verified: {VERIFIED.get(exemplar.verified_by or '', 'not yet: a user submission no one has trusted (exemplars trust ID)')}",
        f"render:   {store.file(exemplar.render_path) if exemplar.render_path else '-'}",
        f"hashes:   {exemplar.hashes or '-'}   clip: {'yes' if exemplar.clip else 'no'}",
        f"symbols:  {', '.join(exemplar.symbols) or '-'}",
    ]
    if len(members) > 1:
        lines.append(f"group:    {', '.join(m.id for m in members)} (near-duplicate renders)")
    lines.append("script:")
    lines.extend(f"  {line}" for line in exemplar.script.splitlines())
    return escape_controls("\n".join(lines))  # prompts and scripts come from imports and users


def read_pairs(path: Path, limit: int | None) -> tuple[list[tuple[str, str]], list[str]]:
    """(prompt, script) pairs from a JSONL file (the first `limit` with a script), and one line per row left out saying
    where and why (nothing is dropped silently)."""
    items: list[tuple[str, str]] = []
    problems: list[str] = []
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, 1):
            if limit is not None and len(items) >= limit:
                break
            if not raw.strip():
                continue
            try:
                row = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                problems.append(f"line {number}: not UTF-8 text")
                continue
            except json.JSONDecodeError as exc:
                problems.append(f"line {number}: not JSON ({exc.msg} at column {exc.colno})")
                continue
            if not isinstance(row, dict):
                problems.append(
                    f"line {number}: a JSON {type(row).__name__}, not an object with {'/'.join(IMPORT_PROMPT_FIELDS)} and script"
                )
                continue
            prompt = next((row[f] for f in IMPORT_PROMPT_FIELDS if isinstance(row.get(f), str) and row[f].strip()), None)
            script = row.get("script")
            if prompt is None:
                problems.append(f"line {number}: no prompt (a non-empty string field {' or '.join(IMPORT_PROMPT_FIELDS)})")
            elif not isinstance(script, str) or not script.strip():
                problems.append(f"line {number}: no script (a non-empty string field script) for {prompt.splitlines()[0][:60]!r}")
            else:
                items.append((prompt, script))
    return items, problems


def _read_jsonl(path: Path, limit: int | None) -> tuple[list[tuple[str, str]], int]:
    """(prompt, script) pairs from a JSONL file, and how many rows were skipped (no prompt/script)."""
    items, problems = read_pairs(path, limit)
    return items, len(problems)


def _validate_action(args: argparse.Namespace, settings: Settings) -> int:
    """add / seed / import: validate through the pool, store what runs ok, report what did not."""
    from ..harness.summary import escape_controls

    if not 16 <= args.resolution <= 1024:
        return _usage("--resolution must be between 16 and 1024")
    try:
        cluster_spec(args, settings)  # a malformed --cluster or BPYWRIGHT_CLUSTER
        args.version = target_version(args, settings)
    except UsageError as exc:
        return _usage(str(exc))
    skipped = 0
    if args.exemplars_command == "add":
        if not args.script.is_file():
            return _usage(f"no such script: {args.script}")
        items, source = [(args.prompt, args.script.read_text(encoding="utf-8", errors="replace"))], args.source
    elif args.exemplars_command == "seed":
        from ..recipes import all_recipes

        items, source = [(r.prompt, r.source) for r in all_recipes(args.version)], "recipe"
    else:
        if not args.file.is_file():
            return _usage(f"no such file: {args.file}")
        if args.limit is not None and args.limit < 1:
            return _usage("--limit must be >= 1")
        items, problems = read_pairs(args.file, args.limit)
        for problem in problems[:20]:
            print(escape_controls(f"skipped {args.file.name} {problem}"), file=sys.stderr)
        if len(problems) > 20:
            print(f"… and {len(problems) - 20} more rows skipped", file=sys.stderr)
        skipped = len(problems)
        source = "imported"
        if not items:
            print(f"error: no rows with a prompt (or instruction) and a script in {args.file}", file=sys.stderr)
            return 1
    from .batch import validate_items

    return validate_items(items, source=source, settings=settings, args=args, skipped=skipped)
