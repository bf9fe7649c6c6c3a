"""Resource limits that protect every stage from hostile input.

These are safety limits, not extraction heuristics (those live in
:mod:`unclutter.score.weights` and :mod:`unclutter.prune.rules`).
"""

#: Largest input accepted by :func:`unclutter.extract`, in bytes (or characters for str
#: input). Matches the fetcher's 15 MiB body ceiling so a fetched page always fits.
MAX_INPUT_BYTES = 15 * 1024 * 1024

#: Deepest element nesting accepted. The WHATWG tree builder checks the stack of open
#: elements on many start tags ("has an element in scope"), so parse time grows with the
#: square of the depth: lexbor takes ~0.1 s at 10,000 levels and ~14 s at 100,000. Real
#: pages stay far below 1,000; deeper input is refused before parsing (InputTooDeepError).
MAX_DOM_DEPTH = 5000

#: Most elements (start tags) accepted on one page. Time and memory grow with the element
#: count (about 10 s and 470 MB for 500,000 one-letter paragraphs, 76 s and 3.3 GB for the
#: 3.9 million a 15 MiB page of them holds); the largest of the 1,727 pages in the shared
#: datasets has 15,793 start tags. A page with more is refused before parsing
#: (InputTooComplexError), so that the input limit also bounds time and memory.
MAX_ELEMENTS = 500_000

#: Most attributes accepted on one element. The parser checks each new attribute name
#: against the element's earlier ones, so parse time grows with the square of the count of
#: distinct names (lexbor: 0.2 s for 10,000 on one tag, 0.75 s for 20,000, 3 s for
#: 40,000); real pages carry a few dozen at most. An element with more is refused before
#: parsing (InputTooComplexError). The limit is set high because the count is read on the
#: raw text (see ``unclutter.parse.guards.crowded_tag_attribute_count``): a long run of
#: SVG path data inside an attribute value can look like a crowded tag.
MAX_ATTRIBUTES_PER_ELEMENT = 20000

#: Most attribute pairs (the square of each element's attribute count, summed over the
#: page's elements) accepted on one page: what the parser's per-element name checks cost
#: in all. :data:`MAX_ATTRIBUTES_PER_ELEMENT` alone bounds one element (about 1-2 s at the
#: limit), not a page of hundreds of such elements (minutes for 15 MiB); this bounds the
#: page to about one element at the limit. Counted on start tags of at least
#: :data:`ATTRIBUTE_PAIRS_TAG_CHARS` characters: shorter ones hold under 200 attributes.
MAX_ATTRIBUTE_PAIRS = MAX_ATTRIBUTES_PER_ELEMENT ** 2
ATTRIBUTE_PAIRS_TAG_CHARS = 512

#: Start tags shorter than this many characters are not counted for
#: ``MAX_ATTRIBUTES_PER_ELEMENT``: 20,000 distinct attribute names take at least three
#: characters each plus a separator (80,000 characters), and finding long tags is cheap.
LONG_TAG_CHARS = 32768

#: Longest attribute value kept, in characters. Multi-megabyte attributes (inline data:
#: URIs, serialized state) are replaced by "" so later stages never copy them around.
MAX_ATTRIBUTE_CHARS = 8192

#: Share of C0 control characters (excluding tab/CR/LF/FF) above which decoded input is
#: judged binary rather than text.
MAX_CONTROL_CHAR_RATIO = 0.02

#: React streaming placeholders looked up again by a CSS query (those inside a segment,
#: copied when the segment moved; see ``unclutter.parse.streaming.reveal_streamed_segments``),
#: at most this many per page: each query walks the whole tree, so an unbounded count
#: would make hostile pages quadratic. Real pages use a few dozen.
MAX_STREAM_LOOKUPS = 64
