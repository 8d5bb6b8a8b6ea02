"""The user docs (``docs/`` outside ``docs/research/``, and README.md) speak to users: no session, issue or
lab-notebook section numbers, no paths of the machines the project was built on, no counts that go stale (tests
that pass or skip). The research notes are the lab notebook of their time and keep theirs."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: (what it is, pattern) for words that belong to the project's bookkeeping, not to a user's page
TEAM_WORDS = [
    ("a session number", re.compile(r"\bsessions? \d+", re.I)),
    ("an issue number", re.compile(r"\bissues? #?\d+", re.I)),
    ("a notebook section number", re.compile(r"§ ?\d+")),
    ("a machine path", re.compile(r"(?<![\w.~])/(?:opt|work|home|tmp|root|mnt|srv|scratch)/")),
    ("the team's machines", re.compile(r"this team|team's machines|machines this project", re.I)),
    ("a stale test count", re.compile(r"\b\d+ tests? (?:skip|pass|fail)|\b\d+ (?:passed|skipped)\b", re.I)),
]


def user_pages() -> dict[str, str]:
    pages = {
        p.relative_to(ROOT).as_posix(): p.read_text("utf-8")
        for p in sorted((ROOT / "docs").rglob("*.md"))
        if "research" not in p.relative_to(ROOT / "docs").parts
    }
    pages["README.md"] = (ROOT / "README.md").read_text("utf-8")
    return pages


def team_words(text: str) -> list[str]:
    """Each bookkeeping word in ``text``, as 'what: the words around it'. Link targets (anchors into the research
    notes keep their headings' words) are not read."""
    text = re.sub(r"\]\([^)\s]*\)", "]", text)
    found = []
    for what, pattern in TEAM_WORDS:
        for m in pattern.finditer(text):
            found.append(f"{what}: ...{text[max(0, m.start() - 30) : m.end() + 30]}...".replace("\n", " "))
    return found


def test_the_user_docs_have_no_team_words():
    found = {page: words for page, text in user_pages().items() if (words := team_words(text))}
    assert not found, found


def test_the_scan_finds_what_the_docs_once_said():
    said = [
        "On the machines this project is built on, pip is configured with `find-links = /opt/wheels`",
        "Without the datasets 44 tests skip",
        "[Session 6: where the targets stand](research/x.md#session-6-where) (§7: the features, issue 11)",
    ]
    assert [len(team_words(s)) for s in said] == [2, 1, 3]
    assert team_words("[the returns test](research/granularity.md#8-issue-20-in-progress)") == []
