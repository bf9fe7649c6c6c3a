"""Hidden text, differentially: unclutter's output holds exactly the text Chromium shows.

Every page of :mod:`hidden_tricks` (100+ ways of hiding a sentence, 100+ near misses that
a reader does see) is extracted by unclutter, and rendered by Debian's chromium through
Playwright, which reports whether the sentence is visible from the computed style and
the layout boxes (see :data:`VISIBLE_JS`). The browser half checks the trick list itself
(what the browser shows is what the list says); the unclutter half checks the output.
The browser test skips, saying why, only where chromium or Playwright is missing
(``.ci/run`` installs Debian's chromium).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import unclutter

try:
    from . import hidden_tricks  # type: ignore[no-redef]
except ImportError:
    import hidden_tricks  # type: ignore[no-redef]

TRICKS = hidden_tricks.tricks()
PAGES = [(n, t, hidden_tricks.page(t, n)) for n, t in enumerate(TRICKS)]

#: The reference desktop window unclutter reads media queries for (``prune.rules.REFERENCE_MEDIA``).
VIEWPORT = {"width": 1280, "height": 720}

#: Whether the text node holding the marker is visible: it has a layout box of some area
#: that is not wholly left of or above the page, the browser hit-tests the element at that
#: box (clipping, clip-path and zero-size overflow boxes take it out of hit testing), its
#: computed visibility is visible, the product of its and its ancestors' opacity (and
#: ``filter: opacity()``) is at least 0.1, its font size at least 2px, its text colour (or
#: fill) has an alpha of at least 0.1 unless a visible shadow near it or a painted background
#: clipped to the glyphs draws it, and differs
#: from the background it is painted on (the first ancestor with an opaque background colour
#: and no background image; the white canvas).
VISIBLE_JS = r"""
(marker) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node = null;
  while (walker.nextNode()) { if (walker.currentNode.data.includes(marker)) { node = walker.currentNode; break; } }
  if (!node) return {found: false};
  const el = node.parentElement;
  const rgba = (s) => { const m = s.match(/rgba?\(([^)]*)\)/); if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const range = document.createRange(); range.selectNodeContents(node);
  const rects = [...range.getClientRects()].filter(r => r.width > 0.5 && r.height > 0.5 && r.right > 0 && r.bottom > 0);
  if (!rects.length) return {found: true, visible: false, why: 'no box on the page'};
  let hit = false;
  // sample points across each box (not its exact centre: clip shapes shrink towards it)
  for (const r0 of rects) {
    for (const fx of [0.2, 0.4, 0.6, 0.8]) {
      window.scrollTo(0, 0);
      const mid = r0.top + r0.height / 2;
      if (mid > innerHeight - 1) window.scrollTo(0, mid - innerHeight / 2);
      const r = [...range.getClientRects()].find(q => Math.abs(q.width - r0.width) < 1 && Math.abs(q.left - r0.left) < 1) || r0;
      const x = r.left + r.width * fx, y = r.top + r.height / 2;
      const at = (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight) ? document.elementFromPoint(x, y) : null;
      window.scrollTo(0, 0);
      if (at && (at === el || el.contains(at))) { hit = true; break; }
    }
    if (hit) break;
  }
  if (!hit) return {found: true, visible: false, why: 'not hit-testable'};
  const cs = getComputedStyle(el);
  if (cs.visibility !== 'visible') return {found: true, visible: false, why: 'visibility'};
  if (parseFloat(cs.fontSize) < 2) return {found: true, visible: false, why: 'font size'};
  let opacity = 1, clipText = false, shadow = false;
  for (let a = el; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    opacity *= parseFloat(s.opacity);
    const f = s.filter.match(/opacity\(([\d.]+)\)/); if (f) opacity *= parseFloat(f[1]);
    // glyphs clipped to a background show only when the background paints something
    const paints = (s.backgroundImage && s.backgroundImage !== 'none') || (rgba(s.backgroundColor) || [0, 0, 0, 0])[3] >= 0.1;
    if ((s.backgroundClip === 'text' || s.webkitBackgroundClip === 'text') && paints) clipText = true;
  }
  // a shadow draws the text when some shadow has a visible colour and stays near it
  for (const part of (cs.textShadow || 'none').split(/,(?![^(]*\))/)) {
    if (part.trim() === 'none') continue;
    const c = rgba(part);
    const nums = (part.replace(/rgba?\([^)]*\)/, '').match(/-?[\d.]+px/g) || []).map(parseFloat);
    if (c && c[3] >= 0.1 && nums.slice(0, 2).every(v => Math.abs(v) < 900)) shadow = true;
  }
  if (opacity < 0.1) return {found: true, visible: false, why: 'opacity'};
  const colour = rgba(cs.webkitTextFillColor || cs.color) || rgba(cs.color);
  if (!clipText && !shadow && colour && colour[3] < 0.1) return {found: true, visible: false, why: 'transparent'};
  let bg = [255, 255, 255, 1];
  for (let a = el; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.backgroundImage && s.backgroundImage !== 'none') { bg = null; break; }
    const b = rgba(s.backgroundColor);
    if (b && b[3] >= 1) { bg = b; break; }
  }
  if (!clipText && !shadow && colour && bg && Math.abs(colour[0] - bg[0]) < 3 && Math.abs(colour[1] - bg[1]) < 3
      && Math.abs(colour[2] - bg[2]) < 3) return {found: true, visible: false, why: 'colour equals background'};
  return {found: true, visible: true};
}
"""


def test_the_trick_list_is_large_enough() -> None:
    assert sum(not t.visible for t in TRICKS) >= 100
    assert sum(t.visible for t in TRICKS) >= 100
    assert len({hidden_tricks.page(t, 0) for t in TRICKS}) == len(TRICKS)  # no two pages alike


@pytest.mark.parametrize("n", range(len(PAGES)), ids=[f"{n:03d}-{t.name}" for n, t, _ in PAGES])
def test_unclutter_shows_exactly_the_visible_sentence(n: int) -> None:
    _, trick, html = PAGES[n]
    article = unclutter.extract(html)
    marker = trick.marker(n)
    for out in (article.markdown, article.text):
        assert (marker in out) == trick.visible, (trick.name, trick.css, trick.body)
    assert "Paragraph 6 of the field report" in article.text  # the article itself is read


def test_chromium_agrees_with_the_trick_list() -> None:
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the playwright package is not installed: pip install -e '.[test]'")
    executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")
    if not executable:
        pytest.skip("chromium not found at /usr/bin/chromium nor on PATH (apt-get install -y chromium)")
    try:
        from .test_browser import CHROMIUM_ARGS  # type: ignore[no-redef]
    except ImportError:
        from test_browser import CHROMIUM_ARGS  # type: ignore[no-redef]
    wrong = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=VIEWPORT, java_script_enabled=True)
            context.route("**/*", lambda route: route.abort())  # the pages need nothing from outside
            tab = context.new_page()
            for n, trick, html in PAGES:
                tab.set_content(html, wait_until="load")
                got = tab.evaluate(VISIBLE_JS, trick.marker(n))
                assert got["found"], trick.name
                if got["visible"] != trick.visible:
                    wrong.append((n, trick.name, got.get("why")))
        finally:
            browser.close()
    assert not wrong, wrong
