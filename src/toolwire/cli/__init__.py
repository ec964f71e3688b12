"""The ``toolwire`` command: one module per command, each calling the public API only."""

from __future__ import annotations

from . import inspect, matrix, read, render, sessions, show, tokens, uploads, view  # noqa: F401  (register commands)
from .app import app

__all__ = ["app", "main"]


def main() -> None:
    app()
