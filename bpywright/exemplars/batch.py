"""The body of `bpywright exemplars add|seed|import`: a pool, a progress bar, and a summary of what entered."""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

from ..config import Settings
from ..harness.report import RunReport
from .models import exemplar_id
from .store import AddResult, ExemplarStore
from .validate import Outcome, validate_and_add


def _failure_line(prompt: str, report: RunReport) -> str:
    why = report.failure_with_line[:160] if report.exception else report.stderr[-120:].strip() or report.failure
    return f"not stored ({report.status}): {prompt.splitlines()[0][:60]!r} — {why}"


def validate_items(items: list[tuple[str, str]], *, source: str, settings: Settings, args: argparse.Namespace, skipped: int = 0) -> int:
    """Validate and store items; print one line per failure and a summary; 0 when all are stored, else 1."""
    from tqdm import tqdm

    with ExemplarStore.open(settings, clip=not args.no_clip) as store:
        todo = [it for it in items if store.get(exemplar_id(hashlib.sha256(it[1].encode("utf-8")).hexdigest(), args.version)) is None]
        outcomes: list[Outcome] = []
        if todo:
            from ..cluster.factory import open_pool
            from ..cluster.spec import cluster_setting
            from ..harness.options import RunOptions

            cluster = cluster_setting(getattr(args, "cluster", None), settings.cluster)
            bar = tqdm(total=len(todo), unit="script", file=sys.stderr, disable=None, desc=f"exemplars {args.exemplars_command}")

            def done(prompt: str, outcome: Outcome) -> None:
                if isinstance(outcome, RunReport):
                    bar.write(_failure_line(prompt, outcome), file=sys.stderr)
                bar.update(1)

            options = RunOptions(**settings.run_limits(), render=True, sandbox=settings.sandbox, blender=settings.blender)
            if settings.blender is None or args.version != settings.blender_version:  # validated on the version they are stored under
                from ..runtimes import RuntimeMissing, RuntimeRegistry

                try:
                    options = RuntimeRegistry.for_settings(settings).get(args.version).run_options(options)
                except RuntimeMissing as exc:
                    print(f"error: {exc}", file=sys.stderr)
                    return 2
            pool = open_pool(options, cluster=cluster, jobs=args.jobs, default_jobs=settings.workers, at_most=len(todo))
            with pool, tempfile.TemporaryDirectory(prefix="bpywright-exemplars-") as renders:
                outcomes = validate_and_add(
                    store,
                    pool,
                    todo,
                    source=source,
                    version=args.version,
                    render_dir=Path(renders),
                    on_done=done,
                    lint=not args.no_lint,
                    resolution=args.resolution,
                    index_root=settings.index_dir,
                )
            bar.close()
        added = [o for o in outcomes if isinstance(o, AddResult) and o.created]
        grouped = [o for o in added if o.duplicate_of]
        failed = [o for o in outcomes if isinstance(o, RunReport)]
        already = len(items) - len(todo) + sum(isinstance(o, AddResult) and not o.created for o in outcomes)
        if args.exemplars_command == "add" and added:
            print(f"stored {added[0].exemplar.id}" + (f" (near-duplicate of {added[0].duplicate_of})" if grouped else ""))
        elif args.exemplars_command == "add" and already:
            print(f"already stored for Blender {args.version}: nothing to do")
        parts = [
            f"{len(added)} added",
            f"{len(grouped)} of them near-duplicates (grouped)",
            f"{already} already stored",
            f"{len(failed)} failed validation (not stored)",
        ]
        if skipped:
            parts.append(f"{skipped} rows without a prompt and a script skipped")
        print(", ".join(parts) + f" — store: {store.db_path}")
        status = store.status()
        if not status.clip_enabled and not args.no_clip:
            print(f"note: {status.clip_reason}", file=sys.stderr)
    return 1 if failed else 0
