"""`bpywright heal`: heal a script's project on a one-worker pool (local or on a cluster), print the rounds (or JSON), write it.

Like every `command.py`, this is a slice of the CLI (a front door): stdlib imports only at module level.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..cliargs import (
    UsageError,
    add_cluster_flag,
    add_sandbox_flag,
    add_version,
    backend_paths,
    cluster_spec,
    positive_float,
    target_version,
)
from ..config import Settings

if TYPE_CHECKING:
    from ..cluster.spec import ClusterSpec
    from ..harness.options import RunOptions
    from ..harness.report import RunReport
    from .healer import HealOutcome


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`bpywright heal`'s arguments (import-light: called whenever the CLI parser is built)."""
    parser.add_argument("script", type=Path)
    add_version(parser, "--target")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--write", action="store_true", help="rewrite every healed file of the project in place")
    out.add_argument(
        "-o",
        "--output",
        type=Path,
        help="write the healed project here, a mirror of the project with the healed files (a .py path: the healed script, "
        "when the heal changed no other file)",
    )
    out.add_argument("--dry-run", action="store_true", help="print each healed file's diff only; write nothing")
    parser.add_argument("--max-rounds", type=int, default=5, help="run/fix rounds at most (default 5)")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.add_argument("--blender", type=Path, help="a Blender executable instead of the bpy module")
    parser.add_argument(
        "--timeout",
        type=positive_float,
        help="seconds each run may take (default: the configured timeout, 60 s); a fix after which the script runs past it "
        "instead of failing is run once more with 4 times as long (at most 600 s), and kept if it still runs past",
    )
    parser.add_argument("--root", type=Path, help="project folder the script sees read-only (default: its git root, else its folder)")
    add_sandbox_flag(parser)
    add_cluster_flag(parser, "each round (one worker): ")


def heal_source(
    source: str,
    *,
    target: str,
    max_rounds: int,
    options: RunOptions,
    as_file: Path | None = None,
    cluster: ClusterSpec | None = None,
) -> HealOutcome:
    """Heal a script on a one-worker pool (local, or on `cluster`), closed at the end; as_file runs each candidate as that file."""
    from ..cluster.factory import open_pool
    from .healer import Slow, heal, longer_limit

    longer = longer_limit(options.timeout)
    longer_options = options.model_copy(update={"timeout": longer or options.timeout})
    with open_pool(options, cluster=cluster, jobs=1, at_most=1) as pool:
        slow: Slow[str] = Slow(options.timeout, longer, lambda s: pool.run(source=s, options=longer_options, as_file=as_file))
        return heal(
            source, target=target, max_rounds=max_rounds, run=lambda s: pool.run(source=s, options=options, as_file=as_file), slow=slow
        )


def heal_project_of(
    script: Path,
    root: Path,
    *,
    target: str,
    max_rounds: int,
    options: RunOptions,
    cluster: ClusterSpec | None = None,
    skip: tuple[Path, ...] = (),
) -> HealOutcome:
    """Heal the project a script belongs to: candidates run from a staged copy of `root` (never touched), as `script`."""
    from ..cluster.factory import open_pool
    from .healer import Slow, longer_limit
    from .project import heal_project, read_source, staged

    root = root.resolve()
    entry = script.resolve().relative_to(root).as_posix()
    longer = longer_limit(options.timeout)
    with staged(root, skip) as stage:
        staged_options = options.model_copy(update={"root": stage.root})

        def run(texts: dict[str, str], timeout: float | None = None) -> RunReport:
            stage.set(texts)
            path = stage.root / entry
            these = staged_options.model_copy(update={"timeout": timeout}) if timeout else staged_options
            return pool.run(source=read_source(path), options=these, as_file=path)

        slow: Slow[dict[str, str]] = Slow(options.timeout, longer, lambda texts: run(texts, longer))
        with open_pool(staged_options, cluster=cluster, jobs=1, at_most=1) as pool:
            return heal_project(root, entry, run=run, seen_as=stage.root, target=target, max_rounds=max_rounds, slow=slow)


def render_outcome(outcome: HealOutcome) -> str:
    """Each round: per file, the rules that changed it (lines, what each rule does), the diff and how it ran; then the
    verdict and why the heal stopped, for people."""
    out = [f"before: {outcome.status_before}" + (f" ({outcome.failure_before})" if outcome.failure_before else "")]

    def named(applied: list) -> str:
        return "; ".join(f"{a.rule} (line {', '.join(map(str, a.lines))}: {a.title})" for a in applied)

    for r in outcome.rounds:
        out.append(f"\nround {r.round}" + (f" — explains the failure: {r.explained}" if r.explained else ""))
        for f in r.files or []:
            out.append(f"  {f.path}: {named(f.applied)}")
        if not r.files:
            out.append(f"  {outcome.entry or 'script'}: {named(r.applied)}")
        out.append(r.diff.rstrip())
        at = f" ({r.file}, line {r.line})" if r.file and r.file != outcome.entry and r.line else f" (line {r.line})" if r.line else ""
        result = r.status + (f": {r.failure}{at}" if r.failure else "")
        out.append(f"→ {result}" + (f"  [{r.note}]" if r.note else ""))
    if outcome.status_before == "ok":
        out.append("\nnothing to heal: the script passes already")
    elif outcome.healed:
        files = f" ({len(outcome.files)} file(s) changed: {', '.join(f.path for f in outcome.files)})" if outcome.files else ""
        out.append(f"\nhealed: the script passes on Blender {outcome.target} after {len(outcome.rounds)} round(s){files}")
    elif (
        outcome.status_after == "timeout" and outcome.rounds and outcome.rounds[-1].status == "timeout" and not outcome.rounds[-1].reverted
    ):
        past = outcome.rounds[-1].note.split(";")[0]
        out.append(f"\nnot healed, but not an error: it {past}; the fixes are kept (a longer --timeout shows how it ends)")
    elif outcome.not_healable:
        out.append(f"\nnot healable: {outcome.not_healable}")
    elif not outcome.rounds:
        out.append("\nnot healed: no rule matches this failure" + (f" (stopped: {outcome.stopped})" if outcome.stopped else ""))
    else:
        still = f"still {outcome.status_after}" + (f" ({outcome.failure_after})" if outcome.failure_after else "")
        out.append(f"\nnot healed: {still}" + (f"\nstopped: {outcome.stopped}" if outcome.stopped else ""))
    return "\n".join(out)


def render_diffs(outcome: HealOutcome) -> str:
    """Each changed file's diff against the original project (what --dry-run prints)."""
    return "".join(f.diff for f in outcome.files)


def write_outcome(outcome: HealOutcome, script: Path, root: Path, output: Path | None, in_place: bool) -> int:
    """Write the healed files (in place, or a mirror of the project under output); 0, or 2 when output cannot hold them."""
    from ..untrusted_files import links_inside, refuse_links, write_nofollow
    from .project import mirror, source_bytes, write_inside

    texts = outcome.texts
    if output is not None and output.suffix == ".py" and not output.is_dir():
        if set(texts) - {outcome.entry}:
            print(
                f"not written: the heal changed {', '.join(sorted(texts))}; give -o a folder to get the healed project",
                file=sys.stderr,
            )
            return 2
        write_nofollow(output, source_bytes(outcome.script, root / (outcome.entry or script.name)), "-o file")
        print(f"wrote {output}", file=sys.stderr)
        return 0
    if output is not None:
        refuse_links(output, "-o folder")
        for link in links_inside(output) if output.is_dir() else []:  # copying into it would follow them
            refuse_links(link, "-o folder's entry")
        mirror(root, output, texts)
        entry = output / (outcome.entry or script.name)
        changed = ", ".join(sorted(texts)) or "none"
        print(f"wrote the healed project to {output} (healed files: {changed}); run it: bpywright run {entry}", file=sys.stderr)
        return 0
    if in_place and texts:
        for rel in sorted(texts):  # every file first: a link refuses the write before any file is changed
            refuse_links(root / rel, "healed file", trusted=root)
        for rel, text in sorted(texts.items()):
            write_inside(root, rel, text, replace_link=False, like=root / rel)
            print(f"wrote {root / rel}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright heal`: rules first, round by round, never leaving the project worse; exit 0 only if it passes."""
    from ..harness.job import RootError, check_root, project_root
    from ..harness.options import RunOptions
    from ..harness.summary import escape_controls
    from ..untrusted_files import UntrustedFileError

    if not args.script.is_file():
        raise UsageError(f"no such script: {args.script}")
    if args.max_rounds < 1:
        raise UsageError("--max-rounds must be >= 1")
    if args.blender is not None and not args.blender.is_file():
        raise UsageError(f"Blender executable not found: {args.blender}")
    try:
        root = check_root(args.root or project_root(args.script), args.script)
    except RootError as exc:
        raise UsageError(str(exc)) from None
    output: Path | None = args.output
    if output is not None and (output.resolve() == root or root.is_relative_to(output.resolve())):
        raise UsageError(f"-o {output} would overwrite the project itself ({root}): name another folder, or use --write")
    target = target_version(args, settings)
    blender, python = backend_paths(args, settings)
    cluster = cluster_spec(args, settings)
    limits = settings.run_limits() | ({"timeout": args.timeout} if args.timeout is not None else {})
    options = RunOptions(
        **limits,
        render=False,
        blender=blender or settings.blender,
        python=python,
        sandbox=settings.sandbox and not args.no_sandbox,
        root=root,
        args=getattr(args, "script_args", []),
    )
    skip = (output,) if output is not None else ()
    try:
        outcome = heal_project_of(args.script, root, target=target, max_rounds=args.max_rounds, options=options, cluster=cluster, skip=skip)
    except UntrustedFileError as exc:  # a special file, a huge file or a link in the way: refused before anything is copied
        raise UsageError(escape_controls(str(exc))) from None
    if args.json:
        print(outcome.model_dump_json(indent=2))
    elif args.dry_run:
        print(escape_controls(render_diffs(outcome)), end="")
        print(escape_controls(render_outcome(outcome).rsplit("\n", 1)[-1].strip()), file=sys.stderr)
    else:
        print(escape_controls(render_outcome(outcome)))  # the failure and the diffs are the script's own text
    if not args.dry_run:
        try:
            code = write_outcome(outcome, args.script, root, output, args.write)
        except UntrustedFileError as exc:
            print(escape_controls(f"bpywright heal: not written: {exc}"), file=sys.stderr)
            return 2
        if code:
            return code
    return 0 if outcome.healed else 1


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """`bpywright rules`' arguments (import-light: called whenever the CLI parser is built)."""
    sub = parser.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    listing = sub.add_parser(
        "list", help="every drift rule: name, family, versions where the old form fails, errors it explains, an example"
    )
    listing.add_argument("--family", help="only this family's rules (e.g. values, imports, drift_50)")
    listing.add_argument("--json", action="store_true", help="print the rules as a JSON list")


def rules_command(args: argparse.Namespace, settings: Settings) -> int:
    """Body of `bpywright rules list`."""
    import json

    from .catalogue import catalogue, render_text
    from .pack import FAMILIES

    if args.family is not None and args.family not in FAMILIES:
        raise UsageError(f"no rule family {args.family!r}: the families are {', '.join(FAMILIES)}")
    entries = catalogue(args.family)
    print(json.dumps([e.model_dump() for e in entries], indent=2) if args.json else render_text(entries))
    return 0
