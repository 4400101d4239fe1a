"""The loop's small parts without Blender: code extraction, diff application, prompt expectations, recipes, the LLM client."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from bpywright.graph.loop.exemplar_source import ExemplarStoreLike, RecipeSource
from bpywright.graph.model.extract import extract_script
from bpywright.graph.model.fake_llm import FakeLLM, critic_json, role_of
from bpywright.graph.model.llm import LLMClient, LLMError
from bpywright.graph.model.prompting import numbered
from bpywright.graph.reading.expectations import built_nothing, check_scene, expectations
from bpywright.graph.repair.patch import PatchError, apply_unified_diff
from bpywright.harness.report import ObjectSummary, SceneSummary
from bpywright.rules.healer import unified_diff

from .samples import INDEX_BUG, INDEX_FIXED, THREE_CUBES, fenced


def test_extract_takes_the_python_block_among_prose() -> None:
    found = extract_script(fenced(THREE_CUBES, after="It adds three cubes.\n```\nblender -b --python script.py\n```"))
    assert found.code == THREE_CUBES and found.failure is None


def test_extract_accepts_bare_code_and_refuses_prose() -> None:
    assert extract_script(THREE_CUBES).code == THREE_CUBES
    prose = extract_script("I would use bpy.ops.mesh.primitive_cube_add three times.")
    assert prose.code is None and "no Python code" in (prose.failure or "")
    assert extract_script("   ").failure == "the reply was empty"


def test_extract_drops_line_numbers_a_reply_copied_from_the_heal_prompt() -> None:
    """The heal prompt numbers the script's lines; a small model copies `  12 | ` onto every line of its answer."""
    copied = extract_script(fenced(numbered(THREE_CUBES) + "\n"))
    assert copied.failure is None and copied.code == THREE_CUBES
    indented = extract_script(fenced(THREE_CUBES.replace("\n", "\n    ").rstrip(" ").replace("import bpy", "    import bpy", 1)))
    assert indented.failure is None and indented.code == THREE_CUBES  # a block indented as a whole is the same code
    first_only = extract_script(fenced("    " + THREE_CUBES))
    assert first_only.failure is None and first_only.code == THREE_CUBES  # the local model began its block mid-line
    table = "data = [\n    1 | 2,\n    3,\n]\n"  # a `|` after a number on some lines only is code, left alone
    assert extract_script(fenced(table)).code == table
    flags = "FLAGS = (\n    1 | 2,\n    4 | 8,\n)\n"  # two such lines in valid code: still code
    assert extract_script(fenced(flags)).code == flags


def test_extract_drops_copied_line_numbers_when_new_lines_came_without_them() -> None:
    """The local model copies the numbered script and writes the lines it adds unnumbered: line 1 is then 'unexpected indent'."""
    added = "bpy.ops.mesh.primitive_cone_add(location=(0.0, 0.0, 3.0))\nfor i in range(2):\n    print(i)\n"
    found = extract_script(fenced(numbered(THREE_CUBES) + "\n" + added))
    assert found.failure is None and found.code == THREE_CUBES + added
    lines = numbered(THREE_CUBES).splitlines()
    lines[-1] = lines[-1].replace(" | ", " ", 1)  # the local model's storage box: `  62 if __name__ …`, the bar left out
    lines[1] = lines[1].rstrip(" |")  # an empty line's gutter, bar left out
    barless = extract_script(fenced("\n".join(lines) + "\n"))
    assert barless.failure is None and barless.code == THREE_CUBES
    still_broken = extract_script(fenced(numbered(THREE_CUBES) + "\nfor i in range(2)\n    print(i)\n"))
    assert "not valid Python" in (still_broken.failure or "")  # no amount of unnumbering makes that parse


def test_statements_started_one_space_off_are_moved_back() -> None:
    """The local model's hamburger, one-shot and with retrieval: ` Patty = bpy.data.objects.new(…)` after a comment line."""
    off = THREE_CUBES.replace("\nfor i in range(3):", "\n mat.use_nodes = False\n mat.roughness = 0.5\nfor i in range(3):")
    off = off.replace("    cube.name", "     cube.name").replace("    cube.data", "   cube.data")
    found = extract_script(fenced(off))
    assert found.failure is None
    assert "\nmat.use_nodes = False\nmat.roughness = 0.5\n" in (found.code or "")
    assert "\n    cube.name" in (found.code or "") and "\n    cube.data" in (found.code or "")
    args = "import bpy\nx = max(1,\n         2)\n"  # odd indentation inside brackets is not a problem: left alone
    assert extract_script(fenced(args)).code == args
    two_off = "import bpy\n\n  x = 1\n"  # two spaces: not the one-space slip, still a failure
    assert "unexpected indent" in (extract_script(fenced(two_off)).failure or "")


def test_a_first_script_cut_off_at_the_token_limit_keeps_what_it_wrote_completely() -> None:
    """The local model's drum kit stopped at max_tokens inside a call ('(' was never closed) three rounds running."""
    cut = "Here is the script:\n\n```python\n" + THREE_CUBES + "bpy.ops.mesh.primitive_cone_add(location=(0.0, 0.0,"
    assert "never closed" in (extract_script(cut).failure or "")  # a heal reply keeps the failure (it rewrites a whole script)
    found = extract_script(cut, complete=True)
    assert found.failure is None and found.code == THREE_CUBES and found.dropped == 1
    in_a_loop = "```python\n" + THREE_CUBES + "for i in range(3):\n    x = (i,\n"
    assert extract_script(in_a_loop, complete=True).code == THREE_CUBES  # the half-written loop goes with its last line
    closed = fenced("import bpy\nfor i in range(3)\n    pass\n")
    assert extract_script(closed, complete=True).failure  # a closed block is what the model meant: not cut, not trimmed
    mostly_broken = "```python\nimport bpy\nfor i in range(3)\n    pass\nx = 1\ny = (\n"
    assert extract_script(mostly_broken, complete=True).failure  # no parsing prefix of half the lines or more


def test_extract_flags_code_that_is_not_python_and_finds_diffs() -> None:
    broken = extract_script(fenced("import bpy\nfor i in range(3)\n    pass\n"))
    assert broken.code is not None and "not valid Python (line 2" in (broken.failure or "")
    diff = unified_diff(INDEX_BUG, INDEX_FIXED)
    only_diff = extract_script(f"```diff\n{diff}```")
    assert only_diff.code is None and only_diff.diff == diff


def test_unified_diff_applies_by_context_even_when_line_numbers_drift() -> None:
    diff = unified_diff(INDEX_BUG, INDEX_FIXED)
    assert apply_unified_diff(INDEX_BUG, diff) == INDEX_FIXED
    shifted = "# a comment the diff does not know about\n" + INDEX_BUG
    assert apply_unified_diff(shifted, diff) == "# a comment the diff does not know about\n" + INDEX_FIXED
    with pytest.raises(PatchError, match="hunk 1"):
        apply_unified_diff(THREE_CUBES, diff)
    with pytest.raises(PatchError, match="no @@ hunks"):
        apply_unified_diff(THREE_CUBES, "--- a/script.py\n+++ b/script.py\n")


def test_expectations_read_counts_kinds_and_materials() -> None:
    found = {(e.kind, e.count) for e in expectations("Two glossy spheres, 4 cubes and a camera")}
    assert found == {("sphere", 2), ("cube", 4), ("camera", 1), ("material", 1)}
    assert expectations("a low-poly pine tree") == []


def test_scene_check_counts_by_name_and_primitive_geometry() -> None:
    objects = [
        ObjectSummary(name="Box", type="MESH", vertices=8, faces=6, materials=["Red"]),
        ObjectSummary(name="Cube.001", type="MESH", vertices=24, faces=6),
        ObjectSummary(name="Key", type="LIGHT"),
    ]
    scene = SceneSummary(object_count=3, objects=objects, bbox=None, camera=False, light=True)
    checks, reasons = check_scene("three red cubes and a light", scene)
    assert checks == {"scene: 3 cube": False, "scene: 1 light": True, "scene: a material": True}
    assert reasons == ["the prompt asks for 3 cube(s); the scene has 2 cube object(s)"]


def test_only_a_blank_render_of_built_geometry_with_a_camera_gets_the_framing() -> None:
    from bpywright.graph.repair.framing import MARKER, framed
    from bpywright.harness.report import BoundingBox, RenderInfo, RunReport

    def run(nonblank: float | None, *, camera: bool = True, bbox: bool = True, status: str = "ok") -> RunReport:
        box = BoundingBox(min=(0.0, 0.0, 0.0), max=(5.0, 1.0, 1.0)) if bbox else None
        objects = [ObjectSummary(name=f"Cube{i}", type="MESH", vertices=8, faces=6) for i in range(3)]
        scene = SceneSummary(object_count=3, objects=objects, bbox=box, camera=camera, light=False)
        render = RenderInfo(path="r.png", width=64, height=64, engine="BLENDER_WORKBENCH", nonblank_fraction=nonblank)
        return RunReport(status=status, backend="bpy-module", sandbox="rlimits-only", scene=scene, render=render)

    aimed = framed(THREE_CUBES, run(0.0))
    assert aimed is not None and aimed.startswith(THREE_CUBES) and MARKER in aimed
    assert framed(THREE_CUBES, run(0.2)) is None  # the render shows something: the camera is the script's choice
    assert framed(THREE_CUBES, run(None)) is None  # not rendered
    assert framed(THREE_CUBES, run(0.0, bbox=False)) is None  # nothing visible to aim at
    assert framed(THREE_CUBES, run(0.0, camera=False)) is None  # the harness frames a scene without a camera itself
    assert framed(aimed, run(0.0)) is None  # aimed once already: what is left is for the LLM
    assert framed(None, run(0.0)) is None


def test_a_scene_left_as_the_factory_made_it_was_built_by_nothing() -> None:
    def scene(*objects: ObjectSummary) -> SceneSummary:
        return SceneSummary(object_count=len(objects), objects=list(objects), bbox=None, camera=True, light=True)

    cube, camera, light = (
        ObjectSummary(name="Cube", type="MESH", vertices=8, materials=["Material"]),
        ObjectSummary(name="Camera", type="CAMERA"),
        ObjectSummary(name="Light", type="LIGHT"),
    )
    staging = ObjectSummary(name="bpywright_sun", type="LIGHT")
    assert built_nothing(scene(cube, camera, light)) and built_nothing(scene(cube, staging)) and built_nothing(scene(staging))
    assert not built_nothing(scene(cube, ObjectSummary(name="Lid", type="MESH", vertices=8)))  # one object of its own
    assert not built_nothing(scene(ObjectSummary(name="Cube", type="MESH", vertices=24)))  # the cube, changed (beveled)
    assert not built_nothing(None)  # no summary (the run failed): other checks speak


def test_only_recipes_related_to_the_request_are_shown_with_a_real_embedder(minilm) -> None:
    """Similarity of the prompts (real MiniLM): a table request finds the table recipe; a storage box finds none, where
    BM25 alone offers the table (shared words: 'simple', 'rectangular') and the local model copied it."""
    from bpywright.ingest.embedder import normalise

    model = minilm
    source = RecipeSource()
    related = source.related("a wooden table with four legs", 2, lambda texts: normalise(model.embed(texts)), 0.45)
    assert [e.prompt[:21] for e, _ in related] == ["A simple wooden table"] and related[0][1] >= 0.45
    box = "Design a simple rectangular storage box with a lid and a latch."
    assert source.nearest(box, "4.5", k=1)[0].prompt.startswith("A simple wooden table")  # what BM25 alone offers
    assert source.related(box, 2, lambda texts: normalise(model.embed(texts)), 0.45) == []
    assert source.related(box, 2, lambda texts: None, 0.0) == []  # no vectors: nothing is called related


def test_an_attempt_that_passes_the_objective_checks_outranks_one_that_fails_them_whatever_the_scores() -> None:
    from bpywright.graph.loop.ranking import best_of
    from bpywright.graph.loop.state import Attempt, Critique
    from bpywright.harness.report import RunReport

    ran = RunReport(status="ok", backend="bpy-module", sandbox="bwrap")
    blank = Attempt(index=0, origin="generate", script="a", run=ran, critique=Critique(score=0.75, objective_ok=False))
    framed = Attempt(index=1, origin="heal-rules", script="b", run=ran, critique=Critique(score=0.3, objective_ok=True))
    assert best_of([blank, framed]) == 1 and best_of([framed, blank.model_copy(update={"index": 2})]) == 1  # not by position
    better = Attempt(index=2, origin="heal-llm", script="c", run=ran, critique=Critique(score=0.6, objective_ok=True))
    assert best_of([blank, framed, better]) == 2  # among those that pass, the score decides
    failing = Attempt(index=3, origin="heal-llm", script="d", run=RunReport(status="error", backend="bpy-module", sandbox="bwrap"))
    assert best_of([failing.model_copy(update={"critique": Critique(score=0.9, objective_ok=True)}), blank]) == 0  # a run first


def test_recipe_source_ranks_by_prompt_words_and_is_a_store() -> None:
    source = RecipeSource()
    nearest = source.nearest("a wooden table with four legs", "4.5", k=2)
    assert nearest[0].prompt.startswith("A simple wooden table") and nearest[0].source == "recipe" and len(nearest) == 2
    assert nearest[0].status == "ok" and len(nearest[0].id) == 16
    assert isinstance(source, ExemplarStoreLike) and source.add(script="x") is None


def test_llm_client_retries_transient_errors_then_answers() -> None:
    with FakeLLM() as fake:
        fake.fail_next(503, 2)
        fake.enqueue("hello")
        client = LLMClient(fake.base_url, "fake-coder", backoff_s=0.01)
        assert client.chat([{"role": "user", "content": "hi"}]) == ["hello"]
        assert len(fake.chat_requests) == 3
        fake.fail_next(429, 5)
        with pytest.raises(LLMError, match="after 4 tries"):
            client.chat([{"role": "user", "content": "hi"}])


def test_llm_client_times_out_slow_answers_and_retries_them() -> None:
    with FakeLLM() as fake:
        fake.enqueue(lambda body: time.sleep(1.0) or "late", "on time")
        client = LLMClient(fake.base_url, "fake-coder", timeout=0.3, retries=1, backoff_s=0.01)
        assert client.chat([{"role": "user", "content": "hi"}]) == ["on time"]
        fake.enqueue(lambda body: time.sleep(1.0) or "late", lambda body: time.sleep(1.0) or "late")
        with pytest.raises(LLMError, match="APITimeoutError"):
            client.chat([{"role": "user", "content": "hi"}])


def test_llm_client_does_not_retry_a_refused_request_and_names_the_model_setting() -> None:
    with FakeLLM() as fake:
        fake.fail_next(404)
        with pytest.raises(LLMError, match="BPYWRIGHT_LLM_MODEL"):
            LLMClient(fake.base_url, "missing", backoff_s=0.01).chat([{"role": "user", "content": "hi"}])
        assert len(fake.chat_requests) == 1


def test_llm_client_unreachable_says_how_to_start_a_server() -> None:
    with FakeLLM() as gone:
        url = gone.base_url
    with pytest.raises(LLMError) as info:
        LLMClient(url, "m", retries=1, backoff_s=0.01, timeout=2).chat([{"role": "user", "content": "hi"}])
    assert "cannot reach" in str(info.value) and "vllm serve" in str(info.value) and "BPYWRIGHT_LLM_BASE_URL" in str(info.value)


def test_llm_client_asks_the_server_for_its_model_and_n_samples() -> None:
    with FakeLLM(model="served-model") as fake:
        fake.enqueue("a", "b", "c")
        client = LLMClient(fake.base_url)
        assert client.chat([{"role": "user", "content": "x"}], n=3) == ["a", "b", "c"]
        assert client.model == "served-model" and fake.chat_requests[0]["n"] == 3


def test_a_streamed_answer_caught_in_a_loop_is_stopped_and_what_came_before_is_kept() -> None:
    """The local model's heal reply on the paperclip: one sentence 64 times, until max_tokens (about 13 minutes on this CPU)."""
    said = "The error occurs because the indices are wrong. "
    loop = said + "The `from_pydata` method expects the indices of vertices and edges to be tuples of lists. " * 60
    with FakeLLM() as fake:
        fake.script("heal", loop, fenced(THREE_CUBES))
        client = LLMClient(fake.base_url, "gen", retries=0)
        heal = [{"role": "system", "content": "You repair scripts."}, {"role": "user", "content": "fix it"}]
        text = client.chat(heal, on_token=lambda piece, stats: None)[0]
        assert text.startswith(said) and len(text) < len(loop) / 2 and client.stats[-1].looped
        whole = client.chat(heal, on_token=lambda piece, stats: None)[0]  # code, however long, streams to its end
        assert whole == fenced(THREE_CUBES) and not client.stats[-1].looped


def test_a_structured_answer_slower_than_the_timeout_still_arrives_because_it_streams() -> None:
    """A rubric on a busy CPU: the whole answer takes longer than the client's timeout, each piece does not. Unstreamed,
    it timed out, and every retry queued behind the answer the server was still writing."""
    with FakeLLM() as fake:
        fake.word_delay_s = 0.3
        fake.script("critic", critic_json(0.8, "three cubes in a row", "all red"))  # 12 words: 3.6 s in all
        client = LLMClient(fake.base_url, "gen", timeout=1.5, retries=0)
        answer = client.structured([{"role": "user", "content": "rate"}], "critique", {"type": "object"})
        assert json.loads(answer)["score"] == 0.8
        assert fake.chat_requests[0]["stream"] is True and client.stats[-1].kind == "structured"


def test_structured_request_uses_the_critic_model_and_the_fake_validates_the_form() -> None:
    with FakeLLM() as fake:
        fake.script("critic", lambda body: json.dumps({"score": 0.5, "reasons": [body["model"]], "suggested_fix": None}))
        client = LLMClient(fake.base_url, "gen", critic_model="judge")
        schema = {"type": "object", "properties": {"score": {"type": "number"}}, "required": ["score"]}
        assert json.loads(client.structured([{"role": "user", "content": "rate"}], "critique", schema))["reasons"] == ["judge"]
        assert fake.structured[0]["json_schema"]["name"] == "critique" and role_of(fake.chat_requests[0]) == "critic"
        bad = json.dumps({"model": "m", "messages": [], "response_format": {"type": "json_schema", "json_schema": {"name": "x"}}})
        request = urllib.request.Request(
            f"{fake.base_url}/chat/completions", data=bad.encode(), headers={"Content-Type": "application/json"}
        )
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(request, timeout=5)
        assert info.value.code == 400 and "needs a name (string) and a schema" in info.value.read().decode()
