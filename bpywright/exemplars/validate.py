"""validate_and_add: run prompt/script pairs through the worker pool (lint + render) and store those that ran ok."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from ..harness.options import RunOptions
from ..harness.report import RunReport
from .api_names import api_names
from .models import exemplar_id
from .store import AddResult, ExemplarStore

if TYPE_CHECKING:
    from ..cluster.factory import Pool
    from ..harness.lint import Linter

RENDER_PX = 256  # exemplar renders: small workbench images (thumbnails are made from them)

Outcome = AddResult | RunReport
OnDone = Callable[[str, Outcome], None]  # (prompt, outcome) as each item finishes


def exemplar_options(pool: Pool, resolution: int = RENDER_PX, timeout: float = 60.0) -> RunOptions:
    """The pool's process settings with a small workbench render."""
    return pool.options.model_copy(update={"render": True, "engine": "workbench", "resolution": resolution, "timeout": timeout})


def validate_and_add(
    store: ExemplarStore,
    pool: Pool,
    items: Iterable[tuple[str, str]],
    *,
    source: str,
    version: str = "4.5",
    render_dir: Path,
    on_done: OnDone | None = None,
    lint: bool = True,
    resolution: int = RENDER_PX,
    index_root: Path | None = None,
    linter: Linter | None = None,
) -> list[Outcome]:
    """Validate each (prompt, script) and add it when its run is ok; failed runs come back as their RunReport (not stored).

    Scripts already stored for `version` are not run again (their AddResult says created=False). The lint uses
    `version`'s rule pack, with api-check when index_root (settings.index_dir) holds that version's index; `linter`, a
    caller's warm Linter built that way, is used instead of a new one (whose cold start costs tens of seconds) and is
    left open.
    """
    render_dir.mkdir(parents=True, exist_ok=True)
    options = exemplar_options(pool, resolution)
    own = None
    if not lint:
        linter = None
    elif linter is None:
        from ..harness.lint import Linter
        from ..rules import rule_pack

        linter = own = Linter(version=version, rules=rule_pack(version, index_root))

    def one(item: tuple[str, str]) -> Outcome:
        prompt, script = item
        sha = hashlib.sha256(script.encode("utf-8")).hexdigest()
        existing = store.get(exemplar_id(sha, version))
        outcome: Outcome
        if existing is not None:
            outcome = AddResult(exemplar=existing, created=False, duplicate_of=existing.id)
        else:
            render_to = render_dir / f"{sha[:16]}.png"
            report = pool.run(source=script, options=options, render_to=render_to, linter=linter)
            if report.ok:
                render = render_to if render_to.is_file() else None
                outcome = store.add(
                    script=script,
                    prompt=prompt,
                    report=report,
                    render=render,
                    source=source,
                    blender_version=version,
                    symbols=api_names(script),
                )
            else:
                outcome = report
            render_to.unlink(missing_ok=True)  # the store keeps its own content-addressed copy
        if on_done is not None:
            on_done(prompt, outcome)
        return outcome

    try:
        with ThreadPoolExecutor(max(1, pool.size)) as ex:
            return list(ex.map(one, items))
    finally:
        if own is not None:
            own.close()
