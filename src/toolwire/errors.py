"""The one error hierarchy: every failure toolwire raises on purpose is a ToolwireError.

Messages say what went wrong, where (file, message index, provider, model), what is allowed,
and what to do instead. Dependencies' own exceptions are caught at the edge and re-raised as
one of these, with the original chained as ``__cause__``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .plan.values import Limit


class ToolwireError(Exception):
    """Base class of every error toolwire raises on purpose."""


class InvalidFileError(ToolwireError, ValueError):
    """A file's bytes are unreadable, corrupt, spoofed, too large, or not what they claim."""


class ResourceLimitError(InvalidFileError):
    """Parsing a file hit the read worker's memory or time limit, or crashed the worker."""


class FileChangedError(InvalidFileError):
    """A lazily read file changed on disk after its content hash was pinned."""


class UnknownModelError(ToolwireError, ValueError):
    """A model string names no known provider, or is not of the form ``provider:model``."""


class ToolwireWarning(UserWarning):
    """Something toolwire can go on with but the caller should hear about: a model id neither
    the capability table nor models.dev names (a typo, or a model newer than the data). A
    ``warnings`` category, so callers filter it or make it an error as they choose."""


class CapabilityError(ToolwireError, ValueError):
    """A capabilities override (argument or TOML file) is malformed."""


class MissingDependencyError(ToolwireError, ImportError):
    """An optional dependency is needed for this call; the message names the extra to install."""


class ConversationError(ToolwireError, ValueError):
    """The conversation breaks a rule every provider enforces (e.g. a tool call without result)."""


class FetchError(ToolwireError):
    """A URL source could not be (or may not be) downloaded."""


class PathNotAllowedError(ToolwireError, PermissionError):
    """A path resolves outside the allowed root, or is not a regular file."""


class DecodeError(ToolwireError, ValueError):
    """A provider response could not be turned into an Assistant message."""


class UntrustedSourceError(ToolwireError):
    """A conversation from elsewhere holds a File read with the caller's own access (a local
    path, a cloud object, a provider file id) that the caller did not trust (``foreign``)."""


class StoreError(ToolwireError):
    """The session store is unreadable, corrupt, or was given something it cannot keep."""


class UploadError(ToolwireError):
    """Uploading a file to a provider's Files API failed; the message names the file, the
    provider and the SDK's own message. Nothing was recorded for it in the upload cache."""


class ConflictError(StoreError):
    """An ``append``/``extend`` with ``expect=N`` found the session holding another count.

    ``current`` is how many messages the session holds now: reload it, decide again, and
    retry with ``expect=current``.
    """

    def __init__(self, message: str, current: int) -> None:
        super().__init__(message)
        self.current = current


@dataclass(frozen=True)
class Unsupported:
    """One file that no route to the target can carry."""

    message_index: int
    identifier: str
    media_type: str
    reason: str
    #: The request budget that left the file out (``plan.Limit``), where one did.
    limit: Limit | None = None


class UnsupportedContentError(ToolwireError, ValueError):
    """One or more files cannot be delivered to the target model by any route.

    ``files`` lists every such file, so one error tells the whole story. ``option`` is how
    the caller spells the text-fallback switch (the CLI says ``--on-unsupported text``).
    """

    def __init__(
        self,
        model: str,
        files: list[Unsupported],
        accepted: str,
        option: str = 'on_unsupported="text"',
    ) -> None:
        self.model = model
        self.files = files
        self.accepted = accepted
        lines = [
            f"{model} cannot take {len(files)} file(s) in this conversation:",
            *(
                f"  - {f.identifier} ({f.media_type}) in message {f.message_index}: {f.reason}"
                for f in files
            ),
            f"It accepts: {accepted}.",
            f"Pass {option.replace('text', 'convert')} to convert each file to what the model "
            f"reads (PDF pages and text, Markdown, video frames, PNG), {option} to send each "
            "file's text description instead, or choose a model that accepts these media.",
        ]
        super().__init__("\n".join(lines))


class BudgetError(ToolwireError, ValueError):
    """Files a request budget leaves out, with ``on_budget="error"``: the target could take
    each of them, not all of them in one request. Short for any conversation: how many files,
    the first few, the limit, and the ways out."""

    def __init__(self, model: str, files: list[Unsupported]) -> None:
        self.model = model
        self.files = files
        limits: dict[tuple[str, int], Limit] = {}
        for f in files:
            if f.limit is not None:
                limits.setdefault((f.limit.name, f.limit.value), f.limit)
        first = ", ".join(f"{f.identifier} (message {f.message_index})" for f in files[:3])
        more = f" and {len(files) - 3} more" if len(files) > 3 else ""
        bound = "; ".join(
            f"{limit.name} = {limit.value:,} ({limit.source[:200]})" for limit in limits.values()
        )
        super().__init__(
            f"{model}: this conversation breaks a request budget, and {len(files)} file(s), "
            f"the oldest first, would be left out (in one step, down to evict_to of the "
            f"limit): {first}{more}. The limit: {bound}. Ways out: "
            'on_budget="evict" (the default) sends their descriptions and keeps the newest; '
            "tw.fit(messages, model) trims the history; uploads= (tw.Uploads) sends files by "
            "id where the target takes file ids."
        )


def suggest(name: str, choices: Iterable[str]) -> str:
    """A ' Did you mean …?' suffix for an unknown name, or '' when nothing is close."""
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)
    return f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""


def missing_dependency(module: str, extra: str) -> MissingDependencyError:
    """The error for an optional import that failed, naming the extra that provides it."""
    return MissingDependencyError(
        f"{module} is not installed; install it with: pip install 'toolwire[{extra}]'"
    )
