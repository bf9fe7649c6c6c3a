"""Node features for the learned extractors: one walk over the tree, then numpy.

Input: the pruned ``<body>`` (prepared the way the heuristic prepares it,
:func:`unclutter.score.heuristic.prepare` without unlikely-stripping, in place or on a
clone). The heuristic's Readability scores are computed on it, and its choice is
approximated from them (the *candidate*: the top-scoring element and its siblings that
reach Readability's sibling threshold), so the heuristic extractor itself need not run.
Output: :class:`PageGraph`, shared by every model (CETD, GBDT, GNN, DensitySum).

The walk is one iterative pre-order pass (element nodes get indices ``0..n-1`` in
document order, ``0`` = body); every subtree sum is then a difference of prefix sums over
the pre-order range ``[i, end[i])``, so no per-feature pass over the tree is needed.

Per element ``i`` (arrays of shape ``(n,)``; characters are counted on whitespace-
collapsed text, each text node adding its length + 1, as in
:mod:`unclutter.score.features`):

* ``C[i]`` characters in the subtree, ``LC[i]`` characters inside ``<a href>`` (fragment
  links weighted by ``HASH_LINK_WEIGHT``), ``T[i]`` element nodes in the subtree (itself
  included), ``LT[i]`` ``<a href>`` elements in the subtree;
* ``TD[i] = C[i] / T[i]`` (text density, Sun et al. 2011, eq. 1);
* ``CTD[i]``, the *composite text density* of Sun, Guan, Zhang, Chen, "DOM based content
  extraction via text density", SIGIR 2011, eq. 2, implemented exactly as::

      CTD_i = (C_i / T_i) * log_B( (C_i / LC_i') * (T_i / LT_i') )
      B     = ln( (C_i / nLC_i') * LC_i' + (LC_b / C_b) * C_i + e )

  with ``LC_i' = max(LC_i, 1)``, ``LT_i' = max(LT_i, 1)``, ``nLC_i' = max(C_i - LC_i, 1)``
  (the floors of the paper's own implementation, :data:`CTD_FLOOR`), ``b`` the body, and
  ``CTD_i = 0`` when ``C_i = 0``;
* ``DS[i]`` *DensitySum* (same paper, section 3.3): the sum of the CTD of ``i``'s element
  children; for an element without element children (its text is its only child) it is
  ``CTD[i]``.
* *own* text: the text whose nearest block ancestor is ``i`` (units, see
  :data:`~unclutter.classify.constants.UNIT_ROOT_TAGS`): ``OC``, ``OLC``, words, commas.

:func:`element_features` turns these into a matrix of shape ``(n, len(ELEMENT_FEATURES))``;
:func:`unit_matrix` gathers the rows of the units with their parent's, grandparent's and
element siblings' rows, the unit's tag (one-hot) and class/id vocabulary bits (the node's
and its ancestors'), shape ``(len(units), len(unit_feature_names(vocab)))``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..core.dom import TEXT, Node
from ..score.features import TextStats, compute_stats
from ..score.heuristic import (
    is_unlikely,
    prepare,
    score_paragraphs,
    unlikely_words,
    value_weight,
    value_words,
)
from ..score.weights import (
    BLOCK_TAGS,
    COMMA_RE,
    HASH_LINK_WEIGHT,
    LEAF_BLOCKS,
    LINK_ONLY_LEAF_SHARE,
    NEGATIVE_RE,
    POSITIVE_RE,
    SIBLING_MIN_SCORE,
    SIBLING_SCORE_SHARE,
)
from .constants import (
    CLASS_TOKEN_RE,
    CTD_E,
    CTD_FLOOR,
    PAGE_TYPE_ALIASES,
    PAGE_TYPE_FEATURES,
    PUNCT_RE,
    UNIT_ROOT_TAGS,
    UNIT_TAGS,
    URL_CUE_WORDS,
    URL_DATE_RE,
    URL_WORD_SPLIT_RE,
)

__all__ = [
    "ELEMENT_FEATURES",
    "PAGE_FEATURES",
    "PageGraph",
    "build_graph",
    "class_tokens",
    "composite_text_density",
    "dated_address",
    "density_sum",
    "element_features",
    "page_features",
    "unit_feature_names",
    "unit_matrix",
]

_UNIT_TAGS = BLOCK_TAGS | UNIT_ROOT_TAGS
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_FORMISH = frozenset({"form", "input", "button", "select", "textarea", "label"})
_LISTISH = frozenset({"li", "dd", "dt"})
_MEDIA = frozenset({"img", "picture", "video", "svg", "figure", "iframe"})
_TAG_INDEX = {t: i for i, t in enumerate(UNIT_TAGS)}
#: The tag groups counted below each element (``NP``, ``NLI``...), as bits of one code per tag.
_GROUP_NAMES = ("NP", "NLI", "NMEDIA", "NH", "NFORM")
_TAG_GROUPS: dict[str, int] = {}
for _bit, _group in enumerate((frozenset({"p"}), _LISTISH, _MEDIA, _HEADINGS, _FORMISH)):
    for _t in _group:
        _TAG_GROUPS[_t] = _TAG_GROUPS.get(_t, 0) | (1 << _bit)

#: Columns of :func:`element_features`, in order.
ELEMENT_FEATURES = (
    "log_chars", "log_own_chars", "log_tags", "link_density", "own_link_density",
    "link_tag_density", "log_td", "log_ctd", "log_density_sum", "log_commas", "log_punct",
    "commas_per_100", "punct_per_word", "log_own_words", "log_words", "depth", "rel_depth",
    "rel_position", "page_share", "log_score", "rel_score", "class_weight", "log_p", "log_li",
    "log_media", "log_headings", "log_form", "log_children", "candidate_share", "in_candidate",
    "own_mean_word_len", "unlikely_chain", "negative_chain", "positive_chain", "log_text_repeats",
    "log_class_repeats",
)


#: Page-level columns (:func:`page_features`), appended to every unit's row.
PAGE_FEATURES = tuple(f"page.type={t}" for t in PAGE_TYPE_FEATURES) + ("page.type=other",) + tuple(
    f"page.url~{k}" for k in URL_CUE_WORDS) + ("page.log_url_depth", "page.url_date")


def page_features(page_type: str | None, url: str | None) -> np.ndarray:
    """The page-level columns of :data:`PAGE_FEATURES`, shape ``(len(PAGE_FEATURES),)``:
    the declared page type one-hot (``Metadata.page_type``, see
    :data:`~unclutter.classify.constants.PAGE_TYPE_FEATURES`), the URL path cues
    (:data:`~unclutter.classify.constants.URL_CUE_WORDS`, path and query of ``url``),
    ``log1p`` of the number of non-empty path segments and whether the path holds a date
    (:data:`~unclutter.classify.constants.URL_DATE_RE`)."""
    out = np.zeros(len(PAGE_FEATURES))
    if page_type:
        kind = PAGE_TYPE_ALIASES.get(page_type, page_type)
        j = PAGE_TYPE_FEATURES.index(kind) if kind in PAGE_TYPE_FEATURES else len(PAGE_TYPE_FEATURES)
        out[j] = 1.0
    if url:
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(url.strip())
        except ValueError:
            return out
        words = set(URL_WORD_SPLIT_RE.split(f"{parts.path}?{parts.query}".lower()))
        base = len(PAGE_TYPE_FEATURES) + 1
        for k, (_, cue) in enumerate(URL_CUE_WORDS.items()):
            if not words.isdisjoint(cue):
                out[base + k] = 1.0
        out[-2] = np.log1p(sum(1 for seg in parts.path.split("/") if seg))
        out[-1] = 1.0 if dated_address(url) else 0.0
    return out


def dated_address(url: str | None) -> bool:
    """Whether ``url``'s path holds a date (:data:`~unclutter.classify.constants.URL_DATE_RE`,
    ``/2019/11/18/...``); ``False`` for no URL or one ``urllib`` cannot take apart."""
    if not url:
        return False
    from urllib.parse import urlsplit

    try:
        return URL_DATE_RE.search(urlsplit(url.strip()).path) is not None
    except ValueError:
        return False


@lru_cache(maxsize=16384)
def class_tokens(class_id: str) -> tuple[str, ...]:
    """Tokens of a class/id string (``CLASS_TOKEN_RE`` on the lower-cased string)."""
    return tuple(sorted(set(CLASS_TOKEN_RE.findall(class_id.lower()))))


@lru_cache(maxsize=16384)
def _class_flags(class_id: str) -> int:
    """1: the heuristic's unlikely-candidate words (``UNLIKELY_RE`` and not
    ``MAYBE_CANDIDATE_RE``), 2: ``NEGATIVE_RE``, 4: ``POSITIVE_RE``."""
    return (1 if is_unlikely(class_id) else 0) | (2 if NEGATIVE_RE.search(class_id) else 0) | (
        4 if POSITIVE_RE.search(class_id) else 0)


#: class value (or ``(id value, follows a class)``) -> its part of :func:`_class_info`, one
#: table per vocabulary (keyed by its contents); bounded (emptied when full).
_CLASS_INFO: dict[tuple, dict] = {}
_CLASS_INFO_MAX = 50_000


def _class_info_cache(vocab: dict[str, int]) -> dict:
    key = tuple(vocab.items())
    cache = _CLASS_INFO.get(key)
    if cache is None or len(cache) > _CLASS_INFO_MAX:
        if len(_CLASS_INFO) > 8:
            _CLASS_INFO.clear()
        cache = _CLASS_INFO[key] = {}
    return cache


@lru_cache(maxsize=32768)
def _token_info(token: str, first: bool) -> tuple[int, int, tuple[str, ...]]:
    """One whitespace-separated token of a class/id value: ``(UNLIKELY_RE / MAYBE_CANDIDATE_RE
    bits as in heuristic.unlikely_words, 1 for NEGATIVE_RE | 2 for POSITIVE_RE, its
    class_tokens)``. ``first``: the token starts the joined class/id string, the only place
    where ``NEGATIVE_RE``'s ``^``-anchored alternative can match (elsewhere the token is
    searched after a space, which no alternative can match or span). Cached: tokens repeat
    across pages far more than whole values (``col-md-6``, ``elementor-element``)."""
    words = value_words(token)
    if words & 1 and not first and token[:3].lower() == "ad-":
        words = (words & 2) | (1 if NEGATIVE_RE.search(" " + token) else 0)
    return unlikely_words(token), words, class_tokens(token)


def _value_info(value: str, vocab: dict[str, int], after_class: bool) -> tuple[int, int, int]:
    """One attribute value's part of :func:`_class_info`: ``(UNLIKELY_RE / MAYBE_CANDIDATE_RE
    bits as in heuristic.unlikely_words, 2 for NEGATIVE_RE | 4 for POSITIVE_RE, vocabulary
    bits)``, the union over its whitespace-separated tokens (:func:`_token_info`: no word
    pattern matches across whitespace). ``after_class``: the value is an id that follows a
    class in the joined string (no token of it starts that string)."""
    u = w = bits = 0
    for k, tok in enumerate(value.split()):
        tu, tw, toks = _token_info(tok, k == 0 and not after_class)
        u |= tu
        w |= tw
        if vocab:
            for t in toks:
                b = vocab.get(t)
                if b is not None:
                    bits |= 1 << b
    return u, 2 * w, bits


def _class_info(cls: str, ident: str, vocab: dict[str, int], cache: dict) -> tuple[int, float, int]:
    """``(_class_flags(f"{cls} {ident}"), class weight, vocabulary bits of its tokens)`` for
    an element with this ``class`` and ``id`` (either may be empty), read on the two values
    apart: the class part is cached in ``cache``; none of the word patterns can match
    across the joining space, and ``CLASS_TOKEN_RE`` tokens never hold one."""
    u = w = bits = 0
    weight = 0.0
    if cls:
        part = cache.get(cls)
        if part is None:
            part = cache[cls] = _value_info(cls, vocab, False)
        u, w, bits = part
        weight += value_weight(cls)
    if ident:
        key = (ident, bool(cls))  # ids repeat across a site's pages ("content", "main")
        part = cache.get(key)
        if part is None:
            part = cache[key] = _value_info(ident, vocab, bool(cls))
        iu, iw, ibits = part
        u |= iu
        w |= iw
        bits |= ibits
        weight += value_weight(ident)
    return (1 if u == 1 else 0) | w, weight, bits


@dataclass
class PageGraph:
    """One page's element tree as arrays (see the module docstring for the quantities).

    ``nodes[i]`` is element ``i`` of the prepared clone (pre-order); ``parent[i]`` its
    parent's index (-1 for the body), ``end[i]`` one past its subtree's last index,
    ``prev[i]``/``next[i]`` its previous/next element sibling (-1 if none), ``owner[i]``
    its nearest block ancestor-or-self, ``units`` the indices of the units (elements
    owning non-empty text) in document order, ``masks[i]`` the class/id vocabulary bits
    of ``i`` and its ancestors, ``raw`` the per-element arrays (``C``, ``LC``, ``T``...).
    """

    body: Node
    nodes: list[Node]
    parent: np.ndarray
    end: np.ndarray
    depth: np.ndarray
    prev: np.ndarray
    next: np.ndarray
    owner: np.ndarray
    units: np.ndarray
    raw: dict[str, np.ndarray]
    masks: list[int] = field(default_factory=list)
    page: np.ndarray = field(default_factory=lambda: np.zeros(len(PAGE_FEATURES)))
    _cache: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.nodes)

    def unit_text(self, i: int) -> str:
        """Own text of element ``i`` (whitespace-collapsed pieces joined by a space)."""
        if "text" not in self._cache:
            self._cache["text"] = _own_pieces(self.nodes, self.owner)
        return " ".join(self._cache["text"].get(i, ()))

    def subtree_sum(self, x: np.ndarray) -> np.ndarray:
        """Sum of a per-element quantity over each element's subtree, shape ``(n,)``."""
        s = np.concatenate(([0.0], np.cumsum(x, dtype=np.float64)))
        return s[self.end] - s[np.arange(self.n)]

    @property
    def ctd(self) -> np.ndarray:
        if "ctd" not in self._cache:
            r = self.raw
            self._cache["ctd"] = composite_text_density(r["C"], r["T"], r["LC"], r["LT"])
        return self._cache["ctd"]

    @property
    def density_sum(self) -> np.ndarray:
        if "ds" not in self._cache:
            self._cache["ds"] = density_sum(self.ctd, self.parent)
        return self._cache["ds"]


def composite_text_density(C: np.ndarray, T: np.ndarray, LC: np.ndarray, LT: np.ndarray) -> np.ndarray:
    """CTD of every element (formula in the module docstring), shape ``(n,)``; index 0 is
    the body (``LC_b``, ``C_b`` are read from it)."""
    C = C.astype(np.float64)
    Cb = C[0] if C.size and C[0] > 0 else 1.0
    LCb = LC[0] if LC.size else 0.0
    lc = np.maximum(LC, CTD_FLOOR)
    lt = np.maximum(LT, CTD_FLOOR)
    nlc = np.maximum(C - LC, CTD_FLOOR)
    base = np.log((C / nlc) * lc + (LCb / Cb) * C + CTD_E)
    arg = (C / lc) * (T / lt)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (C / T) * np.log(np.maximum(arg, 1e-12)) / np.log(base)
    out[C <= 0] = 0.0
    return np.nan_to_num(out, nan=0.0, posinf=0.0, neginf=0.0)


def density_sum(ctd: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """DensitySum of every element: sum of its element children's CTD; an element without
    element children gets its own CTD. Shape ``(n,)``."""
    n = ctd.size
    ds = np.zeros(n)
    has_child = np.zeros(n, dtype=bool)
    if n > 1:
        np.add.at(ds, parent[1:], ctd[1:])
        has_child[parent[1:]] = True
    return np.where(has_child, ds, ctd)


def build_graph(pruned_body: Node, vocab: dict[str, int] | None = None,
                copy: bool = True, page_type: str | None = None, url: str | None = None) -> PageGraph:
    """Prepare ``pruned_body`` (a clone of it unless ``copy`` is false: then the tree is
    prepared in place, for callers that are done with it), then collect the raw
    per-element arrays in one iterative pre-order walk (see the module docstring).
    ``vocab``: class/id token -> bit for :attr:`PageGraph.masks`;
    ``page_type``, ``url``: the page's declared type and address (:func:`page_features`)."""
    body = pruned_body.clone() if copy else pruned_body
    paragraphs = prepare(body, False, [])
    vocab = vocab or {}

    nodes: list[Node] = []
    rows: list[tuple] = []
    end: list[int] = []
    own_hash: list[int] = []
    class_count: dict = {}
    info = _class_info_cache(vocab)
    EXIT = None
    stack: list = [(body, -1, 0, -1, 0.0, 0, 0)]
    push = stack.append
    while stack:
        item = stack.pop()
        node = item[0]
        if node is EXIT:
            end[item[1]] = len(nodes)
            continue
        _, p, d, ctx, linkw, amask, aflags = item
        inlink = linkw > 0.0
        i = len(nodes)
        tag = node.tag
        nodes.append(node)
        end.append(0)
        own_hash.append(0)
        if tag in _UNIT_TAGS or p < 0:  # the root owns loose text whatever its tag
            ctx = i
        attrs = node.attrs
        is_link = 0
        key = None
        cw = 0.0
        if attrs:
            if tag == "a" and "href" in attrs:
                linkw = HASH_LINK_WEIGHT if attrs["href"].strip().startswith("#") else 1.0
                is_link = 1
            cls = attrs.get("class", "")
            ident = attrs.get("id", "")
            if cls or ident:
                fl, cw, bits = _class_info(cls, ident, vocab, info)
                aflags |= fl
                amask |= bits
                key = (tag, cls)
                class_count[key] = class_count.get(key, 0) + 1
        c = lc = 0.0
        cm = pu = w = 0
        kids = 0
        push((EXIT, i))
        children = node.children
        for k in range(len(children) - 1, -1, -1):
            ch = children[k]
            if ch.tag == TEXT:
                parts = ch.text.split()
                if not parts:
                    continue
                s = " ".join(parts)
                nch = len(s) + 1
                c += nch
                lc += nch * linkw
                w += len(parts)
                if "," in s or "\uff0c" in s or "\u3001" in s or "\u060c" in s:
                    cm += len(COMMA_RE.findall(s))
                pu += len(PUNCT_RE.findall(s))
                own_hash[ctx] = hash((own_hash[ctx], s))
            else:
                kids += 1
                push((ch, i, d + 1, ctx, linkw, amask, aflags))
        rows.append((p, d, ctx, tag, is_link, key, cw, amask, aflags, kids, c, lc, cm, pu, w, inlink))
    (parent, depth, owner, tagc, is_link, class_key, cweight, masks, flags, n_children,
     dC, dLC, dCM, dPU, dW, in_link) = (list(col) for col in zip(*rows))
    n = len(nodes)
    par = np.asarray(parent, dtype=np.int64)
    own = np.asarray(owner, dtype=np.int64)
    # previous element sibling: children of one parent have increasing pre-order indices
    order = np.argsort(par, kind="stable")
    prv = np.full(n, -1, dtype=np.int64)
    same = par[order][1:] == par[order][:-1]
    prv[order[1:][same]] = order[:-1][same]
    prv[0] = -1
    nxt = np.full(n, -1, dtype=np.int64)
    has_prev = prv >= 0
    nxt[prv[has_prev]] = np.nonzero(has_prev)[0]
    g = PageGraph(body=body, nodes=nodes, parent=par, end=np.asarray(end, dtype=np.int64),
                  depth=np.asarray(depth, dtype=np.float64), prev=prv, next=nxt, owner=own,
                  units=np.zeros(0, dtype=np.int64), raw={}, masks=masks,
                  page=page_features(page_type, url))
    dC_a = np.asarray(dC)
    dLC_a = np.asarray(dLC)
    tags = np.asarray(tagc, dtype=object)
    raw = g.raw
    raw["C"] = g.subtree_sum(dC_a)
    raw["LC"] = g.subtree_sum(dLC_a)
    raw["T"] = g.subtree_sum(np.ones(n))
    raw["LT"] = g.subtree_sum(np.asarray(is_link, dtype=np.float64))
    raw["CM"] = g.subtree_sum(np.asarray(dCM, dtype=np.float64))
    raw["PU"] = g.subtree_sum(np.asarray(dPU, dtype=np.float64))
    raw["W"] = g.subtree_sum(np.asarray(dW, dtype=np.float64))
    groups = np.fromiter((_TAG_GROUPS.get(t, 0) for t in tagc), dtype=np.int64, count=n)
    for bit, name in enumerate(_GROUP_NAMES):
        raw[name] = g.subtree_sum(((groups >> bit) & 1).astype(np.float64))
    raw["OC"] = np.bincount(own, weights=dC_a, minlength=n)
    raw["OLC"] = np.bincount(own, weights=dLC_a, minlength=n)
    raw["OW"] = np.bincount(own, weights=np.asarray(dW, dtype=np.float64), minlength=n)
    raw["OCM"] = np.bincount(own, weights=np.asarray(dCM, dtype=np.float64), minlength=n)
    raw["START"] = np.concatenate(([0.0], np.cumsum(dC_a)))[:n]
    # the heuristic's Readability scores (its own counts: compute_stats counts link text
    # only below an <a> inside the subtree, unlike LC above, which follows text into blocks
    # nested in a link)
    keys = [id(nd) for nd in nodes]
    stats = _text_stats(g, keys, tagc, np.asarray(is_link, dtype=bool), np.asarray(in_link, dtype=bool))
    scores = score_paragraphs(paragraphs, stats, True).score
    raw["SCORE"] = np.fromiter((scores.get(k, 0.0) for k in keys), dtype=np.float64, count=n)
    raw["CAND_SHARE"], raw["IN_CAND"] = _candidate(g, raw["SCORE"])
    raw["CW"] = np.asarray(cweight)
    raw["KIDS"] = np.asarray(n_children, dtype=np.float64)
    raw["tag"] = tags
    fl = np.asarray(flags, dtype=np.int64)
    raw["UNLIKELY"] = (fl & 1).astype(np.float64)
    raw["NEG"] = ((fl >> 1) & 1).astype(np.float64)
    raw["POS"] = ((fl >> 2) & 1).astype(np.float64)
    raw["CLASSREP"] = np.fromiter((class_count[k] - 1 if k is not None else 0 for k in class_key),
                                  dtype=np.float64, count=n)
    g.units = np.nonzero(raw["OC"] > 0)[0]
    # how many other units of the page have the same own text (signatures, repeated labels)
    rep = np.zeros(n)
    if g.units.size:
        hashes = np.asarray([own_hash[i] for i in g.units.tolist()], dtype=np.int64)
        _, inverse, counts = np.unique(hashes, return_inverse=True, return_counts=True)
        rep[g.units] = counts[inverse] - 1
    raw["TEXTREP"] = rep
    return g


def _candidate(g: PageGraph, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic's choice approximated from its scores: the top-scoring element and
    its siblings scoring at least ``max(SIBLING_MIN_SCORE, SIBLING_SCORE_SHARE * top)``
    (Readability.js's sibling rule, without its bonus and paragraph cases). Returns, per
    element, the share of its characters inside that candidate and whether it lies inside
    (float arrays of shape ``(n,)``); zeros when nothing scored."""
    n = g.n
    if n == 0 or not (score > 0).any():
        return np.zeros(n), np.zeros(n)
    top = int(np.argmax(score))
    marked = np.zeros(n, dtype=bool)
    marked[top] = True
    p = g.parent[top]
    if p >= 0:
        sib = np.nonzero(g.parent == p)[0]
        marked[sib[score[sib] >= max(SIBLING_MIN_SCORE, SIBLING_SCORE_SHARE * score[top])]] = True
    roots = np.nonzero(marked)[0]  # siblings: disjoint subtrees
    depth = np.zeros(n + 1)
    np.add.at(depth, roots, 1.0)
    np.add.at(depth, g.end[roots], -1.0)
    inside = np.cumsum(depth)[:n] > 0
    C = g.raw["C"]
    covered = g.subtree_sum(np.where(marked, C, 0.0))
    share = np.where(inside, 1.0, covered / np.maximum(C, 1.0))
    return share, inside.astype(np.float64)


def _text_stats(g: PageGraph, keys: list[int], tags: list[str], is_link: np.ndarray,
                in_link: np.ndarray) -> TextStats:
    """:func:`unclutter.score.features.compute_stats` of the prepared tree, from the walk's
    arrays (``C``, ``LC``, ``CM``, ``T`` must be in ``g.raw``): the same counts, without a
    second pass over the tree. Its link characters differ from ``LC`` only inside a link:
    there it counts the links below the element (none, unless links nest: then the tree
    is walked again by ``compute_stats``)."""
    if (is_link & in_link).any():
        return compute_stats(g.body)
    r = g.raw
    C = r["C"]
    link_chars = np.where(in_link & ~is_link, 0.0, r["LC"])
    leaf = np.fromiter((t in LEAF_BLOCKS for t in tags), dtype=bool, count=len(tags)) & (C > 0)
    link_only = leaf & (link_chars >= LINK_ONLY_LEAF_SHARE * C)
    leaves = g.subtree_sum(leaf.astype(np.float64)) - leaf
    link_only_leaves = g.subtree_sum(link_only.astype(np.float64)) - link_only
    return TextStats(
        chars=dict(zip(keys, C.astype(np.int64).tolist())),
        link_chars=dict(zip(keys, link_chars.tolist())),
        commas=dict(zip(keys, r["CM"].astype(np.int64).tolist())),
        tags=dict(zip(keys, r["T"].astype(np.int64).tolist())),
        leaves=dict(zip(keys, leaves.astype(np.int64).tolist())),
        link_only_leaves=dict(zip(keys, link_only_leaves.astype(np.int64).tolist())),
    )


def _own_pieces(nodes: list[Node], owner: np.ndarray) -> dict[int, list[str]]:
    """Own text pieces of every owner, in document order (one more walk; only needed for
    labels and ``--explain`` previews)."""
    index = {id(nd): i for i, nd in enumerate(nodes)}
    out: dict[int, list[str]] = {}
    stack = [nodes[0]]
    while stack:
        node = stack.pop()
        if node.tag == TEXT:
            s = " ".join(node.text.split())
            if s:
                out.setdefault(int(owner[index[id(node.parent)]]), []).append(s)
            continue
        if node.children:
            stack.extend(reversed(node.children))
    return out


def element_features(g: PageGraph) -> np.ndarray:
    """Per-element feature matrix, shape ``(n, len(ELEMENT_FEATURES))``, float64 (see the
    module docstring; ``log`` = ``log1p``)."""
    if "el" in g._cache:
        return g._cache["el"]
    r = g.raw
    C, LC, T, LT = r["C"], r["LC"], r["T"], r["LT"]
    OC, OLC = r["OC"], r["OLC"]
    Cb = max(C[0], 1.0)
    Cs = np.maximum(C, 1.0)
    OCs = np.maximum(OC, 1.0)
    ctd = g.ctd
    ds = g.density_sum
    maxd = max(float(g.depth.max()), 1.0) if g.n else 1.0
    sc = r["SCORE"]
    smax = max(float(sc.max()), 1.0) if g.n else 1.0
    cols = [
        np.log1p(C), np.log1p(OC), np.log1p(T), LC / Cs, OLC / OCs,
        LT / T, np.log1p(C / T), np.log1p(np.maximum(ctd, 0.0)), np.log1p(np.maximum(ds, 0.0)),
        np.log1p(r["CM"]), np.log1p(r["PU"]), 100.0 * r["CM"] / Cs, r["PU"] / np.maximum(r["W"], 1.0),
        np.log1p(r["OW"]), np.log1p(r["W"]), g.depth, g.depth / maxd,
        r["START"] / Cb, C / Cb, np.sign(sc) * np.log1p(np.abs(sc)), sc / smax, r["CW"] / 25.0,
        np.log1p(r["NP"]), np.log1p(r["NLI"]), np.log1p(r["NMEDIA"]), np.log1p(r["NH"]),
        np.log1p(r["NFORM"]), np.log1p(r["KIDS"]), r["CAND_SHARE"], r["IN_CAND"],
        (OC - r["OW"]) / np.maximum(r["OW"], 1.0), r["UNLIKELY"], r["NEG"], r["POS"],
        np.log1p(r["TEXTREP"]), np.log1p(r["CLASSREP"]),
    ]
    X = np.column_stack(cols) if g.n else np.zeros((0, len(ELEMENT_FEATURES)))
    g._cache["el"] = X
    return X


_CONTEXTS = ("self", "parent", "grandparent", "prev", "next")


def unit_feature_names(vocab_size: int) -> list[str]:
    names = [f"{ctx}.{f}" for ctx in _CONTEXTS for f in ELEMENT_FEATURES]
    names += [f"has.{ctx}" for ctx in _CONTEXTS[1:]]
    names += [f"tag={t}" for t in UNIT_TAGS] + ["tag=other"]
    names += [f"class~{i}" for i in range(vocab_size)]
    names += ["page.log_chars", "page.log_units", "unit.rel_index"]
    names += list(PAGE_FEATURES)
    return names


_WORD = (1 << 64) - 1


def _mask_bits(masks: list[int], rows: np.ndarray, size: int) -> np.ndarray:
    """Bits ``0..size-1`` of ``masks[i]`` for each ``i`` of ``rows``, shape ``(len(rows), size)``."""
    if size == 0 or rows.size == 0:
        return np.zeros((rows.size, size))
    words = (size + 63) // 64
    sel = [masks[i] for i in rows.tolist()]
    arr = np.empty((rows.size, words), dtype=np.uint64)
    for w in range(words):
        shift = 64 * w
        arr[:, w] = np.fromiter(((m >> shift) & _WORD for m in sel), dtype=np.uint64, count=rows.size)
    bits = np.unpackbits(arr.view(np.uint8).reshape(rows.size, -1), axis=1, bitorder="little")
    return bits[:, :size].astype(np.float64)


def unit_matrix(g: PageGraph, vocab_size: int, rows: np.ndarray | None = None) -> np.ndarray:
    """Feature rows of ``rows`` (default: the units), shape
    ``(len(rows), len(unit_feature_names(vocab_size)))``."""
    rows = g.units if rows is None else rows
    E = element_features(g)
    m = rows.size
    parts = [E[rows]]
    par = g.parent[rows]
    gpar = np.where(par >= 0, g.parent[np.maximum(par, 0)], -1)
    has = []
    padded = np.vstack([E, np.zeros((1, E.shape[1]))])  # row -1: a missing neighbour's zeros
    for idx in (par, gpar, g.prev[rows], g.next[rows]):
        parts.append(padded[idx])
        has.append((idx >= 0).astype(np.float64))
    parts.append(np.column_stack(has) if m else np.zeros((0, 4)))
    onehot = np.zeros((m, len(UNIT_TAGS) + 1))
    other = len(UNIT_TAGS)
    tag_col = np.fromiter((_TAG_INDEX.get(t, other) for t in g.raw["tag"][rows].tolist()), dtype=np.intp, count=m)
    onehot[np.arange(m), tag_col] = 1.0
    parts.append(onehot)
    parts.append(_mask_bits(g.masks, rows, vocab_size))
    n_units = max(g.units.size, 1)
    page = np.empty((m, 3))
    page[:, 0] = np.log1p(g.raw["C"][0]) if g.n else 0.0
    page[:, 1] = np.log1p(g.units.size)
    page[:, 2] = np.searchsorted(g.units, rows) / n_units
    parts.append(page)
    parts.append(np.broadcast_to(g.page, (m, g.page.size)))
    return np.hstack(parts)
