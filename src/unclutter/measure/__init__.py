"""Measurement: how well an extraction matches a ground truth.

:mod:`unclutter.measure.evaluate` holds the scoring used by the benchmark (``bench/run.py``):
the AEB shingle metric and the with/without snippet checks. It needs nothing beyond the
standard library, so it scores any extractor's output, ours or a rival's. Import from the
module itself (``from unclutter.measure.evaluate import evaluate``); this package re-exports
nothing, so that ``unclutter.measure.evaluate`` always names the module.
"""
