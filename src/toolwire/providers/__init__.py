"""The registry of wire formats: wire name -> encoder module (fsspec's known_implementations).

Each module exposes ``encode(plan) -> dict`` (the SDK call's keyword arguments). Targets in
capabilities.toml name their wire; several targets share one (groq, xai, openrouter and
openai-compatible speak openai_chat).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from ..capability_schema import WIRES as WIRE_NAMES

#: Wire name -> encoder module; the names are the capability schema's ``Wire``.
WIRES = {wire: f"toolwire.providers.{wire}" for wire in WIRE_NAMES}


def wire_module(wire: str) -> ModuleType:
    """The encoder module for a wire name (imported on first use)."""
    name = WIRES[wire]
    return sys.modules.get(name) or importlib.import_module(name)
