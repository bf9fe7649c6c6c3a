"""Resource limits that protect every stage from hostile input.

These are safety limits, not extraction heuristics (those live in
:mod:`unclutter.score.weights` and :mod:`unclutter.prune.rules`).
"""

#: Largest input accepted by :func:`unclutter.extract`, in bytes (or characters for str
#: input). Matches the fetcher's 15 MB body ceiling so a fetched page always fits.
MAX_INPUT_BYTES = 15 * 1024 * 1024

#: Deepest element nesting accepted. The WHATWG tree builder checks the stack of open
#: elements on many start tags ("has an element in scope"), so parse time grows with the
#: square of the depth: lexbor takes ~0.1 s at 10,000 levels and ~14 s at 100,000. Real
#: pages stay far below 1,000; deeper input is refused before parsing (InputTooDeepError).
MAX_DOM_DEPTH = 5000

#: Longest attribute value kept, in characters. Multi-megabyte attributes (inline data:
#: URIs, serialized state) are replaced by "" so later stages never copy them around.
MAX_ATTRIBUTE_CHARS = 8192

#: Share of C0 control characters (excluding tab/CR/LF/FF) above which decoded input is
#: judged binary rather than text.
MAX_CONTROL_CHAR_RATIO = 0.02
