"""The highlighter keeps every character and escapes HTML; the job queue bounds its line and survives failing work."""

from __future__ import annotations

import html
import re
import threading
from pathlib import Path

import pytest
from pydantic import BaseModel

from bpywright.service.highlight import highlight
from bpywright.service.jobs import Job, JobQueue, QueueFull


def plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


@pytest.mark.parametrize(
    "source",
    [
        "import bpy  # a comment\ndef build(size=1.5):\n    return f'{size}<b>' + \"&\"\n",
        "x = '''unterminated\nstring",
        "if True:\n        a = 1\n    b = 2\n",  # inconsistent dedent
        "\tmixed\n  (\n",
        "",
        "</pre><script>alert(1)</script>",
    ],
)
def test_highlight_keeps_the_text_and_escapes_it(source: str) -> None:
    markup = highlight(source)
    assert plain(markup) == source
    assert "<script>" not in markup


def test_highlight_classes_tokens() -> None:
    markup = highlight("import bpy\ndef build(n=2):\n    print('hi', None)  # done\n")
    assert '<span class="kw">import</span>' in markup and '<span class="def">build</span>' in markup
    assert '<span class="num">2</span>' in markup and '<span class="builtin">print</span>' in markup
    assert '<span class="str">&#x27;hi&#x27;</span>' in markup and '<span class="const">None</span>' in markup
    assert '<span class="com"># done</span>' in markup


class Answer(BaseModel):
    value: int


def test_queue_refuses_past_capacity_and_reports_retry_after() -> None:
    gate = threading.Event()
    queue = JobQueue(concurrency=1, waiting=1)

    def slow(job: Job) -> Answer:
        job.emit("run", "started")
        gate.wait(10)
        return Answer(value=1)

    first, second = queue.submit("validate", slow), queue.submit("validate", slow)
    with pytest.raises(QueueFull) as refused:
        queue.submit("validate", slow)
    assert refused.value.retry_after >= 1 and "full" in str(refused.value)
    gate.set()
    assert first.wait(10) and second.wait(10)
    assert first.state == second.state == "done" and first.result == Answer(value=1)
    assert [e.node for e in first.events] == ["run"] and first.events[0].thread_id == first.id
    third = queue.submit("validate", slow)  # room again
    assert third.wait(10) and queue.depth == 0 and queue.running == 0
    queue.close()


def test_a_failing_job_is_a_failed_state_not_a_dead_queue() -> None:
    queue = JobQueue(concurrency=1, waiting=0)

    def broken(job: Job) -> Answer:
        raise RuntimeError("bug in bpywright")

    job = queue.submit("heal", broken)
    assert job.wait(10) and job.state == "failed" and job.error == "RuntimeError: bug in bpywright"
    ok = queue.submit("heal", lambda job: Answer(value=2))
    assert ok.wait(10) and ok.result == Answer(value=2)
    assert queue.get(job.id) is job and queue.get("nope") is None
    queue.close()


def test_forgotten_jobs_take_their_scratch_renders_with_them(tmp_path: Path) -> None:
    queue = JobQueue(concurrency=1, waiting=4, keep=2, scratch=tmp_path)

    def render(job: Job) -> Answer:
        job.render_path = tmp_path / f"{job.id}.png"
        job.render_path.write_bytes(b"png")
        return Answer(value=0)

    jobs = []
    for _ in range(4):
        jobs.append(queue.submit("validate", render))
        assert jobs[-1].wait(10)
    assert [queue.get(j.id) is not None for j in jobs] == [False, False, True, True]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{j.id}.png" for j in jobs[2:])
    queue.close()
