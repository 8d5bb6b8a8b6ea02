// MathJax 3's configuration, read when javascripts/mathjax/tex-chtml-full.js loads after it (mkdocs.yml's
// extra_javascript; docs/maths.py puts MathJax, from the django-static-mathjax wheel, into the site).
// Two kinds of element hold maths: on the Markdown pages pymdownx.arithmatex (generic mode) wraps each formula in
// one of class "arithmatex", as \( ... \) or \[ ... \]; on the notebook pages each Markdown cell is one of class
// "jp-RenderedMarkdown", with Jupyter's $ ... $ and $$ ... $$ in it, and the table of contents repeats the maths of
// the headings. Only those elements are typeset (inside them, code is not), so a "$" anywhere else on a page (a
// shell variable, a cell's output) stays a dollar.
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"], ["$", "$"]],
    displayMath: [["\\[", "\\]"], ["$$", "$$"]],
    processEscapes: true,
    processEnvironments: true,
  },
  startup: {
    pageReady() {
      const selectors = [".arithmatex", ".jp-RenderedMarkdown"];
      if (document.querySelector(".jupyter-wrapper")) {
        selectors.push(".md-nav--secondary .md-nav__link");
      }
      return MathJax.typesetPromise(Array.from(document.querySelectorAll(selectors.join(", "))));
    },
  },
};
