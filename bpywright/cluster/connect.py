"""Connecting this process to a Ray cluster (token authentication kept on) and describing it for `doctor`."""

from __future__ import annotations

import logging
import os
import sys
import time
from contextlib import redirect_stdout
from typing import Literal

from .actor import ACTOR_NAMESPACE
from .spec import ClusterError, ClusterSpec

CLIENT_ATTEMPTS = 3  # a ray:// client's session start, on a busy head
INSTALL_HINT = "install the cluster extra: `pip install 'bpywright[cluster]'` (`make setup` does)"
TOKEN_HINT = (
    "Ray's token authentication is on: this machine needs the cluster's token in ~/.ray/auth_token, "
    "RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN (copy it from the head node: `ray get-auth-token`)"
)


def import_ray():
    """The ray module, or ClusterError with the install command."""
    # Ray 2.60 turns token auth on by default only for clusters it starts locally; a driver joining one must ask for it
    # (before ray is imported: its settings are read then), and asking keeps this process from ever talking to a cluster
    # without it. RAY_AUTH_MODE=disabled is the explicit opt-out.
    os.environ.setdefault("RAY_AUTH_MODE", "token")
    try:
        import ray
    except ImportError as exc:
        raise ClusterError(f"Ray is not installed ({exc}): {INSTALL_HINT}") from exc
    return ray


def connect(spec: ClusterSpec) -> bool:
    """Join the cluster unless this process already has; True when this call connected (the caller disconnects)."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    try:
        for attempt in range(1, CLIENT_ATTEMPTS + 1):
            try:
                with redirect_stdout(sys.stderr):  # stdout may be a --json document: whatever Ray says while joining goes to stderr
                    ray.init(address=spec.address, namespace=ACTOR_NAMESPACE, log_to_driver=False, logging_level=logging.WARNING)
                break
            except ConnectionError as exc:
                # A ray:// server starts a process per client; on a busy head that start can time out ("Initialization
                # failure from server"). Asking again is what a person would do; a refused token or a dead head is not retried.
                if not (spec.address.startswith("ray://") and "Initialization failure" in str(exc)) or attempt == CLIENT_ATTEMPTS:
                    raise
                disconnect()
                time.sleep(2.0 * attempt)
    except Exception as exc:  # Ray raises ConnectionError, AuthenticationError, RuntimeError, ValueError…
        if spec.address == "auto" and "Could not find any running Ray instance" in str(exc):
            raise ClusterError(
                "--cluster auto: no Ray cluster is running on this machine; start one with `ray get-auth-token --generate` "
                "(once: on a fresh machine token authentication has no token yet, and `ray start --head` fails without one) "
                "then `RAY_AUTH_MODE=token ray start --head`, or name one with --cluster ray://HOST:10001"
            ) from exc
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ClusterError(f"cannot connect to the Ray cluster at {spec.address}: {first}. Is it up (`ray status`)? {TOKEN_HINT}") from exc
    return True


def disconnect() -> None:
    """ray.shutdown(), anything Ray prints meanwhile on stderr."""
    with redirect_stdout(sys.stderr):
        import_ray().shutdown()


def describe(spec: ClusterSpec) -> tuple[Literal["ok", "warn", "fail"], str, str]:
    """(state, detail, fix) for `doctor`: the alive nodes, CPUs (free), bpywright's actors and the auth mode."""
    try:
        owned = connect(spec)
    except ClusterError as exc:
        return "fail", str(exc), "start the cluster, fix BPYWRIGHT_CLUSTER, or unset it for the local pool"
    ray = import_ray()
    try:
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        total = ray.cluster_resources().get("CPU", 0)
        free = ray.available_resources().get("CPU", 0)
        actors = sum(1 for a in ray.util.list_named_actors(all_namespaces=True) if a.get("namespace") == ACTOR_NAMESPACE)
    finally:
        if owned:
            disconnect()
    auth = os.environ.get("RAY_AUTH_MODE", "token")
    detail = f"{spec.address}: {len(nodes)} node(s), {total:g} CPUs ({free:g} free), {actors} bpywright worker actor(s), auth {auth}"
    if auth != "token":
        return "warn", detail, "unset RAY_AUTH_MODE (or set it to token): without it anyone who reaches the cluster runs code on it"
    return "ok", detail, ""
