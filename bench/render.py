"""Time per rendered page and the browser's memory, on this machine.

Pages from a dataset are served by a local origin on 127.0.0.1 in two forms: as saved
(static HTML) and as a JavaScript shell (the page's body moved into a script that writes
it into an empty ``<div id="root">`` after the page has loaded). Each is read three ways:
``render="never"`` (static only), ``render="auto"`` and ``render="always"``, with one
browser reused for every page (as the CLI, the batch workers and the service do). Images,
media and fonts are not loaded (the defaults); a page's requests to other hosts are refused
by the fetch policy as in real use, so only the saved HTML is rendered.

Memory: the resident set (RSS) and proportional set (PSS, shared pages divided among the
processes) of all the browser's processes, from ``/proc``, after the run.

    python bench/render.py [--dataset aeb] [--pages 30]

Writes ``bench/results/render.json`` and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
DATASETS = ROOT.parent / "shared" / "datasets"

import fetch_servers as fs  # noqa: E402

import unclutter  # noqa: E402
from unclutter.core.errors import UnclutterError  # noqa: E402
from unclutter.fetch import browser  # noqa: E402


def _pages(dataset: str, count: int) -> list[tuple[str, bytes]]:
    folder = DATASETS / dataset
    out = []
    with open(folder / "cases.jsonl", encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            path = folder / case["html"]
            data = path.read_bytes()
            if path.suffix == ".gz":
                data = gzip.decompress(data)
            out.append((case["id"], data))
            if len(out) >= count:
                break
    return out


def _shell(html: bytes) -> bytes:
    """The page as a JavaScript shell: its body is written by a script after load."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html.decode("utf-8", "replace"))
    if tree.body is None:
        return html
    whole = tree.body.html or ""
    body = whole[whole.find(">") + 1:whole.rfind("</body>")]
    head = tree.head.html if tree.head is not None else "<head></head>"
    # "</" and "<!--" escaped: the body's own </script> must not end this script
    literal = json.dumps(body).replace("</", "<\\/").replace("<!--", "<\\!--")
    script = ("<script>window.addEventListener('DOMContentLoaded', () => {document.getElementById('root')"
              f".innerHTML = {literal};}});</script>")
    return f"<!doctype html><html>{head}<body><div id=\"root\"></div>{script}</body></html>".encode("utf-8", "replace")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", default="aeb")
    ap.add_argument("--pages", type=int, default=30)
    args = ap.parse_args()
    pages = _pages(args.dataset, args.pages)
    routes = {}
    for pid, html in pages:
        routes[f"/static/{pid}"] = fs.page(html)
        routes[f"/shell/{pid}"] = fs.page(_shell(html))
    renderer = browser.Renderer()
    browser.default_renderer = lambda: renderer  # one browser for the whole run
    rows: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    words: dict[str, list[int]] = {}
    with fs.LocalServer(routes) as server:
        policy = fs.local_policy(server)
        start = time.perf_counter()
        renderer.render(server.url(f"/static/{pages[0][0]}"), policy=policy)  # browser start, timed apart
        launch = time.perf_counter() - start
        for kind, mode in (("static", "never"), ("static", "auto"), ("static", "always"),
                           ("shell", "auto"), ("shell", "always")):
            key = f"{kind} page, render={mode}"
            for pid, _html in pages:
                t = time.perf_counter()
                try:
                    article = unclutter.extract_url(server.url(f"/{kind}/{pid}"), policy=policy, render=mode)
                    words.setdefault(key, []).append(article.word_count)
                except UnclutterError:
                    errors[key] = errors.get(key, 0) + 1
                rows.setdefault(key, []).append(time.perf_counter() - t)
        rss, pss = (b / 2**20 for b in browser.tree_memory(renderer.browser_pids()))
    renderer.close()
    result = {"dataset": args.dataset, "pages": len(pages), "browser_start_s": round(launch, 3),
              "browser_rss_mib": round(rss, 1), "browser_pss_mib": round(pss, 1), "rows": {}}
    print(f"{len(pages)} pages of {args.dataset}; browser start {launch:.2f} s; "
          f"browser memory after the run: RSS {rss:.0f} MiB, PSS {pss:.0f} MiB\n")
    print("| pages | seconds per page (median) | p90 | errors | mean words |")
    print("|---|---:|---:|---:|---:|")
    for key, times in rows.items():
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        mean_words = statistics.mean(words[key]) if words.get(key) else 0
        result["rows"][key] = {"median_s": round(statistics.median(times), 4), "p90_s": round(p90, 4),
                               "errors": errors.get(key, 0), "mean_words": round(mean_words, 1)}
        print(f"| {key} | {statistics.median(times):.3f} | {p90:.3f} | {errors.get(key, 0)} | {mean_words:.0f} |")
    out = ROOT / "bench" / "results" / "render.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
