"""Benchmark what on_unsupported="convert" costs: per PDF page and per video frame, cold and
memoised, as ratios against a baseline measured in the same run.

1. PDF → page images + text layer (toolwire.convert, in the read worker) for a 20-page PDF
   made here with reportlab, against pypdfium2 alone in this process (open, render every page
   at the same scale, extract its text; no encoding, no worker).
2. Video → 8 evenly spaced JPEG frames from a 10 s 640x360 H.264 video made here with PyAV,
   against PyAV alone in this process (seek to and decode the same 8 frames; no encoding,
   no worker).
3. Memoised: the same conversion again (a lookup in the per-content memo), per call.
4. Agent loop with conversions: ``encode(..., on_unsupported="convert")`` of a growing
   40-turn history for xAI Grok 4 (images by bytes, PDFs by file id only), where turn 1 returns the 20-page PDF
   and every 10th turn another 4-page one; against the same loop with
   ``on_unsupported="text"`` (their descriptions), whose encodes convert nothing.

Cold runs clear the memo first and alternate with the baseline's, so both see the same
machine load; the read worker is started before timing (its start is printed apart). Run: .venv/bin/python bench/convert.py [--repeat N]. No timing is asserted.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
import wave
from collections.abc import Callable
from fractions import Fraction

from _timing import alternating, timed

PAGES = 20
FRAMES = 8
SECONDS = 10
FPS = 25
SIZE = (640, 360)
DPI = 150


def make_pdf(pages: int = PAGES) -> bytes:
    """A text PDF: a title and 40 lines per page."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=letter, invariant=True)
    for number in range(1, pages + 1):
        sheet.setFont("Helvetica-Bold", 16)
        sheet.drawString(72, 740, f"Section {number}")
        sheet.setFont("Helvetica", 10)
        for line in range(40):
            sheet.drawString(
                72, 710 - 15 * line, f"Line {line} of section {number}: " + "words " * 10
            )
        sheet.showPage()
    sheet.save()
    return buffer.getvalue()


def make_video(seconds: int = SECONDS) -> bytes:
    """An H.264 MP4 whose colour changes every frame."""
    import av

    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height = SIZE
        stream.pix_fmt = "yuv420p"
        stream.time_base = Fraction(1, FPS)
        for index in range(seconds * FPS):
            frame = av.VideoFrame(*SIZE, "rgb24")
            frame.planes[0].update(
                bytes([index % 256, 90, 255 - index % 256]) * (SIZE[0] * SIZE[1])
            )
            frame.pts = index
            container.mux(stream.encode(frame.reformat(format="yuv420p")))
        container.mux(stream.encode(None))
    return buffer.getvalue()


def pdfium_alone(data: bytes) -> None:
    import pypdfium2

    pdf = pypdfium2.PdfDocument(data)
    for page in pdf:
        width, height = page.get_size()
        page.render(scale=min(DPI / 72, 2000 / max(width, height))).to_pil()
        page.get_textpage().get_text_bounded()
    pdf.close()


def pyav_alone(data: bytes) -> None:
    import av

    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.video[0]
        duration = float(stream.duration * stream.time_base)
        for i in range(FRAMES):
            wanted = (i + 0.5) * duration / FRAMES
            container.seek(int(wanted / stream.time_base), stream=stream, backward=True)
            for frame in container.decode(stream):
                if frame.time >= wanted:
                    frame.to_image()
                    break


def _rows(what: str, units: int, unit: str, baseline: float, cold: float, memo: float) -> None:
    print(f"  {what:<28} {baseline / units * 1000:9.2f} ms/{unit}")
    print(
        f"  toolwire convert, cold       {cold / units * 1000:9.2f} ms/{unit}  ratio {cold / baseline:6.2f}x"
    )
    print(
        f"  toolwire convert, memoised   {memo * 1e6:9.1f} µs/call  "
        f"ratio {memo / baseline:8.5f}x ({baseline / memo:,.0f}x faster than the baseline)"
    )


def _costs(
    data: bytes, name: str, target: object, baseline: Callable[[], object], repeat: int
) -> tuple[float, float, float]:
    """Median seconds of the baseline, a cold conversion (memo cleared), a memoised one."""
    from toolwire.content import File
    from toolwire.convert import Target, clear_cache, convert

    assert isinstance(target, Target)
    file = File.from_bytes(data, name=name)

    def cold() -> None:
        clear_cache()
        convert(file, target)

    base, cold_time = alternating(baseline, cold, repeat)
    convert(file, target)
    memo_time = timed(lambda: convert(file, target), max(repeat, 1000))
    return base, cold_time, memo_time


def bench_pdf(repeat: int) -> None:
    from toolwire.convert import Target

    data = make_pdf()
    target = Target(frozenset({"image/png", "image/jpeg"}), PAGES)
    baseline, cold, memo = _costs(data, "report.pdf", target, lambda: pdfium_alone(data), repeat)
    print(f"PDF → {PAGES} page images + text layer ({len(data) / 1024:.0f} KB, {DPI} dpi), median:")
    _rows("pypdfium2 alone (baseline)", PAGES, "page", baseline, cold, memo)


def bench_video(repeat: int) -> None:
    from toolwire.convert import Target

    data = make_video()
    target = Target(frozenset({"image/png", "image/jpeg"}), FRAMES)
    baseline, cold, memo = _costs(data, "clip.mp4", target, lambda: pyav_alone(data), repeat)
    print(
        f"Video → {FRAMES} JPEG frames ({SECONDS} s, {SIZE[0]}x{SIZE[1]} H.264, "
        f"{len(data) / 1024:.0f} KB), median:"
    )
    _rows("PyAV alone (baseline)", FRAMES, "frame", baseline, cold, memo)


AGENT_TURNS = 40
AGENT_MODEL = "xai:grok-4"


def agent_history(turns: int = AGENT_TURNS) -> list[list[object]]:
    """Each turn's new messages: a tool call and its result (a PDF at turns 1, 10, 20, 30)."""
    from toolwire.content import File, ToolCall
    from toolwire.messages import Assistant, ToolResult, User

    first = File.from_bytes(make_pdf(), "application/pdf", name="report.pdf")
    added: list[list[object]] = []
    for turn in range(1, turns + 1):
        call = ToolCall(id=f"call_{turn}", name="fetch", arguments={"turn": turn})
        if turn == 1:
            output: object = [first]
        elif turn % 10 == 0:
            output = [
                File.from_bytes(make_pdf(4 + turn // 10), "application/pdf", name=f"t{turn}.pdf")
            ]
        else:
            output = f"result of turn {turn}"
        head = [User("Go.")] if turn == 1 else []
        added.append([*head, Assistant([call]), ToolResult.of(call.id, "fetch", output)])
    return added


def agent_loop(policy: str, added: list[list[object]]) -> list[float]:
    """The seconds of each turn's encode of the growing history, in order."""
    import toolwire as tw
    from toolwire.convert import clear_cache

    clear_cache()
    history: list[object] = []
    spent = []
    for turn in added:
        history += turn
        start = time.perf_counter()
        tw.encode(history, AGENT_MODEL, on_unsupported=policy)  # type: ignore[arg-type]
        spent.append(time.perf_counter() - start)
    return spent


def bench_agent_loop(repeat: int) -> None:
    print(
        f"Agent loop, {AGENT_TURNS} turns re-encoded for {AGENT_MODEL} (PDFs at turns 1, 10, 20, 30):"
    )
    totals = {}
    for policy in ("text", "convert"):  # fresh messages per run: nothing reused from the last
        runs = [agent_loop(policy, agent_history()) for _ in range(max(1, repeat // 2))]
        total = statistics.median(sum(run) for run in runs)
        pdf_turns = statistics.median(sum(run[i] for i in (0, 9, 19, 29)) for run in runs)
        other = statistics.median(
            statistics.median(t for i, t in enumerate(run) if i not in (0, 9, 19, 29))
            for run in runs
        )
        totals[policy] = total
        print(
            f"  on_unsupported={policy!r:9}: {total * 1000:8.1f} ms in all; the 4 turns that add a "
            f"PDF {pdf_turns * 1000:7.1f} ms; any other turn {other * 1000:5.2f} ms (median)"
        )
    print(
        f"  convert / text, in all: {totals['convert'] / totals['text']:.0f}x (each PDF converted once)"
    )


def worker_start() -> None:
    from toolwire.content import File
    from toolwire.convert import describe
    from toolwire.readers import isolation

    isolation.shutdown()
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(bytes(1600))
    wav = buffer.getvalue()
    start = time.perf_counter()
    describe(File.from_bytes(wav, "audio/wav", "start.wav"))
    print(
        f"Read worker start (paid once per process): {(time.perf_counter() - start) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case (median)")
    args = parser.parse_args()
    worker_start()
    bench_pdf(args.repeat)
    bench_video(args.repeat)
    bench_agent_loop(args.repeat)


if __name__ == "__main__":
    main()
