"""Build the Choi-style documents of ``bpseg_bench.samples`` (``choi_style/1/3-5/<n>.ref``) from the PEPs.

Choi's (2000) corpus has no licence, so it is not shipped; notebooks 02 and 04 read instead five documents made the
way Choi made his set 1, range 3-5, from prose that is licensed: the Python Enhancement Proposals of the PEPs
train split (public domain or CC0-1.0, see ``SOURCE.txt``). Each document is 10 segments, each segment 3 to 5
consecutive sentences of one paragraph of one PEP (the sentences of :func:`bpseg_bench.peps.load_peps`, the
paragraph its ``meta["block"]``), from 10 different PEPs; no PEP serves twice. The files are in Choi's ``.ref``
format (a ``==========`` line before each segment and after the last, one sentence a line), so
``load_choi(data_dir=CHOI, sets=[1], ranges=["3-5"])`` reads them; the sentences are the PEPs' own, not tokenised
as Choi's are.

Every choice is drawn from SHA-256 of a fixed seed string (no random-number generator whose stream could change
between Python or NumPy versions): the PEPs in the order of their draws, each PEP's segment length (3, 4 or 5), and
the paragraph and first sentence among the places that can hold it: the runs of that many sentences within one
paragraph that are all prose (:func:`is_prose`: ASCII, which Choi's latin-1 reader reads as it is, from a capital
letter to a full stop). The output depends only on the PEPs data and on the
sentence splitter; run from the repository root::

    python bench/bpseg_bench/samples/build_choi_style.py            # (re)write bench/bpseg_bench/samples/choi_style
    python bench/bpseg_bench/samples/build_choi_style.py --check    # exit 1 if the shipped files differ

The PEPs folder is found as :func:`bpseg_bench.peps.resolve_peps_dir` finds it (``--peps DIR`` to name it).
``tests/docs/test_notebook_data.py`` regenerates the files and compares them byte for byte. Nothing in the
package imports this module.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from bpseg_bench.peps import load_peps

SEED = "bpseg_bench.samples.choi_style 1/3-5"
#: the Choi folder imitated: set 1, range 3-5 (segments of 3 to 5 sentences)
SET, RANGE, LENGTHS = 1, "3-5", (3, 4, 5)
N_DOCUMENTS, N_SEGMENTS = 5, 10
SEPARATOR = "=========="
OUT = Path(__file__).resolve().parent / "choi_style"


def draw(*key: object) -> int:
    """A fixed pseudo-random 64-bit number for ``key`` (the seed string and the key, hashed)."""
    text = "\x1f".join([SEED, *map(str, key)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def is_prose(sentence: str) -> bool:
    """An ASCII sentence that starts with a capital letter and ends with a full stop, ``!`` or ``?`` (before any
    closing quote or bracket): no fragment, and no line that introduced a code block the PEPs data left out."""
    return sentence.isascii() and sentence[:1].isupper() and sentence.rstrip("\"')]").endswith((".", "!", "?"))


def windows(sentences, blocks, length: int) -> list[int]:
    """The first sentence of each run of ``length`` consecutive prose sentences within one paragraph."""
    return [
        start
        for start in range(len(sentences) - length + 1)
        if len(set(blocks[start : start + length])) == 1 and all(map(is_prose, sentences[start : start + length]))
    ]


def choose_segments(peps_dir=None) -> list[tuple[str, list[str]]]:
    """(PEP id, sentences) for the ``N_DOCUMENTS * N_SEGMENTS`` segments, in document order."""
    docs = load_peps(data_dir=peps_dir, splits=["train"])
    chosen = []
    for doc in sorted(docs, key=lambda d: (draw("pep", d.doc_id), d.doc_id)):
        length = LENGTHS[draw("length", doc.doc_id) % len(LENGTHS)]
        starts = windows(doc.units, doc.meta["block"], length)
        if not starts:
            continue  # no paragraph of this PEP holds the length drawn: the next PEP serves
        start = min(starts, key=lambda s: (draw("start", doc.doc_id, s), s))
        chosen.append((doc.doc_id.rsplit("/", 1)[-1], list(doc.units[start : start + length])))
        if len(chosen) == N_DOCUMENTS * N_SEGMENTS:
            return chosen
    raise ValueError(f"the PEPs give only {len(chosen)} segments, not {N_DOCUMENTS * N_SEGMENTS}")


def build(peps_dir=None) -> dict[str, str]:
    """Each file's path (``<set>/<range>/<n>.ref``) and text."""
    segments = choose_segments(peps_dir)
    files = {}
    for n in range(N_DOCUMENTS):
        lines = []
        for _, sentences in segments[n * N_SEGMENTS : (n + 1) * N_SEGMENTS]:
            lines += [SEPARATOR, *sentences]
        files[f"{SET}/{RANGE}/{n}.ref"] = "\n".join([*lines, SEPARATOR]) + "\n"
    return files


def sources(peps_dir=None) -> dict[str, list[str]]:
    """Each file's PEPs, segment by segment (for SOURCE.txt)."""
    segments = choose_segments(peps_dir)
    return {
        f"{SET}/{RANGE}/{n}.ref": [pep for pep, _ in segments[n * N_SEGMENTS : (n + 1) * N_SEGMENTS]]
        for n in range(N_DOCUMENTS)
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peps", metavar="DIR", help="the PEPs folder (train.jsonl); default: found as load_peps does")
    parser.add_argument("--out", metavar="DIR", type=Path, default=OUT, help="where to write (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="compare with the files in --out instead of writing")
    parser.add_argument("--sources", action="store_true", help="print each file's PEPs, segment by segment")
    args = parser.parse_args(argv)
    if args.sources:
        for name, peps in sources(args.peps).items():
            print(f"{name}: {', '.join(peps)}")
        return 0
    files = build(args.peps)
    folder = args.out / str(SET) / RANGE
    if args.check:
        present = {p.name for p in folder.glob("*.ref")} if folder.is_dir() else set()
        expected = {Path(name).name for name in files}
        stale = sorted(present ^ expected) + [
            name
            for name, text in files.items()
            if (args.out / name).is_file() and (args.out / name).read_bytes() != text.encode("ascii")
        ]
        if stale:
            print(f"out of date in {args.out} (run {Path(__file__).name}): {', '.join(stale)}", file=sys.stderr)
            return 1
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.ref"):
        if f"{SET}/{RANGE}/{old.name}" not in files:
            old.unlink()
    for name, text in files.items():
        (args.out / name).write_bytes(text.encode("ascii"))
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
