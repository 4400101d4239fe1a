"""MkDocs hooks: the reference pages are generated from the code at build time, so they never drift from it.

- reference/commands/*.md: `bpywright <command> --help` for every command (and sub-action) of the CLI's own parser;
- reference/http-api.md + reference/openapi.json: the service's OpenAPI schema, exported from the FastAPI app;
- reference/configuration.md: every `Settings` field with its environment variable, default and description;
- reference/rules.md: every drift rule by family, as `bpywright rules list` prints it (rules/catalogue.py);
- pages taken as they are from files at the repository root (ARCHITECTURE.md, CHANGELOG.md, CONTRIBUTING.md,
  ci/README.md) and the committed benchmark tables under bench/results/.
Nothing is written into docs/: the pages exist only in the build (File.generated).
"""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # document this checkout's code, whatever is installed

HELP_COLUMNS = "100"  # argparse wraps help text to $COLUMNS: fixed, so a build does not depend on the terminal

# Pages whose source is a file elsewhere in the repository: docs path → repository path.
INCLUDED = {
    "architecture.md": "ARCHITECTURE.md",
    "changelog.md": "CHANGELOG.md",
    "contributing.md": "CONTRIBUTING.md",
    "ci-reference.md": "ci/README.md",
    "benchmarks/generation.md": "bench/results/generation/README.md",
}
BENCH_RESULTS = ROOT / "bench" / "results"


# ---------------------------------------------------------------- the CLI


def cli_commands() -> list[tuple[str, str, Any]]:
    """(name, one-line help, parser) of every top-level command, in the parser's order."""
    import argparse

    os.environ["COLUMNS"] = HELP_COLUMNS
    from bpywright.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    return [(name, helps.get(name, ""), p) for name, p in sub.choices.items()]


def sub_actions(parser: Any) -> list[tuple[str, str, Any]]:
    """(name, help, parser) of a command's own sub-actions (`exemplars add`, `model install`, …)."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return [(name, helps.get(name, ""), p) for name, p in action.choices.items()]
    return []


def command_page(name: str, summary: str, parser: Any) -> str:
    """One command's page: its summary, `--help`, and each sub-action's `--help`."""
    lines = [
        f"# bpywright {name}",
        "",
        f"{summary[:1].upper()}{summary[1:]}." if summary else "",
        "",
        "<!-- generated from the CLI's parser by docs/hooks.py: edit the help strings in the code, not this page -->",
        "",
        "```text",
        parser.format_help().rstrip(),
        "```",
    ]
    for action, help_text, child in sub_actions(parser):
        lines += ["", f"## bpywright {name} {action}", "", f"{help_text[:1].upper()}{help_text[1:]}." if help_text else "", ""]
        lines += ["```text", child.format_help().rstrip(), "```"]
    return "\n".join(lines) + "\n"


def commands_index(commands: list[tuple[str, str, Any]]) -> str:
    """The table of commands, each linked to its page."""
    rows = [f"| [`{name}`]({name}.md) | {summary} |" for name, summary, _ in commands]
    return (
        "\n".join(
            [
                "# Commands",
                "",
                "Every command of `bpywright`, with its `--help` as the installed version prints it (generated from the",
                "CLI's parser at build time). Exit codes: 0 success, 1 the checked thing failed, 2 usage error.",
                "",
                "| command | what it does |",
                "|---|---|",
                *rows,
            ]
        )
        + "\n"
    )


# ---------------------------------------------------------------- the drift rules


def rules_page() -> str:
    """Every drift rule by family: where its old form fails, the errors it explains, its example."""
    from bpywright.rules.catalogue import catalogue

    lines = [
        "# Drift rules",
        "",
        "<!-- generated from the rules by docs/hooks.py (`bpywright rules list` prints the same) -->",
        "",
        "Each rule finds an old form of the Blender API, rewrites it, and knows the versions where that form fails and the",
        "runtime errors it explains. A rule's family is where it lives: `bpywright/rules/families/<family>.py` or",
        "`<family>/`. Rules apply in this order.",
    ]
    family = None
    for e in catalogue():
        if e.family != family:
            family = e.family
            lines += ["", f"## {family}"]
        explains = "; ".join(f"`{p}`" for p in e.explains) or "none (a sure fix, found statically)"
        lines += ["", f"### {e.id}", "", e.title, "", f"- fails on: {e.fails_in}", f"- explains: {explains}", ""]
        lines += ["```python", "# before", e.before, "# after", e.after, "```"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the HTTP API


def openapi_schema() -> dict[str, Any]:
    """The service's OpenAPI document, as `GET /openapi.json` serves it (the app is built, never started)."""
    from bpywright.config import Settings
    from bpywright.service.app import create_app

    return create_app(Settings()).openapi()


def schema_anchor(name: str) -> str:
    return "schema-" + "".join(c if c.isalnum() else "-" for c in name.lower())


def type_of(schema: dict[str, Any]) -> str:
    """A short, linked description of a JSON Schema's type."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{schema_anchor(name)})"
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            parts = [type_of(s) for s in schema[key]]
            return " \\| ".join(dict.fromkeys(parts))
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {type_of(schema.get('items', {}))}"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"object of {type_of(schema['additionalProperties'])}"
    if isinstance(kind, list):
        return " \\| ".join(kind)
    return kind + (f" ({schema['format']})" if "format" in schema else "")


def cell(text: Any) -> str:
    """Text fit for a Markdown table cell."""
    return " ".join(str(text or "").split()).replace("|", "\\|")


def limits(schema: dict[str, Any]) -> str:
    """The constraints of a field (min/max, lengths, pattern) as one short string."""
    names = {
        "minimum": "≥",
        "exclusiveMinimum": ">",
        "maximum": "≤",
        "exclusiveMaximum": "<",
        "minLength": "length ≥",
        "maxLength": "length ≤",
        "pattern": "pattern",
    }
    return ", ".join(f"{label} `{schema[key]}`" for key, label in names.items() if key in schema)


def http_api_page(spec: dict[str, Any]) -> str:
    """The OpenAPI document as Markdown: each operation with its parameters, body and responses, then the schemas."""
    out = [
        "# HTTP API",
        "",
        f"{spec['info'].get('description', '')} Generated at build time from the FastAPI app's OpenAPI schema "
        f"(version `{spec['info'].get('version', '')}`, OpenAPI {spec.get('openapi', '')}); the same document is served at "
        "`/openapi.json` with an interactive explorer at `/docs`, and is here as [openapi.json](openapi.json).",
        "",
        "Access: on loopback without `BPYWRIGHT_API_TOKEN` no token is needed; with it, every request needs "
        "`Authorization: Bearer TOKEN` (browsers sign in at `/login`), except reads when `BPYWRIGHT_PUBLIC_GALLERY=1`. "
        "Requests whose `Host` is not allowed get 400, bodies over the limit 413, a full queue 429 with `Retry-After` "
        "([configuration](configuration.md)). The MCP endpoint `/mcp` is described in [MCP](../mcp.md).",
        "",
        "## Operations",
        "",
    ]
    for path, methods in spec.get("paths", {}).items():
        for method, op in methods.items():
            out += [f"### `{method.upper()} {path}`", ""]
            text = op.get("description") or op.get("summary") or ""
            if text:
                out += [text.strip(), ""]
            params = op.get("parameters", [])
            if params:
                out += ["| parameter | in | type | required | description |", "|---|---|---|---|---|"]
                for p in params:
                    schema = p.get("schema", {})
                    desc = " ".join(x for x in (p.get("description") or schema.get("description", ""), limits(schema)) if x)
                    default = f" (default `{json.dumps(schema['default'])}`)" if "default" in schema else ""
                    required = "yes" if p.get("required") else "no"
                    out.append(f"| `{p['name']}` | {p['in']} | {type_of(schema)} | {required} | {cell(desc)}{default} |")
                out.append("")
            body = op.get("requestBody")
            if body:
                for media, content in body.get("content", {}).items():
                    out += [f"Request body (`{media}`): {type_of(content.get('schema', {}))}", ""]
            responses = op.get("responses", {})
            if responses:
                out += ["| status | meaning | body |", "|---|---|---|"]
                for code, response in responses.items():
                    kinds = [f"{type_of(c.get('schema', {}))} (`{m}`)" for m, c in response.get("content", {}).items() if c.get("schema")]
                    out.append(f"| {code} | {cell(response.get('description'))} | {', '.join(kinds) or '–'} |")
                out.append("")
    out += ["## Schemas", ""]
    for name, schema in sorted(spec.get("components", {}).get("schemas", {}).items()):
        out += [f"### {name} {{#{schema_anchor(name)}}}", ""]
        if schema.get("description"):
            out += [schema["description"].strip(), ""]
        props = schema.get("properties")
        if props:
            required = set(schema.get("required", []))
            out += ["| field | type | required | description |", "|---|---|---|---|"]
            for field, prop in props.items():
                default = f" (default `{json.dumps(prop['default'])}`)" if "default" in prop and prop["default"] is not None else ""
                desc = " ".join(x for x in (prop.get("description", ""), limits(prop)) if x)
                out.append(f"| `{field}` | {type_of(prop)} | {'yes' if field in required else 'no'} | {cell(desc)}{default} |")
            out.append("")
        elif "enum" in schema:
            out += [f"One of {type_of(schema)}.", ""]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- configuration


def settings_fields() -> list[dict[str, str]]:
    """Each Settings field: name, type, default (as written), environment variable(s) and description.

    Read from bpywright/config.py's source: the description is the field's docstring (a string right after it), else
    its comment (on its line, or the comment lines just above it); the variable is the BPYWRIGHT_* name `from_env` reads.
    """
    path = ROOT / "bpywright" / "config.py"
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Settings")
    from_env = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "from_env")
    call = next(n for n in ast.walk(from_env) if isinstance(n, ast.Call) and n.keywords)
    variables = {
        kw.arg: list(
            dict.fromkeys(c.value for c in ast.walk(kw.value) if isinstance(c, ast.Constant) and str(c.value).startswith("BPYWRIGHT_"))
        )
        for kw in call.keywords
    }
    constants = {
        n.targets[0].id: ast.get_source_segment(source, n.value) or ""
        for n in tree.body
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
    }
    fields = []
    body = cls.body
    for i, node in enumerate(body):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        name = node.target.id
        doc = ""
        following = body[i + 1] if i + 1 < len(body) else None
        if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant) and isinstance(following.value.value, str):
            doc = following.value.value
        if not doc:
            line = lines[node.lineno - 1]
            comment = line.split("  # ", 1)[1] if "  # " in line else ""
            above = []
            j = node.lineno - 2
            while j >= 0 and lines[j].strip().startswith("#"):
                above.insert(0, lines[j].strip().lstrip("#").strip())
                j -= 1
            doc = " ".join(x for x in (" ".join(above), comment) if x)
        default = ast.get_source_segment(source, node.value) if node.value is not None else ""
        if isinstance(node.value, ast.Name) and node.value.id in constants:
            default = constants[node.value.id]  # a module-level constant: show its value
        if default and default.startswith("field(default_factory=lambda: "):
            default = default[len("field(default_factory=lambda: ") : -1]
        fields.append(
            {
                "name": name,
                "type": ast.get_source_segment(source, node.annotation) or "",
                "default": default or "",
                "env": ", ".join(f"`{v}`" for v in variables.get(name, [])),
                "doc": doc,
            }
        )
    return fields


def configuration_page() -> str:
    """The configuration reference: one row per Settings field."""
    rows = [f"| `{f['name']}` | {f['env'] or '–'} | `{cell(f['default'])}` | {cell(f['doc'])} |" for f in settings_fields()]
    return (
        "\n".join(
            [
                "# Configuration",
                "",
                "bpywright has one configuration object, `bpywright.config.Settings`, read from `BPYWRIGHT_*` environment",
                "variables by the front doors (CLI, service, MCP server) and passed down; nothing below them reads the",
                "environment. This table is generated from `bpywright/config.py` at build time. Command-line flags win",
                "over the environment (`--blender-version`, `--cluster`, `--unsafe-no-sandbox`, `--workers` …).",
                "",
                'The target Blender version is also read from the project: `blender_version = "5.2"` under',
                "`[tool.bpywright]` in the nearest `pyproject.toml` (or a `bpywright.toml`) from the working directory up,",
                "when `BPYWRIGHT_BLENDER_VERSION` is unset. The sandbox limits (`memory_mb`, `disk_mb`, `tmp_mb`,",
                "`max_processes`, `max_file_mb`, `timeout`) are read the same way, from their variable, else the same name",
                "under `[tool.bpywright]`, else the default; `bpywright doctor` shows each with its source",
                "([the sandbox](../sandbox.md#limits-and-their-defaults)). `bpywright check` has its own project settings",
                "(include/exclude globs, timeouts, engine, …): see [CI integration](../ci.md).",
                "",
                "| setting | environment variable | default | meaning |",
                "|---|---|---|---|",
                *rows,
                "",
                "Boolean variables take `0`, `false`, `no` or `off` for false; anything else is true.",
                "The LLM variables name any OpenAI-compatible endpoint (e.g. `vllm serve MODEL`): see",
                "[generating scripts](../guides/generate.md) and [local models](../guides/local-models.md).",
            ]
        )
        + "\n"
    )


# ---------------------------------------------------------------- MkDocs events


def generated_pages() -> dict[str, str | bytes]:
    """Every generated page (docs path → content)."""
    pages: dict[str, str | bytes] = {}
    commands = cli_commands()
    pages["reference/commands/index.md"] = commands_index(commands)
    for name, summary, parser in commands:
        pages[f"reference/commands/{name}.md"] = command_page(name, summary, parser)
    spec = openapi_schema()
    pages["reference/openapi.json"] = json.dumps(spec, indent=2) + "\n"
    pages["reference/http-api.md"] = http_api_page(spec)
    pages["reference/configuration.md"] = configuration_page()
    pages["reference/rules.md"] = rules_page()
    for docs_path, repo_path in INCLUDED.items():
        text = (ROOT / repo_path).read_text(encoding="utf-8")
        if "/" not in repo_path:  # a root file links docs pages by their repository path: in the site they are siblings
            text = text.replace("](docs/", "](")
        pages[docs_path] = text
    for table in sorted(BENCH_RESULTS.glob("*/*.md")):
        if table.name == "README.md":
            continue
        pages[f"benchmarks/{table.name}"] = table.read_text(encoding="utf-8")
        sheet = table.with_suffix(".png")
        if sheet.is_file():
            pages[f"benchmarks/{sheet.name}"] = sheet.read_bytes()
    return pages


def on_files(files: Files, config: Any) -> Files:
    """Add the generated pages to the build."""
    for path, content in generated_pages().items():
        files.append(File.generated(config, path, content=content))
    return files


def on_config(config: Any) -> Any:
    """Fill the nav's command list and benchmark tables from what exists now."""
    commands = [name for name, _, _ in cli_commands()]
    tables = [t.name for t in sorted(BENCH_RESULTS.glob("*/*.md")) if t.name != "README.md"]
    for section in config["nav"] or []:
        for _title, entries in section.items() if isinstance(section, dict) else ():
            if not isinstance(entries, list):
                continue
            for entry in entries:
                if isinstance(entry, dict) and "Commands" in entry and entry["Commands"] == "reference/commands/index.md":
                    entry["Commands"] = ["reference/commands/index.md"] + [
                        {f"bpywright {c}": f"reference/commands/{c}.md"} for c in commands
                    ]
                if isinstance(entry, dict) and "Results" in entry and entry["Results"] == "benchmarks/generation.md":
                    entry["Results"] = ["benchmarks/generation.md"] + [{t[:-3]: f"benchmarks/{t}"} for t in tables]
    return config
