"""Issue 36, fault 6: keywords are whole words, whatever combining marks they hold (Devanagari vowel signs,
decomposed Latin accents)."""

import unicodedata

import pytest

from bpseg_pgm.keywords import class_keywords
from bpseg_pgm.keywords.stopwords import keyword_tokens

HINDI = "भारत एक विशाल देश है। भारत की राजधानी दिल्ली है। हिमालय पर्वत उत्तर में है।"
FRENCH = "Le café est crème. Une brûlée naïve. Le café et la crème brûlée."


def test_hindi_words_keep_their_vowel_signs():
    tokens = keyword_tokens(HINDI)
    assert tokens[:4] == ["भारत", "एक", "विशाल", "देश"]
    assert "रत" not in tokens and "दिल्ली" in tokens and "हिमालय" in tokens


@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_accented_latin_gives_whole_words_in_either_form(form):
    tokens = keyword_tokens(unicodedata.normalize(form, FRENCH))
    assert tokens == [
        "le",
        "café",
        "est",
        "crème",
        "une",
        "brûlée",
        "naïve",
        "le",
        "café",
        "et",
        "la",
        "crème",
        "brûlée",
    ]
    assert all(unicodedata.is_normalized("NFC", t) for t in tokens)


def test_class_keywords_of_nfd_text_are_the_nfc_words():
    docs = [
        unicodedata.normalize("NFD", "Le café noir. Un café crème. Café!"),
        "Brûlée naïve. Une brûlée. Brûlée encore.",
    ]
    words = class_keywords(docs, top_n=2)
    assert words[0][0] == "café" and words[1][0] == "brûlée"
    assert set(words[0]) | set(words[1]) <= {"café", "noir", "crème", "brûlée", "naïve", "une", "encore", "un"}


def test_english_and_the_old_rules_are_unchanged():
    assert keyword_tokens("The L_C_D_ screen {vocalsound} shows 2021 results_v2 of tennis.") == [
        "lcd",
        "screen",
        "shows",
        "results_v2",
        "tennis",
    ]
    assert keyword_tokens("a" * 26 + " word") == ["word"]
    assert keyword_tokens("東京は日本の首都です") == []
