"""keyword_tokens: markers, stop words, fillers and contraction parts out; words with a letter, 2-25 characters."""

from bpseg_pgm.keywords import FILLER_WORDS, STOP_WORDS, keyword_tokens


def test_qmsum_markers_fillers_and_stop_words_are_dropped():
    turn = "Um {disfmarker} yeah, so the {vocalsound} remote control uh needs a bigger {gap} battery . Mm-hmm ."
    assert keyword_tokens(turn) == ["remote", "control", "needs", "bigger", "battery"]


def test_acronyms_spelled_letter_by_letter_are_joined():
    assert keyword_tokens("The L_C_D_ screen and the T_V_ , um , F_ key") == ["lcd", "screen", "tv", "key"]


def test_contractions_numbers_and_long_runs_are_not_words():
    assert keyword_tokens("We don't think it'll work in 2021, we'll see about v2 and H2O.") == ["work", "v2", "h2o"]
    assert keyword_tokens("这是一个很长的中文句子没有空格分开的词语所以不会有关键词") == []
    assert keyword_tokens("短句 onnx runtime") == ["onnx", "runtime"]
    assert keyword_tokens("x" * 26 + " " + "y" * 25) == ["y" * 25]
    assert keyword_tokens("Ça marche très bien à Zürich") == ["ça", "marche", "très", "bien", "zürich"]


def test_the_word_lists():
    assert {"um", "uh", "yeah", "okay", "hmm", "mm", "gonna"} <= FILLER_WORDS <= STOP_WORDS
    assert {"the", "and", "don", "ll"} <= STOP_WORDS and "battery" not in STOP_WORDS
