"""Coverage-guided fuzzing of ``unclutter.extract`` (decode -> parse -> prune -> select ->
Markdown -> chunk) with atheris (libFuzzer for Python).

Every input byte is the page. The input's length picks one of :data:`MODES` (so a
mutation that changes the length also tries other option sets), and a page that
extracts is also cut into chunks. A *crash* is:

* any exception that is not an :class:`unclutter.UnclutterError` (those are the
  library's deliberate answers to bad input: empty, binary, too deep, no content ...);
* one input taking longer than ``--slow`` seconds (default 5 s, wall clock), reported as
  :class:`SlowInput`.

Usage (see fuzz/README.md)::

    python fuzz/fuzz_extract.py WORKDIR fuzz/corpus -dict=fuzz/html.dict [libFuzzer flags]
    python fuzz/fuzz_extract.py --keep-going WORKDIR fuzz/corpus ...   # long runs
    python fuzz/fuzz_extract.py fuzz/crashes/FILE.html                   # replay one input

libFuzzer writes new corpus entries into the first directory (WORKDIR), so keep it
outside fuzz/corpus. With ``--keep-going`` a crash does not stop the run: each distinct
crash (exception type and innermost unclutter frame) is saved once under
``fuzz/crashes/`` as ``<kind>-<sha1>.html`` with the traceback beside it (``.txt``).
Without atheris installed, the files named on the command line are replayed.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
import traceback

CRASH_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crashes")

#: Option sets, indexed by ``len(data) % len(MODES)``: the default path, a base URL (link
#: and image resolution), the text path (``str`` input) with the learned extractor and the
#: removal log, and the CETD extractor without links or images.
MODES = (
    ("bytes", {}),
    ("bytes", {"url": "https://example.com/dir/page.html?q=1"}),
    ("str", {"extractor": "gbdt", "explain": True}),
    ("bytes", {"extractor": "cetd", "include_links": False, "include_images": False}),
)


class SlowInput(Exception):
    """One input took longer than the ``--slow`` limit (seconds, wall clock)."""


def _pop_flag(argv: list[str], name: str, default: str | None = None) -> str | None:
    """Remove ``--name`` / ``--name=value`` from ``argv`` (libFuzzer would reject it)."""
    for i, arg in enumerate(argv):
        if arg == name:
            del argv[i]
            return "1"
        if arg.startswith(name + "="):
            del argv[i]
            return arg.split("=", 1)[1]
    return default


def run_one(data: bytes, unclutter) -> None:
    """Run one input through the pipeline; library errors are expected answers."""
    kind, options = MODES[len(data) % len(MODES)]
    page = data.decode("utf-8", "replace") if kind == "str" else data
    try:
        article = unclutter.extract(page, **options)
    except unclutter.UnclutterError:
        return
    # Post-conditions that hold for every page the library accepts.
    if not isinstance(article.markdown, str) or not isinstance(article.text, str):
        raise AssertionError("extract returned non-text markdown/text")
    unclutter.chunk(article, max_tokens=64, topics=False)


def _signature(exc: BaseException) -> str:
    """Exception type plus the innermost frame inside unclutter (dedupes crashes)."""
    where = "?"
    for frame in traceback.extract_tb(exc.__traceback__):
        if "unclutter" in frame.filename:
            where = f"{os.path.basename(frame.filename)}:{frame.lineno}"
    return f"{type(exc).__name__}@{where}"


def main() -> None:
    argv = list(sys.argv)
    keep_going = _pop_flag(argv, "--keep-going") is not None
    slow_s = float(_pop_flag(argv, "--slow", "5"))
    try:
        import atheris
    except ImportError:  # replay mode: the files named on the command line
        atheris = None

    if atheris is not None:
        with atheris.instrument_imports(include=["unclutter"]):
            import unclutter
    else:
        import unclutter
    # Warm up outside the timed path: first use loads models and the tokenizer's ranks.
    try:
        unclutter.chunk(unclutter.extract("<p>" + "warm up text " * 40), max_tokens=64)
    except unclutter.UnclutterError:
        pass

    seen: set[str] = set()

    def test_one_input(data: bytes) -> None:
        start = time.perf_counter()
        try:
            run_one(data, unclutter)
            took = time.perf_counter() - start
            if took > slow_s:
                raise SlowInput(f"{took:.1f} s for {len(data)} bytes (limit {slow_s} s)")
        except Exception as exc:  # noqa: BLE001 - every non-library exception is a finding
            if not keep_going:
                raise
            sig = _signature(exc)
            if sig in seen:
                return
            seen.add(sig)
            os.makedirs(CRASH_DIR, exist_ok=True)
            name = f"{type(exc).__name__}-{hashlib.sha1(data).hexdigest()[:12]}"
            with open(os.path.join(CRASH_DIR, name + ".html"), "wb") as fh:
                fh.write(data)
            with open(os.path.join(CRASH_DIR, name + ".txt"), "w", encoding="utf-8") as fh:
                fh.write(f"{sig}\nmode: {MODES[len(data) % len(MODES)]}\n\n")
                fh.write("".join(traceback.format_exception(exc)))
            print(f"\n=== CRASH {sig} saved as fuzz/crashes/{name}.html", file=sys.stderr, flush=True)

    if atheris is None:
        for path in argv[1:]:
            with open(path, "rb") as fh:
                test_one_input(fh.read())
            print(f"{path}: ok")
        return
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
