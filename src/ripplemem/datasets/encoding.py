"""The text encoding of the files users give (conversations, exports): UTF-8, with or without
the byte-order mark Windows editors write (read as ``utf-8-sig``). A file in UTF-16 or UTF-32 is
refused with what to do, never read as garbled text."""

from __future__ import annotations

import codecs
from pathlib import Path

from ripplemem.errors import InvalidInputError

__all__ = ["check_utf8", "read_utf8"]

#: the byte-order marks of the encodings a file is refused in (UTF-32's first: its little-endian
#: mark starts with UTF-16's)
_OTHER_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def check_utf8(head: bytes, where: str, *, after: str = "nothing was read") -> None:
    """Refuse a file whose first bytes ``head`` show UTF-16 or UTF-32 (a byte-order mark, or the
    zero bytes such text has between ASCII letters)."""
    found = next((name for mark, name in _OTHER_MARKS if head.startswith(mark)), None)
    if found is None and _wide(head):
        found = "UTF-16"
    if found is not None:
        raise InvalidInputError(
            f"{where} is {found} text, not UTF-8: save it as UTF-8 (in most editors: Save as, encoding "
            f"UTF-8) and try again; {after}"
        )


def read_utf8(path: Path) -> str:
    """The text of ``path``: UTF-8 with or without a byte-order mark; refused in UTF-16/32.
    OSError and UnicodeDecodeError go to the caller, who names the file."""
    data = path.read_bytes()
    check_utf8(data[:4096], str(path))
    return data.decode("utf-8-sig")


def _wide(head: bytes) -> bool:
    """True when ``head`` looks like UTF-16 without a mark: a zero byte at every other place of
    its first characters (UTF-8 text has no zero bytes; JSON writes a NUL as \\u0000)."""
    sample = head[:64]
    if len(sample) < 4 or b"\x00" not in sample:
        return False
    even, odd = sample[0::2], sample[1::2]
    return even.count(0) >= len(even) // 2 or odd.count(0) >= len(odd) // 2
