"""Slides from other projects' test suites keep their charts and pictures (readers/slides.py).

The files and their sources are listed in corpus/README.md.
"""

from __future__ import annotations

from .test_docx_corpus import body


def test_a_chart_reads_as_its_title_and_data():
    text = body("markitdown-test.pptx")
    chart = (
        "## Slide 4: A chart\xa0to test parsing:\n\n[Chart: a3f6004b-6f4f-4ea8-bee3-3741f4dc385f]"
        "\n\n| Category | Series 1 |\n|---|---|\n| 2000 | 2000 |\n| 2001 | 2001 |"
    )
    assert chart in text


def test_a_chart_with_several_series_is_one_table():
    table = (
        "| Category | Series 1 | Series 2 | Series 3 |\n|---|---|---|---|\n"
        "| Category 1 | 4.3 | 2.4 | 2 |\n| Category 2 | 2.5 | 4.4 | 2 |"
    )
    assert f"## Slide 1\n\n[Chart]\n\n{table}" in body("python-pptx-cht-charts.pptx")


def test_a_picture_reads_as_its_description():
    text = body("markitdown-test.pptx")
    expected = "[Picture: This phrase of the caption is Human-written.]"
    assert f"## Slide 6: These Test Strings are in the Image!\n\n{expected}" in text


def test_a_chart_python_pptx_cannot_model_keeps_the_slide_readable():
    """python-pptx raises NotImplementedError on a 3-D area chart's series."""
    from .files import rewritten
    from .test_docx_corpus import CORPUS
    from .test_office import text_of

    def area_3d(xml: bytes) -> bytes:
        return xml.replace(b"c:barChart>", b"c:area3DChart>")

    charts = CORPUS / "python-pptx-cht-charts.pptx"
    text = text_of(rewritten(charts, "ppt/charts/chart1.xml", area_3d), "area.pptx")
    assert "## Slide 1\n\n[Chart] (its data could not be read: NotImplementedError)" in text


def test_a_date_axis_shows_its_dates_not_day_numbers():
    import datetime as dt
    import io

    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    from .test_office import text_of

    data = CategoryChartData()
    data.categories = [dt.date(2024, 1, 1), dt.date(2024, 2, 1)]
    data.add_series("Visits", (120, 140))
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_chart(XL_CHART_TYPE.LINE, 0, 0, Inches(4), Inches(3), data)
    buffer = io.BytesIO()
    deck.save(buffer)
    text = text_of(buffer.getvalue(), "visits.pptx")
    assert "| Category | Visits |\n|---|---|\n| 2024-01-01 | 120 |\n| 2024-02-01 | 140 |" in text


def test_shapes_read_top_to_bottom_whatever_order_they_were_added_in():
    import io

    from pptx import Presentation
    from pptx.util import Inches

    from .test_office import text_of

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for top, text in ((5, "Third, at the bottom"), (1, "First, at the top"), (3, "Second")):
        slide.shapes.add_textbox(Inches(1), Inches(top), Inches(4), Inches(1)).text = text
    buffer = io.BytesIO()
    deck.save(buffer)
    text = text_of(buffer.getvalue(), "order.pptx")
    assert "## Slide 1\n\nFirst, at the top\n\nSecond\n\nThird, at the bottom" in text
