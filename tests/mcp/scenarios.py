"""What an MCP client does against bpywright, transport-independent: each function asserts on a connected SDK Client."""

from __future__ import annotations

import base64
import io

import pytest
from mcp import Client, MCPError
from mcp_types import ImageContent, TextContent
from PIL import Image

TOOLS = {"search_api", "get_symbol", "lint_script", "run_script", "heal_script", "find_exemplars", "generate_script"}
GOOD = "import bpy\nbpy.ops.mesh.primitive_monkey_add(location=(0, 0, 1))\n"
BROKEN = "import bpy\n\nbpy.ops.mesh.primitive_cube_add()\nbpy.data.objects['NoSuchObject'].location.x = 1\n"
CRASHES = {
    "SIGKILL": "import os, signal\nimport bpy\nbpy.ops.mesh.primitive_cube_add()\nos.kill(os.getpid(), signal.SIGKILL)\n",
    "SIGSEGV": "import ctypes\nctypes.string_at(0)\n",
}


def text_of(result) -> str:
    """The result's text blocks, joined."""
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


def image_sizes(result, kind: str = "PNG") -> list[tuple[int, int]]:
    """(width, height) of every image block, each decoded as `kind` (PNG renders, WEBP thumbnails) and its MIME type checked."""
    sizes = []
    for block in result.content:
        if isinstance(block, ImageContent):
            assert block.mime_type == f"image/{kind.lower()}"
            image = Image.open(io.BytesIO(base64.b64decode(block.data)))
            assert image.format == kind
            image.load()
            sizes.append(image.size)
    return sizes


def png_sizes(result) -> list[tuple[int, int]]:
    """(width, height) of every image block, each decoded as a PNG."""
    return image_sizes(result, "PNG")


async def check_listing(client: Client) -> None:
    """Every tool with input and output schemas and a one-line description; both resource templates; the prompt."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and "\n" not in tool.description.strip(), tool.name
        assert tool.input_schema["type"] == "object" and tool.output_schema is not None, tool.name
    assert tools["run_script"].input_schema["required"] == ["script"]
    assert tools["run_script"].input_schema["properties"]["engine"]["enum"] == ["workbench", "cycles", "eevee"]
    assert {"status", "exception", "scene", "render"} <= set(tools["run_script"].output_schema["properties"])
    templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    assert templates == {"bpywright://exemplar/{exemplar_id}", "bpywright://symbol/{version}/{name}"}
    prompts = {p.name: p for p in (await client.list_prompts()).prompts}
    assert prompts["write_blender_script"].title == "Write a Blender script"
    rendered = await client.get_prompt("write_blender_script", {"task": "a red cube on a plane"})
    method = rendered.messages[0].content.text
    assert "a red cube on a plane" in method and "Blender 4.5" in method
    assert method.index("search_api") < method.index("lint_script") < method.index("run_script") < method.index("heal_script")


async def check_every_tool(client: Client, resolution: int = 96) -> None:
    """Each tool once on good input: structured content that matches the text, renders and thumbnails as PNGs."""
    found = await client.call_tool("search_api", {"query": "add a cube", "k": 3})
    assert not found.is_error, text_of(found)
    assert found.structured_content["hits"][0]["name"] == "bpy.ops.mesh.primitive_cube_add"
    assert len(found.structured_content["hits"]) <= 3 and "primitive_cube_add" in text_of(found)

    symbol = await client.call_tool("get_symbol", {"name": "bpy.types.Light.type"})
    assert not symbol.is_error and symbol.structured_content["enum_items"] == ["POINT", "SUN", "SPOT", "AREA"]
    assert "SUN" in text_of(symbol) and symbol.structured_content["docs_url"].startswith("https://docs.blender.org/")
    cube = (await client.call_tool("get_symbol", {"name": "bpy.ops.mesh.primitive_cube_add"})).structured_content
    assert cube["signature"].startswith("(size=2.0") and cube["usage"] == ["bpy.ops.mesh.primitive_cube_add(size=1)"]
    struct = (await client.call_tool("get_symbol", {"name": "bpy.types.BevelModifier"})).structured_content
    assert set(struct["members"]) == {"bpy.types.BevelModifier.width", "bpy.types.BevelModifier.segments"}

    lint = await client.call_tool("lint_script", {"script": "import bpy\nbpy.data.lamps.new('Sun', 'SUN')\nprint(undefined_name)\n"})
    assert not lint.is_error, text_of(lint)
    blocking = lint.structured_content["blocking"]
    assert not lint.structured_content["ok"] and any(d["line"] == 3 for d in blocking)
    assert any(d["line"] == 2 and d["fix"] for d in blocking), blocking  # the drift rule knows lamps became lights
    assert "line 2" in text_of(lint)

    ran = await client.call_tool("run_script", {"script": GOOD, "resolution": resolution})
    assert not ran.is_error, text_of(ran)
    run = ran.structured_content
    assert run["status"] == "ok" and run["render"]["width"] == resolution and run["render"]["nonblank_fraction"] > 0.01
    assert any(o["name"] == "Suzanne" for o in run["scene"]["objects"])
    assert png_sizes(ran) == [(resolution, resolution)]
    assert "OK" in text_of(ran) and "/tmp" not in text_of(ran)  # no server paths in what the model reads

    healed = await client.call_tool("heal_script", {"script": "import bpy\nbpy.ops.mesh.primitive_uv_sphere_add(size=1.5)\n"})
    assert not healed.is_error, text_of(healed)
    outcome = healed.structured_content
    assert outcome["healed"] and "radius=1.5" in outcome["script"] and outcome["rounds"][0]["diff"].startswith("---")
    assert "HEALED" in text_of(healed) and "+bpy.ops.mesh.primitive_uv_sphere_add(radius=1.5)" in text_of(healed)

    # A project: the failure is in the script's helper module, which is healed (and comes back) with its own diff.
    helper = "from mathutils import Vector\n\n\ndef tip(ob):\n    return ob.matrix_world * Vector((0, 0, 1))\n"
    script = "import bpy\nimport ut\n\nprint(ut.tip(bpy.data.objects['Cube']))\n"
    project = await client.call_tool("heal_script", {"script": script, "files": {"ut.py": helper}})
    assert not project.is_error, text_of(project)
    outcome = project.structured_content
    assert (
        outcome["healed"] and [f["path"] for f in outcome["files"]] == ["ut.py"] and outcome["files"][0]["diff"].startswith("--- a/ut.py")
    )
    assert "ob.matrix_world @ Vector" in outcome["texts"]["ut.py"] and outcome["script"] == script and outcome["root"] is None
    assert "Healed helper ut.py" in text_of(project) and "/tmp" not in text_of(project)

    exemplars = await client.call_tool("find_exemplars", {"query": "a low-poly pine tree", "k": 2})
    assert not exemplars.is_error, text_of(exemplars)
    items = exemplars.structured_content["exemplars"]
    assert items and items[0]["prompt"].lower().find("pine") >= 0 and "import bpy" in items[0]["script"]
    assert len(image_sizes(exemplars, "WEBP")) == len(items)
    assert all(i["blender_version"] == "4.5" for i in items)
    elsewhere = await client.call_tool("find_exemplars", {"query": "a low-poly pine tree", "version": "5.2"})
    assert not elsewhere.is_error and elsewhere.structured_content["exemplars"] == []  # the store holds only 4.5-verified scripts
    assert text_of(elsewhere).startswith("No verified exemplar on Blender 5.2 matches")
    same = await client.call_tool("find_exemplars", {"query": "a low-poly pine tree", "k": 2, "version": "4.5"})
    assert [i["id"] for i in same.structured_content["exemplars"]] == [i["id"] for i in items]
    record = await client.read_resource(items[0]["resource"])
    assert '"script"' in record.contents[0].text and items[0]["id"] in record.contents[0].text
    symbol_record = await client.read_resource("bpywright://symbol/4.5/bpy.types.Object.location")
    assert '"float array of 3 items"' in symbol_record.contents[0].text

    progress: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    generated = await client.call_tool("generate_script", {"prompt": "a low-poly pine tree"}, progress_callback=on_progress)
    assert not generated.is_error, text_of(generated)
    assert generated.structured_content["outcome"] == "retrieved" and text_of(generated).startswith("RETRIEVED (not generated)")
    assert generated.structured_content["run"]["status"] == "ok" and "import bpy" in generated.structured_content["script"]
    assert len(png_sizes(generated)) == 1
    assert any(m.startswith("retrieve") for m in progress) and any(m.startswith("run") for m in progress), progress


async def check_bad_inputs(client: Client, max_bytes: int, *, http: bool) -> None:
    """Bad input and failing scripts come back as is_error results with the reason; the session keeps working."""
    oversized = {"script": "import bpy\n" + "#" * max_bytes}
    if http:  # the service's body limit answers before any tool runs, for /mcp as for every route: an error for that call only
        with pytest.raises(MCPError, match="BPYWRIGHT_MAX_REQUEST_BYTES"):
            await client.call_tool("run_script", oversized)
    else:
        refused = await client.call_tool("run_script", oversized)
        assert refused.is_error and "BPYWRIGHT_MAX_REQUEST_BYTES" in text_of(refused)
    cases = [
        ("run_script", {"script": BROKEN, "render": False}, "KeyError"),
        ("run_script", {"script": "import bpy\x00\n"}, "NUL"),
        ("run_script", {"script": GOOD, "version": "3.6"}, "Blender 3.6 is not installed"),
        ("run_script", {"script": GOOD, "version": "../../etc"}, "version"),
        ("run_script", {"script": GOOD, "resolution": 5000}, "resolution"),
        ("run_script", {"script": GOOD, "engine": "povray"}, "engine"),
        ("run_script", {"script": GOOD, "timeout": -1}, "timeout"),
        ("run_script", {"render": False}, "script"),
        ("search_api", {"query": "cube", "k": 1000}, "k"),
        ("search_api", {"query": "cube", "version": "9.9"}, "bpywright ingest"),
        ("get_symbol", {"name": "bpy.ops.mesh.primitive_cube_ad"}, "primitive_cube_add"),
        ("heal_script", {"script": GOOD, "target": "2.79"}, "not installed"),
        ("heal_script", {"script": GOOD, "files": {"../escape.py": "import os\n"}}, "not a relative path"),
        ("heal_script", {"script": GOOD, "files": {"/etc/cron.d/x.py": "import os\n"}}, "not a relative path"),
        ("heal_script", {"script": GOOD, "files": {"script.py": GOOD}}, "the script itself"),
        ("heal_script", {"script": GOOD, "files": {"ut.py": "x = 1\x00\n"}}, "NUL"),
        ("generate_script", {"prompt": ""}, "prompt"),
        ("no_such_tool", {}, "no_such_tool"),
    ]
    for tool, args, reason in cases:
        result = await client.call_tool(tool, args)
        assert result.is_error, (tool, args, text_of(result))
        assert reason in text_of(result), (tool, reason, text_of(result))
    failed = (await client.call_tool("run_script", {"script": BROKEN, "render": False})).structured_content
    assert failed["exception"]["line"] == 4 and failed["failing_line"] == "bpy.data.objects['NoSuchObject'].location.x = 1"
    with pytest.raises(MCPError):
        await client.read_resource("bpywright://exemplar/0000000000000000")
    assert not (await client.call_tool("run_script", {"script": GOOD, "render": False})).is_error


async def check_crashes(client: Client) -> None:
    """A script that kills its own Blender (SIGKILL) or segfaults is a crash result; the session and the pool go on."""
    for signal_name, script in CRASHES.items():
        crashed = await client.call_tool("run_script", {"script": script, "render": False})
        assert crashed.is_error and crashed.structured_content["status"] == "crash", text_of(crashed)
        assert crashed.structured_content["signal"] == signal_name and signal_name in text_of(crashed)
        after = await client.call_tool("run_script", {"script": GOOD, "render": False})
        assert not after.is_error and after.structured_content["status"] == "ok", text_of(after)


async def assistant_session(client: Client) -> str:
    """A scripted assistant: search → write → lint → run → heal → run; returns the final script, which ran."""
    hits = (await client.call_tool("search_api", {"query": "uv sphere", "k": 3})).structured_content["hits"]
    operator = hits[0]["name"]
    assert operator == "bpy.ops.mesh.primitive_uv_sphere_add"
    symbol = (await client.call_tool("get_symbol", {"name": operator})).structured_content
    assert "radius" in symbol["signature"]
    # what a model trained on old tutorials writes: 2.7x keyword and lamps
    script = f"import bpy\n\n{operator}(size=1.5, location=(0, 0, 1))\nlamp = bpy.data.lamps.new('Sun', 'SUN')\n"
    lint = (await client.call_tool("lint_script", {"script": script})).structured_content
    assert lint["blocking"], lint
    first = await client.call_tool("run_script", {"script": script, "render": False})
    assert first.is_error and first.structured_content["status"] == "error" and first.structured_content["exception"]["line"] == 3
    healed = await client.call_tool("heal_script", {"script": script})
    assert not healed.is_error, text_of(healed)
    script = healed.structured_content["script"]
    final = await client.call_tool("run_script", {"script": script, "resolution": 64})
    assert not final.is_error and final.structured_content["status"] == "ok", text_of(final)
    assert png_sizes(final) == [(64, 64)] and any(o["type"] == "LIGHT" for o in final.structured_content["scene"]["objects"])
    return script
