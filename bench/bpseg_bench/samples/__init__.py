"""Small data shipped so that the teaching notebooks run offline: Choi-style documents built from PEPs, and
verbatim extracts of QMSum.

``CHOI`` is a folder in the layout and format of Choi's corpus (``1/3-5/0.ref`` ... ``4.ref``) holding five
Choi-style documents, not Choi's: Choi's corpus has no licence and is not shipped. Each is 10 segments of 3 to 5
consecutive sentences, each from one paragraph of a different Python Enhancement Proposal (public domain or
CC0-1.0), written by ``build_choi_style.py`` beside this file, which this package never imports. ``QMSUM`` is a
QMSum folder holding the training meeting IS1001d and the first two validation meetings (Bed002, Bed010), copies of
the corpus files (MIT). Notebooks 02, 04 and 05 read them, as ``load_choi(data_dir=CHOI, ...)`` and
``load_qmsum(data_dir=QMSUM, ...)``; origins, licences and the build command are in ``SOURCE.txt`` beside this file.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CHOI", "QMSUM", "SAMPLES"]

#: The folder of this module, which holds the data and its SOURCE.txt.
SAMPLES = Path(__file__).resolve().parent
#: A folder in Choi's layout (``1/3-5/0.ref`` ... ``4.ref``) of Choi-style documents built from PEPs, for
#: ``load_choi(data_dir=CHOI, sets=[1], ranges=["3-5"])``.
CHOI = SAMPLES / "choi_style"
#: A QMSum data folder (``train/IS1001d.json``, ``val/Bed002.json``, ``val/Bed010.json``), for ``load_qmsum``.
QMSUM = SAMPLES / "qmsum"
