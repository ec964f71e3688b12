"""What a conversation from elsewhere may make this machine read: the one trust rule.

A conversation file, a session export or JSON handed to ``load_conversation`` may have been
written by someone else. Some File sources are read with the *reader's* access, not the
writer's: a local path (or a blob root, which is one) on this machine, a cloud object
(``s3://``, ``gs://``: Bedrock and Vertex read it with the caller's credentials), a provider
file id of the caller's account. Such data may carry one only when the caller trusts that
kind, by name (``Trust``): ``tw.load_conversation(..., trust=...)``, ``SessionStore.import_(...,
trust=...)`` and the CLI's ``--trust`` all apply ``check``. Inline bytes and http(s) URLs
(fetched under ``fetch``'s rules) need no trust; any other URL scheme is refused.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

from .content import File
from .errors import ToolwireError, UntrustedSourceError
from .sources import BlobSource, BytesSource, PathSource, ProviderFileSource, UrlSource

#: A kind of source a conversation from elsewhere carries only when the caller trusts it.
Trust = Literal["paths", "cloud", "file-ids"]
TRUST_CHOICES: tuple[Trust, ...] = ("paths", "cloud", "file-ids")
CLOUD_SCHEMES = frozenset({"s3", "gs"})
_WHAT = {"paths": "local path", "cloud": "cloud object URL", "file-ids": "provider file id"}


def check(messages: Sequence[Any], where: str, trusted: Collection[str] = ()) -> None:
    """Refuse ``messages`` from elsewhere unless every File's source is one the reader may
    follow for its writer (``needs`` is None, or a kind ``trusted`` names): an
    UntrustedSourceError naming ``where``, the message, the file and the setting to pass."""
    if isinstance(trusted, str):  # trust="paths": one name, not its letters
        trusted = (trusted,)
    unknown = set(trusted) - set(TRUST_CHOICES)
    if unknown:
        raise ToolwireError(
            f"trust takes {', '.join(TRUST_CHOICES)}, not {', '.join(sorted(unknown))}"
        )
    for k, message in enumerate(messages):
        for file in files_of(message):
            kind = needs(file)
            if kind is None or kind in trusted:
                continue
            at = f"{where}, message {k}, file {label(file)}"
            if kind == "refused":
                raise UntrustedSourceError(f"{at}: a {file.source.type} source is refused")
            raise UntrustedSourceError(
                f"{at}: a {_WHAT[kind]} ({shown(file)}) is read with your own access, so a "
                f"conversation from elsewhere may not carry one unless you trust it: pass "
                f"trust=({kind!r},) (the CLI: --trust {kind})"
            )


def needs(file: File) -> str | None:
    """The trust ``file``'s source needs (a ``Trust`` name), ``"refused"`` for a source no
    trust admits (a URL of another scheme), or None when it needs none."""
    source = file.source
    if isinstance(source, PathSource | BlobSource):
        return "paths"
    if isinstance(source, ProviderFileSource):
        return "file-ids"
    if isinstance(source, UrlSource):
        scheme = urlsplit(source.url).scheme.lower()
        if scheme in CLOUD_SCHEMES:
            return "cloud"
        return None if scheme in ("http", "https") else "refused"
    return None


def files_of(message: Any) -> list[File]:
    """The files of a message, in order: a user message's parts and a content tool output's
    (the only two places a File sits)."""
    from .messages import ContentOutput, ToolResult, User

    if isinstance(message, User) and not isinstance(message.content, str):
        return [p for p in message.content if isinstance(p, File)]
    if isinstance(message, ToolResult) and isinstance(message.output, ContentOutput):
        return [p for p in message.output.value if isinstance(p, File)]
    return []


def label(file: File) -> str:
    """How errors name a file without reading it: its name, path, or identifier."""
    if file.name:
        return file.name
    if isinstance(file.source, PathSource):
        return file.source.path
    return file.identifier


def shown(file: File) -> str:
    """The source's reference, never its bytes: a path, a URL or a length."""
    if isinstance(file.source, BytesSource):
        return f"{len(file.source.data)} inline bytes"
    return file.source.describe()
