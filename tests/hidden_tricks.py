"""Hand-built pages that hide (or seem to hide, but do not) one sentence of an article.

Each :class:`Trick` is one page: an article of ordinary paragraphs with one more sentence
carrying a marker (``HID-<n>`` when a browser does not show it, ``VIS-<n>`` when it does),
styled by one way of hiding text, applied in one way (a ``style`` attribute, a class or
id rule, a descendant rule, a ``@media`` group, a ``<style>`` wrapped in ``<!-- -->``,
custom properties, escaped selectors, ``!important``, inheritance, colours set by the
context). The visible controls are near misses: the same declarations where CSS says they
do nothing (a transform on an inline box, ``left`` on a static box, ``clip`` without
absolute positioning), overridden by a more specific or later rule, undone by a
descendant, or in a query that does not match a desktop window.

``tests/test_hidden_text_chromium.py`` renders every page in Chromium to confirm which
sentences a reader sees, and checks that unclutter's output holds exactly those.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Trick", "tricks", "page"]

STORY = (
    "Paragraph {i} of the field report describes the river crossing, the weather at dawn, "
    "and the long walk back to the village before the market opened."
)
#: The sentence a trick styles (the marker first, so a cut sentence still shows it).
SENTENCE = "{marker} is one more sentence of the report, with commas, several clauses, and enough words."


@dataclass(frozen=True)
class Trick:
    """One page: ``css`` (a stylesheet), ``body`` (the styled sentence, with ``{s}`` where
    the sentence goes), ``visible``: whether a browser shows the sentence, ``name``."""

    name: str
    css: str
    body: str
    visible: bool

    def marker(self, n: int) -> str:
        return f"{'VIS' if self.visible else 'HID'}-{n:03d}"


def page(trick: Trick, n: int) -> str:
    """The whole HTML page of ``trick`` number ``n``."""
    sentence = SENTENCE.format(marker=trick.marker(n))
    before = "".join(f"<p>{STORY.format(i=i)}</p>" for i in range(1, 4))
    after = "".join(f"<p>{STORY.format(i=i)}</p>" for i in range(4, 7))
    style = f"<style>{trick.css}</style>" if trick.css else ""
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Field report</title>{style}</head>"
            f"<body><article><h1>Field report</h1>{before}{trick.body.format(s=sentence)}{after}"
            "</article></body></html>")


#: Ways of hiding a block of text: (name, declarations). Each hides a ``<div>`` in a
#: browser at 1280 x 720 on a white page with black text.
HIDING = [
    ("display none", "display:none"),
    ("visibility hidden", "visibility:hidden"),
    ("visibility collapse", "visibility:collapse"),
    ("content-visibility hidden", "content-visibility:hidden"),
    ("opacity 0", "opacity:0"),
    ("opacity 5%", "opacity:0.05"),
    ("filter opacity", "filter:opacity(0)"),
    ("font-size 0", "font-size:0"),
    ("font-size 1px", "font-size:1px"),
    ("font shorthand 0", "font:0/0 a"),
    ("transparent colour", "color:transparent"),
    ("rgba alpha 0", "color:rgba(0,0,0,0)"),
    ("hex alpha 0", "color:#0000"),
    ("text fill transparent", "-webkit-text-fill-color:transparent"),
    ("white on white page", "color:#fff"),
    ("same colour as own background", "color:#123456;background:#123456"),
    ("absolute left off-screen", "position:absolute;left:-9999px"),
    ("absolute top off-screen", "position:absolute;top:-9999px"),
    ("fixed off-screen", "position:fixed;left:-10000px"),
    ("text-indent off-screen", "text-indent:-9999px;white-space:nowrap"),
    ("margin-left off-screen", "margin-left:-9999px"),
    ("translateX off-screen", "transform:translateX(-9999px)"),
    ("scale 0", "transform:scale(0)"),
    ("scale 0.001", "transform:scale(0.001)"),
    ("scale property 0", "scale:0"),
    ("clip rect zero", "position:absolute;clip:rect(0 0 0 0)"),
    ("clip rect commas", "position:absolute;clip:rect(0,0,0,0)"),
    ("clip-path inset 50%", "clip-path:inset(50%)"),
    ("clip-path circle 0", "clip-path:circle(0)"),
    ("zero height overflow hidden", "height:0;overflow:hidden"),
    ("zero box overflow hidden", "width:0;height:0;overflow:hidden"),
    ("max-height 0 overflow hidden", "max-height:0;overflow:hidden"),
    ("visually hidden 1px box", "position:absolute;width:1px;height:1px;overflow:hidden;white-space:nowrap"),
    ("translate property off-screen", "translate:-9999px"),
]

#: Single-declaration hiding values that custom properties can carry: (property, value).
VAR_HIDING = [("display", "none"), ("visibility", "hidden"), ("opacity", "0"), ("font-size", "0"),
              ("color", "transparent")]

#: Declarations that do nothing to a block's visibility, or whose hiding look is undone.
SHOWING = [
    ("half opacity", "opacity:0.5"),
    ("small font", "font-size:12px"),
    ("grey text", "color:#555"),
    ("semi-transparent text", "color:rgba(0,0,0,.6)"),
    ("white on black", "color:#fff;background:#000"),
    ("small nudge", "position:relative;left:-5px"),
    ("left without position", "left:-9999px"),
    ("top without position", "top:-9999px"),
    ("clip without absolute position", "clip:rect(0 0 0 0)"),
    ("zero height, overflow visible", "height:0"),
    ("one pixel high, overflow visible", "height:1px"),
    ("small translate", "transform:translateX(10px)"),
    ("scale 1", "transform:scale(1)"),
    ("clip-path inset 10%", "clip-path:inset(10%)"),
    ("clip-path circle 50%", "clip-path:circle(50%)"),
    ("visibility visible", "visibility:visible"),
    ("display block", "display:block"),
    ("gradient text", "background:linear-gradient(90deg,#000,#333);-webkit-background-clip:text;"
                      "background-clip:text;color:transparent"),
    ("transparent text with a shadow", "color:transparent;text-shadow:0 0 1px #000"),
    ("text-indent small", "text-indent:-20px"),
    ("margin-left small", "margin-left:-20px"),
    ("font-size in em", "font-size:0.9em"),
    # Chromium raises a relative font size under 6px to 6px ("minimum logical font size")
    ("font-size 0.1em", "font-size:0.1em"),
    ("font-size 5%", "font-size:5%"),
    ("max-height ample", "max-height:400px;overflow:hidden"),
]

#: Inline boxes ignore width, height and transforms (CSS 2.1 §10.3.1, §10.6.1; CSS
#: Transforms 1 "transformable element"): on a ``<span>`` these hide nothing.
INLINE_SHOWING = [
    ("transform on an inline box", "transform:scale(0)"),
    ("translate on an inline box", "transform:translateX(-9999px)"),
    ("zero height on an inline box", "height:0;overflow:hidden"),
    ("zero width on an inline box", "width:0;height:0;overflow:hidden"),
]


def _div(attrs: str) -> str:
    return f"<div {attrs}>{{s}}</div>"


def tricks() -> list[Trick]:
    """Every trick: at least 100 hiding ones and 100 visible controls."""
    out: list[Trick] = []
    for i, (name, decls) in enumerate(HIDING):
        out.append(Trick(f"{name} (style attribute)", "", _div(f'style="{decls}"'), False))
        out.append(Trick(f"{name} (class rule)", f".t{i}{{{decls}}}", _div(f'class="t{i}"'), False))
        out.append(Trick(f"{name} (id and descendant rule)", f"article #w{i} > .t{i}{{{decls}}}",
                         f'<div id="w{i}"><div class="t{i}">{{s}}</div></div>', False))
        out.append(Trick(f"{name} (in a matching @media group)", f"@media screen and (min-width: 800px){{.t{i}{{{decls}}}}}",
                         _div(f'class="t{i}"'), False))
        # the same rule in a group for other screens: shown
        out.append(Trick(f"{name} (print-only rule)", f"@media print{{.t{i}{{{decls}}}}}", _div(f'class="t{i}"'), True))
        out.append(Trick(f"{name} (phone-only rule)", f"@media (max-width: 600px){{.t{i}{{{decls}}}}}",
                         _div(f'class="t{i}"'), True))
        # undone by a more specific rule for every property the trick sets
        undo = {"display": "block", "visibility": "visible", "content-visibility": "visible", "opacity": "1",
                "filter": "none", "font-size": "16px", "font": "16px serif", "color": "#000",
                "-webkit-text-fill-color": "currentcolor", "background": "none", "position": "static",
                "left": "auto", "top": "auto", "text-indent": "0", "white-space": "normal", "margin-left": "0",
                "transform": "none", "scale": "none", "clip": "auto", "clip-path": "none", "height": "auto",
                "width": "auto", "max-height": "none", "overflow": "visible", "translate": "none"}
        props = [d.split(":", 1)[0] for d in decls.split(";")]
        undone = ";".join(f"{p}:{undo[p]}" for p in props)
        out.append(Trick(f"{name} (overridden by a more specific rule)", f".t{i}{{{decls}}} div.t{i}.on{{{undone}}}",
                         _div(f'class="t{i} on"'), True))
        out.append(Trick(f"{name} (a dynamic state not in effect)", f".t{i}:hover{{{decls}}}", _div(f'class="t{i}"'), True))
    # how a stylesheet is written
    out += [
        Trick("style wrapped in HTML comment markers", "<!-- .c1{display:none} -->", _div('class="c1"'), False),
        Trick("rule after one wrapped in comment markers", "<!-- .c0{color:red} .c2{display:none} -->",
              _div('class="c2"'), False),
        Trick("comment inside a declaration", ".c3{display:/* x */none}", _div('class="c3"'), False),
        Trick("escaped value", ".c4{display:\\6e one}", _div('class="c4"'), False),
        Trick("escaped selector", ".a\\:b{display:none}", _div('class="a:b"'), False),
        Trick("escaped digit selector", ".\\31 x{visibility:hidden}", _div('class="1x"'), False),
        Trick("@supports group", "@supports (display:grid){.c5{display:none}}", _div('class="c5"'), False),
        Trick("@layer group", "@layer base{.c6{opacity:0}}", _div('class="c6"'), False),
        Trick("upper-case property and value", ".c7{DISPLAY:NONE}", _div('class="c7"'), False),
        Trick("!important beats a showing style attribute", ".c8{display:none!important}",
              _div('class="c8" style="display:block"'), False),
        Trick("style attribute beats a normal rule", ".c9{display:none}", _div('class="c9" style="display:block"'), True),
        Trick("later rule of equal specificity shows", ".c10{display:none} .c10{display:block}",
              _div('class="c10"'), True),
        Trick("earlier !important hides against a later rule", ".c11{display:none!important} .c11{display:block}",
              _div('class="c11"'), False),
        Trick("attribute selector", "[data-x=\"h\"]{display:none}", _div('data-x="h"'), False),
        Trick("attribute selector that does not match", "[data-x=\"h\"]{display:none}", _div('data-x="v"'), True),
        Trick(":not() selector", "div:not(.keep){}.c12:not(.keep){display:none}", _div('class="c12"'), False),
        Trick(":not() selector that excludes", ".c13:not(.keep){display:none}", _div('class="c13 keep"'), True),
        Trick("::before rule hides nothing", ".c14::before{display:none}", _div('class="c14"'), True),
        Trick("rule for another class", ".c15{display:none}", _div('class="c16"'), True),
        Trick("sibling combinator", "h1 ~ .c17{display:none}", _div('class="c17"'), False),
        Trick("rule nested in an unknown at-rule", "@font-face{font-family:x}.c18{display:none}",
              _div('class="c18"'), False),
        Trick("rule inside @keyframes hides nothing", "@keyframes k{from{opacity:0}to{opacity:1}}",
              _div('class="c19"'), True),
    ]
    # declarations a browser drops, stylesheets it does not apply, states not in effect
    out += [
        Trick("an invalid later declaration leaves the earlier one", ".d1{display:none;display:bogus}",
              _div('class="d1"'), False),
        Trick("an invalid later declaration in a style attribute", "", _div('style="opacity:0;opacity:1px"'), False),
        Trick("an invalid later colour", ".d2{color:transparent;color:notacolour}", _div('class="d2"'), False),
        Trick("an invalid selector drops the whole rule", ".d3, .x:bogus-pseudo{display:none}",
              _div('class="d3"'), True),
        Trick("a state not in effect, negated", ".d4:not(:hover){display:none}", _div('class="d4"'), False),
        Trick("a stylesheet for print only", "", '<style media="print">.d5{{display:none}}</style>'
              + _div('class="d5"'), True),
        Trick("a style element that is not CSS", "", '<style type="text/plain">.d6{{display:none}}</style>'
              + _div('class="d6"'), True),
        Trick("a stylesheet in a data: URL", "", '<link rel="stylesheet" href="data:text/css,.d7%7Bdisplay:none%7D">'
              + _div('class="d7"'), False),
        Trick("the page hidden, parts of it shown again", "body{visibility:hidden} h1,p{visibility:visible}",
              _div('class="d8"'), False),
        Trick("transparent text with a transparent shadow", ".e1{color:transparent;text-shadow:0 0 0 transparent}",
              _div('class="e1"'), False),
        Trick("transparent text with a shadow far off the page", ".e2{color:transparent;text-shadow:-9999px 0 0 #000}",
              _div('class="e2"'), False),
        Trick("text clipped to an empty background", ".e3{-webkit-background-clip:text;background-clip:text;"
                                                     "color:transparent}", _div('class="e3"'), False),
        Trick("text beside a formula in its hidden alternative", ".d9{position:absolute;left:-9999px}",
              '<div class="d9"><math><mi>x</mi></math> {s}</div>', False),
    ]
    # custom properties
    for j, (prop, value) in enumerate(VAR_HIDING):
        out.append(Trick(f"{prop} from a custom property", f":root{{--h{j}:{value}}} .v{j}{{{prop}:var(--h{j})}}",
                         _div(f'class="v{j}"'), False))
        out.append(Trick(f"{prop} from a custom property's fallback", f".v{j}{{{prop}:var(--nope{j}, {value})}}",
                         _div(f'class="v{j}"'), False))
        out.append(Trick(f"{prop} custom property set on the element", f".v{j}{{--h:{value};{prop}:var(--h)}}",
                         _div(f'class="v{j}"'), False))
        out.append(Trick(f"{prop} custom property in a style attribute",
                         f":root{{--h{j}:{value}}}", _div(f'style="{prop}:var(--h{j})"'), False))
        out.append(Trick(f"{prop} from an undefined custom property", f".v{j}{{{prop}:var(--undefined{j})}}",
                         _div(f'class="v{j}"'), True))
    out.append(Trick("display from a custom property that shows", ":root{--d:block} .v9{display:var(--d)}",
                     _div('class="v9"'), True))
    # inheritance
    for name, decls, undo in [("visibility hidden", "visibility:hidden", "visibility:visible"),
                              ("font-size 0", "font-size:0", "font-size:16px"),
                              ("transparent colour", "color:transparent", "color:#222"),
                              ("text fill transparent", "-webkit-text-fill-color:transparent",
                               "-webkit-text-fill-color:#222")]:
        out.append(Trick(f"{name} inherited from a parent", f".p1{{{decls}}}",
                         '<div class="p1"><p>{s}</p></div>', False))
        out.append(Trick(f"{name} inherited, undone by the child", f".p1{{{decls}}} .p1 .c{{{undo}}}",
                         '<div class="p1"><p class="c">{s}</p></div>', True))
        out.append(Trick(f"{name} inherited through a style attribute", "",
                         f'<div style="{decls}"><p>{{s}}</p></div>', False))
        out.append(Trick(f"{name} in a style attribute, undone by the child", "",
                         f'<div style="{decls}"><p style="{undo}">{{s}}</p></div>', True))
    out += [
        Trick("font-size in em of a tiny parent", ".p2{font-size:1px} .p2 p{font-size:1.5em}",
              '<div class="p2"><p>{s}</p></div>', False),
        Trick("font-size in em of a tiny relative parent", ".p2{font-size:5%} .p2 p{font-size:1.5em}",
              '<div class="p2"><p>{s}</p></div>', True),
        Trick("font-size in rem under a tiny root", "html{font-size:1px} body{font-size:16px} .p2{font-size:1rem}",
              '<div class="p2"><p>{s}</p></div>', False),
        Trick("font-size in rem under a tiny parent", ".p3{font-size:0} .p3 p{font-size:1rem}",
              '<div class="p3"><p>{s}</p></div>', True),
        Trick("percentage font-size of a zero parent", ".p4{font-size:0} .p4 p{font-size:150%}",
              '<div class="p4"><p>{s}</p></div>', False),
        Trick("opacity of a parent (not undone by the child)", ".p5{opacity:0} .p5 p{opacity:1}",
              '<div class="p5"><p>{s}</p></div>', False),
        Trick("display none of a parent (not undone by the child)", ".p6{display:none} .p6 p{display:block}",
              '<div class="p6"><p>{s}</p></div>', False),
    ]
    # boxes sized by something else than width and height
    out += [
        Trick("one pixel wide flex item that grows", ".f1{display:flex} .f1 .g{width:1px;overflow:hidden;flex:1 0 0}",
              '<div class="f1"><div class="g">{s}</div></div>', True),
        Trick("zero height with a minimum height", ".f2{height:0;overflow:hidden;min-height:80px}", _div('class="f2"'), True),
        Trick("zero height with bottom padding", ".f3{height:0;overflow:hidden;padding-bottom:80px}", _div('class="f3"'), True),
        Trick("zero height with top padding", ".f4{height:0;overflow:hidden;padding-top:80px}", _div('class="f4"'), False),
    ]
    # colours set by the context
    out += [
        Trick("black text on a black section", ".k1{background:#000} .k1 p{color:#000}",
              '<div class="k1"><p>{s}</p></div>', False),
        Trick("default text on a black section", ".k2{background:#000}", '<div class="k2"><p>{s}</p></div>', False),
        Trick("white text on a white section", ".k3{background:#fff;color:#fff}", '<div class="k3"><p>{s}</p></div>', False),
        Trick("white text on a black section", ".k4{background:#000;color:#fff}", '<div class="k4"><p>{s}</p></div>', True),
        Trick("page background equal to text colour", "body{background:#eee} .k5{color:#eee}",
              _div('class="k5"'), False),
        Trick("page background differs from text colour", "body{background:#eee} .k6{color:#111}",
              _div('class="k6"'), True),
        Trick("same colour written differently", ".k7{background:rgb(18,52,86)} .k7 p{color:#123456}",
              '<div class="k7"><p>{s}</p></div>', False),
        Trick("a child's own background shows its text", ".k8{background:#000;color:#000} .k8 p{background:#fff}",
              '<div class="k8"><p>{s}</p></div>', True),
        Trick("text over a dark gradient", ".k9{background:#fff linear-gradient(#000,#111);color:#fff}",
              _div('class="k9"'), True),
    ]
    # inline boxes: no width, height or transform
    for name, decls in INLINE_SHOWING:
        out.append(Trick(name, f".i1{{{decls}}}", '<p>Lead-in words, <span class="i1">{s}</span></p>', True))
        out.append(Trick(f"{name} made a block", f".i1{{display:inline-block;{decls}}}",
                         '<p>Lead-in words, <span class="i1">{s}</span></p>', False))
    # declarations that show
    for name, decls in SHOWING:
        out.append(Trick(f"{name} (style attribute)", "", _div(f'style="{decls}"'), True))
        out.append(Trick(f"{name} (class rule)", f".s1{{{decls}}}", _div('class="s1"'), True))
    return out
