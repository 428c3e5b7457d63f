"""Turning the bytes of a record file into text: byte-order marks, UTF-8, and the Chinese legacy
encodings real Xiangqi files come in (GB18030/GBK from the mainland, Big5 from Taiwan and Hong Kong).
"""
from __future__ import annotations

import codecs

from xqdesk.errors import RecordFormatError

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# Characters that fill Xiangqi records, as each legacy encoding would show them when it is the
# right one; the wrong guess turns the same bytes into other, unrelated characters.
# Full-width digits, letters and signs (WXF written ＣＨＲ２＋＝…) count for either.
_FULL_WIDTH = "".join(chr(code) for code in range(0xFF01, 0xFF5F))
_SIMPLIFIED_MARKS = frozenset("车马炮兵卒将帅士仕象相进退平前后红黑先胜负和局第届杯赛" + _FULL_WIDTH)
_TRADITIONAL_MARKS = frozenset("車馬砲炮兵卒將帥士仕象相進退平前後紅黑先勝負和局第屆盃賽" + _FULL_WIDTH)
_ALIASES = {"gbk": "gb18030", "gb2312": "gb18030", "cp936": "gb18030", "big-5": "big5", "utf8": "utf-8"}


def encoding_problem(encoding: str) -> str | None:
    """Why ``encoding`` cannot decode record files (unknown, or not a text encoding), or None."""
    name = _ALIASES.get(encoding.lower(), encoding.lower())
    try:
        info = codecs.lookup(name)
    except LookupError:
        return f"unknown encoding {encoding!r}"
    if not getattr(info, "_is_text_encoding", True) or info.name in _UNUSABLE:
        return f"{encoding!r} is not a text encoding records can be written in"
    return None


_UNUSABLE = frozenset({"undefined", "punycode", "idna", "raw-unicode-escape", "unicode-escape",
                       "raw_unicode_escape", "unicode_escape"})


def decode_record(data: bytes, encoding: str | None = None, source: str = "<bytes>") -> tuple[str, str]:
    """``(text, encoding used)``. With ``encoding`` given, decode with it (GBK and GB2312 are read
    as their superset GB18030); otherwise honour a byte-order mark, then try UTF-8, then pick
    between GB18030 and Big5 by which one yields the characters records are written with.
    Raises RecordFormatError naming ``source`` and the first undecodable byte."""
    if encoding:
        problem = encoding_problem(encoding)
        if problem is not None:
            raise RecordFormatError(f"{source}: {problem}")
        name = _ALIASES.get(encoding.lower(), encoding.lower())
        try:
            return data.decode(name), name
        except UnicodeDecodeError as error:
            raise RecordFormatError(f"{source}: not {encoding!r} text: byte {error.start} "
                                    f"({data[error.start:error.start + 2]!r}) cannot be decoded") from None
        except (UnicodeError, LookupError, ValueError) as error:
            raise RecordFormatError(f"{source}: cannot decode as {encoding!r}: {error}") from None
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


def file_encoding(pieces: list[bytes], encoding: str | None = None) -> str | None:
    """The encoding of a file that does not decode as a whole, judged piece by piece (a piece is a
    game's bytes): ``encoding`` when given and usable; else UTF-8 when at least as many pieces with
    non-ASCII bytes are UTF-8 as are not (or no such piece decodes at all); else the legacy encoding
    most pieces decode as. None when a byte-order mark says UTF-16, which cannot be cut in pieces."""
    if encoding:
        return None if encoding_problem(encoding) else _ALIASES.get(encoding.lower(), encoding.lower())
    if pieces and pieces[0].startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None
    votes = EncodingVotes()
    for piece in pieces:
        votes.add(piece)
    return votes.winner()


class EncodingVotes:
    """The votes of a file's pieces for its encoding, taken one piece at a time (so a file of any
    size is judged without holding it): see :func:`file_encoding`."""

    def __init__(self) -> None:
        self.votes: dict[str, int] = {}

    def add(self, piece: bytes) -> None:
        """Count the vote of one piece (an ASCII piece does not vote)."""
        if piece.isascii():
            return
        name = "utf-8" if _mostly_utf8(piece) else None
        if name is None:
            try:
                _text, name = decode_record(piece)
            except RecordFormatError:
                name = _closest_legacy(piece)
        self.votes[name] = self.votes.get(name, 0) + 1

    def winner(self) -> str:
        """UTF-8 when at least as many pieces voted for it as against (or none voted), else the
        legacy encoding most pieces voted for."""
        votes = dict(self.votes)
        utf8 = votes.pop("utf-8", 0)
        if utf8 or not votes:  # a piece that reads as UTF-8 says the file is; ASCII is UTF-8 too
            return "utf-8" if utf8 >= sum(votes.values()) else max(votes, key=lambda name: votes[name])
        return max(votes, key=lambda name: votes[name])


def stream_encoding_name(encoding: str) -> str | None:
    """The codec name ``encoding`` decodes with when it can be decoded piece by piece (line
    breaks and ``[`` are the ASCII bytes in it: UTF-8, GB18030, Big5 …), else None (UTF-16,
    UTF-32, an unknown or unusable name)."""
    if encoding_problem(encoding):
        return None
    name = _ALIASES.get(encoding.lower(), encoding.lower())
    try:
        codec = codecs.lookup(name).name
        ascii_compatible = ("[\n".encode(name) == b"[\n" or codec == "utf-8-sig") and not codec.startswith(
            _NOT_PIECEWISE)
    except (UnicodeError, LookupError, ValueError):
        return None
    return name if ascii_compatible else None


_NOT_PIECEWISE = ("utf-7", "utf-16", "utf-32", "hz", "iso2022")
"""Codecs whose text cannot be cut at a line break and decoded in pieces (a shift state spans lines)."""


def _closest_legacy(piece: bytes) -> str:
    """GB18030 or Big5, whichever reads more of a damaged legacy ``piece`` as record characters."""
    def score(name: str, marks: frozenset[str]) -> int:
        text = piece.decode(name, errors="replace")
        return sum(1 for char in text if char in marks) - 2 * text.count("\ufffd")
    return max((score("gb18030", _SIMPLIFIED_MARKS), "gb18030"), (score("big5", _TRADITIONAL_MARKS), "big5"))[1]


def _mostly_utf8(piece: bytes) -> bool:
    """True when ``piece`` is UTF-8 but for a few bad bytes: far more characters decode than fail
    (legacy text read as UTF-8 fails at nearly every non-ASCII byte)."""
    text = piece.decode("utf-8", errors="replace")
    failed = text.count("\ufffd")
    decoded = sum(1 for char in text if ord(char) > 0x7F) - failed
    return decoded > 4 * failed


def decode_piece(piece: bytes, encoding: str) -> tuple[str, int | None]:
    """``(text, first undecodable byte or None)``: ``piece`` decoded with ``encoding``, bytes that do
    not decode replaced by U+FFFD."""
    skipped = len(codecs.BOM_UTF8) if encoding == "utf-8" and piece.startswith(codecs.BOM_UTF8) else 0
    try:
        return piece[skipped:].decode(encoding), None
    except UnicodeDecodeError as error:
        return piece[skipped:].decode(encoding, errors="replace"), error.start + skipped
