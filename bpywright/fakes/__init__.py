"""Deterministic FAKES for tests and offline demos: nothing here is a real model or a real service."""

from .openai_server import FakeOpenAIServer

__all__ = ["FakeOpenAIServer"]
