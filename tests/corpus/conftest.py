"""A small corpus folder (two good documents, a Markdown one, a binary file, an empty one, a one-sentence one)."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

WEATHER_TENNIS = (
    "The sun was shining brightly. It was a beautiful morning. I'll play tennis tomorrow. "
    "Thunder rumbled in the distance. US Open is a tennis tournament. The rain poured down heavily. "
    "Who is going to win the US Open?\n"
)
MARKETS = (
    "# Markets\n\nStocks fell sharply on Monday. Investors were nervous about rates.\n\n"
    "The recipe needs two eggs. Whisk them with sugar until pale.\n\n"
    "Bond yields rose for a third day. Fold in the flour gently and bake for twenty minutes.\n"
)
GOOD = {"notes.txt": None, "weather.txt": WEATHER_TENNIS, "sub/markets.md": MARKETS}
BAD = {"bin.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", "empty.txt": b"", "one.txt": b"Only one sentence here.\n"}


@pytest.fixture()
def corpus_dir(tmp_path) -> Path:
    """A folder with three good documents and three that cannot be segmented (binary, empty, one sentence)."""
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    for name, text in GOOD.items():
        text = (REPO / "examples" / "notes.txt").read_text("utf-8") if text is None else text
        (root / name).write_text(text, encoding="utf-8")
    for name, data in BAD.items():
        (root / name).write_bytes(data)
    (root / "ignored.csv").write_text("a,b\n1,2\n")
    (root / ".hidden.txt").write_text("Not read. Hidden files are skipped.\n")
    return root
