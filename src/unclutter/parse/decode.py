"""Bytes to text: the encoding-sniffing part of the parse stage.

Order (WHATWG HTML, "determining the character encoding",
https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm):

1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE);
2. the transport-layer charset (the HTTP ``Content-Type`` parameter), when given;
3. the ``<meta charset>`` / ``<meta http-equiv="Content-Type">`` prescan of the first
   :data:`META_PRESCAN_BYTES` bytes (the spec says 1024; real pages often put the tag after
   long comments or scripts, so we read further);
4. strict UTF-8 if the bytes are valid UTF-8;

Deviation from WHATWG: bytes that contain non-ASCII characters *and* are valid UTF-8 are
decoded as UTF-8 even when the HTTP header or ``<meta>`` names another encoding: pages
re-saved as UTF-8 keep their old declaration (e.g. ``charset=gb2312`` on a UTF-8 file), and
legacy-encoded text with non-ASCII bytes is almost never valid UTF-8 by chance.
5. detection with charset-normalizer, else windows-1252 (the spec's fallback for most
   locales).

Labels are resolved through the WHATWG Encoding Standard's aliases
(https://encoding.spec.whatwg.org/#names-and-labels), where ``iso-8859-1``, ``latin1`` and
``ascii`` all mean windows-1252. An unknown label is ignored, never fatal; undecodable
bytes become U+FFFD. Input that is not text at all (PDF, images, archives, mostly NUL or
control bytes) raises :class:`~unclutter.core.errors.BinaryInputError`.
"""

from __future__ import annotations

import codecs
import re

from ..core.errors import BinaryInputError, EmptyInputError, InputTooLargeError
from ..core.limits import MAX_CONTROL_CHAR_RATIO

__all__ = ["decode_html", "gunzip_page", "resolve_label", "META_PRESCAN_BYTES"]

#: The gzip magic number (RFC 1952, section 2.3.1: ID1 ID2).
GZIP_MAGIC = b"\x1f\x8b"


def gunzip_page(data: bytes, limit: int) -> bytes:
    """``data`` decompressed when it is gzip (RFC 1952: a saved ``page.html.gz``, a web
    archive's record), else ``data`` itself. Every member of a multi-member file is read.

    Raises:
        InputTooLargeError: the decompressed page is over ``limit`` bytes (read no further:
            a small file that inflates to gigabytes costs ``limit`` bytes at most).
        BinaryInputError: the gzip data is corrupt or truncated.
    """
    if not data.startswith(GZIP_MAGIC):
        return data
    import zlib

    out: list[bytes] = []
    size = 0
    rest = data
    try:
        while rest.startswith(GZIP_MAGIC):
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            chunk = d.decompress(rest, limit + 1 - size)
            size += len(chunk)
            out.append(chunk)
            if size > limit or d.unconsumed_tail:
                raise InputTooLargeError(
                    f"unreadable input: gzip-compressed page over the {limit}-byte limit once decompressed")
            if not d.eof:
                raise BinaryInputError("unreadable input: truncated gzip data")
            rest = d.unused_data
    except zlib.error as exc:
        raise BinaryInputError(f"unreadable input: corrupt gzip data ({exc})") from None
    return b"".join(out)

#: How far into the bytes the <meta charset> prescan looks (bytes).
META_PRESCAN_BYTES = 4096

# WHATWG labels whose Python codec differs from the label's own name.
_WHATWG_ALIASES = {
    "iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "l1": "cp1252",
    "latin-1": "cp1252", "ascii": "cp1252", "us-ascii": "cp1252", "iso_8859-1": "cp1252",
    "windows-1252": "cp1252", "x-cp1252": "cp1252", "cp819": "cp1252", "ibm819": "cp1252",
    "iso-8859-9": "cp1254", "latin5": "cp1254", "iso-8859-11": "cp874", "tis-620": "cp874",
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "chinese": "gb18030",
    "x-sjis": "shift_jis", "ms_kanji": "shift_jis", "windows-31j": "cp932",
    "ks_c_5601-1987": "cp949", "euc-kr": "cp949", "x-user-defined": "cp1252",
    "unicode-1-1-utf-8": "utf-8", "utf8": "utf-8", "x-mac-roman": "mac_roman",
    # A page that *declares* UTF-16 in a meta tag is necessarily ASCII-compatible: the spec
    # says to treat it as UTF-8.
    "utf-16": "utf-8", "utf-16le": "utf-8", "utf-16be": "utf-8",
}

_META_OPEN_RE = re.compile(rb"<meta", re.IGNORECASE)
_META_CHARSET_IN_TAG_RE = re.compile(rb"""charset\s*=\s*(?:["']\s*)?([A-Za-z0-9_:.()+-]+)""", re.IGNORECASE)


def _meta_charset(data: bytes, end: int) -> bytes | None:
    r"""The charset label of the first ``<meta ... charset=LABEL`` in ``data[:end]``.

    The same answer as ``re.search(rb"<meta[^>]+?charset\s*=\s*[\"']?\s*([A-Za-z0-9_:.()+-]+)",
    data[:end], re.IGNORECASE)``, in linear time: that pattern rescans the rest of a tag
    from each ``<meta`` inside it. A ``<meta`` inside a tag that holds no charset cannot
    find one either, so the search goes on after the tag's ``>``.
    """
    pos = 0
    while (m := _META_OPEN_RE.search(data, pos, end)) is not None:
        gt = data.find(b">", m.end(), end)
        tag_end = gt if gt >= 0 else end
        c = _META_CHARSET_IN_TAG_RE.search(data, m.end() + 1, tag_end)
        if c is not None:
            return c.group(1)
        if gt < 0:
            return None
        pos = gt + 1
    return None

# File signatures of common non-HTML payloads: (magic bytes, what to call it).
_BINARY_SIGNATURES = (
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"RIFF", "a RIFF (WebP/WAV/AVI) file"),
    (b"PK\x03\x04", "a ZIP archive (or Office document)"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"BZh", "bzip2-compressed data"),
    (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x7fELF", "an ELF executable"),
    (b"MZ", "a Windows executable"),
    (b"\x00\x00\x01\x00", "an icon file"),
    (b"OggS", "an Ogg media file"),
    (b"\x1aE\xdf\xa3", "a Matroska/WebM media file"),
    (b"wOFF", "a web font"),
    (b"wOF2", "a web font"),
)


#: The encodings of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/,
#: "Encodings" table), as Python codecs. A label naming anything else (utf-7,
#: unicode_escape, EBCDIC cp037, utf-32...) is ignored as browsers ignore it: such codecs
#: could turn innocent bytes into markup ("+ADw-" is "<" in UTF-7) and let hidden text out.
_WHATWG_CODECS = frozenset(
    codecs.lookup(n).name
    for n in (
        "utf-8", "cp866", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-5", "iso8859-6",
        "iso8859-7", "iso8859-8", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15",
        "iso8859-16", "koi8-r", "koi8-u", "mac-roman", "mac-cyrillic", "cp874", "cp1250",
        "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
        "gb18030", "big5hkscs", "big5", "euc_jp", "iso2022_jp", "shift_jis", "cp932",
        "cp949", "euc_kr", "utf-16-le", "utf-16-be", "ascii",
    )
)


def resolve_label(label: str | None) -> str | None:
    """Map an encoding label to a Python codec name, or ``None`` when the label is unknown
    or names an encoding outside the WHATWG Encoding Standard (``_WHATWG_CODECS``)."""
    if not label:
        return None
    name = label.strip().strip("\"'").lower()
    name = _WHATWG_ALIASES.get(name, name)
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):
        return None
    if info.name not in _WHATWG_CODECS:
        return None
    return info.name


def _sniff_binary(data: bytes) -> str | None:
    head = data[:16]
    for magic, what in _BINARY_SIGNATURES:
        if head.startswith(magic):
            # "MZ" and "BZh" are short: confirm with NUL bytes, which HTML never has.
            if magic in (b"MZ", b"BZh", b"RIFF", b"\x00\x00\x01\x00") and b"\x00" not in data[:512]:
                continue
            return what
    return None


def _utf16_without_bom(data: bytes) -> str | None:
    """Recognise BOM-less UTF-16 by its NUL pattern (ASCII markup leaves every other byte 0)."""
    sample = data[:4096]
    if len(sample) < 8:
        return None
    even_nul = sample[0::2].count(0)
    odd_nul = sample[1::2].count(0)
    half = len(sample) // 2
    if odd_nul > 0.4 * half and even_nul < 0.05 * half:
        return "utf-16-le"
    if even_nul > 0.4 * half and odd_nul < 0.05 * half:
        return "utf-16-be"
    return None


_CONTROL_BYTES = bytes([*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20)])


#: Characters of decoded text checked for control characters, from the start.
_CONTROL_SAMPLE_CHARS = 65536


def _too_many_controls(text: str, raw: bytes | None = None) -> bool:
    """Whether more than ``MAX_CONTROL_CHAR_RATIO`` of the first ``_CONTROL_SAMPLE_CHARS``
    characters of ``text`` are C0 controls (not tab, LF, FF, CR). ``raw``: the bytes
    ``text`` was decoded from, when the encoding is ASCII-compatible (a control character
    is then exactly a control byte): when their first ``4 * _CONTROL_SAMPLE_CHARS`` bytes,
    which cover the sample, hold no control byte, the answer is no without encoding it."""
    if raw is not None:
        head = raw[: 4 * _CONTROL_SAMPLE_CHARS]
        if len(head.translate(None, _CONTROL_BYTES)) == len(head):
            return False
    sample = text[:_CONTROL_SAMPLE_CHARS]
    if not sample:
        return False
    # Count C0 controls (not tab, LF, FF, CR) in C: they are single bytes in UTF-8 and no
    # multi-byte sequence contains a byte below 0x80, so deleting them from the encoded
    # sample removes exactly one byte per control character.
    raw = sample.encode("utf-8", "surrogatepass")
    controls = len(raw) - len(raw.translate(None, _CONTROL_BYTES))
    return controls > MAX_CONTROL_CHAR_RATIO * len(sample)


def decode_html(data: bytes, http_charset: str | None = None) -> tuple[str, str]:
    """Decode HTML bytes to text.

    Args:
        data: the raw document bytes.
        http_charset: the charset parameter of the HTTP Content-Type header, if any.

    Returns:
        ``(text, encoding)``: the decoded text (NUL characters removed) and the Python
        codec name used.

    Raises:
        EmptyInputError: ``data`` is empty or only whitespace.
        BinaryInputError: ``data`` is a known binary format or mostly control bytes.
    """
    if not data or data.isspace():
        raise EmptyInputError("unreadable input: the document is empty")

    encoding: str | None = None
    body = data
    text: str | None = None
    if data.startswith(codecs.BOM_UTF8):
        encoding, body = "utf-8", data[3:]
    elif data.startswith(codecs.BOM_UTF16_LE):
        encoding, body = "utf-16-le", data[2:]
    elif data.startswith(codecs.BOM_UTF16_BE):
        encoding, body = "utf-16-be", data[2:]
    else:
        what = _sniff_binary(data)
        if what:
            raise BinaryInputError(f"unreadable input: this is {what}, not HTML")
        encoding = _utf16_without_bom(data)
        if encoding is None and not data.isascii():
            try:
                text, encoding = data.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                pass
        if encoding is None:
            encoding = resolve_label(http_charset)
        if encoding is None:
            label = _meta_charset(data, META_PRESCAN_BYTES)
            if label:
                encoding = resolve_label(label.decode("ascii", "replace"))
        if encoding is None:
            encoding = "utf-8" if data.isascii() else _detect(data)
    if text is None:
        text = body.decode(encoding, errors="replace")
    # In the ASCII-compatible encodings (all but UTF-16) a NUL or control character is
    # exactly a NUL or control byte: searching the bytes is cheaper than the text.
    ascii_compatible = not encoding.startswith("utf-16")
    if (b"\x00" in body) if ascii_compatible else ("\x00" in text):
        text = text.replace("\x00", "")
    if not text or text.isspace():
        raise EmptyInputError("unreadable input: the document has no text")
    if _too_many_controls(text, body if ascii_compatible else None):
        raise BinaryInputError("unreadable input: binary data (control bytes), not HTML")
    return text, encoding


def _detect(data: bytes) -> str:
    from charset_normalizer import from_bytes

    best = from_bytes(data[:200_000]).best()
    if best is not None and best.encoding:
        return resolve_label(best.encoding) or "cp1252"
    return "cp1252"
