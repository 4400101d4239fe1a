"""IngestError: an ingest pass could not do its job (bad inventory, failed probe); the message says how to fix it."""

from __future__ import annotations


class IngestError(RuntimeError):
    """An ingest input is missing or unusable, or Blender could not be introspected."""
