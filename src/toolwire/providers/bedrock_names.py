"""Bedrock document names: sanitised to the allowed characters, unique within one request.

botocore bedrock-runtime 2023-09-30 ``DocumentBlock.name``: 1–200 characters, "alphanumeric
characters, whitespace characters (no more than one in a row), hyphens, parentheses, square
brackets" — the service rejects dots, underscores and slashes, so ``report.pdf`` is sent as
``report-pdf``. Names are handed out in conversation order, so re-encoding the same (or a
longer) conversation gives every document the same name again.
"""

from __future__ import annotations

import re
import unicodedata

#: DocumentBlockNameString: at most 200 characters.
MAX_NAME = 200
#: What a name is made of; ``NAME_RULE.fullmatch`` is the service's rule.
NAME_RULE = re.compile(r"(?:[A-Za-z0-9\-()\[\]]| (?! )){1,200}")
_DISALLOWED = re.compile(r"[^A-Za-z0-9 \-()\[\]]+")
_SPACES = re.compile(r"\s+")


def sanitise(identifier: str) -> str:
    """The identifier in Bedrock's name alphabet: accents dropped, whitespace runs one space,
    every run of other characters one hyphen (``photo.png`` → ``photo-png``)."""
    plain = unicodedata.normalize("NFKD", identifier).encode("ascii", "ignore").decode()
    name = _DISALLOWED.sub("-", _SPACES.sub(" ", plain)).strip()
    return name[:MAX_NAME].rstrip() or "document"


class DocumentNames:
    """Hands out one name per document block of a request: the sanitised identifier, and
    `` (2)``, `` (3)``… for later documents whose name is already taken."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, identifier: str) -> str:
        """The next free name for a document with this identifier."""
        base = sanitise(identifier)
        name, number = base, 2
        while name in self._taken:
            suffix = f" ({number})"
            name = base[: MAX_NAME - len(suffix)].rstrip() + suffix
            number += 1
        self._taken.add(name)
        return name
