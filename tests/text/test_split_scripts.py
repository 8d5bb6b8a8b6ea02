"""Sentences of other scripts (sentencex for CJK and Devanagari marks, PyThaiNLP's CRFCut for Thai) and the
abbreviations that do not end an English sentence before a name ("St. John", "Lt. Smith"), on real sentences."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpseg_pgm.text import split
from bpseg_pgm.text.split import sentence_spans, split_sentences


def _check(text: str, expected: list[str]) -> None:
    """``text`` splits into ``expected``, and its spans slice those sentences out of ``text`` exactly."""
    assert [text[a:b] for a, b in sentence_spans(text)] == expected
    assert split_sentences(text) == expected


def test_chinese_quotations_are_not_cut_inside():
    # Lu Xun, "Kong Yiji" (1919). A quotation of two sentences ("什么清白？我前天...") is one sentence; the old
    # rules cut after every mark, the "？" and "！" inside the quotation included.
    text = (
        "孔乙己一到店，所有喝酒的人便都看着他笑，有的叫道，“孔乙己，你脸上又添上新伤疤了！”他不回答，对柜里说，"
        "“温两碗酒，要一碟茴香豆。”便排出九文大钱。他们又故意的高声嚷道，“你一定又偷了人家的东西了！”"
        "孔乙己睁大眼睛说，“你怎么这样凭空污人清白……”“什么清白？我前天亲眼见你偷了何家的书，吊着打。”"
        "孔乙己便涨红了脸，额上的青筋条条绽出，争辩道，“窃书不能算偷……窃书！……读书人的事，能算偷么？”"
    )
    _check(
        text,
        [
            "孔乙己一到店，所有喝酒的人便都看着他笑，有的叫道，“孔乙己，你脸上又添上新伤疤了！”",
            "他不回答，对柜里说，“温两碗酒，要一碟茴香豆。”",
            "便排出九文大钱。",
            "他们又故意的高声嚷道，“你一定又偷了人家的东西了！”",
            "孔乙己睁大眼睛说，“你怎么这样凭空污人清白……”“什么清白？我前天亲眼见你偷了何家的书，吊着打。”",
            "孔乙己便涨红了脸，额上的青筋条条绽出，争辩道，“窃书不能算偷……窃书！……读书人的事，能算偷么？”",
        ],
    )


def test_japanese_quotations_are_not_cut_inside():
    # Dazai Osamu, "Run, Melos!" (1940). The old rules cut inside each 「...」 and left a lone "」" at the end.
    text = (
        "「おまえがか？」王は、憫笑した。「仕方の無いやつじゃ。おまえには、わしの孤独がわからぬ。」"
        "「言うな！」とメロスは、いきり立って反駁した。「人の心を疑うのは、最も恥ずべき悪徳だ。王は、民の忠誠をさえ疑って居られる。」"
    )
    _check(
        text,
        [
            "「おまえがか？」",
            "王は、憫笑した。",
            "「仕方の無いやつじゃ。おまえには、わしの孤独がわからぬ。」",
            "「言うな！」",  # sentencex ends a sentence after a closing quote, even one the sentence goes on after
            "とメロスは、いきり立って反駁した。",
            "「人の心を疑うのは、最も恥ずべき悪徳だ。王は、民の忠誠をさえ疑って居られる。」",
        ],
    )


def test_japanese_double_quotes_are_quotations_too():
    # sentencex does not know 『』; it is shown them as “”. The closing mark stays with its sentence.
    text = "夏目漱石の小説は『吾輩は猫である。名前はまだ無い。』という一文で始まる。この小説は一九〇五年に発表された。"
    sentences = split_sentences(text)
    assert sentences[0] == "夏目漱石の小説は『吾輩は猫である。名前はまだ無い。』"
    assert sentences[-1] == "この小説は一九〇五年に発表された。"
    assert "".join(sentences) == text


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            # a news report: five sentences, each ended by a space (and the spaces inside a sentence kept)
            "เมื่อวานนี้ฝนตกหนักทั่วกรุงเทพมหานคร ทำให้น้ำท่วมขังบนถนนหลายสาย การจราจรติดขัดอย่างหนักในช่วงเย็น "
            "กรมอุตุนิยมวิทยาเตือนว่าจะมีฝนตกต่อเนื่องอีกสามวัน ประชาชนควรติดตามข่าวสารอย่างใกล้ชิด",
            [
                "เมื่อวานนี้ฝนตกหนักทั่วกรุงเทพมหานคร",
                "ทำให้น้ำท่วมขังบนถนนหลายสาย",
                "การจราจรติดขัดอย่างหนักในช่วงเย็น",
                "กรมอุตุนิยมวิทยาเตือนว่าจะมีฝนตกต่อเนื่องอีกสามวัน",
                "ประชาชนควรติดตามข่าวสารอย่างใกล้ชิด",
            ],
        ),
        (
            "นายกรัฐมนตรีเดินทางไปเยือนประเทศญี่ปุ่นเมื่อวันจันทร์ที่ผ่านมา ทั้งสองประเทศได้ลงนามในข้อตกลงด้านการค้า "
            "รัฐบาลคาดว่าข้อตกลงนี้จะช่วยเพิ่มการส่งออกของไทย",
            [
                "นายกรัฐมนตรีเดินทางไปเยือนประเทศญี่ปุ่นเมื่อวันจันทร์ที่ผ่านมา",
                "ทั้งสองประเทศได้ลงนามในข้อตกลงด้านการค้า",
                "รัฐบาลคาดว่าข้อตกลงนี้จะช่วยเพิ่มการส่งออกของไทย",
            ],
        ),
        (
            # Puey Ungphakorn, governor of the Bank of Thailand for twelve years: "ดร." (Dr.) ends no sentence
            "ดร. ป๋วย อึ๊งภากรณ์ เป็นผู้ว่าการธนาคารแห่งประเทศไทย ท่านดำรงตำแหน่งนานถึงสิบสองปี",
            ["ดร. ป๋วย อึ๊งภากรณ์ เป็นผู้ว่าการธนาคารแห่งประเทศไทย", "ท่านดำรงตำแหน่งนานถึงสิบสองปี"],
        ),
    ],
)
def test_thai_sentences_end_at_the_spaces_crfcut_finds(text, expected):
    _check(text, expected)


def test_thai_periods_mark_abbreviations():
    # "พ.ศ." (Buddhist Era) before a year: Punkt ended a sentence there
    text = "มหาวิทยาลัยธรรมศาสตร์ก่อตั้งขึ้นเมื่อ พ.ศ. 2477 ผู้ก่อตั้งคือ ดร. ปรีดี พนมยงค์"
    assert not any(s.endswith(".") for s in split_sentences(text))


def test_thai_after_english_and_english_after_thai():
    text = "The summit was held in Bangkok. ทั้งสองประเทศได้ลงนามในข้อตกลงด้านการค้า รัฐบาลคาดว่าข้อตกลงนี้จะช่วยเพิ่มการส่งออกของไทย"
    _check(
        text,
        [
            "The summit was held in Bangkok.",
            "ทั้งสองประเทศได้ลงนามในข้อตกลงด้านการค้า",
            "รัฐบาลคาดว่าข้อตกลงนี้จะช่วยเพิ่มการส่งออกของไทย",
        ],
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "The ferry leaves St. John for Digby every morning. The crossing takes two hours.",
            ["The ferry leaves St. John for Digby every morning.", "The crossing takes two hours."],
        ),
        (
            # two lines of Choi's set 4 (Brown corpus, tokenised): nupunkt cut after "St." before "John" and "Mary"
            "The list was headed by ( Henry ) Hutton of St. John 's who was matriculated from St. John 's at Easter , "
            "1625 . William , who lived in neighboring St. Mary 's parish , had taken charge .",
            [
                "The list was headed by ( Henry ) Hutton of St. John 's who was matriculated from St. John 's at "
                "Easter , 1625 .",
                "William , who lived in neighboring St. Mary 's parish , had taken charge .",
            ],
        ),
        (
            # "Lt." was not in nupunkt's abbreviations at all
            "Lt. John F. Kennedy commanded PT-109 in the Solomon Islands. The boat was sunk in August 1943.",
            ["Lt. John F. Kennedy commanded PT-109 in the Solomon Islands.", "The boat was sunk in August 1943."],
        ),
        (
            "Lt. Cmdr. Scott Carpenter orbited the Earth three times in 1962. He later became an aquanaut.",
            ["Lt. Cmdr. Scott Carpenter orbited the Earth three times in 1962.", "He later became an aquanaut."],
        ),
        (
            "Det. Insp. Jack Frost works in Denton. The series ran for eighteen years.",
            ["Det. Insp. Jack Frost works in Denton.", "The series ran for eighteen years."],
        ),
    ],
)
def test_titles_before_a_name_end_no_sentence(text, expected):
    _check(text, expected)


@pytest.mark.parametrize(
    "abbrev",
    "Mr. Mrs. Ms. Dr. St. Prof. Gen. Sen. Rep. Gov. Lt. Col. Capt. Sgt. Rev. Hon. Pres. Adm. Maj. Cpl. Brig. Cmdr. "
    "Supt. Insp. Det. Fr. Mt. Messrs. vs. cf.".split(),
)
def test_no_title_ends_a_sentence_before_common_names(abbrev):
    for name in ["John", "Smith", "Kennedy", "Louis", "Paul", "Washington", "Brown", "Mary", "Peter", "James", "Lee"]:
        text = f"We met {abbrev} {name} at the station. He was late."
        assert split_sentences(text) == [f"We met {abbrev} {name} at the station.", "He was late."]


def test_what_still_ends_a_sentence():
    # "Jr." and the like can end a sentence; so can an abbreviation before a word that starts sentences
    assert split_sentences("I met John Smith Jr. He was tall.") == ["I met John Smith Jr.", "He was tall."]
    assert split_sentences("He lives in the U.S. He likes it.") == ["He lives in the U.S.", "He likes it."]
    assert split_sentences("The U.S. Senate voted today. It passed.") == ["The U.S. Senate voted today.", "It passed."]


def test_long_text_without_spaces_is_given_to_sentencex_in_blocks(monkeypatch):
    # sentencex is quadratic on text without spaces; a paragraph of 4,500 sentences goes in blocks
    import sentencex

    sizes = []
    real = sentencex.get_sentence_boundaries

    def spy(lang, text):
        sizes.append(len(text))
        return real(lang, text)

    monkeypatch.setattr(sentencex, "get_sentence_boundaries", spy)
    text = "これはペンです。" * 3000 + "「北京是中国的首都。上海是最大的城市。」" * 1500
    spans = sentence_spans(text)
    assert len(spans) == 4500
    assert [text[a:b] for a, b in spans[2999:3001]] == ["これはペンです。", "「北京是中国的首都。上海是最大的城市。」"]
    assert max(sizes) <= split._BLOCK


def test_english_loads_neither_library():
    code = (
        "import sys\nfrom bpseg_pgm.text.split import split_sentences\n"
        "split_sentences('Mr. Smith went to Washington. He arrived at 5 p.m. on Friday.')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sentencex', 'pythainlp', 'pycrfsuite'}))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


_PIECES = st.sampled_from(
    [*"ab .!?\n。！？」』“”「『（）", "ภาษาไทย", " สวัสดี ", "ดร.", "พ.ศ. ", "漢字", "かな", "Mr. ", "\n\n", "...", "।"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_spans_of_mixed_scripts_are_ordered_trimmed_and_lose_nothing(text):
    spans = sentence_spans(text)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    assert all(not text[a].isspace() and not text[b - 1].isspace() for a, b in spans)
    bounds = [0, *[x for span in spans for x in span], len(text)]
    assert all(not text[bounds[i] : bounds[i + 1]].strip() for i in range(0, len(bounds), 2))
