"""Readability formulas against hand-computed values (Flesch 1948, Kincaid et al. 1975,
Gunning 1952); syllable counting from the CMU dictionary and the fallback rule."""

from __future__ import annotations

import pytest

from unclutter.measure.readability import count_syllables, readability, split_words


def test_monosyllabic_text_by_hand():
    # 9 words, 2 sentences, 9 syllables, no complex words
    r = readability("The cat sat on the mat. The dog ran.")
    assert (r.words, r.sentences, r.syllables, r.complex_words) == (9, 2, 9, 0)
    assert r.flesch_reading_ease == pytest.approx(206.835 - 1.015 * 4.5 - 84.6 * 1.0, abs=0.01)  # 117.6675
    assert r.flesch_kincaid_grade == pytest.approx(0.39 * 4.5 + 11.8 * 1.0 - 15.59, abs=0.01)  # -2.035
    assert r.gunning_fog == pytest.approx(0.4 * 4.5, abs=0.01)  # 1.8


def test_polysyllabic_text_by_hand():
    # The(1) computer(3) is(1) beautiful(3) / Information(4) is(1) a(1) banana(3)
    # W=8, S=2, Y=17; complex: computer, beautiful, Information (sentence-initial), banana = 4
    r = readability("The computer is beautiful. Information is a banana.")
    assert (r.words, r.sentences, r.syllables, r.complex_words) == (8, 2, 17, 4)
    assert r.flesch_reading_ease == pytest.approx(206.835 - 1.015 * 4 - 84.6 * 17 / 8, abs=0.01)  # 23.0
    assert r.flesch_kincaid_grade == pytest.approx(0.39 * 4 + 11.8 * 17 / 8 - 15.59, abs=0.01)  # 11.045
    assert r.gunning_fog == pytest.approx(0.4 * (4 + 100 * 4 / 8), abs=0.01)  # 21.6


def test_gunning_exclusions():
    # Colorado: proper noun (not sentence-initial); well-organized: hyphenated compound;
    # created: three syllables only through -ed. Only "beautiful" is complex.
    r = readability("We visited Colorado. It was well-organized and created beautiful days.")
    assert r.complex_words == 1


@pytest.mark.parametrize("word,n", [
    ("cat", 1), ("table", 2), ("banana", 3), ("information", 4), ("readability", 5),
    ("Beautiful", 3), ("well-known", 2), ("don't", 1),
    ("blorptastic", 3),  # not in the CMU dictionary: vowel groups o, a, i
    ("snarkle", 2),  # rule: -le keeps its syllable
    ("zorbe", 1),  # rule: silent final e
])
def test_syllables(word, n):
    assert count_syllables(word) == n


def test_words_and_empty():
    assert split_words("It's 3.5 well-known e-mails!") == ["It's", "3.5", "well-known", "e-mails"]
    r = readability("")
    assert (r.words, r.flesch_reading_ease, r.gunning_fog) == (0, 0.0, 0.0)
    # a text without a sentence end is one sentence
    assert readability("no full stop here").sentences == 1


def test_simpler_text_scores_easier():
    hard = ("Notwithstanding considerable institutional opposition, the administration implemented "
            "comprehensive organizational restructuring initiatives.")
    easy = "The boss changed how the team works. Some people did not like it."
    h, e = readability(hard), readability(easy)
    assert e.flesch_reading_ease > 60 > h.flesch_reading_ease
    assert e.flesch_kincaid_grade < h.flesch_kincaid_grade and e.gunning_fog < h.gunning_fog
