"""The cascade (CSS Cascading and Inheritance 4 §6: importance, then the ``style``
attribute, then specificity, then order of appearance) over a lexbor tree, for the
properties this package reads, element by element on demand (:class:`_Resolver`)."""

from __future__ import annotations

import re

from .declarations import _WS, read_style_attribute
from .inherit import _inherit, _Inherited, _resolved, _substitute
from .inline import _inline_for_cascade
from .reasons import _reads_state
from .selectors import tame_has
from .sheet import Sheet, StyleRule
from .values import Declaration


#: A declaration that shows an element again below a hidden ancestor.
_VISIBLE_AGAIN_RE = re.compile(r"visibility" + _WS + ":" + _WS + "visible", re.IGNORECASE)


def _attrs(lnode) -> dict[str, str]:
    return {k: v or "" for k, v in lnode.attributes.items()}


class _Resolver:
    """The cascade over a lexbor tree for the properties of this package, element by
    element on demand, each element once (memoized by ``mem_id``). ``sheets``: the page's
    :class:`Sheet` objects in document order."""

    def __init__(self, tree, sheets: list[Sheet], self_contained: bool, usable=None) -> None:
        self.tree = tree
        self.matched: dict[str, set[int]] = {}  # selector -> mem_id of the elements it matches
        self.sheets = sheets
        self.usable = usable  # usable(selector) -> False: it cannot match this document
        self.usable_memo: dict[str, bool] = {}
        self.key_rules: dict[tuple, list[tuple[int, StyleRule]]] = {}
        self.checks = 0  # selectors run by lexbor over the document (bounded: resolve.MAX_SELECTOR_CHECKS)
        self.offsets = []
        offset = 0
        for sheet in sheets:
            self.offsets.append(offset)
            offset += len(sheet.spans) + 1
        self.self_contained = self_contained
        self.honour: set[int] = set()
        self.reveals = any(_VISIBLE_AGAIN_RE.search(sheet.css) for sheet in sheets) or any(
            _VISIBLE_AGAIN_RE.search(n.attributes.get("style") or "") for n in tree.css('[style*="visib" i]'))
        self.cascaded: dict[int, dict[str, Declaration]] = {}
        self.cascaded_state: dict[int, dict[str, Declaration]] = {}
        self.inherited: dict[int, _Inherited] = {}
        root = _Inherited()
        if self_contained:  # the initial colours: black text on the white canvas (CSS Color 4 §4.1)
            root.colour = (0.0, 0.0, 0.0, 1.0)
            root.background = (1.0, 1.0, 1.0, 1.0)
        self.root_state = root

    def _keyed(self, key: tuple, state: bool, prop: str | None = None) -> list[tuple[int, StyleRule]]:
        """(global order, rule) of the rules of every sheet whose selector has ``key`` and
        can match this document (``usable``); with ``state``, only those that may declare
        what the inherited state reads; with ``prop``, only those declaring it.
        Memoized per page."""
        memo_key = (key, state, prop)
        got = self.key_rules.get(memo_key)
        if got is not None:
            return got
        got = []
        usable = self.usable
        for sheet, offset in zip(self.sheets, self.offsets):
            seen: set[int] = set()
            for k, part in sheet.keys(prop).get(key, ()):
                if k in seen:
                    continue
                if part is not None and usable is not None and not self._usable(part):
                    continue  # names a class or id the page lacks: never parsed
                seen.add(k)
                decls = sheet.decls(k)
                if state and not _reads_state(decls) or prop is not None and prop not in decls:
                    continue
                for r in sheet.rule(k):
                    if r.key != key:
                        continue
                    if usable is not None and r.simple is None and not self._usable(r.selector):
                        continue
                    got.append((offset + k, r))
        self.key_rules[memo_key] = got
        return got

    def _usable(self, selector: str) -> bool:
        ok = self.usable_memo.get(selector)
        if ok is None:
            ok = self.usable_memo[selector] = self.usable(selector)
        return ok

    def _matching(self, lnode, attrs: dict[str, str], state: bool,
                  prop: str | None = None) -> list[tuple[int, StyleRule]]:
        """(global order, rule) of every rule matching the element; with ``state``, of the
        rules that may declare what the inherited state reads; with ``prop``, of those
        declaring that property (:meth:`Sheet.keys`)."""
        tag = lnode.tag
        ident = attrs.get("id")
        classes = attrs.get("class", "").split()
        # keys compare without case (a document in quirks mode matches classes and ids
        # so); whether a rule applies is then decided exactly
        wanted = [("*",), ("tag", tag)]
        if ident:
            wanted.append(("#", ident.lower()))
        if classes:
            wanted += [(".", c) for c in dict.fromkeys(c.lower() for c in classes)]
        out = []
        class_set = None
        seen: set[int] = set()
        for key in wanted:
            for order, r in self._keyed(key, state, prop):
                if id(r) in seen:
                    continue
                seen.add(id(r))
                simple = r.simple
                if simple is not None:
                    t, cls, i = simple
                    if class_set is None:
                        class_set = set(classes)
                    if (not t or t == tag) and (not i or i == ident) and (not cls or cls <= class_set):
                        out.append((order, r))
                        continue
                    if t and t != tag:
                        continue  # (a type selector's case never matters in HTML)
                if not self._exact(lnode, r.selector):
                    continue
                out.append((order, r))
        return out

    def _exact(self, lnode, selector: str) -> bool:
        """Whether lexbor matches ``selector`` on this element (one pass over the document
        per selector: its per-node test reports matches anywhere in the node's subtree)."""
        found = self.matched.get(selector)
        if found is None:
            self.checks += 1
            try:
                found = {n.mem_id for n in self.tree.css(tame_has(selector))}
            except Exception:  # noqa: BLE001 - a selector lexbor cannot read matches nothing
                found = set()
            self.matched[selector] = found
        return lnode.mem_id in found

    def declared(self, lnode, full: bool = False) -> dict[str, Declaration]:
        """The cascaded declarations of an element (custom properties included, ``var()``
        not yet substituted): of every property this package reads when ``full``, else of
        those the inherited state needs (:data:`.reasons._STATE_PROPERTIES`)."""
        key = lnode.mem_id
        got = self.cascaded.get(key)
        if got is not None:
            return got
        if not full:
            got = self.cascaded_state.get(key)
            if got is not None:
                return got
        attrs = _attrs(lnode)
        ranked: dict[str, tuple[tuple, Declaration]] = {}
        for order, r in self._matching(lnode, attrs, not full):
            for name, d in r.declarations.items():
                rank = (d.important, 0, r.specificity, order)
                old = ranked.get(name)
                if old is None or rank > old[0]:
                    ranked[name] = (rank, d)
        style = attrs.get("style")
        if style:
            inline_decls = read_style_attribute(style) if key in self.honour else _inline_for_cascade(style)
            for name, d in inline_decls.items():
                rank = (d.important, 1, (0, 0, 0), 0)
                old = ranked.get(name)
                if old is None or rank > old[0]:
                    ranked[name] = (rank, d)
        got = {name: d for name, (_, d) in ranked.items()}
        (self.cascaded if full else self.cascaded_state)[key] = got
        return got

    def declared_one(self, lnode, prop: str) -> Declaration | None:
        """The cascaded declaration of one property of an element (``var()`` not
        substituted), reading only the rules that declare it."""
        got = self.cascaded.get(lnode.mem_id)
        if got is not None:
            return got.get(prop)
        attrs = _attrs(lnode)
        best: tuple | None = None
        for order, r in self._matching(lnode, attrs, False, prop):
            d = r.declarations[prop]
            rank = (d.important, 0, r.specificity, order)
            if best is None or rank > best[0]:
                best = (rank, d)
        style = attrs.get("style")
        if style:
            d = (read_style_attribute(style) if lnode.mem_id in self.honour else _inline_for_cascade(style)).get(prop)
            if d is not None:
                rank = (d.important, 1, (0, 0, 0), 0)
                if best is None or rank > best[0]:
                    best = (rank, d)
        return best[1] if best is not None else None

    def state(self, lnode) -> _Inherited:
        """The inherited state at an element (ancestors resolved first, iteratively)."""
        chain = []
        n = lnode
        while n is not None and n.tag and n.tag[0] != "-" and n.mem_id not in self.inherited:
            chain.append(n)
            n = n.parent
        parent = self.inherited.get(n.mem_id, self.root_state) if n is not None else self.root_state
        for el in reversed(chain):
            decls = self.declared(el)
            custom = parent.custom
            own = {k: v for k, v in decls.items() if k.startswith("--")}
            if own:
                custom = dict(custom)
                for k, v in own.items():
                    value = tuple(t for t in v.value if t.type not in ("whitespace", "comment"))
                    if any(t.type == "function" for t in value):
                        value = _substitute(value, parent.custom)
                    if value is None:
                        custom.pop(k, None)
                    else:
                        custom[k] = value
            st = _inherit(parent, _resolved(decls, custom), custom)
            if el.tag == "html":
                st.root_px = st.font_px  # (rem: the root element's font size)
            if el.tag in ("html", "body") and not self.reveals:
                # the whole page hidden until a script or web font has loaded is a loading
                # state (the flash-of-unstyled-content guard), not hidden text; not when the
                # page's styles show parts of it again (then the rest is hidden on purpose)
                st.hidden = parent.hidden
                if st.background is None:
                    st.background = parent.background
            self.inherited[el.mem_id] = st
            parent = st
        return parent

    def resolved(self, lnode) -> dict[str, Declaration]:
        """The element's cascaded declarations with ``var()`` substituted."""
        return _resolved(self.declared(lnode, full=True), self.state(lnode).custom)
