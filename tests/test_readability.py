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


# --- reading ease in the text's language --------------------------------------------------

def test_german_uses_amstad_with_hand_counts():
    # 2 sentences, 8 words; syllables by vowel groups: Der(1) Hund(1) schläft(1) heute(2)
    # | Die(1) Katze(2) spielt(1) draußen(2) = 11
    r = readability("Der Hund schläft heute. Die Katze spielt draußen.", language="de-CH")
    assert (r.language, r.formula, r.applicable) == ("de", "Amstad", True)
    assert (r.words, r.sentences, r.syllables) == (8, 2, 11)
    assert r.flesch_reading_ease == round(180 - 8 / 2 - 58.5 * 11 / 8, 2)
    assert r.flesch_kincaid_grade is None and r.gunning_fog is None  # fitted on English only


def test_spanish_french_italian_formulas_by_hand():
    es = readability("El perro come pan. La casa es grande.", language="es")
    # El(1) pe-rro(2) co-me(2) pan(1) | La(1) ca-sa(2) es(1) gran-de(2) = 12 syllables
    assert (es.formula, es.syllables) == ("Fernández Huerta", 12)
    assert es.flesch_reading_ease == round(206.84 - 60 * 12 / 8 - 1.02 * 8 / 2, 2)
    fr = readability("Le chat mange une pomme. Il dort.", language="fr")
    # Le(1) chat(1) man-ge(1: mute e) une(1) pom-me(1) | Il(1) dort(1) = 7
    assert (fr.formula, fr.syllables) == ("Kandel-Moles", 7)
    assert fr.flesch_reading_ease == round(207 - 1.015 * 7 / 2 - 73.6 * 7 / 7, 2)
    it = readability("Il cane mangia la mela.", language="it")
    # Il(1) ca-ne(2) man-gia(2) la(1) me-la(2) = 8
    assert (it.formula, it.syllables) == ("Flesch-Vacca", 8)
    assert it.flesch_reading_ease == round(217 - 1.3 * 5 - 60 * 8 / 5, 2)


@pytest.mark.parametrize("text", [
    "Быстрая коричневая лиса прыгает через ленивую собаку. Потом она ест яблоко и спит.",
    "빠른 갈색 여우가 게으른 개를 뛰어넘는다. 그리고 사과를 먹고 잔다. 그 다음에 집에 간다.",
])
def test_languages_without_a_formula_are_not_applicable(text):
    r = readability(text, language=None)  # detected: Russian, Korean
    assert r.applicable is False and r.formula is None
    assert r.flesch_reading_ease is None and r.flesch_kincaid_grade is None and r.gunning_fog is None
    assert r.language in {"ru", "ko"}
    assert r.words > 0


def test_detection_and_fallbacks():
    from unclutter.measure.readability import readability_language

    de = "Die Regierung hat am Montag ein neues Gesetz beschlossen, das den Ausbau der Bahn beschleunigen soll."
    assert readability_language(de) == "de"
    assert readability_language(de, "en") == "de"  # the text wins over a template's lang
    assert readability_language("Short one.", "fr") == "fr"  # too short to detect: declared
    assert readability_language("Short one.") == "en"  # ASCII letters only: English
    assert readability_language("Короткий.") is None  # neither: not applicable
    assert readability(de, language=None).formula == "Amstad"
    # English stays the default for callers that name no language
    assert readability("The cat sat on the mat.").formula == "Flesch Reading Ease"


def test_page_readability_follows_the_page_language():
    import unclutter

    body = " ".join(["Городской совет утвердил новый бюджет на общественный транспорт."
                     " Мэр сказал, что автобусы станут чаще ходить по утрам."] * 4)
    html = f"<html lang='en'><body><article><h1>Новости</h1><p>{body}</p></article></body></html>"
    a = unclutter.extract(html, summary=True)
    assert a.readability["language"] == "ru" and a.readability["applicable"] is False
    assert a.readability["flesch_reading_ease"] is None
    assert a.summary_readability["after"]["applicable"] is False
