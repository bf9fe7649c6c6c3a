"""The DOM every stage after parsing works on: a small, mutable, pure-Python tree.

The parse stage builds it once from lexbor's WHATWG-conformant tree (see
:mod:`unclutter.parse.html`); pruning, scoring and reconstruction then work on plain Python
objects, which is faster than crossing into the C parser for every attribute read and lets
every walk be iterative. No function here recurses, so a 100,000-level-deep tree never
raises ``RecursionError``.

Shapes:
    * element node: ``tag`` is the lower-case tag name (``"div"``), ``attrs`` a dict of
      lower-case attribute names to string values, ``children`` a list of nodes.
    * text node: ``tag == "#text"``, ``text`` holds the (entity-decoded) character data;
      ``children`` is an empty tuple shared by all text nodes.
    * the root returned by the parser is an element node with ``tag == "#document"``.
Comments, processing instructions and doctypes are not kept.
"""

from __future__ import annotations

from typing import Iterable, Iterator

__all__ = ["Node", "TEXT", "DOCUMENT", "UndoLog", "new_element", "new_text", "detach_children"]

TEXT = "#text"
DOCUMENT = "#document"
_NO_CHILDREN = ()


class Node:
    """One DOM node (element or text). See the module docstring for the shapes."""

    __slots__ = ("tag", "attrs", "children", "parent", "text")

    def __init__(self, tag: str, attrs: dict[str, str] | None = None, text: str = "") -> None:
        self.tag = tag
        # A text node's attribute dict is its own (empty, never shared: copies made by
        # :meth:`clone` are matched to their originals through it); text nodes share one
        # empty child tuple: one object fewer for the allocator and the garbage collector.
        self.attrs: dict[str, str] = attrs if attrs is not None else {}
        self.children: list[Node] = [] if tag != TEXT else _NO_CHILDREN  # type: ignore[assignment]
        self.parent: Node | None = None
        self.text = text

    # -- structure ---------------------------------------------------------------------
    @property
    def is_text(self) -> bool:
        return self.tag == TEXT

    def append(self, child: "Node") -> "Node":
        child.parent = self
        self.children.append(child)
        return child

    def remove(self) -> None:
        """Detach this node (and its subtree) from its parent; no-op for a root."""
        parent = self.parent
        if parent is not None:
            siblings = parent.children
            for i in range(len(siblings)):
                if siblings[i] is self:
                    del siblings[i]
                    break
            self.parent = None

    def replace_with_children(self) -> None:
        """Unwrap: put this element's children in its place, then detach it."""
        parent = self.parent
        if parent is None:
            return
        siblings = parent.children
        for i in range(len(siblings)):
            if siblings[i] is self:
                for c in self.children:
                    c.parent = parent
                siblings[i : i + 1] = self.children
                break
        self.children = []
        self.parent = None

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    @property
    def class_id(self) -> str:
        """``class`` and ``id`` joined by a space: what the class/id weight regexes read."""
        a = self.attrs
        if not a:
            return ""
        c = a.get("class", "")
        i = a.get("id", "")
        return f"{c} {i}" if c and i else (c or i)

    # -- walks (all iterative) ---------------------------------------------------------
    def iter(self, include_self: bool = True) -> Iterator["Node"]:
        """Pre-order (document order) walk over the subtree, text nodes included."""
        stack = [self] if include_self else list(reversed(self.children))
        while stack:
            node = stack.pop()
            yield node
            if node.children:
                stack.extend(reversed(node.children))

    def iter_elements(self, include_self: bool = True) -> Iterator["Node"]:
        """:meth:`iter` without the text nodes (one generator, not two stacked)."""
        stack = [self] if include_self else list(reversed(self.children))
        pop = stack.pop
        while stack:
            node = pop()
            if node.tag == TEXT:
                continue
            yield node
            # (read after the yield, as in iter: the caller may edit the children first)
            if node.children:
                stack.extend(reversed(node.children))

    def iter_postorder(self) -> Iterator["Node"]:
        """Post-order walk (children before parents), text nodes included."""
        stack: list[tuple[Node, bool]] = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded or not node.children:
                yield node
            else:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(node.children))

    def elements_bottom_up(self) -> list["Node"]:
        """Element nodes of the subtree (this one included, if an element), each after all
        of its descendants: the reverse of a pre-order walk, so not document order. For
        bottom-up passes; a list, built iteratively and faster than :meth:`iter_postorder`."""
        out: list[Node] = []
        if self.tag == TEXT:
            return out
        stack = [self]
        pop = stack.pop
        push = stack.append
        add = out.append
        while stack:
            node = pop()
            add(node)
            for c in node.children:
                if c.tag != TEXT:
                    push(c)
        out.reverse()
        return out

    def ancestors(self) -> Iterator["Node"]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def text_content(self) -> str:
        """Concatenated character data of the subtree, in document order, unnormalised."""
        if self.tag == TEXT:
            return self.text
        out: list[str] = []
        stack = [self]
        pop = stack.pop
        push = stack.extend
        while stack:
            node = pop()
            if node.tag == TEXT:
                out.append(node.text)
            elif node.children:
                push(reversed(node.children))
        return "".join(out)

    def has_text(self) -> bool:
        """Whether the subtree holds any non-whitespace character data (stops early)."""
        stack = [self]
        while stack:
            node = stack.pop()
            if node.tag == TEXT:
                if not node.text.isspace() and node.text:
                    return True
            elif node.children:
                stack.extend(node.children)
        return False

    def find_all(self, *tags: str) -> list["Node"]:
        wanted = set(tags)
        return [n for n in self.iter() if n.tag in wanted]

    def find(self, *tags: str) -> "Node | None":
        wanted = set(tags)
        for n in self.iter():
            if n.tag in wanted:
                return n
        return None

    def clone(self) -> "Node":
        """Copy of the subtree's structure (iterative); the copy has no parent.

        Attribute dicts are shared with the original: attributes are read-only after
        parsing (stages change structure and tags, never attributes).
        """
        copy = Node(self.tag, self.attrs, self.text)
        stack = [(self, copy)]
        pop = stack.pop
        push = stack.append
        while stack:
            src, dst = pop()
            kids = dst.children
            for c in src.children:
                cc = Node(c.tag, c.attrs, c.text)
                cc.parent = dst
                kids.append(cc)
                if c.children:
                    push((c, cc))
        return copy

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        if self.tag == TEXT:
            return f"Text({self.text[:30]!r})"
        return f"<{self.tag} {self.class_id!r} children={len(self.children)}>"


class UndoLog:
    """What it takes to undo in-place structural edits of a tree: the tag and child list of
    every node, taken just before its first edit.

    Contract for the editing code: call :meth:`record` on a node before changing its
    ``tag`` or its child list (``node.remove()`` edits the *parent's* list; assigning
    ``node.children`` replaces it); nodes that existed before the edits must never gain
    children that were not theirs (new nodes may: they are dropped on undo). Attributes and
    text are not covered. Cost: one entry per edited node, instead of a copy of every
    child list of the tree taken in advance.
    """

    __slots__ = ("_entries", "_seen")

    def __init__(self) -> None:
        self._entries: list[tuple[Node, str, list[Node]]] = []
        self._seen: set[int] = set()

    def record(self, node: Node) -> None:
        """Remember ``node``'s tag and child list, unless already remembered (the entries
        keep the nodes alive, so ``id`` stays unique)."""
        k = id(node)
        if k not in self._seen:
            self._seen.add(k)
            self._entries.append((node, node.tag, node.children[:]))

    def __len__(self) -> int:
        return len(self._entries)

    def undo(self) -> None:
        """Put back every remembered tag, child list and the children's parent links, the
        latest entry first (so the earliest, original state of a node wins), then forget
        them."""
        for node, tag, kids in reversed(self._entries):
            node.tag = tag
            node.children = kids
            for c in kids:
                c.parent = node
        self._entries.clear()
        self._seen.clear()


def new_element(tag: str, attrs: dict[str, str] | None = None) -> Node:
    return Node(tag, attrs)


def new_text(text: str) -> Node:
    return Node(TEXT, None, text)


def detach_children(parents: Iterable[Node | None], ids: set[int]) -> None:
    """Detach, from each of ``parents`` (repeats and ``None`` allowed), the children whose
    ``id()`` is in ``ids``: one pass over each parent's children, however many go (where
    :meth:`Node.remove` would scan the siblings once per removed node)."""
    done: set[int] = set()
    for parent in parents:
        if parent is None or id(parent) in done:
            continue
        done.add(id(parent))
        kept = []
        for ch in parent.children:
            if id(ch) in ids:
                ch.parent = None
            else:
                kept.append(ch)
        parent.children = kept
