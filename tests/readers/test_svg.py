"""SVG (readers/svg.py): XML as text, safe parsing, optional PNG rendering."""

from __future__ import annotations

import io

import pytest

from toolwire.errors import InvalidFileError
from toolwire.readers import read_file
from toolwire.readers.svg import natural_size, parse

from .helpers import copy_example, need_cairosvg, outcome

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE svg [
  <!ENTITY a "lollollollollollollollollollol">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
  <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
  <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
  <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
  <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
  <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
  <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
]>
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&i;</text></svg>
"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&secret;</text></svg>
"""


def _use_bomb(levels: int = 9) -> bytes:
    """Each level draws the previous one ten times: 10**levels shapes from a few KB."""
    defs = ['<g id="l0"><rect width="1" height="1"/></g>']
    for n in range(1, levels + 1):
        uses = "".join(f'<use href="#l{n - 1}" x="{i}"/>' for i in range(10))
        defs.append(f'<g id="l{n}">{uses}</g>')
    body = "".join(defs)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
        f'<defs>{body}</defs><use href="#l{levels}"/></svg>'
    ).encode()


def test_an_svg_is_returned_as_its_xml_text(tmp_path):
    path = copy_example("diagram.svg", tmp_path)
    text = read_file(path).value[0].text
    assert text.startswith("diagram.svg: SVG image, 240x120, 571 B,")
    assert "Lines 1-11 of 11." in text.splitlines()[0]
    assert text.split("\n\n", 1)[1] == path.read_text().rstrip("\n")


def test_an_svg_is_rasterised_to_png_when_cairosvg_is_installed(tmp_path):
    need_cairosvg()
    from PIL import Image

    path = copy_example("diagram.svg", tmp_path)
    result = read_file(path)
    assert "rasterised to PNG 240x120" in result.value[0].text
    png = result.value[1]
    assert (png.name, png.media_type) == ("diagram.png", "image/png")
    assert png.text == path.read_text()
    image = Image.open(io.BytesIO(png.read()))
    assert image.size == (240, 120)
    assert image.convert("RGB").getpixel((50, 45)) == (207, 227, 255)  # the "Tool" box fill


def test_a_billion_laughs_svg_is_refused_without_expanding(tmp_path):
    path = tmp_path / "laughs.svg"
    path.write_bytes(BILLION_LAUGHS)
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "laughs.svg is refused: it declares XML entities" in str(error)


def test_an_external_entity_is_refused(tmp_path):
    path = tmp_path / "xxe.svg"
    path.write_bytes(EXTERNAL_ENTITY)
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "root:" not in str(error)


def test_a_use_bomb_is_read_as_text_but_not_rasterised(tmp_path):
    need_cairosvg()
    path = tmp_path / "uses.svg"
    path.write_bytes(_use_bomb())
    result = outcome(lambda: read_file(path))
    assert "not rasterised (its <use> references expand past 100000 elements)" in (
        result.value[0].text
    )
    assert len(result.value) == 1


def test_a_small_use_tree_is_still_rasterised(tmp_path):
    need_cairosvg()
    path = tmp_path / "uses.svg"
    path.write_bytes(_use_bomb(levels=2))
    assert len(read_file(path).value) == 2


def test_malformed_xml_is_refused(tmp_path):
    path = tmp_path / "broken.svg"
    path.write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>')
    with pytest.raises(InvalidFileError, match="broken.svg: not well-formed XML"):
        read_file(path)


def test_xml_whose_root_is_not_svg_is_refused():
    with pytest.raises(InvalidFileError, match=r"not an SVG \(its root element is <html>\)"):
        parse(b'<?xml version="1.0"?><html><svg/></html>', "page.svg")


@pytest.mark.parametrize(
    ("attributes", "size"),
    [
        ('width="240" height="120"', (240.0, 120.0)),
        ('width="1in" height="2in"', (96.0, 192.0)),
        ('viewBox="0 0 300 150"', (300.0, 150.0)),
        ('width="600" viewBox="0,0,300,150"', (600.0, 300.0)),
        ('width="100%" height="100%"', None),
    ],
)
def test_the_natural_size_comes_from_width_height_or_the_viewbox(attributes, size):
    root = parse(f'<svg xmlns="http://www.w3.org/2000/svg" {attributes}/>'.encode(), "x.svg")
    assert natural_size(root) == size


def test_rasterising_never_reads_files_an_svg_points_to(tmp_path):
    need_cairosvg()
    from PIL import Image

    secret = tmp_path / "secret.png"
    Image.new("RGB", (20, 20), (255, 0, 0)).save(secret)
    path = tmp_path / "peek.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
        f'<image href="{secret.as_uri()}" width="20" height="20"/></svg>'
    )
    png = read_file(path).value[1]
    pixel = Image.open(io.BytesIO(png.read())).convert("RGBA").getpixel((10, 10))
    assert pixel != (255, 0, 0, 255)
