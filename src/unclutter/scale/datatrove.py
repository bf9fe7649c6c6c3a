"""unclutter as a datatrove extractor step: swap trafilatura for unclutter in one line.

::

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from unclutter.scale.datatrove import Unclutter

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/", glob_pattern="*.warc.gz"),
        Unclutter(),                  # was: Trafilatura(favour_precision=True)
        JsonlWriter("out/"),
    ], tasks=4).run()

datatrove's :class:`~datatrove.pipeline.extractors.base.BaseExtractor` runs ``extract`` in a
forked sandbox with a per-document timeout; a document whose page has no main content (or
that unclutter refuses) gets empty text and is dropped by the step, as datatrove's own
extractors do.
"""

from __future__ import annotations

from ..core.errors import UnclutterError
from ..core.options import Options
from . import missing_extra

try:
    from datatrove.pipeline.extractors.base import BaseExtractor
except ImportError as exc:  # pragma: no cover - the datatrove extra
    raise missing_extra("datatrove", "datatrove") from exc

__all__ = ["Unclutter"]


class Unclutter(BaseExtractor):
    """The extractor step.

    Args:
        output: ``"markdown"`` (the reader view, default) or ``"text"`` (plain main text).
        timeout: seconds per document (datatrove's sandbox).
        **options: :class:`~unclutter.Options` fields (``include_links=False``...).
    """

    name = "🧹 unclutter"
    _requires_dependencies = ["unclutter"]

    def __init__(self, output: str = "markdown", timeout: float = 5.0, **options) -> None:
        super().__init__(timeout)
        if output not in ("markdown", "text"):
            raise ValueError("output must be 'markdown' or 'text'")
        self.output = output
        self.options = Options(**options)

    def extract(self, text: str) -> str:
        """The main content of the HTML ``text`` as Markdown (or plain text); ``""`` when
        the page has none or is refused."""
        from ..pipeline import run_pipeline

        try:
            article = run_pipeline(text, None, self.options)
        except UnclutterError:
            return ""
        return article.markdown if self.output == "markdown" else article.text
