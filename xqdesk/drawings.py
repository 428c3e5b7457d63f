"""Arrows and circled squares a person draws on the board, kept in a move's comment.

They are stored as the comment commands lichess and ChessBase write (other readers show them as
text or skip them), with Xiangqi's ICCS squares ``a0``–``i9``:

- ``[%cal Gh2e2,Rb0c2]``: arrows, each a colour letter and two squares (from, to);
- ``[%csl Ge4,Ya9]``: circled squares, each a colour letter and a square.

Colour letters are ``G`` (green), ``R`` (red), ``Y`` (yellow) and ``B`` (blue). A comment may hold
several such commands; they are read together, and :func:`with_drawings` writes them back as one
``[%csl …]`` and one ``[%cal …]`` at the start of the comment, the words after them untouched.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from xqdesk.squares import Square, parse_square, square_name

COLORS = ("G", "R", "Y", "B")
"""The colour letters of drawn arrows and circles (green, red, yellow, blue); green is the default."""
DEFAULT_COLOR = "G"

_SQUARE = r"[a-iA-I][0-9]"
_COMMAND = re.compile(r"\s*\[%(?P<kind>cal|csl)\s+(?P<items>[^\]]*)\]")
_ARROW_ITEM = re.compile(rf"(?P<color>[GRYB])(?P<start>{_SQUARE})(?P<end>{_SQUARE})")
_CIRCLE_ITEM = re.compile(rf"(?P<color>[GRYB])(?P<square>{_SQUARE})")


@dataclass(frozen=True)
class DrawnArrow:
    """An arrow from ``start`` to ``end`` in colour ``color`` (one of :data:`COLORS`)."""

    start: Square
    end: Square
    color: str = DEFAULT_COLOR


@dataclass(frozen=True)
class DrawnCircle:
    """A circled square in colour ``color`` (one of :data:`COLORS`)."""

    square: Square
    color: str = DEFAULT_COLOR


@dataclass(frozen=True)
class Drawings:
    """What is drawn on the board at one move: arrows and circled squares, in drawing order."""

    arrows: tuple[DrawnArrow, ...] = ()
    circles: tuple[DrawnCircle, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.arrows or self.circles)

    def toggled_arrow(self, arrow: DrawnArrow) -> Drawings:
        """These drawings with ``arrow`` added; the same arrow drawn again (same squares and colour)
        is removed, and one on the same squares in another colour is recoloured."""
        others = tuple(a for a in self.arrows if (a.start, a.end) != (arrow.start, arrow.end))
        if arrow in self.arrows:
            return Drawings(others, self.circles)
        return Drawings(others + (arrow,), self.circles)

    def toggled_circle(self, circle: DrawnCircle) -> Drawings:
        """These drawings with ``circle`` added, removed when it is there already, recoloured when
        its square is circled in another colour."""
        others = tuple(c for c in self.circles if c.square != circle.square)
        if circle in self.circles:
            return Drawings(self.arrows, others)
        return Drawings(self.arrows, others + (circle,))


def parse_drawings(comment: str) -> Drawings:
    """The arrows and circles of every ``[%cal …]`` and ``[%csl …]`` command in ``comment``.
    An item that is not a colour letter and squares (``Xz9``) is skipped: a drawing is a
    decoration, and one bad item must not cost the comment or the others."""
    arrows: list[DrawnArrow] = []
    circles: list[DrawnCircle] = []
    for command in _COMMAND.finditer(comment):
        for item in command.group("items").split(","):
            item = item.strip()
            if command.group("kind") == "cal":
                arrow = _ARROW_ITEM.fullmatch(item)
                if arrow is not None:
                    arrows.append(DrawnArrow(parse_square(arrow.group("start").lower()),
                                             parse_square(arrow.group("end").lower()), arrow.group("color")))
            else:
                circle = _CIRCLE_ITEM.fullmatch(item)
                if circle is not None:
                    circles.append(DrawnCircle(parse_square(circle.group("square").lower()), circle.group("color")))
    return Drawings(tuple(arrows), tuple(circles))


def format_drawings(drawings: Drawings) -> str:
    """``[%csl Ge4] [%cal Gh2e2,Rb0c2]`` for ``drawings`` ('' when there are none)."""
    commands = []
    if drawings.circles:
        commands.append("[%csl " + ",".join(c.color + square_name(c.square) for c in drawings.circles) + "]")
    if drawings.arrows:
        commands.append("[%cal " + ",".join(a.color + square_name(a.start) + square_name(a.end)
                                            for a in drawings.arrows) + "]")
    return " ".join(commands)


def strip_drawings(comment: str) -> str:
    """``comment`` without its ``[%cal]`` and ``[%csl]`` commands."""
    return _COMMAND.sub("", comment).strip()


def with_drawings(comment: str, drawings: Drawings) -> str:
    """``comment`` with its drawing commands replaced by those of ``drawings`` (put first, as the
    review puts its commands); everything else in it is kept as it was."""
    rest = strip_drawings(comment)
    commands = format_drawings(drawings)
    return f"{commands} {rest}".strip() if commands else rest
