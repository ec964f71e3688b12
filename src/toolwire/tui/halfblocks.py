"""Half blocks: a picture in any colour terminal, two pixels a cell (``▀``, the upper pixel
as the foreground colour, the lower one as the background), for terminals without a graphics
protocol, over SSH and in tests. The picture is the read worker's RGB samples
(``pixels.Pixels``), scaled here as samples: no image format is decoded."""

from __future__ import annotations

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from .pixels import Pixels

#: Widest and tallest a picture is drawn, in cells: it fits an 80x24 terminal with its title.
MAX_COLUMNS = 64
MAX_ROWS = 16


class HalfBlocks(Widget):
    """``pixels`` drawn in half blocks, within ``MAX_COLUMNS`` x ``MAX_ROWS``, aspect kept."""

    DEFAULT_CSS = "HalfBlocks { width: auto; height: auto; }"

    def __init__(self, pixels: Pixels, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.pixels = pixels
        self.columns = max(1, min(MAX_COLUMNS, pixels.width))
        self.rows = max(1, round(self.columns * pixels.height / pixels.width / 2))
        if self.rows > MAX_ROWS:  # a portrait page: as tall as allowed, narrower
            self.rows = MAX_ROWS
            self.columns = max(1, round(MAX_ROWS * 2 * pixels.width / pixels.height))
        self._lines = _cells(pixels, self.columns, self.rows * 2)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.columns

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.rows

    def render_line(self, y: int) -> Strip:
        if not 0 <= y < len(self._lines):
            return Strip.blank(self.size.width)
        return Strip(self._lines[y], self.columns)


def _cells(pixels: Pixels, columns: int, rows: int) -> list[list[Segment]]:
    """Rows of ``▀`` cells, sampling the nearest pixel for each half cell."""

    def at(x: int, y: int) -> Color:
        sx = min(pixels.width - 1, x * pixels.width // columns)
        sy = min(pixels.height - 1, y * pixels.height // rows)
        offset = 3 * (sy * pixels.width + sx)
        r, g, b = pixels.rgb[offset : offset + 3]
        return Color.from_rgb(r, g, b)

    return [
        [Segment("▀", Style(color=at(x, y), bgcolor=at(x, y + 1))) for x in range(columns)]
        for y in range(0, rows, 2)
    ]
