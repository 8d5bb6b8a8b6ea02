"""Render a :class:`~bpseg_pgm.text.pipeline.Segmentation` as a self-contained HTML page.

The page shows the document in its original order with every sentence on the
background colour of its segment, so non-contiguous segments are visible at a
glance; hovering a sentence (or a legend entry) dims everything outside that
segment and a tooltip gives the segment and the sentence's belief.  Below the
document the segments are listed one by one.  Everything (CSS, a few lines of
JS) is inline, no network access is needed, and all text is HTML-escaped.
"""

from __future__ import annotations

import colorsys
from html import escape

from bpseg_pgm.text.pipeline import Segmentation

__all__ = ["render_html", "segment_colors"]

# ColorBrewer "Set3": a qualitative palette of light colours that keep black text readable.
_SET3 = (
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f",
)  # fmt: skip

_CSS = """
:root { color-scheme: light; }
body { font: 17px/1.75 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f;
       max-width: 52rem; margin: 2rem auto; padding: 0 1.25rem; background: #fafafa; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
h2 { font-size: 1.05rem; margin: 2rem 0 .5rem; color: #444; }
.meta { color: #666; font-size: .9rem; margin: 0 0 1rem; }
.legend { display: flex; flex-wrap: wrap; gap: .4rem; margin: 0 0 1.25rem; padding: 0; list-style: none; }
.legend li { padding: .1rem .6rem; border-radius: 1rem; font-size: .85rem; cursor: default;
             border: 1px solid rgba(0,0,0,.15); }
.doc { background: #fff; padding: 1.25rem 1.5rem; border-radius: .5rem; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.s { padding: .12rem .2rem; border-radius: .25rem; box-decoration-break: clone;
     -webkit-box-decoration-break: clone; transition: opacity .12s; }
.s sup { font-size: .62rem; color: #555; margin-right: .15rem; }
body.focus .s, body.focus .legend li { opacity: .25; }
body.focus .s.on, body.focus .legend li.on { opacity: 1; }
.seg { background: #fff; border-left: .5rem solid; border-radius: .35rem; padding: .5rem 1rem; margin: .6rem 0;
       box-shadow: 0 1px 3px rgba(0,0,0,.06); }
.seg h3 { font-size: .9rem; margin: 0 0 .25rem; color: #444; }
.seg ol { margin: 0; padding-left: 2.6rem; }
.low { text-decoration: underline dotted rgba(0,0,0,.45); }
"""

_JS = """
(function () {
  var body = document.body;
  function set(seg) {
    body.classList.toggle("focus", seg !== null);
    document.querySelectorAll("[data-seg]").forEach(function (el) {
      el.classList.toggle("on", el.getAttribute("data-seg") === seg);
    });
  }
  document.querySelectorAll("[data-seg]").forEach(function (el) {
    el.addEventListener("mouseenter", function () { set(el.getAttribute("data-seg")); });
    el.addEventListener("mouseleave", function () { set(null); });
  });
})();
"""


def segment_colors(m: int) -> list[str]:
    """``m`` background colours: Set3 first, then light hues spaced by the golden angle."""
    colors = list(_SET3[:m])
    for j in range(len(colors), m):
        r, g, b = colorsys.hls_to_rgb((j * 0.618033988749895) % 1.0, 0.82, 0.65)
        colors.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return colors


def _summary(seg: Segmentation) -> str:
    p = seg.params
    parts = [f"{len(seg.sentences)} sentences", f"{seg.n_segments} segments"]
    if isinstance(p.get("n_segments"), int) and p.get("init") != "all":
        parts[-1] += f" (k = {p['n_segments']})"
    for key, label in (("potentials", "potentials"), ("engine", "engine"), ("lam", "λ"), ("sigma", "σ"),
                       ("init", "init"), ("random_state", "seed")):
        value = p.get(key)
        if isinstance(value, (int, float, str)) and value != "auto":  # given values, not objects or defaults
            parts.append(f"{label} = {value}")
    if seg.model:
        parts.append(f"model {seg.model}")
    return " · ".join(parts)


def render_html(seg: Segmentation, title: str = "BP-Seg segmentation", low_belief: float = 0.5) -> str:
    """Return the page as a string; sentences whose belief is below ``low_belief`` get a dotted underline."""
    colors = segment_colors(seg.n_segments)
    conf = seg.confidence()
    e = lambda s: escape(str(s), quote=True)  # noqa: E731

    legend = "\n".join(
        f'<li data-seg="{j}" style="background:{colors[j]}">Segment {j + 1} · {len(idx)} '
        f'sentence{"s" if len(idx) != 1 else ""}</li>'
        for j, idx in enumerate(seg.segments)
    )
    spans = []
    for i, (text, lab) in enumerate(zip(seg.sentences, seg.labels)):
        j = int(lab)
        tip = f"Segment {j + 1} · belief {conf[i]:.2f} · sentence {i + 1}"
        low = " low" if conf[i] < low_belief else ""
        spans.append(
            f'<span class="s{low}" data-seg="{j}" style="background:{colors[j]}" title="{e(tip)}">'
            f"<sup>{i + 1}</sup>{e(text)}</span>"
        )
    blocks = []
    for j, idx in enumerate(seg.segments):
        items = "".join(f'<li value="{i + 1}">{e(seg.sentences[i])}</li>' for i in idx)
        blocks.append(
            f'<section class="seg" data-seg="{j}" style="border-color:{colors[j]}">'
            f"<h3>Segment {j + 1}</h3><ol>{items}</ol></section>"
        )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>{e(title)}</h1>\n"
        f'<p class="meta">{e(_summary(seg))}. Hover a sentence or a segment to see it on its own; '
        f"dotted underline: belief below {low_belief:g}.</p>\n"
        f'<ul class="legend">\n{legend}\n</ul>\n'
        f'<main class="doc">\n{" ".join(spans)}\n</main>\n'
        f"<h2>Segments</h2>\n" + "\n".join(blocks) + "\n"
        f"<script>{_JS}</script>\n</body>\n</html>\n"
    )
