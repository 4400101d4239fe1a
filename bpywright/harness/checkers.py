"""The static checkers (ruff, mypy, pyright): configuration, command lines and output → Diagnostic."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic, Tool

BIN = Path(sys.executable).parent
# Generated code is judged on what breaks at runtime, not style: pyflakes, syntax, and a few bugbear checks.
RUFF_SELECT = "F,E9,B006,B008,B015,B018,PLE"
# Only what raises: `x is "a"` (F632) is a SyntaxWarning and `__all__` naming a missing name (F822) fails only on `import *`.
RUFF_BLOCKING = {"F821", "F823", "PLE0117", "PLE0118", "PLE1142"}
MYPY_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|note|warning): (?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$")
QUOTED = re.compile(r'"([^"]+)"')
STR_LITERAL = re.compile(r"Literal\['[^']*'\]")
GIVEN_TYPE = re.compile(r'(?:Argument of type|incompatible type|expression has type|\bType) "([^"]+)"')
ONLY_STR_LITERALS = re.compile(r"^Literal\['[^']*'(?:, '[^']*')*\]$")
ENUM_EXPECTED = re.compile(r'(?:parameter "[^"]+" of type|expected|to type|variable has type) "([^"]+)"')
ENUM_ALIAS = re.compile(r"^(?:[\w.]+\.)?\w+Items$")
PLAIN_MISMATCH = re.compile(r'^Cannot assign to attribute "[^"]+" for class "[^"]+"\s+"([^"]+)" is not assignable to "[^"]+"')
EXPECTED_TYPE = re.compile(r'(?:of type|to type|variable has type|is not assignable to) "([^"]+)"')
_LITERAL_ITEM = r"(?:'[^']*'|-?\d+|True|False)"
SCALAR = re.compile(rf"^(?:str|int|float|bool|Literal\[{_LITERAL_ITEM}(?:, {_LITERAL_ITEM})*\])$")
STRING = re.compile(r"^(?:str|Literal\['[^']*'(?:, '[^']*')*\])$")
# What a vector/matrix/array property's setter takes (typings/overlays: measured in Blender): sequences, numpy
# arrays, mathutils values. A str or a number given there raises (measured: "sequence expected", "expected
# sequence items of type float, not str").
SEQUENCE_LIKE = re.compile(
    r"^(?:(?:collections\.abc\.)?(?:Sequence|Iterable|MutableSequence)\[|NDArray\b|ndarray\[|bpy_prop_array\[|tuple\[|list\[|Vector$|Matrix$|Euler$|Quaternion$|Color$)"
)


@dataclass(frozen=True)
class CheckerConfig:
    """A workspace with mypy.ini and pyrightconfig.json pointing at the version-matched stubs."""

    root: Path
    stubs: Path | None

    @classmethod
    def write(cls, root: Path, stubs: Path | None, cache: Path | None = None) -> CheckerConfig:
        """Create the config files under root (stubs None: the installed fake-bpy-module stubs).

        cache: mypy's incremental cache; a persistent one makes later cold runs fast (default: inside root).
        """
        root.mkdir(parents=True, exist_ok=True)
        # The stubs build ships its own configs (stub path, errors inside stubs ignored, …): start from them.
        base = (stubs / "mypy.ini").read_text().replace("$MYPY_CONFIG_FILE_DIR", str(stubs)) if stubs else "[mypy]\n"
        head, _, sections = base.partition("\n[mypy-")
        mypy = [
            head.rstrip(),
            "ignore_missing_imports = True",
            "check_untyped_defs = True",
            "warn_unused_ignores = False",
            f"cache_dir = {cache or root / '.mypy_cache'}",
        ]
        if sections:
            mypy.append("\n[mypy-" + sections)
        (root / "mypy.ini").write_text("\n".join(mypy) + "\n")
        pyright = json.loads((stubs / "pyrightconfig.json").read_text()) if stubs else {}
        pyright.update(
            {
                "pythonVersion": "3.11",
                "typeCheckingMode": "basic",
                "reportMissingModuleSource": "none",
                "reportMissingImports": "warning",
                "reportAttributeAccessIssue": "error",
                "reportOptionalMemberAccess": "warning",
            }
        )
        if stubs is not None:
            pyright["stubPath"] = str(stubs)
        (root / "pyrightconfig.json").write_text(json.dumps(pyright, indent=2))
        return cls(root, stubs)

    def ruff_argv(self, files: list[Path]) -> list[str]:
        """ruff check with our rule set, JSON output, no user config."""
        return [
            str(BIN / "ruff"),
            "check",
            "--isolated",
            "--no-cache",
            "--output-format",
            "json",
            "--select",
            RUFF_SELECT,
            "--target-version",
            "py311",
            *map(str, files),
        ]

    def mypy_flags(self) -> list[str]:
        """Flags shared by mypy and dmypy: our config, one parsable line per message."""
        return [
            "--config-file",
            str(self.root / "mypy.ini"),
            "--show-column-numbers",
            "--show-error-codes",
            "--no-error-summary",
            "--hide-error-context",
            "--no-pretty",
            "--no-color-output",
        ]

    def mypy_argv(self, files: list[Path]) -> list[str]:
        """A cold mypy run over files."""
        return [str(BIN / "mypy"), *self.mypy_flags(), *map(str, files)]

    def pyright_argv(self, files: list[Path]) -> list[str]:
        """A cold pyright run over files, JSON output."""
        return [str(BIN / "pyright"), "--outputjson", "-p", str(self.root), "--pythonpath", sys.executable, *map(str, files)]

    def langserver_argv(self) -> list[str]:
        """pyright's language server over stdio."""
        return [str(BIN / "pyright-langserver"), "--stdio"]


# ---------------------------------------------------------------- parsing


def shared_mypy_cache(stubs: Path | None) -> Path:
    """A per-user, per-stubs mypy cache that survives between cold lint runs, in this user's private scratch folder
    (a cache folder someone else made would let them choose what mypy reads and where it writes)."""
    import hashlib

    from .sandbox import user_temp_dir

    key = hashlib.sha256(str(stubs).encode()).hexdigest()[:12]
    return user_temp_dir(f"mypy-cache-{key}")


def parse_ruff(output: str) -> list[tuple[str, Diagnostic]]:
    """(file, Diagnostic) pairs from `ruff --output-format json`."""
    found = []
    for item in json.loads(output or "[]"):
        code = item.get("code") or "syntax"
        tool: Tool = "syntax" if code in ("syntax", "E999") else "ruff"
        blocking = tool == "syntax" or code in RUFF_BLOCKING
        fix = (item.get("fix") or {}).get("message")
        loc = item.get("location") or {}
        diag = Diagnostic(
            tool=tool,
            code=code,
            severity="blocking" if blocking else "advisory",
            line=loc.get("row", 1),
            col=loc.get("column", 1),
            message=item["message"],
            fix=fix,
        )
        found.append((item["filename"], diag))
    return found


def parse_mypy(output: str) -> list[tuple[str, Diagnostic]]:
    """(file, Diagnostic) pairs from mypy/dmypy text output; notes become fixes of the error before them."""
    found: list[tuple[str, Diagnostic]] = []
    for raw in output.splitlines():
        m = MYPY_LINE.match(raw.strip())
        if not m:
            continue
        if m["sev"] == "note":
            last = found[-1] if found else None
            if (
                last
                and last[0] == m["file"]
                and last[1].line == int(m["line"])
                and last[1].fix is None
                and m["msg"].startswith("Did you mean")
            ):
                last[1].fix = m["msg"]
            continue
        code = m["code"] or "misc"
        msg = m["msg"]
        severity = classify_mypy(code, msg)
        diag = Diagnostic(
            tool="mypy",
            code=code,
            severity=severity,
            line=int(m["line"]),
            col=int(m["col"]),
            message=msg + type_mismatch_note("mypy", code, msg, severity),
            fix=_maybe_hint(msg),
        )
        found.append((m["file"], diag))
    return found


def parse_pyright(items: list[dict], file_key: str = "file") -> list[tuple[str, Diagnostic]]:
    """(file, Diagnostic) pairs from pyright's CLI JSON diagnostics or LSP diagnostics."""
    found = []
    for item in items:
        severity = item.get("severity")
        if severity not in ("error", 1):
            continue
        rule = item.get("rule") or item.get("code") or "error"
        msg = item["message"].replace("\n", " ").replace("\u00a0", " ")
        msg = re.sub(r"\s{2,}", " ", msg)
        start = item["range"]["start"]
        level = classify_pyright(str(rule), msg)
        diag = Diagnostic(
            tool="pyright",
            code=str(rule),
            severity=level,
            line=start["line"] + 1,
            col=start["character"] + 1,
            message=msg + type_mismatch_note("pyright", str(rule), msg, level),
        )
        found.append((item.get(file_key, ""), diag))
    return found


def _maybe_hint(message: str) -> str | None:
    m = re.search(r'maybe "([^"]+)"', message)
    return f'use "{m.group(1)}"' if m else None


# ---------------------------------------------------------------- blocking or advisory


def _about_none(message: str) -> bool:
    return bool(re.match(r'(Item )?"None"', message)) or 'of "None"' in message or 'is not a known attribute of "None"' in message


def given_type(message: str) -> str | None:
    """The type of the value a type-compatibility message is about (the argument or assigned expression)."""
    m = GIVEN_TYPE.search(message)
    return m.group(1) if m else None


def _wrong_string_literal(message: str) -> bool:
    """A string literal given where an enum (Literal union) is expected: a wrong enum value.

    Only a literal proves it: a `str` variable, a union or a numpy array where the stubs want something else
    is a typing disagreement, not a value Blender rejects."""
    given = given_type(message)
    if given is None or not ONLY_STR_LITERALS.match(given):
        return False
    m = ENUM_EXPECTED.search(message, message.find(given) + len(given))
    if m is None:
        return False
    # an enum is a set of string literals (or the stubs' `...Items` alias of one): a library parameter that takes a
    # float or a callable as well (scipy's fill_value="extrapolate") is a typing disagreement, not a wrong item
    members = [t for t in _union_members(m.group(1)) if t != "None"]
    return bool(members) and all(ONLY_STR_LITERALS.match(t) or ENUM_ALIAS.match(t) for t in members)


def _union_members(text: str) -> list[str]:
    """The members of a union type's text, split at top-level `|`."""
    members, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            members.append(text[start:i].strip())
            start = i + 1
    members.append(text[start:].strip())
    return members


def _proved_wrong_type(message: str) -> bool:
    """A str or a number assigned to an attribute that takes only sequences (a vector property), or a str to one that
    takes only numbers: Blender raises on both (measured). Any other mismatch (numpy scalars, unions) may be a value
    Blender converts. pyright's attribute messages only: mypy's cannot tell an attribute from a re-bound variable;
    severity.py demotes the script's own classes."""
    plain = PLAIN_MISMATCH.search(message)  # pyright on a plain attribute: "Literal['a']" is not assignable to "float"
    given = given_type(message) or (plain.group(1) if plain else None)
    if not message.startswith("Cannot assign to attribute") or given is None or not SCALAR.match(given):
        return False
    m = EXPECTED_TYPE.search(message, message.find(given) + len(given))
    if m is None:
        return False
    expected = _union_members(m.group(1))
    if all(SEQUENCE_LIKE.match(t) for t in expected):
        return True
    return bool(STRING.match(given)) and all(t in ("float", "int") for t in expected)


def type_mismatch_note(tool: Tool, code: str, message: str, severity: str) -> str:
    """The reason a type-compatibility finding is advisory (" (advisory: ...)"), or "" when it is not one.

    These used to block: any mismatch against an enum `Literal`, any value of another type assigned to an attribute."""
    if severity != "advisory" or _about_none(message):
        return ""
    to_enum = bool(STR_LITERAL.search(message)) and ("Literal[" in message.split("expected", 1)[-1] or "is not assignable" in message)
    given = given_type(message)
    if to_enum and given is not None and ONLY_STR_LITERALS.match(given):  # a literal, but the parameter is no enum
        return " (advisory: the parameter is not an enum of names (a library's own type), so no wrong enum item is proved)"
    if tool == "mypy" and code in ("arg-type", "assignment") and to_enum:
        return " (advisory: the value is not a string literal, so no wrong enum item is proved)"
    if tool == "pyright" and code in ("reportArgumentType", "reportAssignmentType", "reportAttributeAccessIssue"):
        if to_enum:
            return " (advisory: the value is not a string literal, so no wrong enum item is proved)"
        if code == "reportAttributeAccessIssue" and " is not assignable to " in message:
            return " (advisory: a value of another type; Blender converts numbers such as numpy scalars)"
    return ""


def classify_mypy(code: str, message: str) -> str:
    """blocking for errors that fail at runtime on concrete types; advisory for typing-only noise."""
    if code in ("name-defined", "syntax", "attr-defined"):
        return "advisory" if _about_none(message) else "blocking"
    if code == "union-attr":
        item = QUOTED.search(message)
        return "advisory" if item is None or item.group(1) == "None" else "blocking"
    if code == "call-arg" and message.startswith("Unexpected keyword argument"):
        return "blocking"
    if code in ("arg-type", "assignment") and _wrong_string_literal(message):
        return "blocking"
    return "advisory"


def classify_pyright(rule: str, message: str) -> str:
    """blocking for unknown attributes/parameters/names and wrong enum literals; the rest advisory."""
    if rule in ("reportUndefinedVariable",):
        return "blocking"
    if rule == "reportAttributeAccessIssue":
        subject = re.search(r'for class "([^"]+)"', message)
        if subject and subject.group(1) in ("None", "MethodType", "FunctionType"):
            return "advisory"
        if _about_none(message):
            return "advisory"
        if " is not assignable to " in message:  # a value of another type assigned to a known attribute
            return "blocking" if _wrong_string_literal(message) or _proved_wrong_type(message) else "advisory"
        return "blocking"
    if rule == "reportCallIssue" and message.startswith("No parameter named"):
        return "blocking"
    if rule in ("reportArgumentType", "reportAssignmentType", "reportAttributeAccessIssue") and _wrong_string_literal(message):
        return "blocking"
    return "advisory"
