"""Office Math (OMML, ``m:oMath``) as LaTeX, so an equation reads as an equation.

Word keeps equations as a tree of structures (fraction, script, radical, n-ary operator,
delimiter, matrix...) around runs of text; each structure has a LaTeX form, and the runs keep
their Unicode (``θ``, ``λ``), which models read as well as ``\\theta``. The few operators with
no plain-text reading (``×``, ``≤``, ``∞``...) are written as their LaTeX commands.
"""

from __future__ import annotations

from typing import Any

MATH = "http://schemas.openxmlformats.org/officeDocument/2006/math"
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

_SYMBOLS = {
    "×": r"\times ",
    "÷": r"\div ",
    "±": r"\pm ",
    "∓": r"\mp ",
    "≤": r"\leq ",
    "≥": r"\geq ",
    "≠": r"\neq ",
    "≈": r"\approx ",
    "≡": r"\equiv ",
    "∞": r"\infty ",
    "→": r"\to ",
    "←": r"\leftarrow ",
    "⇒": r"\Rightarrow ",
    "⇔": r"\Leftrightarrow ",
    "∈": r"\in ",
    "∉": r"\notin ",
    "⊂": r"\subset ",
    "⊆": r"\subseteq ",
    "∪": r"\cup ",
    "∩": r"\cap ",
    "∀": r"\forall ",
    "∃": r"\exists ",
    "∂": r"\partial ",
    "∇": r"\nabla ",
    "⋅": r"\cdot ",
    "·": r"\cdot ",
    "…": r"\ldots ",
    "⋯": r"\cdots ",
    "\u2061": " ",  # function application: "sin⁡θ" reads "sin θ"
    "\u2062": "",  # invisible times
}
_NARY = {
    "∑": r"\sum",
    "∏": r"\prod",
    "∐": r"\coprod",
    "∫": r"\int",
    "∬": r"\iint",
    "∭": r"\iiint",
    "∮": r"\oint",
    "⋃": r"\bigcup",
    "⋂": r"\bigcap",
}
_ACCENTS = {
    "\u0302": r"\hat",
    "\u0303": r"\tilde",
    "\u0307": r"\dot",
    "\u0308": r"\ddot",
    "\u20d7": r"\vec",
    "\u0305": r"\bar",
    "\u00af": r"\bar",
    "\u030c": r"\check",
    "\u0301": r"\acute",
    "\u0300": r"\grave",
    "\u0306": r"\breve",
}
_FUNCTIONS = {
    "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "arcsin", "arccos",
    "arctan", "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "gcd", "deg",
}  # fmt: skip
_DELIMITERS = {"{": r"\{", "}": r"\}", "‖": r"\|", "⌈": r"\lceil ", "⌉": r"\rceil "}
_DELIMITERS |= {"⌊": r"\lfloor ", "⌋": r"\rfloor ", "⟨": r"\langle ", "⟩": r"\rangle "}


def latex(element: Any) -> str:
    """An ``m:oMath`` element (or any OMML structure) as LaTeX, without ``$`` delimiters."""
    return " ".join(_latex(element).split())


def _latex(element: Any) -> str:
    namespace, _, name = element.tag.partition("}")
    if namespace == "{" + _W:
        return _run_text(element) if name == "r" else ""
    if namespace != "{" + MATH or name.endswith("Pr"):
        return ""
    render = _STRUCTURES.get(name)
    return render(element) if render is not None else _children(element)


def _children(element: Any) -> str:
    return "".join(_latex(child) for child in element if isinstance(child.tag, str))


def _part(element: Any, name: str) -> str:
    child = element.find(f"{{{MATH}}}{name}")
    return _children(child) if child is not None else ""


def _group(text: str) -> str:
    text = text.strip()
    return text if len(text) == 1 else "{" + text + "}"


def _prop(element: Any, prop: str, name: str) -> str | None:
    """The ``m:val`` of property ``name`` in the element's ``prop`` block; None if unset."""
    found = element.find(f"{{{MATH}}}{prop}/{{{MATH}}}{name}")
    if found is None:
        return None
    return str(found.get(f"{{{MATH}}}val", "1"))


def _is_on(element: Any, prop: str, name: str) -> bool:
    return _prop(element, prop, name) not in (None, "0", "off", "false")


def _run_text(element: Any) -> str:
    text = "".join(node.text or "" for node in element.iter(f"{{{MATH}}}t", f"{{{_W}}}t"))
    return "".join(_SYMBOLS.get(char, char) for char in text)


def _fraction(element: Any) -> str:
    numerator, denominator = _part(element, "num"), _part(element, "den")
    if _prop(element, "fPr", "type") == "lin":
        return f"{_group(numerator)}/{_group(denominator)}"
    return rf"\frac{{{numerator}}}{{{denominator}}}"


def _superscript(element: Any) -> str:
    return f"{_group(_part(element, 'e'))}^{_group(_part(element, 'sup'))}"


def _subscript(element: Any) -> str:
    return f"{_group(_part(element, 'e'))}_{_group(_part(element, 'sub'))}"


def _sub_superscript(element: Any) -> str:
    base = _group(_part(element, "e"))
    return f"{base}_{_group(_part(element, 'sub'))}^{_group(_part(element, 'sup'))}"


def _prescript(element: Any) -> str:
    scripts = f"{{}}_{_group(_part(element, 'sub'))}^{_group(_part(element, 'sup'))}"
    return scripts + _group(_part(element, "e"))


def _radical(element: Any) -> str:
    degree = _part(element, "deg").strip()
    if _is_on(element, "radPr", "degHide") or not degree:
        return rf"\sqrt{{{_part(element, 'e')}}}"
    return rf"\sqrt[{degree}]{{{_part(element, 'e')}}}"


def _delimiter(element: Any) -> str:
    begin = _prop(element, "dPr", "begChr")
    end = _prop(element, "dPr", "endChr")
    separator = _prop(element, "dPr", "sepChr") or "|"
    items = [_children(child) for child in element.findall(f"{{{MATH}}}e")]
    begin = "(" if begin is None else begin
    end = ")" if end is None else end
    inner = f" {separator} ".join(items) if separator != "|" else "|".join(items)
    return _DELIMITERS.get(begin, begin) + inner + _DELIMITERS.get(end, end)


def _nary(element: Any) -> str:
    symbol = _prop(element, "naryPr", "chr") or "∫"
    text = _NARY.get(symbol, symbol)
    if not _is_on(element, "naryPr", "subHide") and (lower := _part(element, "sub").strip()):
        text += f"_{_group(lower)}"
    if not _is_on(element, "naryPr", "supHide") and (upper := _part(element, "sup").strip()):
        text += f"^{_group(upper)}"
    return f"{text} {_part(element, 'e')}"


def _function(element: Any) -> str:
    name = _part(element, "fName").strip()
    command = "\\" + name if name in _FUNCTIONS else name
    return f"{command} {_group(_part(element, 'e'))}"


def _accent(element: Any) -> str:
    mark = _prop(element, "accPr", "chr") or "\u0302"
    command = _ACCENTS.get(mark, r"\hat")
    return f"{command}{{{_part(element, 'e')}}}"


def _bar(element: Any) -> str:
    command = r"\underline" if _prop(element, "barPr", "pos") == "bot" else r"\overline"
    return f"{command}{{{_part(element, 'e')}}}"


def _group_character(element: Any) -> str:
    mark = _prop(element, "groupChrPr", "chr") or "\u23df"
    command = r"\overbrace" if mark == "\u23de" else r"\underbrace"
    return f"{command}{{{_part(element, 'e')}}}"


def _lower_limit(element: Any) -> str:
    return f"{_group(_part(element, 'e'))}_{_group(_part(element, 'lim'))}"


def _upper_limit(element: Any) -> str:
    return f"{_group(_part(element, 'e'))}^{_group(_part(element, 'lim'))}"


def _matrix(element: Any) -> str:
    rows = [
        " & ".join(_children(cell) for cell in row.findall(f"{{{MATH}}}e"))
        for row in element.findall(f"{{{MATH}}}mr")
    ]
    return r"\begin{matrix}" + r" \\ ".join(rows) + r"\end{matrix}"


def _equation_array(element: Any) -> str:
    rows = [_children(row) for row in element.findall(f"{{{MATH}}}e")]
    return r"\begin{array}{l}" + r" \\ ".join(rows) + r"\end{array}"


_STRUCTURES = {
    "r": _run_text,
    "f": _fraction,
    "sSup": _superscript,
    "sSub": _subscript,
    "sSubSup": _sub_superscript,
    "sPre": _prescript,
    "rad": _radical,
    "d": _delimiter,
    "nary": _nary,
    "func": _function,
    "acc": _accent,
    "bar": _bar,
    "groupChr": _group_character,
    "limLow": _lower_limit,
    "limUpp": _upper_limit,
    "m": _matrix,
    "eqArr": _equation_array,
}
