"""The registry of wire formats: wire name -> its encoder, its decoder and its layout rules
(fsspec's known_implementations).

An encoder module exposes ``encode(plan) -> dict`` (the SDK call's keyword arguments), a
decoder module ``decode(data, issuer) -> Assistant`` and ``describe_stop(data) -> str``.
Targets in capabilities.toml name their wire; several targets share one (groq, xai,
openrouter and openai-compatible speak openai_chat). The layout rules are facts of the wire
format itself, the same for every model on it; the planner applies them (plan.layout).
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Wire:
    """Where a wire's encoder and decoder live, and the layout rules of its format."""

    encoder: str
    decoder: str
    #: Consecutive messages of one role are rejected: the plan merges them.
    roles_alternate: bool = False
    #: Text blocks of whitespace only are rejected: the plan leaves them out.
    rejects_blank_text: bool = False
    #: A message holding a document must hold a text block too: the plan labels it.
    documents_need_text: bool = False


def _wire(name: str, **rules: bool) -> Wire:
    return Wire(f"toolwire.providers.{name}", f"toolwire.decoders.{name}", **rules)


# Bedrock Converse: roles alternate, blank text is rejected, and a message with a document
# needs a text block (CAPABILITIES.md).
_CONVERSE = {"roles_alternate": True, "rejects_blank_text": True, "documents_need_text": True}

WIRES = {
    "anthropic": _wire("anthropic"),
    "openai_chat": _wire("openai_chat"),
    "openai_responses": _wire("openai_responses"),
    "google": _wire("google"),
    "bedrock": _wire("bedrock", **_CONVERSE),
    "mistral": _wire("mistral"),
    "cohere": _wire("cohere"),
    "ollama": _wire("ollama"),
}


def wire_module(wire: str) -> ModuleType:
    """The encoder module for a wire name (imported on first use)."""
    name = WIRES[wire].encoder
    return sys.modules.get(name) or importlib.import_module(name)


def decoder_module(wire: str) -> ModuleType:
    """The decoder module for a wire name (imported on first use)."""
    name = WIRES[wire].decoder
    return sys.modules.get(name) or importlib.import_module(name)
