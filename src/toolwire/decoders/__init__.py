"""``decode``: a provider's response → ``tw.Assistant``, with thinking and signatures intact.

Accepts the official SDK's response object or its JSON dict. What comes back can be appended
to the history and encoded again: for the same provider, thinking blocks, reasoning items and
thought signatures go back exactly as they came; another provider drops what it cannot
verify (see each encoder) and keeps the visible text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..capability import capabilities
from ..content import ProviderPart, Text, ToolCall
from ..errors import DecodeError
from ..messages import Assistant
from ..providers import wire_named
from ._common import brief

if TYPE_CHECKING:
    from ..tools import Tool


def decode(response: object, model: str, *, tools: Sequence[Tool] = ()) -> Assistant:
    """The assistant message in ``response`` from ``model`` ('provider:model-id').

    >>> reply = client.messages.create(model="claude-sonnet-4-6", **request.kwargs)  # doctest: +SKIP
    >>> history.append(decode(reply, "anthropic:claude-sonnet-4-6", tools=tools))

    ``tools``: the tools the request defined. Where the target took a parameter only under
    another name (``Request.tool_notes`` say which), each call's arguments come back under
    the names the tool's schema declared.

    Raises DecodeError for error payloads, responses with no content, and data that is not
    a response of the model's wire. A streamed reply: ``decode_stream`` / ``StreamDecoder``.
    """
    caps = capabilities(model)
    data = as_dict(response)
    decoder = wire_named(caps.wire).decoder
    try:
        message: Assistant = decoder.decode(data, caps.issuer)
    except DecodeError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise DecodeError(
            f"this does not read as a response of the {caps.wire} wire for {model} "
            f"({type(exc).__name__}: {exc}) in {brief(data)}. Pass the object the provider's "
            "SDK call returned (or its JSON dict) together with the model it came from."
        ) from exc
    if tools:
        message = with_declared_names(message, tools, caps)
    if not any(isinstance(p, Text | ToolCall | ProviderPart) for p in message.content):
        only = "only reasoning" if message.content else "an empty message"
        raise DecodeError(
            f"{model} returned {only} ({decoder.describe_stop(data)}): there is nothing to "
            "append to the conversation (no answer, no tool call). Check the stop reason "
            "(output limit, content filter, refusal) and retry, with a larger output limit if "
            "it was reached."
        )
    return message


def as_dict(response: Any) -> dict[str, Any]:
    """The response as JSON data (see ``as_data``); an error payload is a DecodeError."""
    data = as_data(response)
    error = data.get("error")
    if error and isinstance(error, dict | str) and not data.get("choices"):
        raise DecodeError(f"the provider returned an error instead of a message: {brief(error)}")
    return data


def as_data(response: Any) -> dict[str, Any]:
    """A response or stream event as JSON data: SDK pydantic objects are dumped in JSON mode
    (so the object and its ``model_dump(mode="json")`` decode alike), dicts pass through."""
    try:
        if isinstance(response, dict):
            data = response
        elif hasattr(response, "model_dump"):
            # warnings off: the SDKs' parsed results (openai's ParsedResponse, from a stream's
            # get_final_response()) hold subclasses their declared unions do not name
            data = response.model_dump(
                mode="json", by_alias=False, exclude_none=True, warnings=False
            )
        elif hasattr(response, "to_dict"):
            data = response.to_dict()
        else:
            data = None
    except (ValueError, TypeError, RecursionError) as exc:  # nested past the SDK's own depth
        raise DecodeError(
            f"cannot read the {type(response).__name__} as JSON data ({exc}); a reply nested "
            "this deep is not one toolwire keeps"
        ) from exc
    if not isinstance(data, dict):
        raise DecodeError(
            f"cannot decode a {type(response).__name__}: pass the SDK's response object or "
            "its JSON dict"
        )
    return data


def with_declared_names(message: Assistant, tools: Sequence[Tool], caps: Any) -> Assistant:
    """``message`` with each call's renamed parameters back to their declared names (the
    tools as ``encode`` prepared them: kept in ``MEMO.tools``, so a loop that decodes every
    reply prepares none again)."""
    from ..memo import MEMO
    from ..tools.repair import prepared_tools, renamed_back

    renames = {t.name: t.renames for t in prepared_tools(tools, caps, MEMO.tools) if t.renames}
    if not renames:
        return message
    parts = [
        part.model_copy(update={"arguments": renamed_back(part.arguments, renames[part.name])})
        if isinstance(part, ToolCall) and part.name in renames
        else part
        for part in message.content
    ]
    return message.model_copy(update={"content": tuple(parts)})
