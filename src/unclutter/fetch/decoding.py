"""Content-Encoding decoding with bounded output, and binary sniffing.

httpx decodes gzip/deflate/br for its callers, but each of its decoders turns one
received chunk into *all* of its output at once: a 64 KiB chunk of a gzip bomb becomes
~64 MiB, and of a brotli bomb far more, before anyone can count it. These decoders use
the same libraries (``zlib``, ``brotli``) through their output-limiting calls
(``decompressobj().decompress(data, max_length)``, ``Decompressor.process(data,
output_buffer_limit=...)``) and yield pieces of at most ``DECODE_CHUNK_BYTES``, so the
caller can stop the moment the decoded total crosses the ceiling.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from ..core.errors import FetchError, UnsupportedContentError
from ..core.limits import MAX_CONTROL_CHAR_RATIO
from .policy import BINARY_SIGNATURES, DECODE_CHUNK_BYTES

try:  # optional: brotli ("br") is only advertised and decoded when installed
    import brotli as _brotli

    if not hasattr(_brotli.Decompressor(), "can_accept_more_data"):  # pragma: no cover
        _brotli = None  # too old to limit its output: do not accept "br"
except ImportError:  # pragma: no cover
    _brotli = None

__all__ = ["BROTLI_AVAILABLE", "ACCEPT_ENCODING", "Decoder", "make_decoder", "parse_content_encoding", "sniff_binary"]

#: Whether "br" responses can be decoded (the ``brotli`` package is installed).
BROTLI_AVAILABLE = _brotli is not None

#: The Accept-Encoding header the fetcher sends: only what it can decode with limits.
ACCEPT_ENCODING = "gzip, deflate, br" if BROTLI_AVAILABLE else "gzip, deflate"

_GZIP_MAGIC = b"\x1f\x8b"


class Decoder:
    """Turns received body bytes into decoded bytes, in pieces of bounded size."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decode *data*; yields pieces of at most ``DECODE_CHUNK_BYTES`` (plus a little
        for brotli, whose limit is a buffer size hint)."""
        yield data

    def flush(self) -> Iterator[bytes]:
        """Decode whatever is still buffered once the body has ended."""
        return iter(())


class _ZlibDecoder(Decoder):
    """gzip (``wbits=31``, several members allowed) or deflate (zlib or raw)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pending = b""  # deflate: first bytes, until the zlib header is recognised
        self._d: zlib._Decompress | None = None
        if name == "gzip":
            self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)

    def _start_deflate(self, data: bytes) -> bytes:
        data = self._pending + data
        if len(data) < 2:
            self._pending = data
            return b""
        self._pending = b""
        # RFC 1950 header: compression method 8 and a check value divisible by 31. Some
        # servers send raw deflate (RFC 1951) under "deflate"; browsers accept both.
        wrapped = data[0] & 0x0F == 8 and ((data[0] << 8) | data[1]) % 31 == 0
        self._d = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        return data

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._d is None:
            data = self._start_deflate(data)
            if self._d is None:
                return
        while True:
            d = self._d
            try:
                out = d.decompress(data, DECODE_CHUNK_BYTES)
            except zlib.error as exc:
                raise FetchError(f"corrupt {self.name} content: {exc}") from None
            if out:
                yield out
            data = d.unconsumed_tail
            if d.eof:
                rest = d.unused_data
                if self.name == "gzip" and rest.startswith(_GZIP_MAGIC):
                    self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)  # next gzip member
                    data = rest
                    continue
                return  # anything after the end of the stream is ignored, as browsers do
            if not data and len(out) < DECODE_CHUNK_BYTES:
                return

    def flush(self) -> Iterator[bytes]:
        if self._pending:
            yield from self.feed(b"")
        if self._d is not None and not self._d.eof:
            yield from self.feed(b"")


class _BrotliDecoder(Decoder):
    name = "br"

    def __init__(self) -> None:
        assert _brotli is not None
        self._d = _brotli.Decompressor()

    def feed(self, data: bytes) -> Iterator[bytes]:
        try:
            out = self._d.process(data, output_buffer_limit=DECODE_CHUNK_BYTES)
            if out:
                yield out
            while not self._d.can_accept_more_data():
                out = self._d.process(b"", output_buffer_limit=DECODE_CHUNK_BYTES)
                if not out:  # nothing pending after all
                    return
                yield out
        except _brotli.error as exc:
            raise FetchError(f"corrupt br content: {exc}") from None


class _Chain(Decoder):
    """Several decoders, the first applied to the received bytes."""

    def __init__(self, decoders: list[Decoder]) -> None:
        self._decoders = decoders

    def _through(self, index: int, pieces: Iterator[bytes]) -> Iterator[bytes]:
        if index == len(self._decoders):
            yield from pieces
            return
        decoder = self._decoders[index]
        for piece in pieces:
            yield from self._through(index + 1, decoder.feed(piece))

    def feed(self, data: bytes) -> Iterator[bytes]:
        yield from self._through(0, iter((data,)))

    def flush(self) -> Iterator[bytes]:
        for index, decoder in enumerate(self._decoders):
            yield from self._through(index + 1, decoder.flush())


def parse_content_encoding(header: str | None) -> list[str]:
    """The codings of a Content-Encoding header in the order they were applied,
    lower-cased, ``identity`` left out (``"gzip, br"`` -> ``["gzip", "br"]``)."""
    if not header:
        return []
    codings = [c.strip().lower() for c in header.split(",")]
    return [c for c in codings if c and c != "identity"]


def make_decoder(codings: list[str], max_codings: int, where: str) -> Decoder:
    """A decoder undoing *codings* (as returned by :func:`parse_content_encoding`).

    Args:
        codings: content codings in the order the server applied them.
        max_codings: most codings accepted (``FetchPolicy.max_content_encodings``).
        where: the URL, for messages.

    Raises:
        UnsupportedContentError: more than *max_codings* codings, or one that is not
            gzip/x-gzip/deflate/br (br only with the ``brotli`` package installed).
    """
    if len(codings) > max_codings:
        raise UnsupportedContentError(
            f"refused: {len(codings)} stacked Content-Encodings ({', '.join(codings)}), "
            f"at most {max_codings} allowed ({where})"
        )
    decoders: list[Decoder] = []
    for coding in reversed(codings):
        if coding in ("gzip", "x-gzip"):
            decoders.append(_ZlibDecoder("gzip"))
        elif coding == "deflate":
            decoders.append(_ZlibDecoder("deflate"))
        elif coding == "br" and BROTLI_AVAILABLE:
            decoders.append(_BrotliDecoder())
        else:
            raise UnsupportedContentError(f"unsupported Content-Encoding {coding!r} ({where})")
    if not decoders:
        return Decoder()
    return decoders[0] if len(decoders) == 1 else _Chain(decoders)


_UTF16_32_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
# C0 controls that never occur in text (everything but TAB, LF, FF, CR and ESC).
_BINARY_CONTROLS = frozenset(range(0x00, 0x09)) | {0x0B} | frozenset(range(0x0E, 0x1B)) | frozenset(range(0x1C, 0x20))


def sniff_binary(head: bytes, charset: str | None) -> str | None:
    """Whether the first decoded bytes of a page are binary data, not markup.

    Args:
        head: the first ``SNIFF_BYTES`` (or fewer) decoded bytes.
        charset: the charset from the Content-Type header, if any (UTF-16/32 text is
            full of NUL bytes and is not judged by control characters).

    Returns:
        ``None`` for text; else what it looks like (``"PDF"``, ``"PNG"``, ``"binary
        data"``). Signatures come from ``BINARY_SIGNATURES``; otherwise a share of
        control characters above ``core.limits.MAX_CONTROL_CHAR_RATIO`` means binary.
    """
    for offset, signature, name in BINARY_SIGNATURES:
        if head[offset : offset + len(signature)] == signature:
            return name
    wide = head.startswith(_UTF16_32_BOMS) or (charset or "").lower().replace("-", "").startswith(("utf16", "utf32"))
    if wide or not head:
        return None
    controls = sum(1 for byte in head if byte in _BINARY_CONTROLS)
    if controls / len(head) > MAX_CONTROL_CHAR_RATIO:
        return "binary data"
    return None
