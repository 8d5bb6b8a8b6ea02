"""How the HTML view shows a reStructuredText unit: parsed by docutils, written as safe HTML.

Each unit is parsed on its own (:func:`~bpseg_pgm.structure.rst.parse_rst_fragment`: nothing read but the unit, no
raw output) and its doctree written here, node by node, never by docutils' HTML writer: every text is escaped,
the only attributes written are a code block's language, a table cell's span and a link's address, and a node this
module does not know is shown as its text.

* :func:`rst_inline_html`: a sentence or a title, as inline HTML. ``literal`` is code, *emphasis* and **strong**
  are themselves, a role is its text (:pep:`484` is "PEP 484"; :ref:`the rationale <rationale>` is "the
  rationale"; a Python object's role, :class:`Foo`, is code, ``~`` and ``!`` read as Sphinx reads them); only a
  written link (```text <https://...>`_``) is a link, and only to a safe address
  (:func:`~bpseg_pgm.formats.links.safe_href`); a list item's marker is a bullet or its number.
* :func:`rst_block_html`: a block (a directive, a table, a footnote) as HTML: ``.. code-block::`` and ``.. code::``
  as code, their lines kept; an admonition (``.. note::``, ...) as its body under its label; a directive docutils
  does not know (Sphinx's ``.. versionadded::``, ``.. seealso::``, ...) as its body under its name; tables as
  tables. :func:`literal_html`: a literal block (after ``::``) as code, its lines kept.
"""

from __future__ import annotations

import functools
import re
import textwrap
from html import escape

from bpseg_pgm.formats.links import safe_href
from bpseg_pgm.structure.rst import parse_rst_fragment

__all__ = ["literal_html", "rst_block_html", "rst_inline_html", "starts_rst_list"]

_ROLE = re.compile(  # a role and its text, the role before (:ref:`x`) or after (`x`:ref:)
    r"\A:(?P<role>[\w.:+-]+):`(?P<body>(?:[^`\\]|\\.)*)`\Z|\A`(?P<body2>(?:[^`\\]|\\.)*)`:(?P<role2>[\w.:+-]+):\Z", re.S
)
_TARGET = re.compile(r"\A(?P<title>.*?\S)\s*<(?P<target>[^<>]+)>\Z", re.S)
_DIRECTIVE = re.compile(r"\A\.\.[ \t]+(?P<name>[\w:+.-]+)::(?P<args>[^\n]*)(?P<body>.*)\Z", re.S)
_OPTION = re.compile(r"\A[ \t]*:[^:\n]+:")
_LANGUAGE = re.compile(r"[^\w+-]")
_MARKUP = re.compile(r"[`*|_\[\]\\]|::\Z|\A[^\w\"'(]")  # what may make a line more than its text
_MARKER = re.compile(r"\A[ \t]*(\(?(?:\d+|#|[A-Za-z]|[ivxlcdmIVXLCDM]+)[.)])[ \t]")
#: roles whose text is code in Sphinx (and in any domain: ``py:func``, ``c:macro``, ...)
_CODE_ROLES = frozenset(
    """attr attribute class command const data envvar exc exception file func function kbd keyword makevar meth method
    mod module obj option program samp token type any""".split()
)
#: labels of the admonitions docutils knows, and of Sphinx directives it does not
_LABELS = {
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "seealso": "See also",
}
_ADMONITIONS = frozenset("attention caution danger error hint important note tip warning".split())
_MAX_DEPTH = 8  # unknown directives inside unknown directives: past this, their text is shown as code


def _nodes():
    from docutils import nodes

    return nodes


def _children(node, inline: bool, depth: int) -> str:
    render = _inline if inline else _block
    return "".join(render(child, depth) for child in node.children)


def _role_html(raw: str) -> str:
    """A role docutils does not know (Sphinx's :ref:, :class:, ...) as its text, code where Sphinx makes it so."""
    m = _ROLE.match(raw)
    if m is None:
        return escape(raw, quote=True)
    role = (m.group("role") or m.group("role2")).lower()
    body = re.sub(r"\\(.)", r"\1", m.group("body") if m.group("body") is not None else m.group("body2"))
    target = _TARGET.match(body)
    if target:
        body = target.group("title")
    elif body.startswith("~"):
        body = body[1:].rsplit(".", 1)[-1]
    body = body.removeprefix("!")
    code = role.rsplit(":", 1)[-1] in _CODE_ROLES or (":" in role and role.split(":", 1)[0] not in ("std", "rst"))
    return f"<code>{escape(body, quote=True)}</code>" if code else escape(body, quote=True)


def _link(node, depth: int) -> str:
    """A reference: a link when it was written as one (``text <url>`_``) to a safe address, else its text."""
    text = _children(node, True, depth)
    href = safe_href(node.get("refuri")) if node.rawsource.rstrip().endswith("_") else None
    return f'<a href="{href}">{text}</a>' if href else text


def _image(node) -> str:
    alt = escape(str(node.get("alt") or node.get("uri") or "image"), quote=True)
    href = safe_href(node.get("uri"))
    return f'<a class="img" href="{href}">[image: {alt}]</a>' if href else f"[image: {alt}]"


_WRAP = {
    "emphasis": "em",
    "strong": "strong",
    "literal": "code",
    "math": "code",
    "subscript": "sub",
    "superscript": "sup",
    "title_reference": "cite",
}


def _inline(node, depth: int = 0) -> str:
    """A node as inline HTML (a block's content flattened into it)."""
    nodes = _nodes()
    if isinstance(node, nodes.Text):
        return escape(str(node), quote=True)
    name = node.tagname
    if name in _WRAP:
        return f"<{_WRAP[name]}>{_children(node, True, depth)}</{_WRAP[name]}>"
    if name == "reference":
        return _link(node, depth)
    if name == "problematic":
        return _role_html(node.astext())
    if name in ("footnote_reference", "citation_reference"):
        return f"[{escape(node.astext(), quote=True)}]"
    if name == "substitution_reference":
        return f"|{escape(node.astext(), quote=True)}|"
    if name == "image":
        return _image(node)
    if name in ("system_message", "comment", "substitution_definition", "raw", "pending"):
        return ""
    if name in ("bullet_list", "enumerated_list"):  # each item after its bullet or number
        marks = _enumerators(node) if name == "enumerated_list" else ["•"] * len(node.children)
        return " ".join(f"{escape(m)} {_inline(item, depth)}" for m, item in zip(marks, node.children))
    if name == "field_list":  # one field a line, named in bold
        return "<br>".join(
            f"<strong>{_inline(f[0], depth)}:</strong> {_inline(f[1], depth)}" for f in node.children if len(f) == 2
        )
    if name in ("literal_block", "doctest_block", "math_block"):
        return f"<code>{escape(node.astext(), quote=True)}</code>"
    if isinstance(node, nodes.Element):
        parts = [_inline(child, depth) for child in node.children]
        return (" " if isinstance(node, nodes.Structural) or not isinstance(node, nodes.TextElement) else "").join(
            p for p in parts if p
        )
    return escape(node.astext(), quote=True)


def _enumerators(node) -> list[str]:
    """The numbers of an enumerated list's items as written ("3.", "(b)", "iv)"; roman numerals as arabic)."""
    start = node.get("start", 1) if isinstance(node.get("start", 1), int) else 1
    kind = node.get("enumtype", "arabic")
    out = []
    for k in range(start, start + len(node.children)):
        if kind in ("loweralpha", "upperalpha") and 1 <= k <= 26:
            number = chr((96 if kind == "loweralpha" else 64) + k)
        else:
            number = str(k)
        out.append(f"{node.get('prefix', '')}{number}{node.get('suffix', '.')}")
    return out


def _code(node) -> str:
    """A literal block (``::``, ``.. code-block::``, a doctest) as ``<pre><code>``, its language kept."""
    classes = [c for c in node.get("classes", []) if c != "code"]
    lang = _LANGUAGE.sub("", classes[0]) if classes else ""
    attr = f' class="language-{lang}"' if lang else ""
    return f"<pre><code{attr}>{escape(node.astext(), quote=True)}</code></pre>"


def _labelled(label: str, body: str) -> str:
    return f'<div class="adm"><p class="adm-t">{label}</p>{body}</div>'


def _unknown_directive(node, depth: int) -> str:
    """A system message: for a directive docutils does not know (or refused: ``include``, ``raw``), its body
    under its name; else nothing (the message is docutils', not the text's)."""
    nodes = _nodes()
    raw = next((c.astext() for c in node.children if isinstance(c, nodes.literal_block)), None)
    m = None if raw is None else _DIRECTIVE.match(raw)
    if m is None:
        return ""
    name, args = m.group("name"), " ".join(m.group("args").split())
    label = escape(_LABELS.get(name.lower(), name), quote=True) + (f" {rst_inline_html(args)}" if args else "")
    body = textwrap.dedent(m.group("body").lstrip("\n"))
    lines = body.splitlines()
    while lines and _OPTION.match(lines[0]):  # its options (":alt: ...") are no content
        lines.pop(0)
    body = "\n".join(lines).strip("\n")
    if not body.strip():
        return _labelled(label, "")
    if depth >= _MAX_DEPTH or name.lower() == "raw":  # raw output is shown as the text it is, never made
        return _labelled(label, f"<pre><code>{escape(body, quote=True)}</code></pre>")
    try:
        inner = parse_rst_fragment(body)
    except ValueError:
        return _labelled(label, f"<p>{escape(body, quote=True)}</p>")
    return _labelled(label, _children(inner, False, depth + 1))


def _entry(node, tag: str, depth: int) -> str:
    attrs = ""
    if node.get("morecols"):
        attrs += f' colspan="{int(node["morecols"]) + 1}"'
    if node.get("morerows"):
        attrs += f' rowspan="{int(node["morerows"]) + 1}"'
    nodes = _nodes()
    paras = [c for c in node.children if not isinstance(c, nodes.system_message)]
    body = _inline(paras[0], depth) if len(paras) == 1 else _children(node, False, depth)
    return f"<{tag}{attrs}>{body}</{tag}>"


_BLOCK_TAGS = {
    "bullet_list": "ul",
    "list_item": "li",
    "definition_list": "dl",
    "field_list": "dl",
    "option_list": "dl",
    "definition": "dd",
    "field_body": "dd",
    "description": "dd",
    "block_quote": "blockquote",
    "thead": "thead",
    "tbody": "tbody",
    "row": "tr",
}
_TERM_TAGS = {"term": "dt", "field_name": "dt", "option_group": "dt", "paragraph": "p", "caption": "p"}


def _block(node, depth: int = 0) -> str:
    """A node as block HTML."""
    nodes = _nodes()
    if isinstance(node, nodes.Text):
        return escape(str(node), quote=True)
    name = node.tagname
    if name in ("literal_block", "doctest_block", "math_block"):
        return _code(node)
    if name == "system_message":
        return _unknown_directive(node, depth)
    if name in ("comment", "target", "substitution_definition", "raw", "pending", "colspec", "decoration"):
        return ""
    if name in _TERM_TAGS:
        return f"<{_TERM_TAGS[name]}>{_inline(node, depth)}</{_TERM_TAGS[name]}>"
    if name in ("title", "rubric"):
        return f'<p class="adm-t">{_inline(node, depth)}</p>'
    if name == "label":  # a footnote's or citation's
        return f'<p class="adm-t">[{_inline(node, depth)}]</p>'
    if name == "attribution":
        return f"<p>— {_inline(node, depth)}</p>"
    if name in ("admonition", "topic", "sidebar"):  # their title is their label
        return f'<div class="adm">{_children(node, False, depth)}</div>'
    if name in _ADMONITIONS:
        return _labelled(name.capitalize(), _children(node, False, depth))
    if name == "enumerated_list":
        start = node.get("start")
        return f"<ol{f' start={int(start)}' if isinstance(start, int) else ''}>{_children(node, False, depth)}</ol>"
    if name in _BLOCK_TAGS:
        return f"<{_BLOCK_TAGS[name]}>{_children(node, False, depth)}</{_BLOCK_TAGS[name]}>"
    if name == "line_block":
        return "<p>" + "<br>".join(_inline(line, depth) for line in node.children) + "</p>"
    if name == "entry":
        return _entry(node, "th" if isinstance(node.parent.parent, nodes.thead) else "td", depth)
    if name == "table":
        return f"<table>{_children(node, False, depth)}</table>"
    if name == "transition":
        return "<hr>"
    if name == "image":
        return f"<p>{_image(node)}</p>"
    if isinstance(node, nodes.TextElement):  # inline content in a block of its own
        return f"<p>{_inline(node, depth)}</p>"
    if isinstance(node, nodes.Element):  # admonition, topic, footnote, figure, container, ...: their content
        return _children(node, False, depth)
    return escape(node.astext(), quote=True)


def _lines(text: str) -> str:
    """A sentence's lines, each without its indentation: inline markup reads the same, no line reads as a
    definition or a quotation, and a field list (``:Author: ...`` a line) stays one."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


@functools.lru_cache(maxsize=8192)
def _line_doc(line: str):
    """The doctree of one line of reStructuredText, or None where docutils cannot read it (never changed)."""
    try:
        return parse_rst_fragment(line)
    except ValueError:
        return None


def _plain(line: str) -> bool:
    """True when docutils would read ``line`` as a paragraph of its text alone (no markup, no list marker): it
    need not be parsed."""
    return not _MARKUP.search(line) and not _MARKER.match(line)


def rst_inline_html(text: str) -> str:
    """A sentence or title of reStructuredText as inline HTML (see the module's notes); as escaped text when
    docutils cannot read it."""
    line = _lines(text)
    doc = None if _plain(line) else _line_doc(line)
    flat = escape(line, quote=True).replace("\n", " ")
    if doc is None:
        return flat
    out = " ".join(p for p in (_inline(child) for child in doc.children) if p).replace("\n", " ")
    return out if out.strip() else flat


def starts_rst_list(text: str) -> bool:
    """True when a reStructuredText sentence starts a list item (docutils reads it as a bullet or numbered list)."""
    line = _lines(text)
    doc = None if _plain(line) else _line_doc(line)
    return doc is not None and bool(doc.children) and doc.children[0].tagname in ("bullet_list", "enumerated_list")


@functools.lru_cache(maxsize=1024)
def rst_block_html(text: str) -> str:
    """A block of reStructuredText (a directive, table or footnote, dedented) as HTML (see the module's notes)."""
    try:
        doc = parse_rst_fragment(text)
    except ValueError:
        return literal_html(text)
    out = _children(doc, False, 0)
    return out if out.strip() else literal_html(text)


def literal_html(text: str) -> str:
    """A literal block's body (dedented) as code, its lines kept."""
    return f"<pre><code>{escape(text, quote=True)}</code></pre>"
