"""The summary block written before the Markdown or text output when a summary was asked
for: the same words from the CLI (``unclutter --summary``) and the service
(``/read?summary=true&format=markdown``)."""

from __future__ import annotations

from ..core.models import Article

__all__ = ["with_summary"]


def with_summary(article: Article, fmt: str, body: str) -> str:
    """``body`` (``article`` rendered as ``fmt``) with the page summary and the summaries of
    the table-of-contents sections first: a Markdown block quote for ``"markdown"``, plain
    lines for ``"text"``; ``body`` unchanged for other formats or without a summary."""
    if article.summary is None or fmt not in ("markdown", "text"):
        return body
    sections = [e for e in article.toc if e.summary]
    if fmt == "markdown":
        lines = [f"> **Summary** ({article.summary_backend}): {article.summary}"]
        if sections:
            lines.append(">")
            lines += [f"> - **{e.title}**: {e.summary}" for e in sections]
    else:
        lines = [f"Summary: {article.summary}"] + [f"- {e.title}: {e.summary}" for e in sections]
    return "\n".join(lines) + "\n\n" + body
