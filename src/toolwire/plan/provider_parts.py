"""Provider parts a target does not receive, each said rather than dropped in silence.

A ``ProviderPart`` (decoders: a built-in tool's block or item, a Gemini image, citations) is
read only by the API that sent it: the layout keeps it for that issuer on that wire
(``kept_for``) and leaves it out anywhere else, and the plan lists what it left out
(``Plan.parts_left_out``, ``Request.parts_left_out``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..content import ProviderPart
from ..messages import Assistant


@dataclass(frozen=True)
class PartLeftOut:
    """One provider part of the conversation the target does not receive."""

    message_index: int
    provider: str
    wire: str
    kind: str

    @property
    def reason(self) -> str:
        """The sentence a person reads."""
        return (
            f"message {self.message_index}: {self.provider}'s {self.kind} is left out; only "
            f"{self.provider} reads it back, on its {self.wire} API (the visible text is sent)"
        )


def kept_for(part: ProviderPart, issuer: str, wire: str) -> bool:
    """Whether ``part`` goes to a target of ``issuer`` on ``wire``: its own API only."""
    return part.provider == issuer and part.wire == wire


def parts_left_out(messages: Sequence[Any], issuer: str, wire: str) -> tuple[PartLeftOut, ...]:
    """The provider parts of ``messages`` a target of ``issuer`` on ``wire`` does not get."""
    return tuple(
        PartLeftOut(index, part.provider, part.wire, part.kind)
        for index, message in enumerate(messages)
        if isinstance(message, Assistant)
        for part in message.content
        if isinstance(part, ProviderPart) and not kept_for(part, issuer, wire)
    )
