"""The supervised llama.cpp server: loopback only, answers, restarted after it dies, stopped with its whole process group."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bpywright.graph.model.llm import LLMClient
from bpywright.models.server import LocalServer, LocalServerError

pytestmark = pytest.mark.model


def wait_for(check, seconds: float = 120.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.25)
    return False


def test_the_server_binds_loopback_only_and_serves_the_alias(smollm2) -> None:
    command = smollm2.command()
    assert command[command.index("--host") + 1] == "127.0.0.1"
    import urllib.request

    auth = {"Authorization": f"Bearer {smollm2.api_key}"}
    with urllib.request.urlopen(urllib.request.Request(f"{smollm2.base_url}/models", headers=auth), timeout=5) as resp:
        assert b"smollm2-135m" in resp.read()


def test_two_answers_at_once_queue_instead_of_cutting_each_other_short(smollm2) -> None:
    """llama.cpp's server by default ends a streamed answer early when another request waits (two users, or a critic
    call beside a generation): both answers here must stream to their end. No retries, so a cut stream fails the test."""

    def ask(word: str) -> list[str]:
        client = LLMClient(smollm2.base_url, smollm2.alias, max_tokens=40, retries=0, api_key=smollm2.api_key)
        return client.chat([{"role": "user", "content": f"Write a short poem about a {word}."}], on_token=lambda p, s: None)

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(ask, ["cube", "sphere"]))
    assert all(text[0].strip() for text in answers)


def test_a_crashed_server_is_restarted_its_log_says_how_and_stop_ends_it(smollm2, tmp_path: Path) -> None:
    server = LocalServer(smollm2.model_path, smollm2.alias, log_path=tmp_path / "server.log", n_ctx=2048).start()
    try:
        first = server.pid
        assert first is not None and server.healthy()
        os.killpg(first, signal.SIGSEGV)  # what a kernel this CPU cannot run does to it
        assert wait_for(lambda: server.pid not in (None, first) and server.healthy()), server.log_tail()
        assert len(server.restarts) == 1
        log = server.log_tail(20000)
        assert "Fatal Python error: Segmentation fault" in log  # faulthandler: the stack it died in
        assert "[bpywright] the server died (killed by SIGSEGV); restarting it" in log
        second = server.pid
    finally:
        server.stop()
    assert second is not None
    with pytest.raises(ProcessLookupError):
        os.kill(second, 0)
    assert not server.healthy()


def test_a_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LocalServerError, match="bpywright model install smollm2-135m"):
        LocalServer(tmp_path / "absent.gguf", "smollm2-135m", log_path=tmp_path / "log").start()


def test_a_file_that_is_not_a_model_makes_the_server_exit_and_the_error_points_at_the_log(tmp_path: Path, smollm2) -> None:
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(LocalServerError, match="exited") as info:
        LocalServer(bogus, "bogus", log_path=tmp_path / "server.log", start_timeout_s=60).start()
    assert str(tmp_path / "server.log") in str(info.value)


PARENT = """
import json, sys, threading, urllib.request
from pathlib import Path
from bpywright.models.server import LocalServer

server = LocalServer(Path(sys.argv[1]), sys.argv[2], log_path=Path(sys.argv[3]), n_ctx=4096).start()
# A long answer, not streamed (as a critic's call): the end-of-text tokens banned, so it runs to max_tokens.
body = {"model": server.alias, "max_tokens": 3500, "logit_bias": {"0": -100, "1": -100, "2": -100},
        "messages": [{"role": "user", "content": "Count from 1 to 3000, one number a line."}]}
request = urllib.request.Request(f"{server.base_url}/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json", "Authorization": f"Bearer {server.api_key}"})
threading.Thread(target=urllib.request.urlopen, args=(request,), daemon=True).start()
print(server.pid, flush=True)
threading.Event().wait()
"""


def test_a_killed_parent_takes_its_server_down_even_mid_answer(smollm2, tmp_path: Path) -> None:
    """A CLI or benchmark killed while the server writes an answer: the server goes at once, not after the answer."""
    import subprocess
    import sys

    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(smollm2.model_path), smollm2.alias, str(tmp_path / "server.log")],
        stdout=subprocess.PIPE,
        text=True,
    )
    server = 0
    try:
        line = parent.stdout.readline() if parent.stdout else ""
        assert line.strip().isdigit(), f"the parent did not start its server: {line!r}"
        server = int(line)
        time.sleep(3)  # the request is in, the answer under way
        os.kill(server, 0)
        parent.kill()
        parent.wait(30)

        def gone() -> bool:  # no such process, or a zombie its new parent has not reaped yet
            try:
                return Path(f"/proc/{server}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
            except (FileNotFoundError, ProcessLookupError):
                return True

        assert wait_for(gone, 10), "the server outlived its killed parent"
    finally:
        parent.kill()
        if server:
            with contextlib.suppress(ProcessLookupError):
                os.kill(server, signal.SIGKILL)


def _get(url: str, headers: dict[str, str]) -> int:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_only_bpywright_with_its_key_from_loopback_may_use_the_server(smollm2) -> None:
    url = f"{smollm2.base_url}/models"
    key = {"Authorization": f"Bearer {smollm2.api_key}"}
    assert _get(url, key) == 200
    assert _get(url, {}) == 401  # another local user, or a page that guessed the port
    assert _get(url, {"Authorization": "Bearer guessed"}) == 401
    assert _get(url, {**key, "Host": f"attacker.example:{smollm2.port}"}) == 403  # DNS rebinding
    assert _get(url, {**key, "Origin": "http://evil.example"}) == 403  # a web page, even with the key
    assert smollm2.api_key not in " ".join(smollm2.command())  # not on a command line others can read


def test_a_model_refused_by_its_check_is_never_started(tmp_path: Path) -> None:
    from bpywright.models.install import ModelInstallError

    weights = tmp_path / "m.gguf"
    weights.write_bytes(b"GGUF")

    def refuse() -> None:
        raise ModelInstallError("m: SHA-256 differs from the pin")

    server = LocalServer(weights, "m", log_path=tmp_path / "server.log", check_model=refuse)
    with pytest.raises(ModelInstallError, match="differs"):
        server.start()
    assert server.pid is None and not (tmp_path / "server.log").exists()


def test_the_servers_prompt_cache_gives_the_same_greedy_answers_across_conversations(smollm2, tmp_path: Path) -> None:
    """SERVER_OPTIONS (the local model's server): logits_all off and a RAM prompt cache. A prompt whose state is restored
    from the cache after another conversation ran must answer as it did when read cold."""
    from bpywright.models.local import SERVER_OPTIONS

    server = LocalServer(smollm2.model_path, smollm2.alias, log_path=tmp_path / "server.log", n_ctx=2048, options=SERVER_OPTIONS)
    assert "--cache" in server.command() and "--logits_all" in server.command()
    server.start()
    try:
        client = LLMClient(
            server.base_url, server.alias, max_tokens=24, retries=0, api_key=server.api_key, sampling={"repeat_penalty": 1.0}
        )
        system = {"role": "system", "content": "You write Blender Python. " * 40}  # a long shared prefix, as the loop's
        one = [system, {"role": "user", "content": "Name three mesh primitives."}]
        other = [{"role": "system", "content": "You review scenes."}, {"role": "user", "content": "Is a cube a sphere?"}]
        first = client.chat(one, temperature=0.0)[0]
        client.chat(other, temperature=0.0)
        again = client.chat(one, temperature=0.0)[0]
        assert first.strip() and again == first
    finally:
        server.stop()


class _Squatter:
    """Another local user's HTTP server on a loopback port: answers 200 to everything and records the headers it is sent."""

    def __init__(self, port: int = 0) -> None:
        import http.server
        import threading

        seen: list[dict[str, str]] = []
        self.seen = seen

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                seen.append(dict(self.headers))
                body = b'{"proof": "0000", "data": [{"id": "smollm2-135m"}]}'
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.HTTPServer(("127.0.0.1", port), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_squatter_on_the_port_is_never_called_healthy_and_never_sent_the_key(tmp_path: Path) -> None:
    squatter = _Squatter()
    try:
        server = LocalServer(tmp_path / "m.gguf", "m", log_path=tmp_path / "log", port=squatter.port)
        assert not server.healthy()  # it answers 200 everywhere, but cannot prove it holds the key
        assert squatter.seen, "the health check did reach the squatter"
        assert all(server.api_key not in " ".join(h.values()) for h in squatter.seen)
    finally:
        squatter.close()


def test_a_port_another_process_holds_is_a_clear_error_before_the_model_loads(tmp_path: Path, smollm2) -> None:
    squatter = _Squatter()
    try:
        server = LocalServer(smollm2.model_path, "m", log_path=tmp_path / "log", port=squatter.port)
        with pytest.raises(LocalServerError, match="another process holds it"):
            server.start()
        assert server.pid is None and squatter.seen == []
    finally:
        squatter.close()


def test_bpywright_holds_the_port_while_the_model_loads_so_a_squatter_cannot_bind_it(smollm2, tmp_path: Path) -> None:
    import socket
    import threading

    server = LocalServer(smollm2.model_path, smollm2.alias, log_path=tmp_path / "server.log", n_ctx=2048)
    started = threading.Thread(target=server.start)
    started.start()
    try:
        assert wait_for(lambda: server.pid is not None, 30), "the server process did not start"
        assert server.port
        with socket.socket() as squatter, pytest.raises(OSError):
            squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            squatter.bind(("127.0.0.1", server.port))
            squatter.listen()
        started.join(120)
        assert server.healthy() and server.proves_key()
        impostor = LocalServer(smollm2.model_path, "m", log_path=tmp_path / "other.log", port=server.port)
        assert not impostor.proves_key()  # a different key: the real server's answer does not match it
    finally:
        started.join(120)
        server.stop()
    with socket.socket() as after:  # stop() let the port go (SO_REUSEADDR: past the closed connections' TIME_WAIT)
        after.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        after.bind(("127.0.0.1", server.port))
