"""How a result is shown in a notebook: the HTML behind every ``_repr_html_``.

Which questions it answers:

- How does a result look the same in Jupyter, VS Code and a plain browser? :func:`html_block`:
  one ``<div class="cb-html">`` holding a small style sheet whose every rule starts with
  ``div.cb-html``, so it styles chimeraboost's output and nothing else on the page. It sets no
  colours (text and rules follow the page's, light or dark theme) and undoes what notebook
  front ends set on every table (fixed layout, centred tables, cells that may wrap). What a
  reader must not lose -- numbers right-aligned on one line -- is also written on each cell,
  so that it survives a front end that strips ``<style>`` (an untrusted notebook).
- How is a table shown? :func:`html_table`: the cells :func:`~chimeraboost._shared.format.table`
  prints (the same :func:`~chimeraboost._shared.format.fmt` numbers), every text escaped; a cell
  ``(value, low, high)`` shows the value and ``[low, high]`` beside it (in a cell of its own)
  or below it, under one column title, so that the interval's level is said once, below the
  table, not in every column.
"""

from __future__ import annotations

import html
import math

from .format import Col, _cell_text, fixed_decimals

__all__ = ["CSS", "html_block", "html_table", "html_paragraphs"]

CSS = (
    "div.cb-html{max-width:100%;overflow-x:auto;line-height:1.35}"
    "div.cb-html h4{margin:.3em 0;font-size:1.05em;font-weight:600}"
    "div.cb-html p{margin:.25em 0}"
    "div.cb-html table{border-collapse:collapse;table-layout:auto;width:auto;"
    "margin:.4em 0 .7em 0;border:none;font-size:.92em}"
    "div.cb-html caption{caption-side:top;text-align:left;font-weight:600;padding:.2em 0}"
    "div.cb-html th,div.cb-html td{padding:.15em .5em;border:none;line-height:1.35;"
    "vertical-align:baseline;max-width:none;background:none}"
    "div.cb-html tbody th{font-weight:normal;vertical-align:top}"
    "div.cb-html thead th{border-bottom:1px solid currentColor;font-weight:600;"
    "vertical-align:bottom}"
    "div.cb-html tbody+tbody>tr:first-child>*{border-top:1px solid rgba(128,128,128,.45)}"
    "div.cb-html .cb-ci{opacity:.7}"
    "div.cb-html td.cb-ci{padding-left:.1em}"
    "div.cb-html span.cb-ci{font-size:.88em}"
)

# On every cell as well as in the sheet: alignment and unbroken numbers must survive a front
# end that drops <style> (and an inline style beats the front end's own table rules).
_NUMBER = ' style="text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums"'
_NUMBER_TITLE = ' style="text-align:right;white-space:nowrap"'
_TEXT = ' style="text-align:left;white-space:nowrap"'
# A column of sentences wraps, but never narrower than this: next to numbers that may not
# break, a browser would otherwise squeeze it to one word per line.
_PROSE = ' style="text-align:left;min-width:14em"'
_PROSE_CHARS = 30  # a text column with a longer cell is prose


def html_block(*parts: str) -> str:
    """One result: the style sheet and the parts (already HTML), in a ``cb-html`` div."""
    return f'<div class="cb-html"><style>{CSS}</style>{"".join(parts)}</div>'


def html_paragraphs(lines) -> str:
    """Each non-empty line as an escaped ``<p>``."""
    return "".join(f"<p>{html.escape(line.strip())}</p>" for line in lines if line.strip())


def html_table(columns, rows, caption=None, *, sections=None, stacked=False) -> str:
    """An HTML ``<table>`` of the cells :func:`~chimeraboost._shared.format.table` prints.

    Numbers go through the same ``fmt`` as the text, right-aligned on one line; text columns
    are left-aligned (on one line, unless a cell is a sentence); every title, cell and the
    ``caption`` is escaped (a class label ``<b>`` shows as ``<b>``, never as markup). A cell
    ``(value, low, high)`` gives the value and its interval ``[low, high]`` in two cells under
    one title, or with ``stacked=True`` in one cell, the interval on a line of its own below
    the value (a table of many such columns then fits a notebook's width). ``sections``, a
    list of ``(label, number of rows)``, splits the rows into groups: each a ``<tbody>`` (a
    rule between them) whose label heads its first column, ``columns[0]`` (the rows then leave
    that cell out).

    >>> html_table([Col("label", None), Col("skill", 3)], [["<b>", 0.12345]])
    ... # doctest: +NORMALIZE_WHITESPACE
    '<table><thead><tr><th style="text-align:left;white-space:nowrap">label</th><th
    style="text-align:right;white-space:nowrap">skill</th></tr></thead><tbody><tr><td
    style="text-align:left;white-space:nowrap">&lt;b&gt;</td><td class="cb-n"
    style="text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums">0.123</td></tr></tbody></table>'
    """
    columns = [c if isinstance(c, Col) else Col(*c) for c in columns]
    cols = columns[1:] if sections is not None else columns
    for row in rows:
        if len(row) != len(cols):
            msg = f"table row has {len(row)} cells for {len(cols)} columns."
            raise ValueError(msg)
    paired = [not stacked and any(_is_interval(row[j]) for row in rows)
              for j in range(len(cols))]
    # A column's numbers in one format: a near-zero one as -0.000 beside 0.739.
    fixed = [c.digits is not None and fixed_decimals(
        [v for row in rows for v in (row[j] if _is_interval(row[j]) else (row[j],))], c.digits)
        for j, c in enumerate(cols)]
    prose = [c.digits is None and any(len(_cell_text(row[j], c)) > _PROSE_CHARS for row in rows)
             for j, c in enumerate(cols)]

    def cells(row):
        out = []
        for value, col, two, long, f in zip(row, cols, paired, prose, fixed):
            ends = ""
            if _is_interval(value):
                value, low, high = value
                if not (_missing(low) and _missing(high)):
                    ends = f"[{_cell_text(low, col, f)}, {_cell_text(high, col, f)}]"
            text = html.escape(_cell_text(value, col, f))
            if stacked and ends:
                text += f'<br><span class="cb-ci">{html.escape(ends)}</span>'
            if col.digits is not None:
                out.append(f'<td class="cb-n"{_NUMBER}>{text}</td>')
            else:
                out.append(f"<td{_PROSE if long else _TEXT}>{text}</td>")
            if two:
                out.append(f'<td class="cb-ci"{_NUMBER}>{html.escape(ends)}</td>')
        return out

    spans = [False] * (len(columns) - len(cols)) + paired  # the group column spans one
    head = "".join(f"<th{' colspan=2' if two else ''}"
                   f"{_TEXT if c.digits is None else _NUMBER_TITLE}>{html.escape(c.title)}</th>"
                   for c, two in zip(columns, spans))
    bodies, start = [], 0
    for label, size in sections or [(None, len(rows))]:
        lines = [cells(r) for r in rows[start:start + size]]
        if label is not None and lines:
            lines[0].insert(0, f'<th scope="rowgroup" rowspan={size}{_TEXT}>'
                               f"{html.escape(label)}</th>")
        bodies.append("<tbody>" + "".join("<tr>" + "".join(c) + "</tr>" for c in lines)
                      + "</tbody>")
        start += size
    cap = f"<caption>{html.escape(str(caption))}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead>{''.join(bodies)}</table>"


def _is_interval(value) -> bool:
    return isinstance(value, tuple) and len(value) == 3


def _missing(x) -> bool:
    return x is None or (not isinstance(x, str) and math.isnan(float(x)))
