"""Token-budget chunking of an article's Markdown for LLM context windows.

:func:`chunk` cuts ``Article.markdown`` into pieces of at most ``max_tokens`` tokens, at the
most semantic boundary that works, in this order:

1. **sections**: from an h1-h3 heading to the next one (the text before the first heading
   is a section too). A page without h1-h3 headings below its title is cut at topic shifts
   (:mod:`unclutter.structure.topics`: TextTiling, Hearst 1997; embeddings with the
   ``embeddings`` extra) and each such section is titled by the caller's ``title`` function
   (:func:`unclutter.chunk` passes the one-sentence summary,
   :func:`unclutter.summarize.titles.title_from_text`);
2. **blocks**: paragraphs, lists, block quotes, tables, fenced code blocks, headings;
3. **inside a block**: sentences of a paragraph or quote (``sentencex``), items of a list
   (then their sentences), rows of a table (header and delimiter rows stay together; a
   chunk that starts among the rows carries them in ``Chunk.table_header``, counted in its
   budget);
4. only when one of those units is alone over the budget: lines of a code block, then token
   windows of a sentence, row or line. Such a chunk says so in ``Chunk.split``.

Packing is greedy: a unit joins the current chunk when the whole chunk still fits;
a section that does not fit in what is left starts a new chunk; a section too big for any
chunk is opened into its blocks, starting on a fresh chunk, and so on down.

Units: ``max_tokens`` and ``Chunk.tokens`` are tokens of the tokenizer in
:mod:`unclutter.core.tokens` (tiktoken ``cl100k_base``), counted exactly on the chunk's
own text; ``start``/``end`` are character offsets (code points) into ``Article.markdown``
with ``markdown[start:end] == chunk.text``. Whitespace between chunks belongs to none.
"""

from __future__ import annotations

import bisect
import re
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ..core.tokens import count_tokens, get_encoding
from ..text.sentences import split_sentences

__all__ = [
    "Chunk",
    "Block",
    "budget_tokens",
    "Section",
    "chunk",
    "parse_blocks",
    "find_sections",
    "PRESETS",
    "DEFAULT_MAX_TOKENS",
    "SECTION_LEVELS",
]

#: Named budgets (tokens): an 8k or 16k context window, leaving room for a prompt/answer.
PRESETS = {"8k": 8000, "16k": 16000}
#: Default budget of :func:`chunk` (tokens).
DEFAULT_MAX_TOKENS = PRESETS["8k"]
#: Heading levels that open a section (h1-h3); deeper headings are blocks inside one.
SECTION_LEVELS = 3

#: Names a topic section from its Markdown text: ``title(text, language=...) -> str``.
TitleFunction = Callable[..., str]

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: An ATX heading line: its level marks and its text less surrounding spaces and tabs.
#: (The text is a greedy run ending at a non-space, not a lazy ``.*?`` before
#: ``[ \t]*$``, which rescans the spaces after each character it takes: quadratic on a
#: long space run. The lookahead refuses a line break inside at once, as ``.`` did.)
_ATX_RE = re.compile(r"^ {0,3}(#{1,6})(?=[^\n]*\n?\Z)(?:[ \t]+((?:[ \t]*[^ \t\n])*))?[ \t]*$")
_ITEM_RE = re.compile(r"^( {0,3})(?:[-*+]|\d{1,9}[.)])(?: |$)")
_TABLE_RE = re.compile(r"^ {0,3}\|")
_DELIM_RE = re.compile(r"^ {0,3}\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$")


@dataclass(frozen=True)
class Block:
    """One Markdown block: ``kind`` is ``heading``, ``paragraph``, ``list``, ``quote``,
    ``table``, ``code`` or ``rule``; ``start``/``end`` character offsets (end exclusive,
    trailing newline excluded); ``level`` and ``title`` for headings."""

    kind: str
    start: int
    end: int
    level: int = 0
    title: str = ""


@dataclass
class Section:
    """A run of blocks under one h1-h3 heading (or a topic segment).

    Attributes:
        heading_path: titles of the enclosing headings, outermost first (the article title
            for an ``h1`` title line); ``[]`` for text before any heading.
        start, end: character offsets into the Markdown (the heading line included).
        level: heading level (1-3); 0 for a preamble; 2 for a generated topic section.
        generated: ``True`` for a topic section cut at a topic shift (no heading in the
            page); its title came from the caller's ``title`` function.
        blocks: the blocks it holds.
    """

    heading_path: list[str]
    start: int
    end: int
    level: int
    generated: bool = False
    blocks: list[Block] = field(default_factory=list)


#: Characters of one heading in :meth:`Chunk.with_context`'s heading line.
CONTEXT_HEADING_MAX_CHARS = 200


@dataclass
class Chunk:
    """One piece of ``Article.markdown`` within a token budget.

    Attributes:
        index: 0-based position among the article's chunks.
        text: ``markdown[start:end]``.
        start, end: character offsets into ``Article.markdown`` (end exclusive).
        tokens: exact ``cl100k_base`` tokens of ``text`` (<= the budget).
        heading_path: headings enclosing the chunk's first character, outermost first.
        split: ``None``, or why the chunk cuts a unit that is never cut otherwise because
            that unit alone exceeds the budget: ``"code"`` (a code block cut between
            lines), ``"sentence"``, ``"table-row"``, ``"line"`` (a unit cut between tokens).
        table_header: ``None``, or, for a chunk that starts inside a table cut between rows,
            that table's header and delimiter rows (Markdown, not part of ``text``): prepend
            them (:meth:`with_context`) so that the rows keep their column names. The budget
            holds both: ``count_tokens(chunk.with_context()) <= max_tokens`` (a header too
            big to fit beside a row is left out).
    """

    index: int
    text: str
    start: int
    end: int
    tokens: int
    heading_path: list[str]
    split: str | None = None
    table_header: str | None = None

    def with_context(self, headings: bool = False) -> str:
        """``text``, after the table header (and a line break) when ``table_header`` is set;
        with ``headings``, after a first line naming where the chunk stands too: its
        ``heading_path`` joined by " > " (for a chunk embedded or retrieved on its own; each
        heading on one line, cut to :data:`CONTEXT_HEADING_MAX_CHARS` characters), less the
        innermost heading when the chunk opens with that heading's own line. The token
        budget holds the table header, not that line (it costs the path's tokens)."""
        text = f"{self.table_header}\n{self.text}" if self.table_header else self.text
        path = [" ".join(h.split()) for h in self.heading_path]
        if path and not self.table_header:
            # a chunk opening with its own innermost heading names it already
            first = self.text.lstrip("\n").split("\n", 1)[0]
            if first.startswith("#") and " ".join(first.lstrip("#").split()) == path[-1]:
                path.pop()
        if headings and path:
            # (a heading is a title: one over CONTEXT_HEADING_MAX_CHARS is cut, so the line
            # repeated on every chunk stays small beside the budget)
            cap = CONTEXT_HEADING_MAX_CHARS
            path = [h if len(h) <= cap else h[:cap - 1] + "…" for h in path]
            return " > ".join(path) + "\n\n" + text
        return text

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --------------------------------------------------------------------------- blocks


def _lines(md: str) -> list[tuple[int, int]]:
    out = []
    pos = 0
    for line in md.split("\n"):
        out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def parse_blocks(md: str) -> list[Block]:
    """The blocks of ``md`` (the GFM subset ``to_markdown`` writes; see module docstring)."""
    from .toc import heading_text

    lines = _lines(md)
    n = len(lines)
    blocks: list[Block] = []
    i = 0

    class _Blocks(list):
        def append(self, b: Block) -> None:  # trailing spaces of the last line are not content
            end = b.start + len(md[b.start:b.end].rstrip())
            super().append(Block(b.kind, b.start, end, b.level, b.title) if end != b.end else b)

    blocks = _Blocks()

    def text(k: int) -> str:
        return md[lines[k][0]:lines[k][1]]

    while i < n:
        line = text(i)
        if not line.strip():
            i += 1
            continue
        start = lines[i][0]
        fm = _FENCE_RE.match(line)
        if fm:
            fence = fm.group(1)
            j = i + 1
            while j < n:
                s = text(j).strip()
                if s.startswith(fence[0] * len(fence)) and s == s[0] * len(s) and s[0] == fence[0]:
                    break
                j += 1
            j = min(j, n - 1)
            blocks.append(Block("code", start, lines[j][1]))
            i = j + 1
            continue
        hm = _ATX_RE.match(line)
        if hm:
            blocks.append(Block("heading", start, lines[i][1], len(hm.group(1)),
                                heading_text((hm.group(2) or "").rstrip("#").strip())))
            i += 1
            continue
        if _TABLE_RE.match(line):
            j = i
            while j + 1 < n and _TABLE_RE.match(text(j + 1)):
                j += 1
            blocks.append(Block("table", start, lines[j][1]))
            i = j + 1
            continue
        if re.match(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$", line):
            blocks.append(Block("rule", start, lines[i][1]))
            i += 1
            continue
        kind = "list" if _ITEM_RE.match(line) else "quote" if line.lstrip().startswith(">") else "paragraph"
        j = i
        in_fence = ""
        while j + 1 < n:
            nxt = text(j + 1)
            s = nxt.strip()
            if in_fence:
                if s.startswith(in_fence) and s == in_fence[0] * len(s):
                    in_fence = ""
                j += 1
                continue
            if not s:
                if kind != "list":
                    break
                # a loose list goes on after a blank line with an indented line or an item
                k = j + 1
                while k < n and not text(k).strip():
                    k += 1
                if k < n and (text(k).startswith("  ") or _ITEM_RE.match(text(k))) and not _ATX_RE.match(text(k)):
                    j = k
                    continue
                break
            if kind == "list":
                fm2 = re.match(r"^\s*(`{3,}|~{3,})", nxt)
                if fm2:
                    in_fence = fm2.group(1)
                    j += 1
                    continue
            if (kind != "list" or not nxt.startswith(" ")) and (
                    _FENCE_RE.match(nxt) or _ATX_RE.match(nxt) or _TABLE_RE.match(nxt)):
                break
            j += 1
        blocks.append(Block(kind, start, lines[j][1]))
        i = j + 1
    return list(blocks)


# --------------------------------------------------------------------------- sections


def find_sections(md: str, blocks: list[Block] | None = None) -> list[Section]:
    """Sections of ``md`` from its h1-h3 headings (no topic segmentation; see :func:`chunk`)."""
    blocks = parse_blocks(md) if blocks is None else blocks
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    cur: Section | None = None
    for b in blocks:
        if b.kind == "heading" and b.level <= SECTION_LEVELS:
            while path and path[-1][0] >= b.level:
                path.pop()
            path.append((b.level, b.title))
            cur = Section([t for _, t in path], b.start, b.end, b.level)
            sections.append(cur)
        elif cur is None:
            cur = Section([], b.start, b.end, 0)
            sections.append(cur)
        cur.blocks.append(b)
        cur.end = b.end
    return sections


def _topic_sections(md: str, sections: list[Section], language: str | None,
                    embed: Callable | None, title: TitleFunction | None) -> list[Section]:
    """Cut a heading-less body (everything after an optional title section) at topic shifts."""
    from .topics import segment_topics  # (numpy: loaded only for a page that needs it)

    body: list[Block] = []
    head: list[Section] = []
    if len(sections) == 1 and sections[0].level <= 1:
        sec = sections[0]
        first = sec.blocks[0] if sec.blocks else None
        if first is not None and first.kind == "heading":
            head = [Section(sec.heading_path, first.start, first.end, sec.level, blocks=[first])]
            body = sec.blocks[1:]
        else:
            body = sec.blocks
    else:
        return sections
    paras = [b for b in body]
    if not paras:
        return sections
    # code, tables and rules take part as positions but carry no words
    texts = [md[b.start:b.end] if b.kind in ("paragraph", "list", "quote") else "" for b in paras]
    starts = segment_topics(texts, language=language, embed=embed)
    if len(starts) <= 1:
        return sections
    base_path = head[0].heading_path if head else []
    out = list(head)
    bounds = list(starts) + [len(paras)]
    for a, z in zip(bounds, bounds[1:]):
        seg_blocks = paras[a:z]
        seg_text = "\n\n".join(t for t in texts[a:z] if t)
        name = title(seg_text, language=language) if seg_text and title is not None else "Section"
        out.append(Section(base_path + [name], seg_blocks[0].start, seg_blocks[-1].end, 2,
                           generated=True, blocks=seg_blocks))
    if head:
        # the title line travels with the first topic section
        out[1].start = head[0].start
        out[1].blocks = head[0].blocks + out[1].blocks
        out[1].heading_path = base_path + out[1].heading_path[len(base_path):]
        out.pop(0)
    return out


def sections_for(md: str, *, language: str | None = None, topics: bool = True,
                 embed: Callable | None = None, title: TitleFunction | None = None) -> list[Section]:
    """Sections of ``md``: h1-h3 headings, else (``topics``) topic segments, each named by
    ``title(text, language=...)`` (``"Section"`` without one)."""
    blocks = parse_blocks(md)
    secs = find_sections(md, blocks)
    if topics and secs and not any(s.level in (1, 2, 3) for s in secs[1:]) and secs[0].level <= 1:
        secs = _topic_sections(md, secs, language, embed, title)
    return secs


# --------------------------------------------------------------------------- packing


@dataclass
class _Unit:
    start: int
    end: int
    kind: str  # section | block kinds | sentence | item | row | rows | line | piece
    atomic: str | None = None  # for pieces: what was cut
    section: Section | None = None
    block: Block | None = None
    tokens: int = -1
    head: tuple[int, int] | None = None  # for table rows: the table's header and delimiter rows


_CLOSING_MARKERS_RE = re.compile(r"[*_]+(?=\s)")


def _sentence_spans(text: str, sents) -> list[tuple[int, int]]:
    """Spans of ``sents`` (sentences of ``text``, in order) widened so that every
    non-space character of ``text`` lies in one: the splitter leaves some out between two
    sentences (the ``!`` of an image ``![alt](src)`` after a heading, a closing ``*``). A
    run glued to the next sentence (no space between) joins it; the rest of the gap joins
    the sentence before; text before the first and after the last joins them. Emphasis
    markers opening a sentence before a space close the one before and join it."""
    starts = [s.start for s in sents]
    ends = [s.end for s in sents]
    starts[0] = 0
    ends[-1] = len(text)
    for k in range(len(sents) - 1):
        g0, g1 = ends[k], starts[k + 1]
        if g1 <= g0:
            continue
        gap = text[g0:g1]
        cut = max(gap.rfind(" "), gap.rfind("\n"), gap.rfind("\t"))
        if cut < 0:
            starts[k + 1] = g0  # glued to both: the next sentence takes it
        else:
            starts[k + 1] = g0 + cut + 1
            ends[k] = g0 + len(gap[:cut].rstrip())
    for k in range(1, len(sents)):
        # emphasis markers that open a sentence and are followed by a space close the one
        # before ("Another *one.* Next." splits after "one."): they go back to it
        m = _CLOSING_MARKERS_RE.match(text, starts[k])
        if not m or m.end() >= ends[k] or ends[k - 1] > starts[k]:
            continue
        j = starts[k] - 1
        while j >= 0 and text[j] in " \t":
            j -= 1
        if j >= 0 and text[j] != "\n":  # (at the start of a line "* item" is a nested list's bullet)
            ends[k - 1] = m.end()
            starts[k] = m.end()
    out = []
    for a, z in zip(starts, ends):
        seg = text[a:z]
        a2 = a + len(seg) - len(seg.lstrip())
        z2 = a + len(seg.rstrip())
        if z2 > a2:
            out.append((a2, z2))
    return out


def _children(md: str, u: _Unit, language: str | None) -> list[_Unit]:
    """The next-finer units of ``u`` ([] when it has none)."""
    if u.kind == "section":
        return [_Unit(b.start, b.end, b.kind, block=b) for b in u.section.blocks]
    text = md[u.start:u.end]
    lines = [(u.start + a, u.start + b) for a, b in _lines(text)]
    if u.kind in ("paragraph", "quote", "item", "heading"):
        sents = split_sentences(text, language)
        if len(sents) <= 1:
            return []
        return [_Unit(u.start + a, u.start + z, "sentence") for a, z in _sentence_spans(text, sents)]
    if u.kind == "list":
        base = _ITEM_RE.match(text)
        indent = len(base.group(1)) if base else 0
        starts = [a for a, b in lines if (m := _ITEM_RE.match(md[a:b])) and len(m.group(1)) <= indent]
        if len(starts) <= 1:
            return [_Unit(u.start, u.end, "item")] if u.kind == "list" and starts else []
        out = []
        for a, z in zip(starts, starts[1:] + [u.end + 1]):
            seg = md[a:z - 1] if z <= u.end + 1 else md[a:u.end]
            e = a + len(seg.rstrip())
            out.append(_Unit(a, e, "item"))
        return out
    if u.kind == "table":
        nonempty = [(a, b) for a, b in lines if md[a:b].strip()]
        if len(nonempty) >= 2 and _DELIM_RE.match(md[nonempty[1][0]:nonempty[1][1]]):
            head = [_Unit(nonempty[0][0], nonempty[1][1], "rows")]
            rest = nonempty[2:]
        else:
            head, rest = [], nonempty
        span = (head[0].start, head[0].end) if head else None
        return head + [_Unit(a, b, "row", head=span) for a, b in rest]
    if u.kind in ("code", "rows"):
        return [_Unit(a, b, "line") for a, b in lines if b > a] if len(lines) > 1 else []
    return []


_ATOMIC_NAME = {"sentence": "sentence", "row": "table-row", "rows": "table-row", "line": "line",
                "item": "sentence", "paragraph": "sentence", "quote": "sentence", "heading": "sentence",
                "rule": "line"}


def _hard_split(md: str, u: _Unit, budget: int) -> list[_Unit]:
    """Token windows of one unit that is alone over the budget (each window <= budget),
    cut at a space when one lies in the last quarter of the window."""
    enc = get_encoding()
    text = md[u.start:u.end]
    toks = enc.encode_ordinary(text)
    _, offs = enc.decode_with_offsets(toks)
    offs = list(offs)
    n = len(toks)
    name = _ATOMIC_NAME.get(u.kind, "sentence")
    out: list[_Unit] = []
    i = 0
    while i < n:
        j = min(n, i + budget)
        while True:
            a = offs[i]
            z = offs[j] if j < n else len(text)
            if j < n:
                ws = text.rfind(" ", a + 1, z)
                if ws > a and z - ws < (z - a) // 4:
                    z = ws
            if z > a and count_tokens(text[a:z]) <= budget:
                break
            if j - i <= 1:
                z = offs[i + 1] if i + 1 < n else len(text)
                break
            j = i + max(1, (j - i) * 9 // 10)
        piece = text[a:z]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append(_Unit(u.start + a + lead, u.start + a + len(piece.rstrip()), "piece", atomic=name))
        i = max(bisect.bisect_left(offs, z, lo=i + 1), i + 1)
    return out


def budget_tokens(max_tokens: int | str) -> int:
    """A chunk budget in tokens: an ``int >= 1``, its digits as a string, thousands written
    ``"<n>k"`` (``"4k"`` = 4000) or a :data:`PRESETS` name. Raises ``UsageError`` for
    anything else (zero and negative numbers included)."""
    from ..core.errors import UsageError

    if isinstance(max_tokens, str):
        name = max_tokens.strip().lower()
        number = name[1:] if name.startswith(("-", "+")) else name
        if name in PRESETS:
            max_tokens = PRESETS[name]
        elif number.isascii() and number.isdigit():
            max_tokens = int(name)
        elif name[:-1].isascii() and name[:-1].isdigit() and name.endswith("k"):
            max_tokens = int(name[:-1]) * 1000  # "4k", "32k": thousands, as the presets
        else:
            raise UsageError(f"unknown chunk budget {max_tokens!r}; use a number of tokens, a number of thousands "
                             f"such as 4k or 32k, or one of {', '.join(PRESETS)}")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise UsageError(f"max_tokens must be a positive integer, not {max_tokens!r}")
    return max_tokens


def chunk(article, max_tokens: int | str = DEFAULT_MAX_TOKENS, *, language: str | None = None,
          topics: bool = True, embed: Callable | None = None, title: TitleFunction | None = None) -> list[Chunk]:
    """Cut an article's Markdown into chunks of at most ``max_tokens`` tokens.

    Args:
        article: an :class:`~unclutter.core.models.Article` (its ``markdown`` and
            ``language`` are used) or a Markdown string.
        max_tokens: the budget in ``cl100k_base`` tokens, an ``int >= 1``, its digits as a
            string, or thousands written ``"<n>k"`` (the :data:`PRESETS` ``"8k"`` = 8000 and
            ``"16k"`` = 16000, ``"4k"`` = 4000, ``"32k"`` = 32000).
        language: BCP 47 tag for sentence splitting (default: the article's, else English).
        topics: cut heading-less pages at topic shifts (see module docstring).
        embed: optional sentence-embedding function for topic segmentation
            (``list[str] -> array (n, d)``); default TF-IDF TextTiling.
        title: names a topic section from its Markdown, ``title(text, language=...)``;
            ``None`` names each ``"Section"`` (:func:`unclutter.chunk` passes the
            extractive one-sentence summary).

    Returns:
        Chunks in document order; every ``chunk.tokens <= max_tokens``,
        ``count_tokens(chunk.with_context()) <= max_tokens`` (a chunk starting inside a table
        carries its header, ``Chunk.table_header``) and
        ``markdown[chunk.start:chunk.end] == chunk.text``. ``[]`` for empty Markdown.

    Raises:
        UsageError: a budget below 1 or a string that is none of these.
    """
    max_tokens = budget_tokens(max_tokens)
    if isinstance(article, str):
        md = article
    else:
        md = article.markdown
        language = language or getattr(article, "language", None)
    if not md.strip():
        return []
    budget = max_tokens
    sections = sections_for(md, language=language, topics=topics, embed=embed, title=title)
    sec_starts = [s.start for s in sections]

    def path_at(pos: int) -> list[str]:
        k = bisect.bisect_right(sec_starts, pos) - 1
        return list(sections[k].heading_path) if k >= 0 else []

    def toks(u: _Unit) -> int:
        if u.tokens < 0:
            u.tokens = count_tokens(md[u.start:u.end])
        return u.tokens

    queue: deque[_Unit] = deque(_Unit(s.start, s.end, "section", section=s) for s in sections)
    spans: list[tuple[int, int, str | None, str | None]] = []
    members: list[_Unit] = []
    est = 0
    header: str | None = None  # the table header the current chunk starts under (Chunk.table_header)

    def flush() -> None:
        nonlocal members, est, header
        while members:
            a, z = members[0].start, members[-1].end
            text = md[a:z] if header is None else f"{header}\n{md[a:z]}"
            if len(members) == 1 or count_tokens(text) <= budget:
                flag = next((m.atomic for m in members if m.atomic), None)
                spans.append((a, z, flag, header))
                break
            queue.appendleft(members.pop())  # BPE merged across a boundary: give one back
        members, est, header = [], 0, None

    def start(u: _Unit, t: int) -> None:
        """Open a chunk with ``u`` (``t`` tokens), under its table's header when ``u`` is a
        row cut from it and both fit."""
        nonlocal members, est, header
        members, est, header = [u], t, None
        if u.head is not None:
            h = md[u.head[0]:u.head[1]]
            ht = count_tokens(f"{h}\n{md[u.start:u.end]}")
            if ht <= budget:
                est, header = ht, h

    while queue:
        u = queue.popleft()
        t = toks(u)
        if members:
            sep = count_tokens(md[members[-1].end:u.start])
            if est + sep + t <= budget:
                members.append(u)
                est += sep + t
                continue
            if t <= budget or u.kind == "section":
                # a unit that fits alone starts the next chunk; so does a section to open
                queue.appendleft(u)
                flush()
                continue
        elif t <= budget:
            start(u, t)
            continue
        # u alone is over the budget: open it up; its first parts may join the current chunk
        kids = _children(md, u, language)
        if kids:
            flag = {"code": "code", "rows": "table-row"}.get(u.kind, u.atomic)
            for k in kids:
                k.atomic = k.atomic or flag
            queue.extendleft(reversed(kids))
        else:
            queue.extendleft(reversed(_hard_split(md, u, budget)))
    flush()
    out = []
    for i, (a, z, flag, head) in enumerate(spans):
        text = md[a:z]
        out.append(Chunk(i, text, a, z, count_tokens(text), path_at(a), flag, head))
    return out
