"""Gemini API and Vertex AI: ``client.models.generate_content(model=…, **kwargs)``.

Reference: google-genai 3.4 ``types.Content{role, parts}``, ``types.Part`` (``text``,
``inline_data: Blob{mime_type, data}``, ``file_data: FileData{file_uri, mime_type}``,
``function_call: FunctionCall{id, name, args}``, ``function_response: FunctionResponse{id, name,
response, parts}``, ``thought``, ``thought_signature``), ``types.FunctionResponsePart``
(``inline_data: FunctionResponseBlob``, ``file_data: FunctionResponseFileData``) and
``types.GenerateContentConfig.system_instruction``. Plain dicts in the SDK's snake_case with raw
bytes (the SDK base64-encodes them); the same wire serves ``google`` and ``google-vertex``.

Layout (decided by the planner from the table; spelled here):

- System texts → ``config.system_instruction`` (no ``config`` without one). Assistant → a
  ``model`` Content, User → a ``user`` Content.
- A tool turn → ONE ``user`` Content of ``function_response`` parts, one per call in call
  order, echoing the call's ``id`` and ``name``. Parts that share the turn (``extra``; none with
  the package table, whose followup is "message") go in a separate ``user`` Content after it:
  Gemini misreads a function-response Content that also holds other parts.
- ``response`` is ``{"output": …}`` or, for error outputs, ``{"error": …}``: one part → its
  value (text, or the JSON value itself); several text-only parts → the texts joined by a blank
  line; several parts with JSON among them → the list of values in order. An execution-denied
  result is an ``output`` (its text says so), as on the other wires.
- Files the plan nests (Gemini >= 3) go in ``function_response.parts`` in result order: local
  bytes as ``inline_data``, URIs (Vertex ``gs://``, https) as ``file_data``. Their place in the
  ``response`` says ``See file {identifier}.``. Not ``{"$ref": display_name}``: google-genai 3.4
  sends ``function_response`` unconverted (snake_case ``display_name``), and the ``$ref`` path
  answers 400 "The referenced name … does not match to a display_name in the
  function_response.parts" (googleapis/python-genai#2268, open; #2792 on Gemini 3.5/3.6).
- In a user Content: local files as ``inline_data`` (text documents too, as the table's cell
  says: "text types as inline_data or file_data in a user Content"); URLs and Google file ids
  as ``file_data`` (a bare id or ``files/…`` name becomes the Files API URI).

Thought signatures (base64 text in toolwire, raw bytes on this wire) that the plan kept (the
issuer's own: ``google`` and ``google-vertex`` are different issuers) go back on function
calls, on thought parts (a Thinking with text), and on the part after an empty-text Thinking
(how toolwire.decoders keeps a signature that came on a text part).
Where the plan says so (``Plan.sign_first_call``: Gemini >= 3 requires signatures) the first function call of a model Content without one of its own carries the documented
placeholder ``skip_thought_signature_validator`` (the JSON text of the bytes field).
Call arguments that were not a JSON object (``ToolCall.invalid_arguments``) go as ``{}``:
``args`` takes only an object. Function names outside FunctionDeclaration's rule (a letter or
``_``, then letters, digits, ``_.:-``, at most 128) and ids that are not UTF-8 text are
rewritten stably, identically in the call and its response (plan.ids).
"""

from __future__ import annotations

import base64
from typing import Any

from ..content import File, ProviderPart, Text, Thinking, ToolCall
from ..messages import Assistant, User
from ..plan import Plan, PlannedResult, Step, ToolTurn, see_text
from ..sources import BytesSource, ProviderFileSource, UrlSource
from ..tools.spell import google_tools
from ..wire_size import DEFAULT
from . import register
from .wire import Decoder, Spelling, Wire, id_rule, name_rule

#: Gemini's documented placeholder signature, as the bytes whose base64 text it is.
SKIP_SIGNATURE = base64.urlsafe_b64decode("skip_thought_signature_validator")
#: How several text parts of one result are joined into one ``output`` string.
JOIN = "\n\n"
_FILES_API = "https://generativelanguage.googleapis.com/v1beta/"


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's contents (none for system text: ``finish`` places it)."""
    match step:
        case ToolTurn():
            parts = [{"function_response": _function_response(r, spelling)} for r in step.results]
            return [{"role": "user", "parts": parts}, *([_user(step.extra)] if step.extra else [])]
        case Assistant():
            return [_model(step, spelling.sign_first_call, spelling)]
        case User():
            return [_user(step.parts)]
    return []


def finish(plan: Plan, contents: list[dict[str, Any]]) -> dict[str, Any]:
    """``contents`` (and ``config.system_instruction`` when the conversation has one)."""
    kwargs: dict[str, Any] = {"contents": contents}
    if plan.system:
        kwargs["config"] = {"system_instruction": plan.system}
    return kwargs


def _user(parts: list[Text | File] | tuple[Text | File, ...]) -> dict[str, Any]:
    return {"role": "user", "parts": [_user_part(p) for p in parts]}


def _user_part(part: Text | File) -> dict[str, Any]:
    """A Text or File part."""
    return {"text": part.text} if isinstance(part, Text) else _media(part)


def _media(file: File) -> dict[str, Any]:
    """``inline_data`` for local bytes, else ``file_data`` (the same keys inside and outside
    a function response: Blob / FunctionResponseBlob, FileData / FunctionResponseFileData)."""
    source = file.source
    if isinstance(source, BytesSource):  # most files
        return {"inline_data": {"mime_type": file.media_type, "data": source.data}}
    if isinstance(source, UrlSource):
        return {"file_data": {"file_uri": source.url, "mime_type": file.media_type}}
    if isinstance(source, ProviderFileSource):
        return {"file_data": {"file_uri": _file_uri(source.file_id), "mime_type": file.media_type}}
    return {"inline_data": {"mime_type": file.media_type, "data": file.read()}}


def _file_uri(file_id: str) -> str:
    """The Files API URI for a file id: as given if it is a URI, else under v1beta/files/."""
    if "://" in file_id:
        return file_id
    return _FILES_API + (file_id if file_id.startswith("files/") else "files/" + file_id)


def _function_response(result: PlannedResult, names: Spelling) -> dict[str, Any]:
    values: list[Any] = []
    nested: list[dict[str, Any]] = []
    json = False
    for part in result.parts:
        match part:
            case Text():
                values.append(part.text)
            case File():
                nested.append(_media(part))
                values.append(see_text(part))
            case _:  # a Json part
                values.append(part.value)
                json = True
    if len(values) == 1:
        value = values[0]
    elif not json:
        value = JOIN.join(values)
    else:
        value = values
    response: dict[str, Any] = {
        "id": names.call_id(result.call_id),
        "name": names.name(result.name),
        "response": {"error" if result.is_error else "output": value},
    }
    if nested:
        response["parts"] = nested
    return response


def _model(message: Assistant, sign_first_call: bool, names: Spelling) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    carried: bytes | None = None  # an empty-text Thinking's signature, for the next part
    first_call: dict[str, Any] | None = None
    block: dict[str, Any]
    for part in message.content:
        if isinstance(part, Thinking):
            # The plan kept only this issuer's thinking, signed (``thinking_needs_signature``).
            signature = _signature(part.signature or "")
            if not part.text:
                carried = signature
                continue
            block = {"text": part.text, "thought": True, "thought_signature": signature}
        elif isinstance(part, ToolCall):
            block = _function_call(part, names)
            first_call = first_call or block
        elif isinstance(part, ProviderPart):  # the plan kept only Gemini's own parts
            block = _provider_part(part)
        else:  # text: the plan left out empty text
            block = {"text": part.text}
        if carried is not None and "thought_signature" not in block:
            block["thought_signature"] = carried
        carried = None
        parts.append(block)
    if carried is not None:  # a signature with nothing after it: on a part of its own
        parts.append({"text": "", "thought_signature": carried})
    if sign_first_call and first_call is not None and "thought_signature" not in first_call:
        first_call["thought_signature"] = SKIP_SIGNATURE  # Gemini >= 3 rejects it unsigned
    return {"role": "model", "parts": parts}


def _provider_part(part: ProviderPart) -> dict[str, Any]:
    """Gemini's own part as it came (decoders.google), its base64 text as the bytes the SDK
    takes: the signature, an image's data."""
    block: dict[str, Any] = dict(part.data)
    signature = block.get("thought_signature")
    if isinstance(signature, str):
        block["thought_signature"] = _signature(signature)
    blob = block.get("inline_data")
    data = blob.get("data") if isinstance(blob, dict) else None
    if isinstance(blob, dict) and isinstance(data, str):
        block["inline_data"] = {**blob, "data": base64.b64decode(data, validate=True)}
    return block


def _function_call(call: ToolCall, names: Spelling) -> dict[str, Any]:
    spelled = {"id": names.call_id(call.id), "name": names.name(call.name)}
    block: dict[str, Any] = {"function_call": {**spelled, "args": call.arguments}}
    if call.signature is not None:  # the plan kept only this issuer's signatures
        block["thought_signature"] = _signature(call.signature)
    return block


def _signature(text: str) -> bytes:
    """The bytes of a signature the plan checked is base64 (``base64_signatures``)."""
    return base64.b64decode(text, validate=True)


WIRE = register(Wire(
    "google", step=step, finish=finish, decoder=Decoder.of_module("toolwire.decoders.google"),
    # google-genai 3.4 FunctionCall.id: "Optional. The unique id of the function call" (free).
    ids=id_rule(None, None, "call_", 24, "google-genai FunctionCall.id"),
    # google-genai 3.4 FunctionDeclaration.name says 128 characters with colons, but the APIs
    # take less: the Gemini API's v1beta FunctionDeclaration "a maximum length of 64" (as
    # generated clients quote it, e.g. hexdocs geminix V1beta.FunctionDeclaration), and Vertex
    # AI's "underscores, dots and dashes, with a maximum length of 64" (no colons). One rule
    # for both: the stricter.
    names=name_rule(
        r"[a-zA-Z_][a-zA-Z0-9_.-]{0,63}", 64, r"[^a-zA-Z0-9_.-]+",
        "Gemini API and Vertex AI FunctionDeclaration.name",
    ),
    tools=google_tools, size=DEFAULT,  # google-genai: json.dumps defaults
    # Part.thought_signature is bytes, and a thought part goes back only with its own.
    thinking_needs_signature=True, base64_signatures=frozenset(("thinking", "redacted", "call")),
    base64_part_fields=(("thought_signature",), ("inline_data", "data")),  # Part's bytes fields
    # decoders.google: a part's signature is a Thinking of no text before the part, which
    # may be an empty text (Gemini sends {"text": "", "thought_signature": …} on its own).
    signature_on_next_part=True,
    system_apart=True,  # GenerateContentConfig.system_instruction
))  # fmt: skip
