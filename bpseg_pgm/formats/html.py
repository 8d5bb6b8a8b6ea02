"""The ``html`` format: a segmentation as HTML, a whole page or a fragment for Jupyter.

:func:`render_html` takes any object with a segmentation's attributes (``Segmentation.to_html()``,
``Segmentation._repr_html_`` and ``bpseg segment --format html`` use it); :class:`HtmlFormat` registers it.

The document is shown in its original order, paragraph breaks kept (and line breaks, for text
read one sentence per line), with every sentence on the background colour of its segment; a
tooltip gives its number, segment and confidence (the calibrated probability that it lies in that segment,
``seg.confidence()``).  Above it an *overview strip* has one cell per
sentence in reading order, coloured the same way, so a segment's spread through a long
document shows at a glance; clicking a cell jumps to its sentence.  Hovering a sentence, a
cell or a legend entry fades out everything outside that segment (pure CSS, ``:has()``, so it
also works where scripts do not run, as in Jupyter outputs).  Below, the segments are listed
one by one; in a long document, or for a segment of more than :data:`OPEN_UP_TO` sentences,
the list is collapsed, its summary naming the sentences (as ranges).  In a fragment (Jupyter)
the document scrolls inside a box of at most 36rem, so a long text does not flood the notebook.  Colours come from :func:`bpseg_pgm.formats.colors.segment_colors`, distinct
for 20+ segments.  Numbers shown are 1-based.

Segments and runs: a segment is a label (its sentences may be far apart), a run a stretch of consecutive
sentences of one segment.  While every segment is one run, the page lists segments.  When a segment
returns (``seg.returning_segments``), the legend lists the segments with their runs ("Segment 1 · runs 1
and 4"), the strip marks where each run starts (a white line) and hatches the cells of a segment that has
come back, tooltips name both the segment and the run, and the list below goes segment by segment, run by
run.  Hovering a segment shows all of its runs at once.  The legend and the list give each segment's
keywords (``seg.segment_keywords()``; in the list, a returning segment's runs of two or more sentences
also get their own, ``seg.run_keywords()``); a segment that starts at a Markdown heading is named by
that heading instead, its heading path in the tooltip.

A text read as Markdown, reStructuredText or HTML is shown rendered (:mod:`bpseg_pgm.formats.units`): headings,
code blocks (their lines kept), tables, links, inline code, emphasis and list items, each unit still coloured by
its segment; reStructuredText's roles as their text (:pep:`8` as "PEP 8") and its directives as their body under a
label. Raw HTML in Markdown is escaped, never run; of an HTML text only a few elements are kept (inline ones,
``<pre>``, tables), with no attribute but a safe link's address, so nothing in it runs or loads.

**Granularity.**  When the fit kept its levels (``seg.max_segments``: every ``seg.recut(k)``), a slider
lets the reader choose the number of segments, from 1 to ``max_segments``: colours, strip, legend and the
list follow it, and a link downloads the chosen level (``n_segments``, ``labels``, ``segments``,
``segment_heading_paths``) as JSON.  The levels travel inside the page with a short inline script (no
server, nothing fetched); opened as ``page.html?segments=k`` the page starts at level k.  When the fit chose the
count itself, the slider has tick marks at the counts it rates best (``seg.suggested_counts()``: its own, then
the next-best local maxima of its gain over the document shuffled in blocks), named beside it ("Counts the fit
rates best: 6 (the fit's), 1"); a page for a given k, or of the topic model, has none.  Without levels the
page has no script at all (CSS only).

Everything is inline, no network access is needed, all text is HTML-escaped, and every CSS rule is scoped to
the fragment's own id, so several fragments (or a notebook's styles) do not interfere.
"""

from __future__ import annotations

import functools
import json
import math
import numbers
import re
import uuid
from html import escape
from typing import Any
from urllib.parse import quote

from bpseg_pgm.formats import markdown_view
from bpseg_pgm.formats.colors import segment_colors
from bpseg_pgm.formats.levels import granularity_levels
from bpseg_pgm.formats.markdown_view import front_matter_html
from bpseg_pgm.formats.registry import OutputFormat, register_format
from bpseg_pgm.formats.text import result_keywords
from bpseg_pgm.formats.units import heading_html, layout_text, starts_list_item, unit_html, unit_kinds
from bpseg_pgm.utils.labels import index_runs
from bpseg_pgm.utils.spans import BLANK_LINE
from bpseg_pgm.utils.words import numbered, plural

__all__ = ["HtmlFormat", "render_html", "segment_colors", "OPEN_UP_TO", "OPEN_DOC_UP_TO"]

#: In a document of at most :data:`OPEN_DOC_UP_TO` sentences, segments with at most this many
#: sentences are listed open; every other segment list is collapsed (the document shows them all).
OPEN_UP_TO = 5
OPEN_DOC_UP_TO = 40
#: The most counts the granularity slider marks (``seg.suggested_counts()``, the fit's own first).
SUGGESTED_COUNTS = 3
_MAX_RANGES = 12  # sentence ranges named in a collapsed segment's summary
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

_CSS = """
ROOT { font: 16px/1.7 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: #1d1d1f;
       background: #fafafa; padding: .75rem 1.1rem 1rem; border-radius: .5rem; text-align: left; }
ROOT p, ROOT li, ROOT span, ROOT summary, ROOT h1, ROOT h2 { color: inherit; }
ROOT .axis span { background: transparent; }
ROOT h1 { font-size: 1.4rem; line-height: 1.3; margin: .25rem 0 .25rem; }
ROOT h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; color: #444; }
ROOT .meta { color: #555; font-size: .88rem; margin: 0 0 .6rem; }
ROOT .overview { background: #fafafa; padding: .35rem 0 .45rem; margin: 0 0 .5rem; }
ROOT .overview.sticky { position: sticky; top: 0; z-index: 1; }
ROOT .strip { display: grid; grid-template-columns: repeat(COLS, minmax(0, 1fr)); row-gap: 2px;
              border: 1px solid rgba(0,0,0,.15); background: #fff; }
ROOT .cell { display: block; height: CELLpx; }
ROOT .axis { display: flex; justify-content: space-between; font-size: .72rem; color: #666; line-height: 1.4; }
ROOT .legend { display: flex; flex-wrap: wrap; gap: .3rem; margin: 0 0 1rem; padding: 0; list-style: none; }
ROOT .legend li { padding: 0 .55rem; border-radius: 1rem; font-size: .8rem; cursor: default;
                  border: 1px solid rgba(0,0,0,.15); }
ROOT .doc { background: #fff; padding: 1rem 1.4rem; border-radius: .5rem; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
ROOT.fragment .doc { max-height: 36rem; overflow-y: auto; }
ROOT .doc p { margin: 0 0 .9rem; }
ROOT .doc p:last-child { margin-bottom: 0; }
ROOT .s { padding: .1rem .15rem; border-radius: .25rem; box-decoration-break: clone;
          -webkit-box-decoration-break: clone; transition: opacity .12s; scroll-margin-top: OFFSETpx; }
ROOT .s sup { font-size: .6rem; color: #555; margin-right: .15rem; }
ROOT .s:target { outline: 2px solid #1d1d1f; }
ROOT .low { text-decoration: underline dotted rgba(0,0,0,.5); }
ROOT .hl { transition: opacity .12s; }
ROOT details.seg { background: #fff; border-left: .45rem solid; border-radius: .35rem; padding: .3rem .9rem;
                   margin: .4rem 0; box-shadow: 0 1px 3px rgba(0,0,0,.06); }
ROOT details.seg summary { cursor: pointer; font-size: .88rem; color: #333; }
ROOT details.seg ol { margin: .3rem 0 .2rem; padding-left: 2.6rem; }
ROOT details.seg .part { margin: .45rem 0 0; font-size: .82rem; color: #444; font-weight: 600; }
ROOT .kw { font-style: italic; color: #333; background: transparent; }
ROOT .cell.start { box-shadow: inset 2px 0 0 #fff; }
ROOT .doc div.blk { margin: 0 0 .9rem; }
ROOT .s.block { display: block; padding: .35rem .6rem; overflow-x: auto; }
ROOT .s.block pre, ROOT details.seg pre { margin: 0; white-space: pre-wrap; font: .85rem/1.45 ui-monospace, monospace; }
ROOT .s.block p { margin: 0; }
ROOT .s.block table { border-collapse: collapse; font-size: .9rem; }
ROOT .s.block th, ROOT .s.block td { border: 1px solid rgba(0,0,0,.2); padding: .1rem .45rem; }
ROOT .s code, ROOT details.seg code { font: .88em ui-monospace, monospace; }
ROOT .s.block pre code, ROOT details.seg pre code { font: inherit; }
ROOT .s.block .adm-t, ROOT details.seg .adm-t { font-weight: 650; margin: 0 0 .15rem; }
ROOT .s.block p + p, ROOT .s.block p + pre, ROOT .s.block pre + p, ROOT .s.block p + table,
ROOT .s.block p + div, ROOT .s.block div + p { margin-top: .35rem; }
ROOT .s.block ul, ROOT .s.block ol, ROOT .s.block dl { margin: .2rem 0 0; padding-left: 1.4rem; }
ROOT .s.block dd { margin-left: 1.2rem; }
ROOT .s.block blockquote { margin: .2rem 0 0 1rem; }
ROOT .doc p.hp { margin: 1.1rem 0 .5rem; }
ROOT .doc pre.front { margin: 0 0 .9rem; color: #555; font: .8rem/1.4 ui-monospace, monospace; white-space: pre-wrap; }
ROOT .s.hd { font-weight: 650; font-size: 1.12em; }
ROOT .doc p.li { margin: 0 0 .3rem; padding-left: 1rem; }
ROOT .level { display: flex; align-items: center; gap: .6rem; flex-wrap: wrap; font-size: .88rem; margin: 0 0 .6rem; }
ROOT .level input { flex: 1 1 12rem; max-width: 24rem; }
ROOT .level output { font-weight: 600; min-width: 7rem; }
ROOT .level a { color: #0b57d0; }
"""

#: The slider's script: shows the level chosen (colours, strip, legend, list) and offers it as JSON.
_SCRIPT = """(function () {
  var root = document.getElementById(ROOT_ID);
  var data = JSON.parse(root.querySelector("script.levels").textContent);
  var ks = Object.keys(data.levels).map(Number).sort(function (a, b) { return a - b; });
  var units = root.querySelectorAll(".doc .s"), cells = root.querySelectorAll(".strip .cell");
  var slider = root.querySelector(".level input"), out = root.querySelector(".level output");
  var link = root.querySelector(".level a.export"), legend = root.querySelector(".legend");
  var list = root.querySelector(".segs");
  function esc(s) { return s.replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }
  function str(i) { return data.strings[i]; }
  function show(k) {
    var lv = data.levels[String(k)], labels = lv.labels, m = lv.names.length, segs = [];
    var names = lv.names.map(str), paths = lv.heading_paths.map(function (p) { return p.map(str); });
    for (var j = 0; j < m; j++) segs.push([]);
    labels.forEach(function (j, i) {
      segs[j].push(i);
      var c = data.colors[j % data.colors.length];
      [units[i], cells[i]].forEach(function (el) {
        if (!el) return;
        el.dataset.seg = j; el.style.background = c; el.title = "Segment " + (j + 1) + " · sentence " + (i + 1);
        el.classList.toggle("start", el === cells[i] && i > 0 && labels[i - 1] !== j);
      });
    });
    legend.innerHTML = names.map(function (name, j) {
      var path = paths[j].join(" › ");
      return '<li class="hl" data-seg="' + j + '" style="background:' + data.colors[j % data.colors.length] + '"' +
        (path ? ' title="' + esc(path) + '"' : "") + ">Segment " + (j + 1) + " · " + segs[j].length + name + "</li>";
    }).join("");
    list.innerHTML = segs.map(function (idx, j) {
      var items = idx.map(function (i) {
        var body = units[i].cloneNode(true), sup = body.querySelector("sup");
        if (sup) sup.remove();
        return '<li value="' + (i + 1) + '">' + body.innerHTML + "</li>";
      }).join("");
      return '<details class="seg" data-seg="' + j + '" style="border-color:' + data.colors[j % data.colors.length] +
        '"><summary>Segment ' + (j + 1) + " · " + idx.length + (idx.length === 1 ? " sentence" : " sentences") +
        names[j] + "</summary><ol>" + items + "</ol></details>";
    }).join("");
    out.textContent = k + (k === 1 ? " segment" : " segments") + (k === data.own ? " (the fit's)" : "");
    var chosen = {n_segments: k, labels: labels, segments: segs, segment_heading_paths: paths};
    link.href = "data:application/json;charset=utf-8," + encodeURIComponent(JSON.stringify(chosen));
    link.download = "segments-" + k + ".json";
    root.dataset.level = k;
  }
  slider.addEventListener("input", function () { show(ks[Number(slider.value)]); });
  var asked = Number(new URLSearchParams(location.search).get("segments"));
  if (ks.indexOf(asked) >= 0) { slider.value = ks.indexOf(asked); show(asked); }
})();"""


#: The hatching of an overview cell whose segment has come back (drawn over the segment's colour).
_HATCH = "repeating-linear-gradient(135deg,rgba(0,0,0,.32) 0 2px,transparent 2px 5px)"


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _summary(seg: Any) -> str:
    p = seg.params
    returns = bool(seg.returning_segments)
    parts = [plural(len(seg.sentences), "sentence"), plural(seg.n_segments, "segment")]
    k = seg.requested_segments
    if k is not None:
        parts[-1] += f" (k = {k})"
    if returns:
        parts[-1] += f" in {plural(seg.n_runs, 'run')}"
    for key, label in (
        ("potentials", "potentials"),
        ("engine", "engine"),
        ("lam", "λ"),
        ("sigma", "σ"),
        ("init", "init"),
        ("random_state", "seed"),
    ):
        value = p.get(key)
        if isinstance(value, (int, float, str)) and value != "auto":  # given values, not objects or defaults
            parts.append(f"{label} = {value}")
    if seg.model:
        parts.append(f"model {seg.model}")
    return " · ".join(parts)


def _keywords(words: list[str], lead: str = " · ") -> str:
    """The keywords as HTML after ``lead``, or nothing when there are none."""
    return f'{lead}<span class="kw">{_e(", ".join(words))}</span>' if words else ""


def _headings(seg: Any) -> list[str | None]:
    """The heading each segment starts at (``seg.segment_headings``), None where none or not given."""
    heads = getattr(seg, "segment_headings", None)
    return list(heads) if heads is not None else [None] * seg.n_segments


def _name(heading: str | None, words: list[str], *, markdown: bool = False, seg: Any = None) -> str:
    """How the legend names a segment: by the heading it starts at (its inline markup rendered in the format
    ``seg``'s text was read in, Markdown or reStructuredText; without ``seg``, as Markdown when ``markdown``;
    else escaped), else by its keywords."""
    if heading is None:
        return _keywords(words)
    title = markdown_view.heading_html(heading, markdown=markdown) if seg is None else heading_html(heading, seg)
    return f' · <span class="head">{title}</span>'


def _namer(seg: Any):
    """:func:`_name` for ``seg``."""
    return functools.partial(_name, seg=seg)


def _paths(seg: Any) -> list[str]:
    """A ``title`` attribute with each segment's heading path ("Usage › Reading files"), or nothing."""
    paths = getattr(seg, "segment_heading_paths", None)
    if paths is None:
        return [""] * seg.n_segments
    return [f' title="{_e(" › ".join(p))}"' if p else "" for p in paths]


def _ranges(indices: list[int]) -> str:
    """1-based sentence numbers as ranges: "1–3, 7, 9–12" (at most ``_MAX_RANGES`` of them)."""
    words = [f"{r[0] + 1}" if len(r) == 1 else f"{r[0] + 1}–{r[-1] + 1}" for r in index_runs(indices)]
    return ", ".join(words[:_MAX_RANGES]) + (", …" if len(words) > _MAX_RANGES else "")


def _strip_layout(n: int) -> tuple[int, int, int]:
    """Columns, rows and cell height (px) of the overview strip for ``n`` sentences."""
    rows = math.ceil(n / (100 if n <= 400 else 200))
    cols = math.ceil(n / rows)
    cell = 16 if rows <= 2 else 10 if rows <= 4 else 6
    return cols, rows, cell


def _json_in_html(value: Any) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element (no ``<``, so no ``</script>``)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _export(k: int, level: dict[str, Any]) -> str:
    """The ``data:`` URL of a level as the JSON the page's download link gives."""
    labels = level["labels"]
    segments = [[i for i, x in enumerate(labels) if x == j] for j in range(len(level["names"]))]
    chosen = {"n_segments": k, "labels": labels, "segments": segments, "segment_heading_paths": level["heading_paths"]}
    return "data:application/json;charset=utf-8," + quote(json.dumps(chosen, separators=(",", ":")), safe="")


def _shared_strings(levels: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The levels for the page's data, each distinct name and heading title stored once: ``{"strings": [...],
    "levels": {"k": {"labels": [...], "names": [i, ...], "heading_paths": [[i, ...], ...]}}}``, every ``i`` an
    index into ``strings`` (a heading recurs at every level the slider offers: a long one would fill the page)."""
    index: dict[str, int] = {}

    def at(text: str) -> int:
        return index.setdefault(text, len(index))

    out = {
        str(k): {
            "labels": level["labels"],
            "names": [at(name) for name in level["names"]],
            "heading_paths": [[at(title) for title in path] for path in level["heading_paths"]],
        }
        for k, level in levels.items()
    }
    return {"strings": list(index), "levels": out}


def _suggested(seg: Any, levels: dict[int, dict[str, Any]]) -> list[int]:
    """The counts the fit rates best among the page's levels (``seg.suggested_counts()``, own count first), at most
    :data:`SUGGESTED_COUNTS`; ``[]`` without levels or without the fit's rating (k given, the topic model)."""
    suggested = getattr(seg, "suggested_counts", None)
    if not levels or not callable(suggested):
        return []
    return [k for k in suggested(len(levels)) if k in levels][:SUGGESTED_COUNTS]


def _ticks(rid: str, ks: list[int], counts: list[int], own: int) -> tuple[str, str, str]:
    """The slider's ``list`` attribute, a ``<datalist>`` of tick marks at ``counts`` (option values are positions
    in ``ks``, as the slider's are) and a line naming them; all empty without counts."""
    if not counts:
        return "", "", ""
    options = "".join(f'<option value="{ks.index(k)}" label="{k}"></option>' for k in counts)
    named = ", ".join(f"{k} (the fit's)" if k == own else str(k) for k in counts)
    tip = "the counts whose gain over the document shuffled in blocks is a local maximum, the fit's own first"
    return (
        f' list="{rid}-counts"',
        f'<datalist id="{rid}-counts">{options}</datalist>',
        f'<span class="counts" style="color:#555" title="{_e(tip)}">Counts the fit rates best: {named}</span>',
    )


def _slider(
    rid: str, own: int, levels: dict[int, dict[str, Any]], colors: list[str], counts: list[int] | None = None
) -> tuple[str, str]:
    """The granularity slider, and its data and script for the end of the page (both empty without levels);
    tick marks at ``counts`` (:func:`_ticks`)."""
    if not levels:
        return "", ""
    ks = list(levels)
    data = {"own": own, "colors": colors, **_shared_strings(levels)}
    plural_s = "segment" if own == 1 else "segments"
    ticks, datalist, named = _ticks(rid, ks, counts or [], own)
    control = (
        f'<div class="level"><label for="{rid}-level">Granularity</label>'
        f'<input type="range" id="{rid}-level" min="0" max="{len(ks) - 1}" step="1" value="{ks.index(own)}" '
        f'aria-label="Number of segments, {ks[0]} to {ks[-1]}"{ticks}>'
        f"{datalist}<output>{own} {plural_s} (the fit's)</output>{named}"
        f'<a class="export" download="segments-{own}.json" href="{_e(_export(own, levels[own]))}">'
        "Download this level (JSON)</a></div>\n"
    )
    script = (
        f'<script type="application/json" class="levels">{_json_in_html(data)}</script>\n'
        f"<script>{_SCRIPT.replace('ROOT_ID', json.dumps(rid))}</script>\n"
    )
    return control, script


def _css(root: str, m: int, n: int) -> str:
    cols, rows, cell = _strip_layout(n)
    strip_height = rows * (cell + 2) + 40
    sticky_offset = strip_height + 16 if strip_height <= 120 else 16
    css = (
        _CSS.replace("COLS", str(cols))
        .replace("CELL", str(cell))
        .replace("OFFSET", str(sticky_offset))
        .replace("ROOT", root)
    )
    dim = "".join(
        f'{root}:has(.hl[data-seg="{j}"]:hover) .hl:not([data-seg="{j}"]) {{ opacity: .2; }}\n' for j in range(m)
    )
    return css + dim


def render_html(
    seg: Any, title: str | None = None, *, full_page: bool = True, low_belief: float = 0.5, root_id: str | None = None
) -> str:
    """The segmentation as HTML: a whole page (``full_page=True``) or a fragment for another page.

    Sentences whose confidence (``seg.confidence()``: the probability, calibrated on the development sets, that
    the sentence lies in the segment it was put in) is below ``low_belief`` get a dotted underline: at the
    default 0.5, the sentences more likely misplaced than not.  (The parameter keeps its name from when the
    underline read the raw belief, ``seg.belief_in_label()``.)  ``root_id`` is the
    id of the outer element (default ``"bpseg"`` for a page, a random one for a fragment, so that
    several fragments on one page keep their own styles and links).
    """
    n, m = len(seg.sentences), seg.n_segments
    rid = root_id or ("bpseg" if full_page else f"bpseg-{uuid.uuid4().hex[:12]}")
    if not re.fullmatch(r"[A-Za-z][\w-]*", rid):
        raise ValueError(f"root_id must be a letter followed by letters, digits, '_' or '-', got {rid!r}")
    if isinstance(low_belief, bool) or not isinstance(low_belief, numbers.Real) or not 0 <= low_belief <= 1:
        raise ValueError(f"low_belief must be a number in [0, 1], got {low_belief!r}")
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title must be a str or None, got {type(title).__name__}")
    if full_page and title is None:
        title = "BP-Seg segmentation"
    name = _namer(seg)
    levels = granularity_levels(seg, name)
    colors = segment_colors(max([m, *levels]))
    conf = seg.confidence()
    labels = [int(x) for x in seg.labels]
    returns = bool(seg.returning_segments)  # runs to show too: a segment comes back
    part = [int(r) for r in seg.run_labels]  # the run of each sentence
    runs_of = seg.segment_runs
    back = {r for rs in runs_of for r in rs[1:]}  # runs of a segment seen before
    keywords = result_keywords(seg)
    part_keywords = result_keywords(seg, contiguous=True) if returns else keywords

    def where(i: int) -> str:
        """Sentence ``i``'s segment, and its run when a segment returns."""
        return f"Segment {labels[i] + 1} · Run {part[i] + 1}" if returns else f"Segment {labels[i] + 1}"

    # the document, paragraph by paragraph: (tag and class, the units' HTML)
    kinds = unit_kinds(seg)
    layout = layout_text(seg)  # its blank lines break paragraphs (in HTML: where a block element starts or ends)
    paragraphs: list[list[str]] = [[]]
    wrappers: list[str] = ["p"]
    prev_end = None
    for i, (a, b) in enumerate(seg.spans):
        kind = kinds[i]
        item = starts_list_item(seg, i)
        if prev_end is not None:
            gap = layout[prev_end:a]
            own = kind != "prose" or kinds[i - 1] != "prose" or item  # a block or heading: its own
            if BLANK_LINE.search(gap) or own:
                paragraphs.append([])
                wrappers.append("p")
            elif seg.lines and _LINE_BREAK.search(gap):
                paragraphs[-1].append("<br>")
        if kind == "block":
            wrappers[-1] = 'div class="blk"'
        elif kind == "heading":
            wrappers[-1] = 'p class="hp"'
        elif item:
            wrappers[-1] = 'p class="li"'
        prev_end = b
        j = labels[i]
        tip = f"{where(i)} · confidence {conf[i]:.2f} · sentence {i + 1}"
        low = " low" if conf[i] < low_belief else ""
        tag, extra = ("div", " block") if kind == "block" else ("span", " hd" if kind == "heading" else "")
        paragraphs[-1].append(
            f'<{tag} class="s hl{low}{extra}" id="{rid}-s{i + 1}" data-seg="{j}" style="background:{colors[j]}" '
            f'title="{_e(tip)}"><sup>{i + 1}</sup>{unit_html(seg, i, kind)}</{tag}>'
        )
    document = front_matter_html(seg) + "\n".join(
        f"<{w}>" + " ".join(p) + f"</{w.split()[0]}>" for w, p in zip(wrappers, paragraphs) if p
    )

    cols, rows, cell = _strip_layout(n)
    sticky = " sticky" if full_page and rows * (cell + 2) + 40 <= 120 else ""
    cells = []
    for i, j in enumerate(labels):
        start = " start" if returns and i > 0 and part[i] != part[i - 1] else ""
        returned = returns and part[i] in back
        fill = f"{_HATCH},{colors[j]}" if returned else colors[j]
        tip = f"Sentence {i + 1} · {where(i)}{' (returns)' if returned else ''}"
        cells.append(
            f'<a class="cell hl{start}" href="#{rid}-s{i + 1}" data-seg="{j}" style="background:{fill}" '
            f'title="{_e(tip)}"></a>'
        )
    caption = (
        "one cell per sentence, in reading order; white line: a new run; hatched: a segment that has come back"
        if returns
        else "one cell per sentence, in reading order"
    )
    overview = (
        f'<div class="overview{sticky}" aria-label="Overview: {caption}">'
        f'<div class="strip">{"".join(cells)}</div>'
        f'<div class="axis"><span>sentence 1</span><span>{caption}</span>'
        f"<span>sentence {n}</span></div></div>"
    )
    names = [name(heading, words) for heading, words in zip(_headings(seg), keywords)]
    if returns:
        entries = [
            f"Segment {j + 1} · {len(idx)} · {numbered('run', runs_of[j])}{names[j]}"
            for j, idx in enumerate(seg.segments)
        ]
    else:
        entries = [f"Segment {j + 1} · {len(idx)}{names[j]}" for j, idx in enumerate(seg.segments)]
    paths = _paths(seg)
    legend = "\n".join(
        f'<li class="hl" data-seg="{j}" style="background:{colors[j]}"{paths[j]}>{entry}</li>'
        for j, entry in enumerate(entries)
    )
    sentences_of = seg.runs
    blocks = []
    for j, idx in enumerate(seg.segments):
        opened = " open" if len(idx) <= OPEN_UP_TO and n <= OPEN_DOC_UP_TO else ""
        if returns:
            head = f"Segment {j + 1} · {numbered('run', runs_of[j])} · "
            items = "".join(
                f'<p class="part">Run {r + 1}'
                f"{_keywords(part_keywords[r]) if len(runs_of[j]) > 1 and len(sentences_of[r]) > 1 else ''}</p><ol>"
                + "".join(f'<li value="{i + 1}">{unit_html(seg, i, kinds[i])}</li>' for i in sentences_of[r])
                + "</ol>"
                for r in runs_of[j]
            )
        else:
            head = f"Segment {j + 1} · "
            items = "<ol>" + "".join(f'<li value="{i + 1}">{unit_html(seg, i, kinds[i])}</li>' for i in idx) + "</ol>"
        blocks.append(
            f'<details class="seg" data-seg="{j}" style="border-color:{colors[j]}"{opened}>'
            f"<summary>{head}{plural(len(idx), 'sentence')}: {_ranges(idx)}{names[j]}</summary>"
            f"{items}</details>"
        )
    note = seg.fewer_than_requested()
    alone = "that segment alone, all its runs" if returns else "that segment alone"
    meta = (
        f"{_e(_summary(seg))}.{' ' + _e(note[0].upper() + note[1:]) + '.' if note else ''} Hover a sentence, "
        f"an overview cell or a segment to see {alone}; click a cell to jump to its sentence. "
        f"Dotted underline: confidence below {low_belief:g} (the estimated chance that the sentence lies in "
        "its segment)."
    )
    heading = f"<h1>{_e(title)}</h1>\n" if title else ""
    if levels:
        meta += f" Move the slider to cut the document into {min(levels)} to {max(levels)} segments."
    control, script = _slider(rid, m, levels, colors, _suggested(seg, levels))
    body = (
        f'<div class="bpseg{"" if full_page else " fragment"}" id="{rid}">\n{heading}<p class="meta">{meta}</p>\n{overview}\n'
        f"{control}"
        f'<ul class="legend">\n{legend}\n</ul>\n<div class="doc">\n{document}\n</div>\n'
        f'<h2>Segments</h2>\n<div class="segs">\n' + "\n".join(blocks) + f"\n</div>\n{script}</div>\n"
    )
    css = _css(f"#{rid}", max([m, *levels]), n)
    if not full_page:
        return f"<style>{css}</style>\n{body}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>\nbody {{ margin: 0; background: #fafafa; }}\n"
        f"#{rid} {{ max-width: 54rem; margin: 1.25rem auto; }}\n{css}</style>\n</head>\n<body>\n"
        f"{body}</body>\n</html>\n"
    )


@register_format("html")
class HtmlFormat(OutputFormat):
    """A self-contained page (:func:`render_html`), titled after the input when its name is given."""

    suffix = ".html"
    media_type = "text/html"

    def content(self, result: Any, *, source: str | None = None) -> str:
        return render_html(result, title=None if source is None else f"BP-Seg: {source}")
