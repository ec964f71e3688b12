"""A DOCX's or PPTX's pictures as images for a target that reads images (convert/pictures.py)."""

from __future__ import annotations

import io

from toolwire.content import File, Text
from toolwire.convert import Target, convert

from . import files
from .conftest import TEXT_ONLY, VISION
from .test_docx_corpus import CORPUS


def test_a_docx_sends_its_pictures_after_its_text_to_a_vision_target():
    from PIL import Image

    conversion = convert(File.from_bytes(files.docx_with_pictures(), name="memo.docx"), VISION)
    assert conversion is not None and conversion.converted_to == "text"
    text, label1, image1, label2, image2 = conversion.parts
    assert isinstance(text, Text)
    assert "[Picture: A red square]\n\n[Picture]" in text.text
    assert label1 == Text(text="Picture 1 of 2 in memo.docx: A red square")
    assert label2 == Text(text="Picture 2 of 2 in memo.docx")
    assert isinstance(image1, File) and image1.name == "memo-picture1.png"
    with Image.open(io.BytesIO(image1.read())) as shown:
        assert shown.size == (120, 80) and shown.convert("RGB").getpixel((5, 5)) == (200, 30, 30)
    assert "with 2 of its 2 pictures as images" in conversion.reason


def test_the_pictures_stay_within_the_image_budget():
    one = Target(frozenset({"image/png", "image/jpeg"}), 1)
    conversion = convert(File.from_bytes(files.docx_with_pictures(), name="memo.docx"), one)
    assert conversion is not None
    assert [type(part).__name__ for part in conversion.parts] == ["Text", "Text", "File"]
    assert "with 1 of its 2 pictures as images" in conversion.reason


def test_a_text_only_target_gets_the_descriptions_only():
    conversion = convert(File.from_bytes(files.docx_with_pictures(), name="memo.docx"), TEXT_ONLY)
    assert conversion is not None and len(conversion.parts) == 1
    assert "pictures" not in conversion.reason


def test_a_pptx_sends_its_pictures_with_their_slide_and_alt_text():
    conversion = convert(File.from_path(CORPUS / "markitdown-test.pptx"), VISION)
    assert conversion is not None
    labels = [part.text for part in conversion.parts[1:] if isinstance(part, Text)]
    assert labels == [
        "Picture 1 of 2 in markitdown-test.pptx, slide 2: The first page of the AutoGen ArXiv "
        "paper. 44bf7d06-5e7a-4a40-a2e1-a2e42ef28c8a",
        "Picture 2 of 2 in markitdown-test.pptx, slide 6: This phrase of the caption is "
        "Human-written.",
    ]
    images = [part for part in conversion.parts if isinstance(part, File)]
    assert [image.name for image in images] == [
        "markitdown-test-picture1.jpg",
        "markitdown-test-picture2.jpg",
    ]


def test_a_tiny_picture_is_not_sent_as_an_image():
    conversion = convert(File.from_path(CORPUS / "mammoth-tiny-picture.docx"), VISION)
    assert conversion is not None and len(conversion.parts) == 1
    assert "with 0 of its 1 pictures as images (1 too small" in conversion.reason
