"""Static checks of bpy scripts: syntax, ruff, mypy and pyright against version-matched stubs → LintReport.

Cold (`lint_source`, `lint_files`: one CLI run per tool) or warm (`Linter`: dmypy and a pyright language
server stay up, so a snippet is checked in a fraction of a second).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..spawner import dying_with_parent, on_spawner_thread
from .checkers import BIN, QUOTED, CheckerConfig, parse_mypy, parse_pyright, parse_ruff, shared_mypy_cache
from .diagnostics import Diagnostic, LintReport, Tool, ToolStatus
from .lsp import LanguageServer, LanguageServerError
from .severity import refine

ALL_TOOLS: tuple[Tool, ...] = ("ruff", "mypy", "pyright")
TOOL_ORDER = {"syntax": 0, "rules": 1, "ruff": 2, "pyright": 3, "mypy": 4}
TIMEOUT = 300
# A warm daemon that has not started or answered a check after this long is taken for hung, killed and replaced once
# (the fresh one gets TIMEOUT): a cold check of the bpy stubs takes 11 s alone and 52 s with six at once on 2 cores,
# and a daemon seen hung now and then under a full test run would otherwise cost a request its whole budget.
HANG_S = 150
# A dmypy daemon exits on its own after this long idle: one whose owner was killed (no close()) does not live on
# holding its memory (seen: dozens of orphans after killed runs, 20 GiB of a 24 GiB machine).
DMYPY_IDLE_S = 900

Rule = Callable[[str], list[Diagnostic]]  # a static check beside the tools; callers pass bpywright.rules.rule_pack(version, …)


def stubs_dir(version: str = "4.5") -> tuple[Path | None, str]:
    """The built stubs for version, or None (installed fake-bpy-module stubs) with the reason."""
    from .stubs import StubsError, typings_dir

    try:
        return typings_dir(version), ""
    except StubsError as exc:
        return None, str(exc)


def syntax_diagnostics(source: str, name: str = "<script>") -> list[Diagnostic]:
    """A blocking diagnostic for a syntax error, else []."""
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return [
            Diagnostic(tool="syntax", code="syntax-error", severity="blocking", line=exc.lineno or 1, col=exc.offset or 0, message=exc.msg)
        ]
    except ValueError as exc:  # e.g. NUL bytes
        return [Diagnostic(tool="syntax", code="syntax-error", severity="blocking", line=1, message=str(exc))]
    return []


def deduplicate(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Merge reports of the same problem by several tools (same line, same quoted subject)."""
    kept: list[Diagnostic] = []
    for diag in sorted(diagnostics, key=lambda d: (d.line, TOOL_ORDER[d.tool], d.severity != "blocking")):
        subjects = set(QUOTED.findall(diag.message)) or {diag.message}
        for other in kept:
            if (
                other.line == diag.line
                and other.severity == diag.severity
                and subjects & (set(QUOTED.findall(other.message)) or {other.message})
            ):
                if diag.tool != other.tool and diag.tool not in other.also:
                    other.also.append(diag.tool)
                if other.fix is None and diag.fix is not None:
                    other.fix = diag.fix
                break
        else:
            kept.append(diag)
    return sorted(kept, key=lambda d: (d.severity != "blocking", d.line, d.col))


def _run(argv: list[str], cwd: Path, timeout: float | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT if timeout is None else timeout, cwd=cwd)


def _group(pairs: list[tuple[str, Diagnostic]], files: Sequence[Path]) -> dict[Path, list[Diagnostic]]:
    by_name = {str(f.resolve()): f for f in files} | {f.name: f for f in files} | {str(f): f for f in files}
    out: dict[Path, list[Diagnostic]] = {f: [] for f in files}
    for name, diag in pairs:
        target = by_name.get(name) or by_name.get(str(Path(name).resolve())) or by_name.get(Path(name).name)
        if target is not None:
            out[target].append(diag)
    return out


def _run_tool(tool: Tool, config: CheckerConfig, files: list[Path]) -> tuple[dict[Path, list[Diagnostic]], ToolStatus]:
    """One cold run of a tool over files."""
    start = time.perf_counter()
    try:
        if tool == "ruff":
            proc = _run(config.ruff_argv(files), config.root)
            pairs = parse_ruff(proc.stdout)
        elif tool == "mypy":
            proc = _run(config.mypy_argv(files), config.root)
            if proc.returncode not in (0, 1):
                raise RuntimeError(proc.stderr.strip()[-300:] or proc.stdout.strip()[-300:])
            pairs = parse_mypy(proc.stdout)
        else:
            proc = _run(config.pyright_argv(files), config.root)
            pairs = parse_pyright(json.loads(proc.stdout).get("generalDiagnostics", []))
    except (OSError, subprocess.TimeoutExpired, RuntimeError, ValueError) as exc:
        status = ToolStatus(tool=tool, status="failed", seconds=time.perf_counter() - start, detail=str(exc)[:300])
        return {f: [] for f in files}, status
    return _group(pairs, files), ToolStatus(tool=tool, status="ok", seconds=time.perf_counter() - start)


def _second_opinion(diags: list[Diagnostic], statuses: list[ToolStatus]) -> list[Diagnostic]:
    """mypy types a variable by its first binding; pyright follows each assignment. When pyright ran and
    saw no problem, a mypy-only attribute finding is a re-bound variable, not a runtime error: advisory."""
    if not any(s.tool == "pyright" and s.status == "ok" for s in statuses):
        return diags
    for d in diags:
        if d.tool == "mypy" and d.severity == "blocking" and d.code in ("attr-defined", "union-attr") and "pyright" not in d.also:
            d.severity = "advisory"
            d.message += " (mypy only; pyright sees no error here)"
    return diags


def _report(
    diags: list[Diagnostic],
    statuses: list[ToolStatus],
    seconds: float,
    version: str,
    note: str,
    source: str = "",
    stubs: Path | None = None,
) -> LintReport:
    diags = refine(diags, source, version, stubs) if source else diags
    if note:
        statuses = [
            s.model_copy(update={"detail": (s.detail + " " + note).strip()}) if s.tool in ("mypy", "pyright") else s for s in statuses
        ]
    merged = _second_opinion(deduplicate(diags), statuses)
    return LintReport(
        blender_version=version,
        diagnostics=sorted(merged, key=lambda d: (d.severity != "blocking", d.line, d.col)),
        tools=statuses,
        seconds=seconds,
    )


def lint_files(
    paths: Sequence[Path],
    tools: Sequence[Tool] = ALL_TOOLS,
    version: str = "4.5",
    rules: Sequence[Rule] = (),
    *,
    shared_cache: bool = True,
) -> dict[Path, LintReport]:
    """Lint many scripts with one CLI run per tool (the batch path: CI checks, benchmarks).

    rules: the caller's rule pack for `version` (none by default: the harness does not import bpywright.rules).
    shared_cache keeps mypy's cache between calls (later runs take a fraction of a second);
    False measures a truly cold run.
    """
    stubs, note = stubs_dir(version)
    with tempfile.TemporaryDirectory(prefix="bpywright-lint-") as tmp:
        config = CheckerConfig.write(Path(tmp), stubs, shared_mypy_cache(stubs) if shared_cache else None)
        copies: dict[Path, Path] = {}
        sources: dict[Path, str] = {}
        for i, path in enumerate(paths):
            source = path.read_text(encoding="utf-8", errors="replace")
            sources[path] = source
            copy = Path(tmp) / f"s{i:05d}_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}.py"
            copy.write_text(source, encoding="utf-8")
            copies[path] = copy
        valid = [c for p, c in copies.items() if not syntax_diagnostics(sources[p])]
        results: dict[Path, list[Diagnostic]] = {c: [] for c in copies.values()}
        statuses: list[ToolStatus] = []
        for tool in tools:
            found, status = _run_tool(tool, config, valid) if valid else ({}, ToolStatus(tool=tool, status="skipped"))
            statuses.append(status)
            for copy, diags in found.items():
                results[copy].extend(diags)
    reports = {}
    for path, copy in copies.items():
        syntax = syntax_diagnostics(sources[path], path.name)
        extra = [d for rule in rules for d in rule(sources[path])] if not syntax else []
        diags = syntax + extra + ([] if syntax else results[copy])
        reports[path] = _report(diags, statuses, sum(s.seconds for s in statuses), version, note, sources[path], stubs)
    return reports


def lint_source(
    source: str, tools: Sequence[Tool] = ALL_TOOLS, version: str = "4.5", rules: Sequence[Rule] = (), *, shared_cache: bool = True
) -> LintReport:
    """Lint one script with CLI runs (seconds: pyright starts cold every time; mypy reuses its cache)."""
    with tempfile.TemporaryDirectory(prefix="bpywright-snippet-") as tmp:
        path = Path(tmp) / "snippet.py"
        path.write_text(source, encoding="utf-8")
        return lint_files([path], tools, version, rules, shared_cache=shared_cache)[path]


WORKSPACE_PREFIX = "bpywright-linter-"


def _tail(path: Path, chars: int = 300) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-chars:]
    except OSError:
        return ""


def remove_leftover_workspaces() -> int:
    """Delete linter workspaces (bpywright-linter-PID-*) whose owning process is gone (a killed run); returns how many."""
    from .sandbox import pid_alive

    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{WORKSPACE_PREFIX}*"):
        owner = path.name[len(WORKSPACE_PREFIX) :].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and not pid_alive(int(owner)) and _own_folder(path):
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def _own_folder(path: Path) -> bool:
    """A real folder (not a link) of this user's: never remove another user's look-alike in the shared /tmp."""
    try:
        st = path.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid()


class Linter:
    """Warm checkers for many snippets: ruff per call, dmypy and pyright-langserver kept running (rules: the caller's rule pack)."""

    def __init__(self, tools: Sequence[Tool] = ALL_TOOLS, version: str = "4.5", rules: Sequence[Rule] = ()):
        self.tools = tuple(tools)
        self.version = version
        self.rules = tuple(rules)
        remove_leftover_workspaces()
        self._tmp = Path(tempfile.mkdtemp(prefix=f"{WORKSPACE_PREFIX}{os.getpid()}-"))
        self._stubs, self._note = stubs_dir(version)
        stubs = self._stubs
        self.config = CheckerConfig.write(self._tmp, stubs)
        self.snippet = self._tmp / "snippet.py"
        self._status = self._tmp / "dmypy.json"
        self._log = self._tmp / "dmypy.log"
        self._lock = threading.Lock()
        self._server: LanguageServer | None = None
        self._dmypy_started = False
        self._daemon: subprocess.Popen | None = None
        self._executor = ThreadPoolExecutor(len(self.tools) or 1)

    def __enter__(self) -> Linter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _dmypy(self, *args: str, timeout: float | None = None) -> subprocess.CompletedProcess:
        return _run([str(BIN / "dmypy"), "--status-file", str(self._status), *args], self._tmp, timeout)

    def _mypy_warm(self) -> tuple[list[Diagnostic], ToolStatus]:
        """The snippet through the warm daemon. A daemon that idled out, died, or hung (HANG_S) is killed and replaced
        once; where the fresh one fails too (a starved machine), this check fails, never the caller."""
        start = time.perf_counter()
        problem = ""
        for fresh in (False, True):
            wait = TIMEOUT if fresh else min(HANG_S, TIMEOUT)
            try:
                if not self._dmypy_started:
                    problem = self._start_daemon(wait)
                    if problem:
                        continue
                    self._dmypy_started = True
                proc = self._dmypy("check", str(self.snippet), timeout=wait)
            except (OSError, subprocess.TimeoutExpired) as exc:
                self._end_dmypy("kill")
                timed_out = isinstance(exc, subprocess.TimeoutExpired)
                problem = f"dmypy did not answer a check within {wait:g}s{self._log_tail()}" if timed_out else str(exc)[:300]
                continue
            if proc.returncode in (0, 1):
                diags = [d for name, d in parse_mypy(proc.stdout) if Path(name).name == self.snippet.name]
                return diags, ToolStatus(tool="mypy", status="ok", seconds=time.perf_counter() - start)
            self._end_dmypy("kill")
            problem = (proc.stderr or proc.stdout)[-300:]
        return [], ToolStatus(tool="mypy", status="failed", seconds=time.perf_counter() - start, detail=problem[-300:])

    def _log_tail(self) -> str:
        """': LAST LINES' of the daemon's log, where it wrote one (what it was doing when it stopped answering)."""
        tail = _tail(self._log)
        return f": {tail[-200:]}" if tail else ""

    def _start_daemon(self, wait: float = TIMEOUT) -> str:
        """Start dmypy in the foreground as our child (not `dmypy start`, which detaches it: a killed bpywright left it
        running), dying with bpywright; wait up to `wait` s for its status file. Returns what went wrong, or ''."""
        self._status.unlink(missing_ok=True)
        argv = [str(BIN / "dmypy"), "--status-file", str(self._status), "daemon", "--timeout", str(DMYPY_IDLE_S)]
        argv += ["--log-file", str(self._log), "--", *self.config.mypy_flags()]
        argv, preexec = dying_with_parent(argv)
        self._daemon = on_spawner_thread(
            lambda: subprocess.Popen(
                argv,
                cwd=self._tmp,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=preexec,
            )
        )
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self._status.is_file() and self._status.stat().st_size > 0:
                return ""
            code = self._daemon.poll()
            if code is not None:
                self._daemon = None
                return f"dmypy exited with code {code}: {_tail(self._log)}"
            time.sleep(0.05)
        self._daemon.kill()  # never left running behind a failed check
        self._daemon.wait()
        self._daemon = None
        return f"dmypy did not start within {wait:g}s{self._log_tail()}"

    def _end_dmypy(self, how: str = "stop") -> None:
        """Stop ("stop") or kill ("kill", a hung one) the daemon, best effort; the next check starts a fresh one."""
        if self._dmypy_started:
            try:
                self._dmypy(how)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self._daemon is not None:
            try:
                self._daemon.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._daemon.kill()
                self._daemon.wait()
            self._daemon = None
        self._dmypy_started = False

    def _pyright_warm(self, source: str) -> tuple[list[Diagnostic], ToolStatus]:
        start = time.perf_counter()
        try:
            if self._server is None:
                self._server = LanguageServer(self.config.langserver_argv(), self._tmp)
            items = self._server.diagnostics(self.snippet, source)
        except (LanguageServerError, OSError) as exc:
            if self._server is not None:
                self._server.close()
                self._server = None
            return [], ToolStatus(tool="pyright", status="failed", seconds=time.perf_counter() - start, detail=str(exc)[:300])
        diags = [d for _, d in parse_pyright(items)]
        return diags, ToolStatus(tool="pyright", status="ok", seconds=time.perf_counter() - start)

    def _check_one(self, tool: Tool, source: str) -> tuple[list[Diagnostic], ToolStatus]:
        if tool == "ruff":
            found, status = _run_tool("ruff", self.config, [self.snippet])
            return found[self.snippet], status
        if tool == "mypy":
            return self._mypy_warm()
        return self._pyright_warm(source)

    def lint(self, source: str) -> LintReport:
        """Lint one snippet with the warm checkers."""
        with self._lock:
            start = time.perf_counter()
            syntax = syntax_diagnostics(source)
            if syntax:
                skipped = [ToolStatus(tool=t, status="skipped", detail="syntax error") for t in self.tools]
                return _report(syntax, skipped, time.perf_counter() - start, self.version, "")
            self.snippet.write_text(source, encoding="utf-8")
            diags = [d for rule in self.rules for d in rule(source)]
            # the three checkers are separate processes: ask them all at once
            futures = [self._executor.submit(self._check_one, tool, source) for tool in self.tools]
            statuses = []
            for future in futures:
                found, status = future.result()
                diags.extend(found)
                statuses.append(status)
            return _report(diags, statuses, time.perf_counter() - start, self.version, self._note, source, self._stubs)

    def close(self) -> None:
        """Stop dmypy and the language server, remove the workspace."""
        self._executor.shutdown()
        if self._server is not None:
            self._server.close()
            self._server = None
        self._end_dmypy("stop")
        shutil.rmtree(self._tmp, ignore_errors=True)


def render_fix_block(source: str, report: LintReport, context: int = 1, include_advisory: bool = False) -> str:
    """A "fix these" block: each finding with its surrounding lines, for people and for the healer."""
    lines = source.splitlines()
    chosen = [d for d in report.diagnostics if include_advisory or d.severity == "blocking"]
    if not chosen:
        return "No blocking problems found."
    out = [f"Fix these {len(chosen)} problem(s) (Blender {report.blender_version}):"]
    for d in chosen:
        tools = "/".join([d.tool, *d.also])
        out.append(f"\nline {d.line}: {d.message}  [{tools} {d.code}, {d.severity}]")
        if d.fix:
            out.append(f"  fix: {d.fix}")
        lo, hi = max(1, d.line - context), min(len(lines), d.line + context)
        for n in range(lo, hi + 1):
            out.append(f"{'>' if n == d.line else ' '} {n:4d} | {lines[n - 1]}")
    return "\n".join(out)
