"""The registry of wire formats: wire name -> its ``Wire`` (fsspec's known_implementations).

A ``Wire`` (providers.wire) holds every fact of one wire format and the functions that speak
it. Each built-in wire declares its own in ``toolwire/providers/<name>.py`` and registers it
when that module is imported, on the first lookup of its name (``import toolwire`` imports
none of them). Targets in capabilities.toml name their wire; several targets share one.

A wire of your own is one ``register(Wire(...))`` call, made before a target names it.
"""

from __future__ import annotations

import importlib

from ..errors import CapabilityError, suggest
from .wire import Decoder, Rule, Wire

__all__ = ["BUILT_IN", "WIRES", "Decoder", "Rule", "Wire", "register", "wire_named", "wire_names", "wires"]  # fmt: skip

#: The wires toolwire ships: each ``toolwire.providers.<name>`` module registers its ``WIRE``.
BUILT_IN = (
    "anthropic", "openai_chat", "openai_responses", "google", "bedrock", "mistral", "cohere",
    "ollama",
)  # fmt: skip
#: Every registered wire by name (the built-in ones once their module is loaded: ``wires``).
WIRES: dict[str, Wire] = {}


def register(wire: Wire) -> Wire:
    """Make ``wire`` the one its name stands for, and return it.

    A name stands for one wire: registering another wire under a taken name is an error
    (registering the same object again is not).
    """
    if wire.name in BUILT_IN:  # the built-in one first (its own module: already importing)
        importlib.import_module(f"{__name__}.{wire.name}")
    taken = WIRES.get(wire.name)
    if taken is not None and taken is not wire:
        raise CapabilityError(
            f"a wire named {wire.name!r} is already registered (spelled by "
            f"{taken.step.__module__}); give yours another name"
        )
    WIRES[wire.name] = wire
    return wire


def wire_named(name: str) -> Wire:
    """The wire called ``name`` (a built-in one is loaded on first use)."""
    found = WIRES.get(name)
    if found is None and name in BUILT_IN:
        importlib.import_module(f"{__name__}.{name}")
        found = WIRES.get(name)
    if found is None:
        names = wire_names()
        raise CapabilityError(
            f"no wire is named {name!r} (registered: {', '.join(names)}).{suggest(name, names)} "
            "A wire of your own is registered with toolwire.providers.register(Wire(...))."
        )
    return found


def wire_names() -> tuple[str, ...]:
    """The names of every wire: the built-in ones, then those registered since."""
    return tuple(dict.fromkeys((*BUILT_IN, *WIRES)))


def wires() -> dict[str, Wire]:
    """Every wire by name, the built-in ones loaded."""
    return {name: wire_named(name) for name in wire_names()}
