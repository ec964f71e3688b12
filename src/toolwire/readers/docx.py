"""Word documents (DOCX, transitional or ISO Strict) as the Markdown a reader would see.

Read from the package's XML with lxml rather than python-docx's object model, because most of
what a reader sees lives outside it: list markers come from the numbering definitions
(``w:numPr`` → ``numbering.xml``), footnotes, endnotes and comments from their own parts, link
targets from the part's relationships, text boxes and pictures from drawings, equations from
Office Math. So:

- headings (``Title``, ``Heading N``) as ``#``; lists with their real markers (``-``, ``1.``,
  ``a)``) indented by level; bold and italic as ``**``/``*``; hyperlinks as ``[text](url)``;
- text boxes as their paragraphs, right after the paragraph that anchors them;
- pictures as ``[Picture: description]`` (the alt text; ``[Picture]`` when there is none);
- equations as LaTeX, ``$…$`` inline and ``$$…$$`` for display equations;
- footnote, endnote and comment marks as ``[^1]``, ``[^i]``, ``[^c1]``, with their text at
  the end;
- tables as Markdown tables, each cell's paragraphs kept apart by ``<br>``;
- each distinct header and footer once (``Header: …`` first, ``Footer: …`` last), not on
  every page as Word repeats them;
- deleted revisions and hidden text left out, as Word shows neither.

ISO Strict documents name the same elements in other namespaces (``http://purl.oclc.org/
ooxml/...``); those are mapped to the transitional ones before parsing. The caller has already
checked the zip (office.check_zip): no DTDs, bounded sizes.
"""

from __future__ import annotations

import contextlib
import io
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidFileError, missing_dependency
from ..mediatypes import ZIP_ERRORS
from . import limits
from .omml import MATH, latex
from .tables import markdown_table

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"
DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"
CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
VML = "urn:schemas-microsoft-com:vml"
OFFICE = "urn:schemas-microsoft-com:office:office"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_STRICT = re.compile(rb"http://purl\.oclc\.org/ooxml/(\w+)/")
_TRANSITIONAL = rb"http://schemas.openxmlformats.org/\1/2006/"
_OFF = {"0", "false", "off", "none"}
#: Markup-compatibility choices this reader understands; others take the fallback content.
_KNOWN_CHOICES = {"wps", "wpg", "wpc", "wp14", "w14", "w15", "w16se", "a14", "v", "m"}
_HYPERLINK_FIELD = re.compile(r'^\s*HYPERLINK\s+"([^"]+)"')
_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc")]
_ROMAN += [(50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
_NOTE_KINDS = ("footnote", "endnote")
#: Indentation per list level: enough for a nested Markdown list under ``1.`` or ``-``.
_LIST_INDENT = "    "


def _w(name: str) -> str:
    return f"{{{W}}}{name}"


def docx_markdown(data: bytes, name: str) -> str:
    """The document's Markdown (empty for a document with nothing in it)."""
    with _opened(data, name) as package:
        return _Document(package).markdown()


def docx_pictures(data: bytes, name: str) -> list[tuple[str, str]]:
    """The embedded pictures of the document body, in order: (zip member, alt text)."""
    with _opened(data, name) as package:
        main = _Document(package).main
        links = package.links(main)
        found: list[tuple[str, str]] = []
        for picture in package.xml(main).iter(f"{{{PIC}}}pic"):
            blip = picture.find(f".//{{{DRAWING}}}blip")
            link = links.get(blip.get(f"{{{R}}}embed", "")) if blip is not None else None
            if link is None or link.external or link.target not in package.names:
                continue
            alt = _description(picture.find(f".//{{{PIC}}}cNvPr"))
            if (link.target, alt) not in found:
                found.append((link.target, alt))
        return found


@contextlib.contextmanager
def _opened(data: bytes, name: str) -> Iterator[_Package]:
    """The document's package, open while the caller reads it; XML that is not well-formed
    and a zip that cannot be unpacked, wherever the reading meets them, are an
    InvalidFileError naming the file."""
    try:
        from lxml import etree
    except ImportError as exc:
        raise missing_dependency("lxml", "files") from exc
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            yield _Package(archive, name, etree)
    except etree.XMLSyntaxError as exc:
        raise InvalidFileError(
            f"{name}: a part of the document is not well-formed XML ({exc})"
        ) from exc
    except ZIP_ERRORS as exc:
        raise InvalidFileError(
            f"{name}: a part cannot be unpacked ({exc}); probably corrupt"
        ) from exc


@dataclass(frozen=True)
class _Link:
    """One relationship of a part: its type's last word, target, and whether external."""

    kind: str
    target: str
    external: bool


class _Package:
    """The zip's parts, parsed on demand, with Strict namespaces mapped to transitional."""

    def __init__(self, archive: zipfile.ZipFile, name: str, etree: Any) -> None:
        self.archive = archive
        self.name = name
        self.etree = etree
        self.parser = etree.XMLParser(
            resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False
        )
        self.names = set(archive.namelist())

    def xml(self, part: str) -> Any:
        raw = _STRICT.sub(_TRANSITIONAL, self.archive.read(part))
        return self.etree.fromstring(raw, self.parser)

    def links(self, part: str) -> dict[str, _Link]:
        """The part's relationships by id; targets of internal ones resolved to part names."""
        folder, base = posixpath.split(part)
        rels = posixpath.join(folder, "_rels", base + ".rels")
        if rels not in self.names:
            return {}
        found = {}
        for rel in self.xml(rels).iter(f"{{{_RELS}}}Relationship"):
            target = rel.get("Target", "")
            external = rel.get("TargetMode") == "External"
            if not external:
                target = posixpath.normpath(
                    target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
                )
            kind = rel.get("Type", "").rsplit("/", 1)[-1]
            found[rel.get("Id", "")] = _Link(kind, target, external)
        return found

    def related(self, part: str, kind: str) -> str | None:
        """The part that ``part`` points to with a relationship of ``kind``, if present."""
        for link in self.links(part).values():
            if link.kind == kind and not link.external and link.target in self.names:
                return link.target
        return None


@dataclass
class _Level:
    """One level of a list definition: number format, marker template, first number."""

    format: str = "decimal"
    text: str = "%1."
    start: int = 1


@dataclass
class _Lists:
    """Numbering definitions and the running counters of each list."""

    levels: dict[str, dict[int, _Level]] = field(default_factory=dict)
    counters: dict[str, list[int]] = field(default_factory=dict)

    def marker(self, num_id: str, level: int) -> str | None:
        """The marker of the next item at ``level`` of list ``num_id``; None if undefined."""
        levels = self.levels.get(num_id)
        if levels is None or num_id == "0":
            return None
        counts = self.counters.setdefault(num_id, [])
        del counts[level + 1 :]
        while len(counts) <= level:
            counts.append(levels.get(len(counts), _Level()).start - 1)
        counts[level] += 1
        definition = levels.get(level, _Level())
        if definition.format == "bullet":
            return "-"
        if definition.format == "none":
            return ""
        marker = definition.text
        for depth, count in enumerate(counts):
            number_format = levels.get(depth, _Level()).format
            marker = marker.replace(f"%{depth + 1}", _number(count, number_format))
        return marker.strip()


def _number(count: int, number_format: str) -> str:
    if number_format in ("lowerLetter", "upperLetter"):
        letters = ""
        while count > 0:
            count, rest = divmod(count - 1, 26)
            letters = chr(97 + rest) + letters
        return letters.upper() if number_format == "upperLetter" else letters
    if number_format in ("lowerRoman", "upperRoman") and count < 4000:  # else decimal
        roman = ""
        for value, digits in _ROMAN:
            while count >= value:
                roman, count = roman + digits, count - value
        return roman.upper() if number_format == "upperRoman" else roman
    return str(count)


def _val(element: Any, default: str = "") -> str:
    return str(element.get(_w("val"), default)) if element is not None else default


def _is_on(element: Any) -> bool:
    return element is not None and _val(element, "1").lower() not in _OFF


@dataclass
class _Style:
    name: str
    based_on: str | None
    num_id: str | None
    level: int


@dataclass
class _Segment:
    """A piece of a paragraph's text and its emphasis (None: already Markdown, e.g. a link)."""

    text: str
    emphasis: str | None = ""


@dataclass
class _Field:
    """A complex field being read: its instruction, and where its shown result begins."""

    instruction: str = ""
    result_start: int | None = None


@dataclass(frozen=True)
class _Block:
    """A paragraph, table or equation as Markdown; list items are kept on adjacent lines."""

    text: str
    is_item: bool = False


@dataclass
class _Paragraph:
    """What reading one paragraph gives: its segments, and blocks that follow it."""

    segments: list[_Segment] = field(default_factory=list)
    after: list[_Block] = field(default_factory=list)
    fields: list[_Field] = field(default_factory=list)


class _Document:
    """The main part and the parts it refers to, read into Markdown."""

    def __init__(self, package: _Package) -> None:
        self.package = package
        main = package.related("", "officeDocument") or package.related("", "document")
        if main is None:
            main = "word/document.xml" if "word/document.xml" in package.names else None
        if main is None:
            raise InvalidFileError(f"{package.name}: not a Word document (no main document part)")
        self.main = main
        self.styles = self._styles()
        self.lists = self._lists()
        self.notes: dict[str, dict[str, Any]] = {kind: self._notes(kind) for kind in _NOTE_KINDS}
        self.comments = self._comments()
        self.marks: dict[str, list[str]] = {kind: [] for kind in (*_NOTE_KINDS, "comment")}
        #: Tables being read: emphasis is left out of cells (a header row is bold already).
        self.table_depth = 0

    def markdown(self) -> str:
        root = self.package.xml(self.main)
        links = self.package.links(self.main)
        body = root.find(_w("body"))
        blocks = self._blocks(body, links) if body is not None else []
        headers = self._margins(root, links, "header")
        footers = self._margins(root, links, "footer")
        return _join(headers + blocks + footers + self._notes_section())

    def _margins(self, root: Any, links: dict[str, _Link], kind: str) -> list[_Block]:
        """Each distinct header (or footer) of the document's sections once, in order:
        ``Header: text``. Word repeats them on every page; here they are read once."""
        texts: list[str] = []
        for reference in root.iter(_w(f"{kind}Reference")):
            link = links.get(reference.get(f"{{{R}}}id", ""))
            if link is None or link.external or link.target not in self.package.names:
                continue
            part = self.package.xml(link.target)
            text = self._text(part, self.package.links(link.target), " / ").strip()
            if text and text not in texts:
                texts.append(text)
        return [_Block(f"{kind.capitalize()}: {text}") for text in texts]

    # --- parts ---------------------------------------------------------------------------

    def _styles(self) -> dict[str, _Style]:
        part = self.package.related(self.main, "styles")
        if part is None:
            return {}
        styles = {}
        for style in self.package.xml(part).iter(_w("style")):
            num = style.find(f"{_w('pPr')}/{_w('numPr')}")
            styles[style.get(_w("styleId"), "")] = _Style(
                name=_val(style.find(_w("name"))).lower(),
                based_on=_val(style.find(_w("basedOn"))) or None,
                num_id=_val(num.find(_w("numId"))) or None if num is not None else None,
                level=_int(_val(num.find(_w("ilvl")))) if num is not None else 0,
            )
        return styles

    def _lists(self) -> _Lists:
        part = self.package.related(self.main, "numbering")
        lists = _Lists()
        if part is None:
            return lists
        root = self.package.xml(part)
        abstract = {}
        for definition in root.iter(_w("abstractNum")):
            abstract[definition.get(_w("abstractNumId"), "")] = _levels(definition)
        for num in root.iter(_w("num")):
            levels = dict(abstract.get(_val(num.find(_w("abstractNumId"))), {}))
            for override in num.iter(_w("lvlOverride")):
                level = _int(override.get(_w("ilvl")))
                if (replaced := override.find(_w("lvl"))) is not None:
                    levels[level] = _level(replaced)
                if (start := override.find(_w("startOverride"))) is not None:
                    base = levels.get(level, _Level())
                    levels[level] = _Level(base.format, base.text, _int(_val(start), 1))
            lists.levels[num.get(_w("numId"), "")] = levels
        return lists

    def _notes(self, kind: str) -> dict[str, Any]:
        part = self.package.related(self.main, kind + "s")
        if part is None:
            return {}
        links = self.package.links(part)
        notes = {}
        for note in self.package.xml(part).iter(_w(kind)):
            if note.get(_w("type"), "normal") == "normal":
                notes[note.get(_w("id"), "")] = (note, links)
        return notes

    def _comments(self) -> dict[str, Any]:
        part = self.package.related(self.main, "comments")
        if part is None:
            return {}
        links = self.package.links(part)
        return {c.get(_w("id"), ""): (c, links) for c in self.package.xml(part).iter(_w("comment"))}

    def _notes_section(self) -> list[_Block]:
        lines = []
        for kind in _NOTE_KINDS:
            for number, note_id in enumerate(self.marks[kind], 1):
                note, links = self.notes[kind][note_id]
                text = self._text(note, links, " ").strip()
                lines.append(f"[^{_note_label(kind, number)}]: {text}")
        for number, comment_id in enumerate(self.marks["comment"], 1):
            comment, links = self.comments[comment_id]
            author = comment.get(_w("author"), "")
            text = self._text(comment, links, " ").strip()
            lines.append(
                f"[^c{number}]: Comment" + (f" by {author}" if author else "") + f": {text}"
            )
        return [_Block("\n".join(lines))] if lines else []

    # --- blocks --------------------------------------------------------------------------

    def _blocks(self, container: Any, links: dict[str, _Link]) -> list[_Block]:
        """Paragraphs and tables of a body, cell, note or text box, in order, as Markdown."""
        blocks: list[_Block] = []
        for child in _content(container):
            if child.tag == _w("p"):
                blocks += self._paragraph(child, links)
            elif child.tag == _w("tbl"):
                blocks.append(_Block(self._table(child, links)))
            elif child.tag == f"{{{MATH}}}oMathPara":
                blocks.append(_Block(_display_math(child)))
        return [block for block in blocks if block.text.strip()]

    def _text(self, container: Any, links: dict[str, _Link], separator: str) -> str:
        return separator.join(block.text for block in self._blocks(container, links))

    def _table(self, table: Any, links: dict[str, _Link]) -> str:
        self.table_depth += 1
        try:
            return markdown_table(self._rows(table, links))
        finally:
            self.table_depth -= 1

    def _rows(self, table: Any, links: dict[str, _Link]) -> list[list[str]]:
        rows: list[list[str]] = []
        for row in table.iter(_w("tr")):
            if row.getparent() is not table and row.getparent().tag != _w("sdtContent"):
                continue
            cells = []
            for cell in _content(row):
                if cell.tag != _w("tc"):
                    continue
                cells.append(self._text(cell, links, "\n"))
                span = _int(_val(cell.find(f"{_w('tcPr')}/{_w('gridSpan')}")), 1)
                cells += [""] * (span - 1)
            rows.append(cells[: limits.MAX_TABLE_COLUMNS])
            if len(rows) > limits.TABLE_ROWS_PER_READ:
                rows.append(["…"])
                break
        return rows

    def _paragraph(self, paragraph: Any, links: dict[str, _Link]) -> list[_Block]:
        state = _Paragraph()
        self._inline(paragraph, links, state)
        text = _render(state.segments).strip()
        prefix, is_item = self._prefix(paragraph) if text else ("", False)
        return [_Block(prefix + text, is_item), *state.after]

    def _prefix(self, paragraph: Any) -> tuple[str, bool]:
        """``# `` for a heading, the list marker and indentation for a list item (and
        whether it is one); a numbered heading keeps its number (``## 1.1 Scope``)."""
        properties = paragraph.find(_w("pPr"))
        style_id = _val(properties.find(_w("pStyle"))) if properties is not None else ""
        style = self._style_chain(style_id)
        num = properties.find(_w("numPr")) if properties is not None else None
        num_id, level = None, 0
        if num is not None:
            num_id = _val(num.find(_w("numId"))) or None
            level = _int(_val(num.find(_w("ilvl"))))
        if num_id is None:
            num_id, level = next(((s.num_id, s.level) for s in style if s.num_id), (None, 0))
        level = min(level, 8)
        marker = self.lists.marker(num_id, level) if num_id else None
        heading = _heading_level(style)
        if heading:
            return "#" * heading + " " + (marker + " " if marker else ""), False
        if marker is None:
            marker = _style_list_marker(style)
        if marker is None:
            return "", False
        return _LIST_INDENT * level + (marker + " " if marker else ""), True

    def _style_chain(self, style_id: str) -> list[_Style]:
        chain: list[_Style] = []
        while style_id in self.styles and len(chain) < 10:
            chain.append(self.styles[style_id])
            style_id = chain[-1].based_on or ""
        return chain

    # --- inline content ------------------------------------------------------------------

    def _inline(self, element: Any, links: dict[str, _Link], state: _Paragraph) -> None:
        for child in element:
            if not isinstance(child.tag, str):
                continue
            tag = child.tag
            if tag == _w("r"):
                self._run(child, links, state)
            elif tag == _w("hyperlink"):
                self._hyperlink(child, links, state)
            elif tag == _w("fldSimple"):
                self._simple_field(child, links, state)
            elif tag == f"{{{MATH}}}oMath":
                state.segments.append(_Segment(f"${latex(child)}$", None))
            elif tag == f"{{{MATH}}}oMathPara":
                state.segments.append(_Segment(_display_math(child), None))
            elif tag == f"{{{MC}}}AlternateContent":
                self._inline(_alternative(child), links, state)
            elif tag in (_w("ins"), _w("smartTag"), _w("customXml"), _w("sdtContent")):
                self._inline(child, links, state)
            elif tag == _w("sdt") and (inner := child.find(_w("sdtContent"))) is not None:
                self._inline(inner, links, state)

    def _run(self, run: Any, links: dict[str, _Link], state: _Paragraph) -> None:
        properties = run.find(_w("rPr"))
        if properties is not None and _is_on(properties.find(_w("vanish"))):
            return
        emphasis = _emphasis(properties, self.styles) if not self.table_depth else ""
        for child in run:
            if not isinstance(child.tag, str):
                continue
            text = self._run_child(child, links, state)
            if text:
                kind = None if child.tag != _w("t") else emphasis
                state.segments.append(_Segment(text, kind))

    def _run_child(self, child: Any, links: dict[str, _Link], state: _Paragraph) -> str:
        tag = child.tag
        if tag == _w("t"):
            return str(child.text or "")
        if tag in (_w("tab"), _w("ptab")):
            return "\t"
        if tag in (_w("br"), _w("cr")):
            return "" if child.get(_w("type")) == "page" else "\n"
        if tag == _w("noBreakHyphen"):
            return "-"
        if tag == _w("sym"):
            return _symbol(child)
        if tag == _w("fldChar"):
            _field_char(child, state)
        elif tag == _w("instrText") and state.fields:
            state.fields[-1].instruction += child.text or ""
        elif tag in (_w("footnoteReference"), _w("endnoteReference")):
            kind = tag.split("}")[1].removesuffix("Reference")
            return self._mark(kind, child.get(_w("id"), ""))
        elif tag == _w("commentReference"):
            return self._mark("comment", child.get(_w("id"), ""))
        elif tag in (_w("drawing"), _w("pict"), _w("object")):
            return self._drawing(child, links, state)
        elif tag == f"{{{MC}}}AlternateContent":
            chosen = _alternative(child)
            return "".join(
                self._run_child(c, links, state) for c in chosen if isinstance(c.tag, str)
            )
        return ""

    def _mark(self, kind: str, mark_id: str) -> str:
        known = self.comments if kind == "comment" else self.notes[kind]
        if mark_id not in known:
            return ""
        marks = self.marks[kind]
        if mark_id not in marks:
            marks.append(mark_id)
        number = marks.index(mark_id) + 1
        return f"[^{_note_label(kind, number)}]"

    def _hyperlink(self, link: Any, links: dict[str, _Link], state: _Paragraph) -> None:
        inner = _Paragraph(fields=state.fields)
        self._inline(link, links, inner)
        target = links.get(link.get(f"{{{R}}}id", ""))
        state.after += inner.after
        if target is None or not target.external:
            state.segments += inner.segments
            return
        url = target.target
        if anchor := link.get(_w("anchor")):
            url = f"{url.split('#', 1)[0]}#{anchor}"
        state.segments.append(_Segment(_link(_render(inner.segments), url), None))

    def _simple_field(self, simple: Any, links: dict[str, _Link], state: _Paragraph) -> None:
        inner = _Paragraph(fields=state.fields)
        self._inline(simple, links, inner)
        state.after += inner.after
        url = _HYPERLINK_FIELD.match(simple.get(_w("instr"), ""))
        if url is None:
            state.segments += inner.segments
        else:
            state.segments.append(_Segment(_link(_render(inner.segments), url.group(1)), None))

    def _drawing(self, drawing: Any, links: dict[str, _Link], state: _Paragraph) -> str:
        """Pictures in a drawing as ``[Picture: …]``; its text boxes go after the paragraph."""
        for box in drawing.iter(_w("txbxContent")):
            if not any(a.tag == _w("txbxContent") for a in box.iterancestors()):
                state.after += self._blocks(box, links)
        found = []
        described = drawing.find(f".//{{{WP}}}docPr")
        for picture in drawing.iter(f"{{{PIC}}}pic", f"{{{VML}}}imagedata"):
            found.append(_picture(picture, described))
        if not found and drawing.find(f".//{{{CHART}}}chart") is not None:
            found.append(_described("Chart", described))
        return " ".join(found)


def _content(container: Any) -> Iterator[Any]:
    """Children of a container, looking through content controls, revisions and choices."""
    for child in container:
        if not isinstance(child.tag, str):
            continue
        if child.tag == _w("sdt"):
            inner = child.find(_w("sdtContent"))
            if inner is not None:
                yield from _content(inner)
        elif child.tag in (_w("customXml"), _w("ins")):
            yield from _content(child)
        elif child.tag == f"{{{MC}}}AlternateContent":
            yield from _content(_alternative(child))
        else:
            yield child


def _alternative(element: Any) -> Any:
    """The ``mc:Choice`` this reader understands, else the ``mc:Fallback`` (else nothing)."""
    for choice in element.findall(f"{{{MC}}}Choice"):
        if set(choice.get("Requires", "").split()) <= _KNOWN_CHOICES:
            return choice
    fallback = element.find(f"{{{MC}}}Fallback")
    return fallback if fallback is not None else []


def _levels(definition: Any) -> dict[int, _Level]:
    return {_int(level.get(_w("ilvl"))): _level(level) for level in definition.iter(_w("lvl"))}


def _level(level: Any) -> _Level:
    return _Level(
        format=_val(level.find(_w("numFmt")), "decimal"),
        text=_val(level.find(_w("lvlText")), "%1."),
        start=_int(_val(level.find(_w("start"))), 1),
    )


def _int(text: str | None, default: int = 0) -> int:
    try:
        return max(int(text or default), 0)
    except ValueError:
        return default


def _heading_level(style: list[_Style]) -> int:
    for entry in style:
        if entry.name == "title":
            return 1
        if entry.name.startswith("heading ") and entry.name[8:].isdigit():
            return min(int(entry.name[8:]), 6)
    return 0


def _style_list_marker(style: list[_Style]) -> str | None:
    """A list style that has no numbering definition still says bullets or numbers."""
    name = style[0].name if style else ""
    if name.startswith("list bullet"):
        return "-"
    if name.startswith("list number"):
        return "1."
    return None


def _emphasis(properties: Any, styles: dict[str, _Style]) -> str:
    if properties is None:
        return ""
    style = styles.get(_val(properties.find(_w("rStyle"))))
    bold = _is_on(properties.find(_w("b"))) or (style is not None and style.name == "strong")
    italic = _is_on(properties.find(_w("i"))) or (style is not None and style.name == "emphasis")
    return ("**" if bold else "") + ("*" if italic else "")


def _render(segments: list[_Segment]) -> str:
    """Segments joined, runs of one emphasis wrapped once (outside their edge spaces)."""
    out: list[str] = []
    index = 0
    while index < len(segments):
        emphasis = segments[index].emphasis
        end = index + 1
        while end < len(segments) and segments[end].emphasis == emphasis:
            end += 1
        text = "".join(segment.text for segment in segments[index:end])
        if emphasis and text.strip():
            stripped = text.strip()
            lead = text[: len(text) - len(text.lstrip())]
            trail = text[len(text.rstrip()) :]
            text = f"{lead}{emphasis}{stripped}{emphasis[::-1]}{trail}"
        out.append(text)
        index = end
    return "".join(out)


def _field_char(char: Any, state: _Paragraph) -> None:
    """Complex fields: a HYPERLINK field's shown result becomes a link to its target."""
    kind = char.get(_w("fldCharType"))
    if kind == "begin":
        state.fields.append(_Field())
    elif kind == "separate" and state.fields:
        state.fields[-1].result_start = len(state.segments)
    elif kind == "end" and state.fields:
        done = state.fields.pop()
        url = _HYPERLINK_FIELD.match(done.instruction)
        start = done.result_start
        if url is None or start is None or start > len(state.segments):
            return
        shown = _render(state.segments[start:])
        del state.segments[start:]
        state.segments.append(_Segment(_link(shown, url.group(1)), None))


def _link(text: str, url: str) -> str:
    text = text.strip()
    if not text:
        return ""
    if text == url:
        return f"<{url}>"
    return f"[{text}]({url.replace(' ', '%20').replace(')', '%29')})"


def _symbol(symbol: Any) -> str:
    try:
        char = chr(int(symbol.get(_w("char"), ""), 16))
    except ValueError:
        return ""
    return "" if 0xE000 <= ord(char) <= 0xF8FF else char


def _picture(picture: Any, described: Any) -> str:
    """``[Picture: alt text]`` from the picture's own description, else its drawing's."""
    if picture.tag == f"{{{VML}}}imagedata":
        title = picture.get(f"{{{OFFICE}}}title", "")
        shape = picture.getparent()
        alt = shape.get("alt", "") if shape is not None else ""
        return _described("Picture", None, alt or title)
    own = picture.find(f".//{{{PIC}}}cNvPr")
    return _described("Picture", described, _description(own))


def _described(kind: str, described: Any, text: str = "") -> str:
    text = text or _description(described)
    return f"[{kind}: {text}]" if text else f"[{kind}]"


def _description(properties: Any) -> str:
    if properties is None:
        return ""
    text = properties.get("descr") or properties.get("title") or ""
    return " ".join(str(text).split())


def _display_math(paragraph: Any) -> str:
    equations = [latex(math) for math in paragraph.iter(f"{{{MATH}}}oMath")]
    return "\n".join(f"$${equation}$$" for equation in equations if equation)


def _note_label(kind: str, number: int) -> str:
    if kind == "endnote":
        return _number(number, "lowerRoman")
    if kind == "comment":
        return f"c{number}"
    return str(number)


def _join(blocks: list[_Block]) -> str:
    """Blocks apart by a blank line, except consecutive list items (kept one per line)."""
    out: list[str] = []
    previous_is_item = False
    for block in blocks:
        if out:
            out.append("\n" if block.is_item and previous_is_item else "\n\n")
        out.append(block.text)
        previous_is_item = block.is_item
    return "".join(out)
