"""The page's only style sheet, and the Content-Security-Policy that allows exactly it.

The page runs no script at all: the policy's ``default-src 'none'`` forbids every script, so
even markup that escaped escaping could not run. The style sheet is allowed by its hash
(which also forbids ``style=`` attributes); images and players take ``data:`` URLs only.
"""

from __future__ import annotations

import base64
import hashlib

_BASE = """
:root{--bg:#f5f6f8;--card:#fff;--ink:#1d2330;--muted:#667085;--line:#e3e6eb;
--user:#2f6fde;--assistant:#7a4fd6;--tool:#0f8a6a;--system:#8a6d00;--added:#c2410c}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
header.page{background:#151a24;color:#f1f3f7;padding:14px 20px}
header.page h1{margin:0;font-size:18px;font-weight:650;letter-spacing:.2px}
header.page p{margin:4px 0 0;color:#aab2c0;font-size:12.5px;overflow-wrap:anywhere}
input.pick{position:absolute;opacity:0;width:1px;height:1px;margin:0}
nav.switch{display:none;flex-wrap:wrap;gap:6px;padding:10px 16px 0}
nav.switch label{border:1px solid var(--line);border-radius:14px;background:var(--card);
padding:2px 10px;font:12px ui-monospace,Menlo,Consolas,monospace;cursor:pointer;
overflow-wrap:anywhere}
.grid{display:grid;gap:12px;padding:0 16px;align-items:start}
.summary{padding-top:14px}
.turn{padding-top:12px}
.gutter{color:var(--muted);font-size:12px;padding-top:6px;text-align:right}
.gutter b{display:block;color:var(--ink);font-size:13px}
.model{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 12px;
min-width:0}
.model h2{margin:0 0 4px;font-size:15px;font-family:ui-monospace,Menlo,Consolas,monospace;
overflow-wrap:anywhere}
.model dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:6px 0 0;font-size:12.5px}
.model dt{color:var(--muted)}.model dd{margin:0;min-width:0;overflow-wrap:anywhere}
.cell{min-width:0}
.msg{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--muted);
border-radius:8px;padding:8px 10px;margin-bottom:8px}
.msg.user{border-left-color:var(--user)}.msg.assistant{border-left-color:var(--assistant)}
.msg.tool{border-left-color:var(--tool)}.msg.system{border-left-color:var(--system)}
.msg.added{border-style:dashed;border-left-style:solid;background:#fffaf5}
.who{font-size:11.5px;font-weight:650;text-transform:uppercase;letter-spacing:.6px;
color:var(--muted);margin-bottom:4px}
.who .why{text-transform:none;letter-spacing:0;font-weight:500;color:var(--added);margin-left:6px}
.block{border-top:1px dashed var(--line);padding-top:6px;margin-top:6px}
.block:first-of-type{border-top:0;margin-top:0;padding-top:0}
.bh{font-size:12px;color:var(--tool);font-family:ui-monospace,Menlo,Consolas,monospace;
margin-bottom:4px;overflow-wrap:anywhere}
.flag{background:#fde8e8;color:#b42318;border-radius:4px;padding:0 5px;margin-left:6px}
.text{white-space:pre-wrap;overflow-wrap:anywhere;max-height:22em;overflow:auto}
pre{margin:4px 0;background:#f3f4f7;border-radius:6px;padding:6px 8px;font-size:12px;
white-space:pre-wrap;overflow-wrap:anywhere;max-height:22em;overflow:auto}
.tag{display:inline-block;font-size:11px;border-radius:4px;padding:0 5px;margin-right:4px;
background:#eef0f4;color:#475467;vertical-align:1px}
.tag.added{background:#ffedd5;color:var(--added)}
.call code{font-weight:600}
details.thinking{background:#f6f2ff;border-radius:6px;padding:4px 8px;margin:4px 0}
details.thinking summary{cursor:pointer;color:var(--assistant);font-size:12.5px}
figure.file{margin:6px 0;border:1px solid var(--line);border-radius:8px;padding:6px;background:#fbfbfc}
figure.file img{display:block;max-width:100%;height:auto;border-radius:4px;
background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
figure.file img.page{max-width:240px;border:1px solid var(--line)}
figure.file audio,figure.file video{display:block;width:100%;max-height:320px}
figcaption{font-size:12px;color:var(--muted);margin-top:4px;overflow-wrap:anywhere}
figcaption b{color:var(--ink)}
.note{color:var(--added)}
.figures{font-size:12px;color:var(--muted);display:flex;flex-wrap:wrap;gap:4px 12px;
padding:2px 2px 6px}
.figures b{color:var(--ink)}
ul.decisions{list-style:none;margin:0 0 4px;padding:0;font-size:12px}
ul.decisions li{background:var(--card);border:1px solid var(--line);border-radius:6px;
padding:4px 8px;margin-bottom:4px;overflow-wrap:anywhere}
.mode{font-weight:650;border-radius:4px;padding:0 5px;margin-right:4px}
.mode.native{background:#dcfce7;color:#166534}.mode.sibling{background:#dbeafe;color:#1e40af}
.mode.fallback{background:#ffedd5;color:#9a3412}.mode.text{background:#fee2e2;color:#991b1b}
footer.page{color:var(--muted);font-size:12px;padding:16px 20px 28px}
"""


#: A model column is never narrower than this; a gutter of GUTTER px heads each row.
COLUMN = 320
GUTTER = 84
#: The grid's gap and the page's side padding (.grid), for the width side by side needs.
_GAP, _PAD = 12, 16


def side_by_side_width(models: int) -> int:
    """The narrowest viewport (CSS px) that shows ``models`` columns side by side; below it
    the page shows one model at a time, chosen with the switcher."""
    columns = max(models, 1)
    return GUTTER + columns * (COLUMN + _GAP) + 2 * _PAD


def style_sheet(models: int) -> str:
    """The style sheet for a page comparing ``models`` targets.

    Wide enough (``side_by_side_width``), a gutter then one column per model. Narrower, one
    column: the gutter becomes a line above each turn and, with several models, only the
    model whose radio button is checked is shown (the switcher: CSS ``:checked``, no script).
    """
    columns = max(models, 1)
    track = f"minmax({COLUMN}px,1fr)" if columns > 1 else "minmax(0,880px)"
    wide = f".grid{{grid-template-columns:{GUTTER}px repeat({columns},{track})}}"
    narrow = [
        ".grid{grid-template-columns:minmax(0,1fr)}",
        ".gutter{text-align:left;padding-top:0}.gutter b{display:inline;margin-right:6px}",
        ".summary .gutter{display:none}",
    ]
    if columns > 1:
        narrow.append("nav.switch{display:flex}")
        narrow.append(",".join(f".grid>.c{i}" for i in range(columns)) + "{display:none}")
        for i in range(columns):
            narrow.append(f"#m{i}:checked~main .grid>.c{i}{{display:block}}")
            narrow.append(f"#m{i}:checked~nav label[for=m{i}]{_CHOSEN}")
            narrow.append(f"#m{i}:focus-visible~nav label[for=m{i}]{_FOCUSED}")
    breakpoint = side_by_side_width(models) - 1 if columns > 1 else 599
    media = f"@media (max-width:{breakpoint}px){{{''.join(narrow)}}}"
    return _BASE.strip() + "\n" + wide + "\n" + media + "\n"


_CHOSEN = "{background:#151a24;color:#f1f3f7;border-color:#151a24}"
_FOCUSED = "{outline:2px solid var(--user);outline-offset:1px}"


def policy(style: str) -> str:
    """The Content-Security-Policy for a page whose only style block is ``style``."""
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    return (
        "default-src 'none'; img-src data:; media-src data:; "
        f"style-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'"
    )
