"""Correctness corpora for the lint bench: BlendNet (JSONL in the shared data), manifests of public scripts, and
bench/corpora/generators/ (procedural generators written for this bench in the style of public ones).

A manifest (bench/corpora/*.json) lists repo/commit/path/sha256 of real-world scripts; their text is never
committed. It is read from a cache outside the repository:

    <cache>/<owner>+<name>/<commit>/<path>          (default cache: ~/.cache/bpywright-corpus)

Fill the cache from git mirrors of the repositories (a dir holding <owner>+<name>/repo[/.git]):

    .venv/bin/python bench/corpus.py fill bench/corpora/procedural.json --mirrors /work/.mirror
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = Path.home() / ".cache" / "bpywright-corpus"
BLENDNET = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
MANIFESTS = ROOT / "bench" / "corpora"
GENERATORS = MANIFESTS / "generators"  # our own generator-style scripts (committed: written for this corpus)


class CorpusError(RuntimeError):
    """A corpus cannot be read; the message says how to get it."""


@dataclass(frozen=True)
class Script:
    """One script of a corpus: a short name and its text."""

    name: str
    source: str


def cache_path(cache: Path, entry: dict) -> Path:
    """Where a manifest entry's text lives in the cache."""
    return cache / entry["repo"].replace("/", "+", 1) / entry["commit"] / entry["path"]


def safe_name(entry: dict) -> str:
    """A file-name-safe short name for a manifest entry."""
    raw = f"{entry['repo'].split('/')[-1]}__{entry['path']}"
    return "".join(c if c.isalnum() else "_" for c in raw.removesuffix(".py"))[-90:]


def load_manifest(manifest: Path, cache: Path = DEFAULT_CACHE, *, partial: bool = False) -> list[Script]:
    """The scripts of a manifest, read from the cache and checked against their sha256 (partial: skip, and say, those
    missing or changed instead of failing)."""
    data = json.loads(manifest.read_text(encoding="utf-8"))
    scripts, missing, changed = [], [], []
    for entry in data["scripts"]:
        path = cache_path(cache, entry)
        if not path.is_file():
            missing.append(path)
            continue
        text = path.read_bytes()
        if hashlib.sha256(text).hexdigest() != entry["sha256"]:
            changed.append(path)
            continue
        scripts.append(Script(safe_name(entry), text.decode("utf-8", errors="replace")))
    if (missing or changed) and partial:
        print(
            f"{manifest.name}: {len(missing)} scripts missing and {len(changed)} changed in {cache}; measuring the other {len(scripts)}",
            file=sys.stderr,
        )
    elif missing or changed:
        sample = ", ".join(str(p) for p in (missing + changed)[:2])
        raise CorpusError(
            f"{len(missing)} scripts of {manifest.name} missing and {len(changed)} changed in {cache} (e.g. {sample}): "
            f"run `.venv/bin/python bench/corpus.py fill {manifest} --mirrors DIR` with git mirrors of the repositories"
        )
    return scripts


def load_directory(folder: Path = GENERATORS) -> list[Script]:
    """Every script of a folder of committed scripts, by file name."""
    return [Script(path.stem, path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.py"))]


def load_blendnet(data: Path = BLENDNET, n: int | None = None) -> list[Script]:
    """The first n scripts of a BlendNet JSONL file (all when n is None)."""
    if not data.is_file():
        raise CorpusError(f"no BlendNet data at {data}: pass --data PATH")
    with data.open(encoding="utf-8") as fh:
        return [Script(f"blendnet_{i:04d}", json.loads(line)["script"]) for i, line in enumerate(itertools.islice(fh, n))]


def fill(manifest: Path, mirrors: Path, cache: Path = DEFAULT_CACHE) -> tuple[int, int]:
    """Copy each manifest entry from a git mirror into the cache; (written, failed)."""
    data = json.loads(manifest.read_text(encoding="utf-8"))
    written = failed = 0
    for entry in data["scripts"]:
        repo = mirrors / entry["repo"].replace("/", "+", 1) / "repo"
        git_dir = repo / ".git" if (repo / ".git").is_dir() else repo
        proc = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{entry['commit']}:{entry['path']}"], capture_output=True)
        data = proc.stdout
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            data = data.replace(b"\r\n", b"\n")  # a file committed with CRLF, pinned as a checkout with LF gives it
        if proc.returncode != 0 or hashlib.sha256(data).hexdigest() != entry["sha256"]:
            failed += 1
            print(f"cannot fill {entry['repo']}@{entry['commit'][:10]}:{entry['path']}", file=sys.stderr)
            continue
        dest = cache_path(cache, entry)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        written += 1
    return written, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fill", help="copy a manifest's scripts from git mirrors into the cache")
    f.add_argument("manifest", type=Path)
    f.add_argument("--mirrors", type=Path, required=True)
    f.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    written, failed = fill(args.manifest, args.mirrors, args.cache)
    print(f"{written} scripts in {args.cache}, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
