"""Which attributes the stubs give each bpy/mathutils class and its subclasses: proof that an attribute exists nowhere."""

from __future__ import annotations

import ast
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .overlay import parse_stub

INDEX = "members.json"
INDEX_VERSION = 2
# Stub modules whose classes a script reaches through attributes (bpy.types.*, mathutils.*, bmesh.types.*).
MODULES = ("bpy/types/__init__.pyi", "mathutils/__init__.pyi", "bmesh/types/__init__.pyi")
CLASS_LINE = re.compile(r"^class (\w+)", re.M)


@dataclass
class MemberIndex:
    """Bases and members of every stub class, with the subclasses derived from the bases."""

    bases: dict[str, list[str]]
    members: dict[str, set[str]]
    elsewhere: set[str] = field(default_factory=set)  # classes of other stub modules (bl_ui menus, panels, headers)
    children: dict[str, set[str]] = field(default_factory=dict)
    everywhere: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        for cls, bases in self.bases.items():
            for base in bases:
                self.children.setdefault(base, set()).add(cls)
        self.everywhere = set().union(*self.members.values()) if self.members else set()

    def knows(self, cls: str) -> bool:
        """True when cls is a class of the stubs."""
        return cls in self.members

    def _family(self, cls: str) -> set[str]:
        seen: set[str] = set()
        todo = [cls]
        while todo:  # descendants
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo.extend(self.children.get(c, ()))
        todo = list(self.bases.get(cls, ()))
        while todo:  # ancestors
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo.extend(self.bases.get(c, ()))
        return seen

    def on_some_subclass(self, cls: str, attr: str) -> bool:
        """True when cls, a base or a subclass of it declares attr (reaching it through the base may work)."""
        return any(attr in self.members.get(c, ()) for c in self._family(cls))

    def is_stub_class(self, name: str) -> bool:
        """True when some stub module declares a class of that name (bpy.types or a Python-defined UI class)."""
        return name in self.members or name in self.elsewhere

    def anywhere(self, attr: str) -> bool:
        """True when some stub class declares attr."""
        return attr in self.everywhere


def _classes(tree: ast.Module) -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    bases: dict[str, list[str]] = {}
    members: dict[str, set[str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        names = []
        for b in node.bases:
            b = b.value if isinstance(b, ast.Subscript) else b
            if isinstance(b, ast.Name | ast.Attribute):
                names.append(b.id if isinstance(b, ast.Name) else b.attr)
        bases[node.name] = names
        found = members.setdefault(node.name, set())
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(item.name)
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                found.add(item.target.id)
            elif isinstance(item, ast.Assign):
                found.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return bases, members


def build_index(stubs: Path) -> MemberIndex:
    """Parse the stub modules of a built stubs dir into a MemberIndex."""
    bases: dict[str, list[str]] = {}
    members: dict[str, set[str]] = {}
    for rel in MODULES:
        path = stubs / rel
        if path.is_file():
            b, m = _classes(parse_stub(path.read_text(encoding="utf-8")))
            bases.update(b)
            for cls, names in m.items():
                members.setdefault(cls, set()).update(names)
    elsewhere = set()
    for path in stubs.rglob("*.pyi"):  # bl_ui/bl_operators classes end up in bpy.types once Blender registers them
        if path.relative_to(stubs).as_posix() not in MODULES:
            elsewhere.update(CLASS_LINE.findall(path.read_text(encoding="utf-8", errors="replace")))
    return MemberIndex(bases, members, elsewhere)


def _stamp(stubs: Path) -> str:
    try:
        return f"{INDEX_VERSION}:" + (stubs / "manifest.json").read_text(encoding="utf-8")
    except OSError:
        return f"{INDEX_VERSION}:none"


@cache
def member_index(stubs: Path | None) -> MemberIndex | None:
    """The MemberIndex of a built stubs dir, cached as members.json next to it (None without stubs)."""
    if stubs is None or not (stubs / MODULES[0]).is_file():
        return None
    cached = stubs / INDEX
    stamp = _stamp(stubs)
    try:
        data = json.loads(cached.read_text(encoding="utf-8"))
        if data.get("stamp") == stamp:
            return MemberIndex(data["bases"], {k: set(v) for k, v in data["members"].items()}, set(data["elsewhere"]))
    except (OSError, ValueError, KeyError):
        pass
    index = build_index(stubs)
    payload = {
        "stamp": stamp,
        "bases": index.bases,
        "members": {k: sorted(v) for k, v in index.members.items()},
        "elsewhere": sorted(index.elsewhere),
    }
    try:  # atomic: concurrent linters may race to write it
        fd, tmp = tempfile.mkstemp(prefix=".members-", dir=stubs)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(payload, fh)
        os.replace(tmp, cached)
    except OSError:
        pass  # a read-only stubs dir: the index is rebuilt per process
    return index
