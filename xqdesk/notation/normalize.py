"""Character clean-up shared by the move-text parsers.

Move texts arrive in full-width forms (``Ｃ２＝５``, ``马８进７``), with typographic minus signs,
and in traditional Chinese characters (``傌八進七``, ``砲二平五``). The parsers read one canonical
form: ASCII letters, digits and signs, simplified characters, no spaces.
"""
from __future__ import annotations

_WIDTH_AND_SIGNS: dict[int, str] = {code: chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)}
_WIDTH_AND_SIGNS.update({
    0x3000: "",        # ideographic space
    0x20: "",          # space
    0x09: "",          # tab
    0x2212: "-",       # minus sign
    0x2013: "-",       # en dash
    0x2014: "-",       # em dash
    0x3002: ".",       # ideographic full stop
    0x00B7: ".",       # middle dot
})

TRADITIONAL_TO_SIMPLIFIED = {
    "帥": "帅", "將": "将", "車": "车", "俥": "车", "馬": "马", "傌": "马", "砲": "炮", "包": "炮",
    "進": "进", "後": "后",
}
"""Variant characters read as the simplified forms xqdesk writes."""

_CHINESE = {ord(variant): simple for variant, simple in TRADITIONAL_TO_SIMPLIFIED.items()}


def to_ascii_forms(text: str) -> str:
    """``text`` with full-width ASCII turned half-width, dashes turned ``-`` and spaces removed."""
    return text.translate(_WIDTH_AND_SIGNS)


def to_simplified_forms(text: str) -> str:
    """``text`` after :func:`to_ascii_forms`, with traditional piece and move characters simplified."""
    return text.translate(_WIDTH_AND_SIGNS).translate(_CHINESE)


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK ideograph (so it is Chinese notation)."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)
