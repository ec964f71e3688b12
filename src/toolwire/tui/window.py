"""Which turns are on screen: a page of at most ``PAGE`` turns, so a session of a thousand
turns opens as fast as one of fifty. ``[`` and ``]`` turn to the page before or after,
``g`` and ``G`` to the first or last; a line above and below the page counts the turns
that are not mounted. Plain arithmetic, no Textual, so it is tested on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Turns mounted at most (each is a handful of widgets; a thousand take seconds to mount).
PAGE = 50


@dataclass(frozen=True)
class Window:
    """Turns ``start`` to ``stop`` (exclusive) of ``total`` are mounted."""

    start: int
    stop: int
    total: int

    @classmethod
    def first(cls, total: int) -> Window:
        return cls(0, min(total, PAGE), total)

    @classmethod
    def last(cls, total: int) -> Window:
        return cls(max(0, total - PAGE), total, total)

    @property
    def is_last(self) -> bool:
        """Whether the page ends with the session's last turn (a followed page grows)."""
        return self.stop == self.total

    def earlier(self) -> Window:
        start = max(0, self.start - PAGE)
        return Window(start, min(self.total, start + PAGE), self.total)

    def later(self) -> Window:
        stop = min(self.total, self.stop + PAGE)
        return Window(max(0, stop - PAGE), stop, self.total)

    def grown(self, total: int) -> Window:
        """The page once the session holds ``total`` turns: the last page takes the new
        turns (and lets its first ones go past ``PAGE``, as ``tail -f`` does); an earlier
        page stays where it is."""
        if self.is_last:
            return Window(max(self.start, total - PAGE), total, total)
        return Window(min(self.start, total), min(self.stop, total), total)

    def earlier_note(self) -> str:
        """The line above the page ("" when it starts with the first turn)."""
        if not self.start:
            return ""
        return f"▲ turns 1–{self.start:,} not shown · [ earlier · g first"

    def later_note(self) -> str:
        """The line below the page ("" when it ends with the last turn)."""
        if self.is_last:
            return ""
        return f"▼ turns {self.stop + 1:,}–{self.total:,} not shown · ] later · G last"
