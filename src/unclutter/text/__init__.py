"""Text tools shared by several stages, below all of them (they import only the standard
library, their own third-party packages and ``core``):

* :mod:`.sentences`: sentence splitting with character offsets (``sentencex``);
* :mod:`.vectors`: content words, TF-IDF and cosine similarity of sentences;
* :mod:`.readability`: Flesch Reading Ease, Flesch-Kincaid Grade and Gunning Fog
  (public home: :mod:`unclutter.measure.readability`);
* :mod:`.words`: word tokens as the Article Extraction Benchmark counts them.

Import from the modules; this package re-exports nothing, so that importing one tool does
not load the others' dependencies (numpy, the CMU dictionary).
"""
