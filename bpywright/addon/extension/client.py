"""The bpywright service over HTTP with the standard library only: jobs, their Server-Sent Events, renders.

Runs on a worker thread inside Blender, so it never touches bpy; every failure becomes a ServiceError whose message
says what failed and which setting or command fixes it (the panel shows it as is).

Whoever listens on the configured port answers the add-on, and while `bpywright serve` is not running any local user
can listen there. So before the token leaves Blender the client makes the service prove it holds the token: it sends a
fresh nonce, the service answers HMAC(token, nonce, its port), the client checks it. Every reply the add-on acts on
(a job's result, a render) carries an HMAC of its body bound to that request's own nonce; a reply without a valid one
is refused. Progress events are shown, never acted on.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

Progress = Callable[[str], None]
PNG_LIMIT = 16 * 1024 * 1024  # a 1024 px render is far below this
FIX_SETTINGS = "Edit > Preferences > Add-ons > bpywright"


class ServiceError(Exception):
    """The service could not be used: unreachable, wrong token, a refused request, a job that failed inside it."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Refuse every redirect: urllib would resend the Authorization header (the token) to wherever it points."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise ServiceError(
            f"the service at {req.full_url} redirected to {newurl} ({code}); the token is sent only to the configured URL: "
            f"set the final URL in {FIX_SETTINGS}"
        )


LOOPBACK = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    """True for a host name or address only this machine answers on."""
    host = host.lower().strip("[]")
    return host in LOOPBACK or host.startswith("127.")


DIRECT = urllib.request.build_opener(_NoRedirects, urllib.request.ProxyHandler({}))  # a loopback service: never via a proxy
PROXIED = urllib.request.build_opener(_NoRedirects)  # elsewhere: the environment's proxy settings, as any client


PROOF_PATH = "/api/v1/proof"
PROOF_CONTEXT = b"bpywright service proof v1\n"
REPLY_CONTEXT = b"bpywright reply v1\n"
SIGNATURE = "X-Bpywright-Signature"
NOT_THE_SERVICE = (
    "the program answering at {url} is not your bpywright service: {why}. Nothing was sent to it, and nothing it "
    "answered is used. Another program may hold that port while `bpywright serve` is not running: start serve, "
    "or point {fix} at the port serve prints"
)


class ServiceClient:
    """One bpywright service: its base URL and token. The token goes only into the Authorization header, and only after
    the service proved it holds the same token (prove())."""

    def __init__(self, url: str, token: str = "", timeout: float = 30.0) -> None:
        self.url = url.strip().rstrip("/")
        self.token = token.strip()
        self.timeout = timeout
        parsed = urllib.parse.urlparse(self.url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ServiceError(f"service URL {url!r} is not an http(s) URL: set it in {FIX_SETTINGS} (e.g. http://127.0.0.1:8000)")
        self.loopback = is_loopback(parsed.hostname)
        try:
            self.port = parsed.port or (443 if parsed.scheme == "https" else 80)
        except ValueError:
            raise ServiceError(f"service URL {url!r} has no valid port: set it in {FIX_SETTINGS}") from None
        self.opener = DIRECT if self.loopback else PROXIED
        self.proven = False

    def _refuse(self, why: str) -> ServiceError:
        return ServiceError(NOT_THE_SERVICE.format(url=self.url, why=why, fix=FIX_SETTINGS))

    def prove(self) -> None:
        """Make the service prove it holds the token before anything else is sent: a fresh nonce out, HMAC(token,
        nonce, port) back. On loopback the port it proves must be the URL's (a program on this port relaying the
        challenge to serve on another port is refused). ServiceError, with nothing sent, when it cannot."""
        if not self.token:
            raise ServiceError("no service token: the add-on sends scripts only to a service that proves it holds the token")
        nonce = secrets.token_hex(32)
        request = urllib.request.Request(f"{self.url}{PROOF_PATH}?nonce={nonce}", method="GET")
        request.add_header("Accept", "application/json")
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                answer = _json(response.read(64 * 1024))
        except ServiceError as exc:
            raise self._refuse(str(exc)) from None
        except urllib.error.HTTPError as exc:
            if exc.code == 409:
                raise ServiceError(self._refusal(exc)) from None
            raise self._refuse(f"it refused the challenge ({exc.code})") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ServiceError(
                f"cannot reach the bpywright service at {self.url} ({reason}): start it with `bpywright serve`, "
                f"or fix the URL in {FIX_SETTINGS}"
            ) from None
        port, offered = answer.get("port"), str(answer.get("proof", ""))
        if not isinstance(port, int) or isinstance(port, bool):
            raise self._refuse("it answered the challenge without a proof")
        expected = hmac.new(self.token.encode(), PROOF_CONTEXT + f"{nonce}\n{port}".encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(offered.encode(), expected.encode()):
            raise self._refuse("it could not prove it holds your token (or serve runs with another token than the token file's)")
        if self.loopback and port != self.port:
            raise self._refuse(f"the proof came from a service on port {port}, relayed through port {self.port}")
        self.proven = True

    def _open(self, method: str, path: str, body: dict[str, Any] | None = None, timeout: float | None = None, nonce: str = ""):
        """An open response for METHOD path, or ServiceError saying why not."""
        if not self.proven:
            self.prove()
        data = json.dumps(body).encode("utf-8") if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Accept", "application/json, text/event-stream, image/png")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if nonce:
            request.add_header("X-Bpywright-Nonce", nonce)
        request.add_header("Authorization", f"Bearer {self.token}")
        try:
            return self.opener.open(request, timeout=timeout or self.timeout)
        except ServiceError:
            raise
        except urllib.error.HTTPError as exc:
            raise ServiceError(self._refusal(exc)) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ServiceError(
                f"cannot reach the bpywright service at {self.url} ({reason}): start it with `bpywright serve`, "
                f"or fix the URL in {FIX_SETTINGS}"
            ) from None

    def _refusal(self, exc: urllib.error.HTTPError) -> str:
        """The message for an HTTP error answer, with the service's own reason when it gave one."""
        try:
            detail = json.loads(exc.read(64 * 1024).decode("utf-8", "replace")).get("detail", "")
        except (ValueError, AttributeError, OSError):
            detail = ""
        if isinstance(detail, list):  # 422 from request validation: the locations and messages
            detail = "; ".join(str(d.get("msg", d)) if isinstance(d, dict) else str(d) for d in detail)
        if exc.code == 401:
            return (
                f"the service at {self.url} refused the token (401): `bpywright serve` must use the token file the add-on "
                f"reads (unset BPYWRIGHT_API_TOKEN, or set Token file in {FIX_SETTINGS})"
            )
        if exc.code == 429:
            return f"the service is busy (429: {detail or 'queue full'}): try again in a few seconds"
        return f"the service refused the request ({exc.code}): {detail or exc.reason}"

    def _signed(self, method: str, path: str, body: dict[str, Any] | None = None, limit: int = PNG_LIMIT) -> bytes:
        """The body of a reply, checked to be signed by the token for this very request (its own nonce)."""
        nonce = secrets.token_hex(32)
        with self._open(method, path, body, nonce=nonce) as response:
            raw = response.read(limit + 1)
            status, signature = response.status, response.headers.get(SIGNATURE, "")
        if len(raw) > limit:
            raise ServiceError(f"the answer to {method} {path} is over {limit} bytes")
        bare = urllib.parse.urlsplit(self.url + path).path
        head = REPLY_CONTEXT + f"{nonce}\n{method} {bare}\n{status}\n".encode()
        expected = hmac.new(self.token.encode(), head + raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(signature.encode(), expected.encode()):
            raise ServiceError(
                f"the answer from {self.url} to {method} {path} is not signed with your token, so it is not used: "
                "something between the add-on and `bpywright serve` answered or changed it"
            )
        return raw

    def get_json(self, path: str) -> dict[str, Any]:
        """GET a JSON document (signed by the service)."""
        return _json(self._signed("GET", path))

    def post_json(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST a JSON body, read the JSON answer (signed by the service)."""
        return _json(self._signed("POST", path, body))

    def events(self, path: str, timeout: float = 600.0) -> Iterator[tuple[str, dict[str, Any]]]:
        """(event, data) of a job's Server-Sent Events, ending with the `result` one."""
        with self._open("GET", path, timeout=timeout) as response:
            name, data = "message", []
            for raw in response:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
                elif not line and data:
                    payload = _json("\n".join(data).encode("utf-8"))
                    yield name, payload
                    if name == "result":
                        return
                    name, data = "message", []
        raise ServiceError("the service closed the event stream before the job finished: see the service log")

    def run_job(self, path: str, body: dict[str, Any], progress: Progress) -> dict[str, Any]:
        """POST a job (wait=false where the endpoint takes it), follow its events (shown only), then return the finished
        JobView as the service signs it at /api/v1/jobs/{id}: the result the add-on acts on."""
        accepted = self.post_json(path, body)
        job_id = str(accepted.get("job_id", ""))
        if not job_id.replace("-", "").isalnum():
            raise ServiceError(f"the service answered a job id that is not one: {job_id[:40]!r}")
        progress(f"queued as job {job_id}")
        job_path = f"/api/v1/jobs/{urllib.parse.quote(job_id)}"
        for name, data in self.events(f"{job_path}/events"):
            if name == "progress":
                progress(describe_event(data))
            elif name == "result":
                break
        view = self.get_json(job_path)
        if view.get("state") != "done" or view.get("result") is None:
            raise ServiceError(f"the job failed inside the service: {view.get('error') or view.get('state')} (job {job_id})")
        return view

    def render(self, path: str) -> bytes:
        """A job's PNG render (signed, size-capped, checked to be a PNG)."""
        png = self._signed("GET", path)
        if len(png) > PNG_LIMIT or not png.startswith(b"\x89PNG\r\n\x1a\n"):
            raise ServiceError(f"the render at {path} is not a PNG under {PNG_LIMIT} bytes")
        return png


def describe_event(event: dict[str, Any]) -> str:
    """One progress event on one line: 'lint: 1 blocking (0.4 s)'."""
    text = f"{event.get('node', '?')}: {event.get('status', '')}"
    if event.get("detail"):
        text += f" — {str(event['detail'])[:120]}"
    if event.get("seconds"):
        text += f" ({float(event['seconds']):.1f} s)"
    return text


def _json(raw: bytes) -> dict[str, Any]:
    """A JSON object, or ServiceError (a proxy's HTML page, a truncated answer)."""
    try:
        value = json.loads(raw.decode("utf-8"))
    except ValueError:
        raise ServiceError(f"the service answered something that is not JSON: {raw[:80]!r}") from None
    if not isinstance(value, dict):
        raise ServiceError("the service answered JSON that is not an object")
    return value
