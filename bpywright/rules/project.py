"""Heal a project, not a file: the entry script and the helper modules it imports, each fixed where the failure points.

The failing frame (the innermost traceback frame in a file under the project root) gets the rules that explain the
failure, at its statement; every project file in play (the entry, the files in the traceback, the project modules the
entry imports) gets the sure fixes. Candidates run from a staged copy of the project (the original is never touched
while healing); a round that makes the project worse is reverted for every file it touched. Files outside the root
(site-packages, Blender's own modules) are never edited: a failure raised there is reported as not healable.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .. import pyast
from ..harness.report import RunReport
from ..untrusted_files import UntrustedFileError, write_nofollow
from .families.imports.renamed import missing_name
from .healer import (
    _RANK,
    FileChange,
    HealOutcome,
    HealResult,
    HealRound,
    Slow,
    fix_file,
    join_notes,
    past_the_limit,
    run_error,
    stop_reason,
    unified_diff,
)
from .pack import line_map, map_line

_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)', re.M)
SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".mypy_cache", ".pytest_cache", ".ruff_cache"})
_LIBRARY_PARTS = frozenset({"site-packages", "dist-packages", ".venv", "venv", "node_modules"})
MAX_FILES = 200  # project modules followed from the entry's imports, at most
# Rules that may also fix a caller's frame (the value that reached the failing call came from there): a division
# passed on through a helper's **kwargs.
CALLER_RULES = frozenset({"int-from-division"})


def read_source(path: Path) -> str:
    """A project file's text: UTF-8, else Latin-1 (an old script with cp1252 quotes in a comment still runs; every byte
    maps to one character, so `write_source` gives the same bytes back)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def source_encoding(path: Path) -> str:
    """The encoding `read_source` read a file with: "latin-1" for a file that is not UTF-8, else "utf-8"."""
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return "latin-1"
    except OSError:
        pass
    return "utf-8"


def source_bytes(text: str, like: Path) -> bytes:
    """A healed file's bytes, in the encoding its original (`like`) was read with (UTF-8 where a rule added a character
    Latin-1 lacks)."""
    encoding = source_encoding(like)
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode("utf-8")


@dataclass(frozen=True)
class Frame:
    """One traceback frame: the file as the run saw it, the line, and the path relative to the project root (None: outside)."""

    file: str
    line: int
    rel: str | None


def frames(report: RunReport, root: Path) -> list[Frame]:
    """The traceback's frames, outermost first, each placed inside the project root (rel) or outside it."""
    if report.exception is None:
        return []
    found = []
    for name, line in _FRAME.findall(report.exception.traceback or ""):
        path = Path(os.path.normpath(name))  # a helper found through sys.path.append(dir + '/..') shows the '..'
        if not path.is_absolute() and not name.startswith("<") and (root / path).is_file():
            path = root / path  # a helper exec'd by its relative name: compile(open("utils.py").read(), "utils.py", "exec")
        inside = path.is_absolute() and path.is_relative_to(root)
        # a virtualenv or vendored site-packages under the root is library code all the same: never the project's
        inside = inside and not (_LIBRARY_PARTS & set(path.relative_to(root).parts))
        rel = path.relative_to(root).as_posix() if inside else None
        found.append(Frame(name, int(line), rel))
    return found


# Frames that only carry a call into Blender or Python, where the call site is what failed: the bpy package's own Python
# layer (bpy/ops.py and the like, bpy_types.py) and the standard library. Anything else outside the root is library code.
_CALL_THROUGH = re.compile(r"/modules/bpy/|/bpy_types\.py$|/lib/python3\.\d+/(?!site-packages/|dist-packages/)[^/]+\.py$|^<")


def outside_failure(report: RunReport, root: Path) -> str | None:
    """Why a failure cannot be healed in the project: it is raised in library code outside the root (None: it is not)."""
    found = frames(report, root)
    if not found or found[-1].rel is not None or _CALL_THROUGH.search(found[-1].file):
        return None
    last = found[-1]
    return (
        f"the failure is raised in {last.file}, line {last.line}, outside the project root {root}: "
        "bpywright never edits files there (site-packages, Blender's own modules); change the call or update that library"
    )


def failing_frame(report: RunReport, root: Path, entry: str) -> tuple[str, int | None]:
    """The project file and line the failure points at: the innermost frame under the root (the entry's line otherwise)."""
    inside = [f for f in frames(report, root) if f.rel is not None]
    if inside:
        return inside[-1].rel or entry, inside[-1].line
    return entry, report.exception.line if report.exception else None


def _module_files(name: str, base: Path, root: Path) -> list[Path]:
    """The files under root that `import name` (dotted) may load from base: the module, or each package's __init__."""
    found: list[Path] = []
    folder = base
    parts = name.split(".")
    for i, part in enumerate(parts):
        package, module = folder / part / "__init__.py", folder / f"{part}.py"
        if package.is_file():
            found.append(package)
            folder = folder / part
        elif module.is_file() and i == len(parts) - 1:
            found.append(module)
        else:
            break
    return [f for f in found if f.resolve().is_relative_to(root)]


def project_imports(entry: Path, root: Path, limit: int = MAX_FILES) -> list[Path]:
    """The project's own modules the entry imports (transitively), resolved as `blender --python entry` finds them."""
    base = entry.parent
    seen: dict[Path, None] = {}
    queue = [entry]
    while queue and len(seen) < limit:
        path = queue.pop(0)
        try:
            tree = pyast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError, OSError):
            continue
        for node in ast.walk(tree):
            names: list[tuple[str, Path]] = []
            if isinstance(node, ast.Import):
                names = [(a.name, base) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    package = path.parent
                    for _ in range(node.level - 1):
                        package = package.parent
                    module = node.module or ""
                    start = package
                else:
                    module, start = node.module or "", base
                prefix = f"{module}." if module else ""
                names = [(f"{prefix}{a.name}", start) for a in node.names if a.name != "*"]
                if module:
                    names.append((module, start))
            for name, start in names:
                for found in _module_files(name, start, root):
                    if found not in seen and found != entry:
                        seen[found] = None
                        queue.append(found)
    return list(seen)


def module_names(module: str, entry: Path, root: Path) -> tuple[str, ...]:
    """Top-level names a project module (dotted, as imported from the entry's folder) defines; () when not the project's."""
    files = _module_files(module, entry.parent, root)
    last = module.rsplit(".", 1)[-1]
    if not files or (files[-1].parent.name if files[-1].name == "__init__.py" else files[-1].stem) != last:
        return ()  # the import stopped short of the module (a package without it): not the project's
    try:
        tree = pyast.parse(files[-1].read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return ()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names if a.name != "*")
    return tuple(sorted(names))


def compare_projects(old: RunReport, new: RunReport, root: Path, edits: dict[str, tuple[str, str]]) -> str:
    """'better', 'same' or 'worse': an earlier failure (frame by frame through the project's files) or a crash is worse."""
    if _RANK[new.status] != _RANK[old.status]:
        return "better" if _RANK[new.status] > _RANK[old.status] else "worse"
    if new.ok:
        return "better"
    before = [f for f in frames(old, root) if f.rel is not None]
    after = [f for f in frames(new, root) if f.rel is not None]
    for a, b in zip(before, after, strict=False):
        if a.rel != b.rel:
            break
        line = b.line
        if a.rel in edits:
            back = {n: o for o, n in line_map(*edits[a.rel]).items()}
            line = map_line(line, back)
        if line != a.line:
            return "worse" if line < a.line else "better"
    return "same" if old.failure == new.failure else "better"


class Stage:
    """A copy of the project (the original is never touched) whose files are set to each candidate before it runs."""

    def __init__(self, root: Path, folder: Path):
        self.source = root
        self.root = folder
        self.current: dict[str, str] = {}

    def set(self, texts: dict[str, str]) -> None:
        """Make the staged project the original with `texts` (rel path → text) in place of its files."""
        for rel in set(self.current) - set(texts):
            shutil.copyfile(self.source / rel, self.root / rel)
        for rel, text in texts.items():
            if self.current.get(rel) != text:
                write_inside(self.root, rel, text, replace_link=True, like=self.source / rel)  # a link may point into the original project
        self.current = dict(texts)


MAX_PY_BYTES = 2 << 20  # a Python file of the project bigger than this is refused, not copied (a sparse file would become real)


def write_inside(base: Path, rel: str, text: str, *, replace_link: bool, like: Path | None = None) -> Path:
    """Write text to base/rel, never through a symbolic link below base (UntrustedFileError); a link at the file itself is
    replaced with the file when replace_link (a copy of the project), else refused (the project itself: --write). In the
    encoding the original (`like`) was read with, so a healed file keeps its bytes but for the changed lines."""
    path = base / rel
    if replace_link and path.is_symlink():
        path.unlink()
    data = source_bytes(text, like) if like is not None else text.encode("utf-8")
    return write_nofollow(path, data, "healed file", trusted=base)


def refuse_special(path: Path) -> None:
    """UntrustedFileError for a FIFO, device or socket, or a Python file over MAX_PY_BYTES: said before anything is copied."""
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode) or stat.S_ISDIR(info.st_mode):
        return  # copied as a link, never read through
    if not stat.S_ISREG(info.st_mode):
        raise UntrustedFileError(
            f"{path} is a FIFO, device or socket: bpywright heal copies the project and refuses it (remove it, or pass --root)"
        )
    if path.suffix == ".py" and info.st_size > MAX_PY_BYTES:
        raise UntrustedFileError(
            f"{path}: {info.st_size / (1 << 20):.1f} MB, over the {MAX_PY_BYTES >> 20} MB a project's Python file may have: refused"
        )


def refuse_specials(root: Path, skip: set[Path]) -> None:
    """refuse_special for every entry that a copy of root would take (symlinked folders are not entered): nothing is copied yet."""
    for here, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED and (Path(here) / d).resolve() not in skip]
        for name in (*dirs, *files):
            if name not in SKIPPED:
                refuse_special(Path(here) / name)


def _ignore(skip: set[Path], budget: list[int] | None = None) -> Callable[[str, list[str]], set[str]]:
    """copytree's filter: version-control and cache folders, the skipped paths, and (with a budget) big data files."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        left = {n for n in names if n in SKIPPED or (Path(folder) / n).resolve() in skip}
        if budget is not None:
            for n in sorted(set(names) - left):
                path = Path(folder) / n
                if path.suffix == ".py" or not path.is_file() or path.is_symlink():
                    continue
                size = path.stat().st_size
                if size > STAGE_FILE_BYTES or size > budget[0]:
                    left.add(n)  # a heal runs code, not data this big: a script reading it fails as it would have
                else:
                    budget[0] -= size
        return left

    return ignore


STAGE_FILE_BYTES = 64 << 20  # a staged copy leaves out data files bigger than this …
STAGE_BYTES = 512 << 20  # … and data files beyond this much in all (Python files are always staged)


def mirror(root: Path, destination: Path, texts: dict[str, str], skip: tuple[Path, ...] = (), budget: int | None = None) -> None:
    """Copy the project under destination (version-control and cache folders left out), `texts` in place of its files."""
    skipped = {p.resolve() for p in (*skip, destination)}
    refuse_specials(root, skipped)
    ignore = _ignore(skipped, [budget] if budget is not None else None)
    shutil.copytree(root, destination, symlinks=True, ignore=ignore, dirs_exist_ok=True)
    for rel, text in texts.items():
        write_inside(destination, rel, text, replace_link=True, like=root / rel)


@contextmanager
def staged(root: Path, skip: tuple[Path, ...] = ()) -> Iterator[Stage]:
    """A staged copy of the project in a private temporary folder (named like the project), removed at the end."""
    with tempfile.TemporaryDirectory(prefix="bpywright-heal-") as tmp:
        folder = Path(tmp) / (root.name or "project")
        mirror(root, folder, {}, skip, STAGE_BYTES)
        yield Stage(root, folder.resolve())


def heal_project(
    root: Path,
    entry: str,
    *,
    run: Callable[[dict[str, str]], RunReport],
    seen_as: Path | None = None,
    target: str = "4.5",
    max_rounds: int = 5,
    fixer: Callable[..., HealResult] = fix_file,
    slow: Slow[dict[str, str]] | None = None,
) -> HealOutcome:
    """Run → fix the project's files → re-run until the entry passes or no rule makes progress; never leaves it worse.

    root: the project (read, never written); entry: the script's path under it; run(texts) runs the entry with `texts`
    (rel path → text) in place of the project's files; seen_as: the root as the run's tracebacks show it (a stage);
    fixer: fix_file's stand-in for one file (a benchmark's narrower healer); slow: the time limit and a longer run, for
    a fix after which the entry runs past the limit instead of raising its error (kept: running long is not an error).
    """
    root = root.resolve()
    shown = (seen_as or root).resolve()
    originals: dict[str, str] = {}

    def original(rel: str) -> str | None:
        if rel not in originals:
            path = root / rel
            try:
                originals[rel] = read_source(path) if path.is_file() and path.resolve().is_relative_to(root) else ""
            except (OSError, UnicodeDecodeError):
                originals[rel] = ""
        return originals[rel] or None

    texts: dict[str, str] = {}  # the current healed version of every changed file
    report = first = run({})
    rounds: list[HealRound] = []
    excluded: set[str] = set()
    entry_path = root / entry
    in_play = [entry, *(p.relative_to(root).as_posix() for p in project_imports(entry_path, root))]
    while not report.ok and len(rounds) < max_rounds:
        error = run_error(report)
        where, line = failing_frame(report, shown, entry)
        traced = [f.rel for f in frames(report, shown) if f.rel is not None]
        files = list(dict.fromkeys([where, *traced, *in_play]))
        names: tuple[str, ...] = ()
        missing = missing_name(error)
        if missing:
            names = module_names(missing[0], entry_path, root)
        candidate = dict(texts)
        changes: list[FileChange] = []
        explained: str | None = None
        callers = {f.rel: f.line for f in frames(report, shown)[:-1] if f.rel is not None and (f.rel, f.line) != (where, line)}
        for rel in files:
            before = texts.get(rel) or original(rel)
            if before is None:
                continue
            here = rel == where
            if here:
                result = fixer(before, error, line, None, target, frozenset(excluded), names, rel)
            elif rel in callers and error:
                result = fixer(before, error, callers[rel], None, target, frozenset(excluded), names, rel, only=CALLER_RULES)
            else:
                result = fixer(before, "", None, None, target, frozenset(excluded), names, rel)
            if result.changed:
                candidate[rel] = result.script
                changes.append(FileChange(path=rel, applied=result.applied, diff=result.diff))
            if here and result.explained:
                explained = result.explained
        if not changes:
            break
        new_report, past = past_the_limit(report, run(candidate), candidate, slow)
        edits = {c.path: (texts.get(c.path) or original(c.path) or "", candidate[c.path]) for c in changes}
        verdict = "past" if past and past.kept else compare_projects(report, new_report, shown, edits)
        ids = list(dict.fromkeys(a.rule for c in changes for a in c.applied))
        new_where, new_line = failing_frame(new_report, shown, entry) if not new_report.ok else (None, None)
        entry_round = HealRound(
            round=len(rounds) + 1,
            applied=[a for c in changes for a in c.applied],
            diff="".join(c.diff for c in changes),
            explained=explained,
            status=new_report.status,
            failure=new_report.failure or None,
            line=new_line,
            file=new_where,
            files=changes,
            note=past.note if past else "",
        )
        if verdict == "worse":
            keep = explained if explained and len(ids) > 1 else None
            dropped = [i for i in ids if i != keep]
            excluded.update(dropped)
            entry_round.reverted = True
            entry_round.note = join_notes(
                entry_round.note, f"reverted in {len(changes)} file(s): the project failed earlier or worse; excluded {', '.join(dropped)}"
            )
            rounds.append(entry_round)
            continue
        if verdict == "same" and explained:
            excluded.add(explained)
            entry_round.note = join_notes(entry_round.note, f"no progress on the failure from {explained}")
        texts, report = candidate, new_report
        rounds.append(entry_round)
        if past and past.kept:
            entry_round.ran_past = past.seconds
            break  # no error left to match a rule to
    changed = {rel: text for rel, text in texts.items() if text != original(rel)}
    if report.ok:
        where_now = ""
    else:
        rel_now, line_now = failing_frame(report, shown, entry)
        where_now = f"{rel_now}, line {line_now}" if line_now else rel_now
    final = [FileChange(path=rel, diff=unified_diff(original(rel) or "", text, rel)) for rel, text in sorted(changed.items())]
    entry_text = changed.get(entry, original(entry) or "")
    return HealOutcome(
        target=target,
        healed=report.ok,
        status_before=first.status,
        failure_before=first.failure or None,
        status_after=report.status,
        failure_after=report.failure or None,
        rounds=rounds,
        script=entry_text,
        diff=unified_diff(original(entry) or "", entry_text, entry),
        explained=any(r.explained for r in rounds if not r.reverted),
        root=str(root),
        entry=entry,
        files=final,
        texts=changed,
        not_healable=None if report.ok else outside_failure(report, shown),
        ran_past=rounds[-1].ran_past if rounds and report.status == "timeout" else None,
        stopped=stop_reason(report, rounds, max_rounds, target, excluded, where_now),
    )


def heal_hint(report: RunReport, script: Path, root: Path, target: str = "4.5") -> str | None:
    """What `bpywright heal` can do for a failed run, for people (check's suggestion); None when no rule explains it."""
    from .pack import rules_for

    error = run_error(report)
    if not error:
        return None
    root = root.resolve()
    reason = outside_failure(report, root)
    if reason is not None:
        return f"not healable: {reason}"
    rules = [r.id for r in rules_for(target) if r.explains_error(error)]
    if not rules:
        return None
    entry = script.resolve().relative_to(root).as_posix() if script.resolve().is_relative_to(root) else script.name
    where, line = failing_frame(report, root, entry)
    at = f" in {where}" + (f", line {line}" if line else "") if where != entry else ""
    return f"heal: {', '.join(rules[:3])} explains this failure{at}; `bpywright heal {script} -o healed/` fixes the project"
