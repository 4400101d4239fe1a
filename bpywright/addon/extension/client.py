"""The bpywright service over HTTP with the standard library only: jobs, their Server-Sent Events, renders.

Runs on a worker thread inside Blender, so it never touches bpy; every failure becomes a ServiceError whose message
says what failed and which setting or command fixes it (the panel shows it as is).
"""

from __future__ import annotations

import json
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


class ServiceClient:
    """One bpywright service: its base URL and bearer token (the token only ever goes into the Authorization header)."""

    def __init__(self, url: str, token: str = "", timeout: float = 30.0) -> None:
        self.url = url.strip().rstrip("/")
        self.token = token.strip()
        self.timeout = timeout
        parsed = urllib.parse.urlparse(self.url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ServiceError(f"service URL {url!r} is not an http(s) URL: set it in {FIX_SETTINGS} (e.g. http://127.0.0.1:8000)")
        self.opener = DIRECT if is_loopback(parsed.hostname) else PROXIED

    def _open(self, method: str, path: str, body: dict[str, Any] | None = None, timeout: float | None = None):
        """An open response for METHOD path, or ServiceError saying why not."""
        data = json.dumps(body).encode("utf-8") if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Accept", "application/json, text/event-stream, image/png")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
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
            return f"the service at {self.url} refused the token (401): set Token in {FIX_SETTINGS} to the service's BPYWRIGHT_API_TOKEN"
        if exc.code == 429:
            return f"the service is busy (429: {detail or 'queue full'}): try again in a few seconds"
        return f"the service refused the request ({exc.code}): {detail or exc.reason}"

    def get_json(self, path: str) -> dict[str, Any]:
        """GET a JSON document."""
        with self._open("GET", path) as response:
            return _json(response.read())

    def post_json(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST a JSON body, read the JSON answer."""
        with self._open("POST", path, body) as response:
            return _json(response.read())

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
        """POST a job (wait=false where the endpoint takes it), follow its events, return the finished JobView."""
        accepted = self.post_json(path, body)
        job_id = accepted.get("job_id")
        progress(f"queued as job {job_id}")
        for name, data in self.events(str(accepted.get("events_url", f"/api/v1/jobs/{job_id}/events"))):
            if name == "progress":
                progress(describe_event(data))
            elif name == "result":
                if data.get("state") != "done" or data.get("result") is None:
                    raise ServiceError(f"the job failed inside the service: {data.get('error') or data.get('state')} (job {job_id})")
                return data
        raise ServiceError(f"job {job_id} ended without a result")

    def render(self, path: str) -> bytes:
        """A job's PNG render (size-capped, checked to be a PNG)."""
        with self._open("GET", path) as response:
            png = response.read(PNG_LIMIT + 1)
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
