"""Turning the bytes of a record file into text: byte-order marks, UTF-8, and the Chinese legacy
encodings real Xiangqi files come in (GB18030/GBK from the mainland, Big5 from Taiwan and Hong Kong).
"""
from __future__ import annotations

import codecs

from xqdesk.errors import RecordFormatError

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# Characters that fill Xiangqi records, as each legacy encoding would show them when it is the
# right one; the wrong guess turns the same bytes into other, unrelated characters.
_SIMPLIFIED_MARKS = frozenset("车马炮兵卒将帅士仕象相进退平前后红黑先胜负和局第届杯赛")
_TRADITIONAL_MARKS = frozenset("車馬砲炮兵卒將帥士仕象相進退平前後紅黑先勝負和局第屆盃賽")
_ALIASES = {"gbk": "gb18030", "gb2312": "gb18030", "cp936": "gb18030", "big-5": "big5", "utf8": "utf-8"}


def decode_record(data: bytes, encoding: str | None = None, source: str = "<bytes>") -> tuple[str, str]:
    """``(text, encoding used)``. With ``encoding`` given, decode with it (GBK and GB2312 are read
    as their superset GB18030); otherwise honour a byte-order mark, then try UTF-8, then pick
    between GB18030 and Big5 by which one yields the characters records are written with.
    Raises RecordFormatError naming ``source`` and the first undecodable byte."""
    if encoding:
        name = _ALIASES.get(encoding.lower(), encoding.lower())
        try:
            return data.decode(name), name
        except LookupError:
            raise RecordFormatError(f"{source}: unknown encoding {encoding!r}") from None
        except UnicodeDecodeError as error:
            raise RecordFormatError(f"{source}: not {encoding!r} text: byte {error.start} "
                                    f"({data[error.start:error.start + 2]!r}) cannot be decoded") from None
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(name), name
            except UnicodeDecodeError as error:
                raise RecordFormatError(f"{source}: starts with a {name} byte-order mark but byte "
                                        f"{error.start} cannot be decoded") from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as utf8_error:
        first_bad = utf8_error.start
    candidates: list[tuple[int, int, str, str]] = []
    for order, (name, marks) in enumerate((("gb18030", _SIMPLIFIED_MARKS), ("big5", _TRADITIONAL_MARKS))):
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        candidates.append((sum(1 for ch in text if ch in marks), -order, text, name))
    if not candidates:
        raise RecordFormatError(f"{source}: unknown text encoding (not UTF-8, GB18030 or Big5; byte "
                                f"{first_bad} is {data[first_bad:first_bad + 2]!r}); name the encoding")
    _, _, text, name = max(candidates)
    return text, name
