"""Which of several same pieces on one file a move names ("tandem" pieces).

Both descriptive notations (WXF and Chinese) name a piece by the file it stands on. When two or
more pieces of the same type and colour share that file, the file number no longer says which one
moves, and a mark takes its place. This module finds those groups on a board and resolves marks;
:mod:`xqdesk.notation.wxf` and :mod:`xqdesk.notation.chinese` only spell them.

"Front" is the end of the file nearest the opponent: for Red the higher ranks, for Black the
lower. A group is listed front to back. Files are numbered 1..9 from the mover's right.

xqdesk's convention for writing tandem pieces
---------------------------------------------
Several conventions for tandem pawns are in use: the WXF/AXF document (``P+``, middle pawn by
its file, ``++``/``--`` for the outermost of four or five, and the file number in place of the
letter when two files hold tandem pawns: ``3+.4``); xqbase's Chinese rules (前/中/后, 一..五 for
four or five, and one 一..五 count over both files, right to left then front to back, when two
files hold tandem pawns: ``一兵平四``); the form that keeps 前/中/后 and adds the file
(``前兵九平八``); Fairy-Stockfish's WXF, which numbers the pawn on its file and adds the file
(``25=4``) and drops a mark when only one of the pieces can make the move (``R4+2``); and forms that
write the mark before the piece letter (``+P+1``) or the file in place of the piece (``前九平八``).
xqdesk writes:

* two pieces on a file: front / rear (``前``/``后``, WXF ``+``/``-``);
* three pawns on a file: front / middle / rear (``前``/``中``/``后``; WXF ``P+``, ``P3``, ``P-``);
* four or five pawns on a file: ordinals front to back (``一``..``五``; WXF ``++``, ``P+``,
  [``P3``], ``P-``, ``--``);
* when a second file also holds two or more of the mover's pawns, the pawn keeps its mark and the
  file is written too (``前兵九平八``; WXF ``9+.8``, middle ``33.4``);
* advisors and elephants never get a mark: the direction already tells which one moves.

On input every form above is read, marks before or after the piece, in either notation; a text
that leaves the choice open (``兵五平四`` with two pawns on file 五) is accepted when only one of
the pieces it may mean can make the move legally, and raises AmbiguousMoveError otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from xqdesk.pieces import PAWN, Color, PieceType
from xqdesk.squares import FILES, RANKS, Square, square

if TYPE_CHECKING:
    from xqdesk.board import Board

FRONT_TO_BACK: dict[Color, tuple[tuple[Square, ...], ...]] = {
    True: tuple(tuple(square(f, r) for r in reversed(range(RANKS))) for f in range(FILES)),
    False: tuple(tuple(square(f, r) for r in range(RANKS)) for f in range(FILES)),
}
"""Per colour and file (0..8 = a..i), the file's squares from the mover's front to its back."""


def files_right_to_left(color: Color) -> range:
    """Files 0..8 in the mover's reading order: from its right-hand edge to its left."""
    return range(FILES - 1, -1, -1) if color else range(FILES)


def squares_on_file(board: Board, code: int, file: int) -> list[Square]:
    """Squares of file ``file`` holding the piece ``code``, front to back for that piece's side."""
    code_at = board.code_at
    return [sq for sq in FRONT_TO_BACK[code > 0][file] if code_at(sq) == code]


def tandem_groups(board: Board, code: int) -> list[list[Square]]:
    """Every file holding two or more pieces ``code``, right to left from that side's seat; each
    group front to back."""
    groups = []
    for file in files_right_to_left(code > 0):
        squares = squares_on_file(board, code, file)
        if len(squares) > 1:
            groups.append(squares)
    return groups


class TandemPlace(NamedTuple):
    """Where a moving piece stands among the same pieces on its file (only made for 2 or more)."""

    rank_from_front: int
    """0 for the front piece, ``pieces_on_file - 1`` for the rear one."""
    pieces_on_file: int
    """How many pieces of this type and colour stand on the file (2..5)."""
    file_qualified: bool
    """Another file also holds two or more of these pawns, so the file is written with the mark."""


def tandem_place(board: Board, from_square: Square) -> TandemPlace | None:
    """The place of the piece on ``from_square`` among same pieces on its file; None if it is alone."""
    code = board.code_at(from_square)
    file = from_square % FILES
    squares = squares_on_file(board, code, file)
    if len(squares) < 2:
        return None
    qualified = False
    if abs(code) == PAWN:
        qualified = any(len(squares_on_file(board, code, other)) > 1 for other in range(FILES) if other != file)
    return TandemPlace(squares.index(from_square), len(squares), qualified)


class MarkKind(Enum):
    """The marks move texts use to pick one piece of a tandem group."""

    FRONT = "front"          # 前; the front one whatever the count
    MIDDLE = "middle"        # 中; WXF: the file number when the file holds 3 or 5
    REAR = "rear"            # 后/後; the rear one whatever the count
    NTH = "nth"              # 一..五 counted from the front (xqbase: over both files)
    WXF_PLUS = "wxf_plus"    # WXF "+": front of 2-3, second from the front of 4-5
    WXF_MINUS = "wxf_minus"  # WXF "-": rear of 2-3, second from the rear of 4-5
    FOREMOST = "foremost"    # WXF "++"
    REARMOST = "rearmost"    # WXF "--"


@dataclass(frozen=True, slots=True)
class TandemMark:
    """A mark read from a move text; ``ordinal`` (1..5) is used by :attr:`MarkKind.NTH` only."""

    kind: MarkKind
    ordinal: int = 0

    def index_in(self, count: int) -> int | None:
        """The index (0 = front) this mark picks in a group of ``count``, or None if none."""
        kind = self.kind
        if kind is MarkKind.FRONT or kind is MarkKind.FOREMOST:
            index = 0
        elif kind is MarkKind.REAR or kind is MarkKind.REARMOST:
            index = count - 1
        elif kind is MarkKind.MIDDLE:
            index = count // 2 if count % 2 == 1 else -1
        elif kind is MarkKind.NTH:
            index = self.ordinal - 1
        elif kind is MarkKind.WXF_PLUS:
            index = 0 if count <= 3 else 1
        else:  # WXF_MINUS
            index = count - 1 if count <= 3 else count - 2
        return index if 0 <= index < count and count > 1 else None


def candidate_squares(board: Board, color: Color, piece_type: PieceType, file: int | None,
                      mark: TandemMark | None) -> list[Square]:
    """Squares of the mover's ``piece_type`` pieces that a text naming ``file`` and/or ``mark`` may mean.

    With a file and no mark: every such piece on the file (the caller keeps those whose move is
    legal). With a mark and no file: the marked piece of each tandem file, except that an ordinal
    (一..五) counts over all tandem files together, right to left and then front to back, as xqbase
    does. With both: the marked piece of that file.
    """
    code = piece_type if color else -piece_type
    if file is not None:
        squares = squares_on_file(board, code, file)
        if mark is None:
            return squares
        index = mark.index_in(len(squares))
        return [] if index is None else [squares[index]]
    if mark is None:
        return []
    groups = tandem_groups(board, code)
    if mark.kind is MarkKind.NTH and len(groups) > 1:
        every = [sq for group in groups for sq in group]
        return [every[mark.ordinal - 1]] if 0 < mark.ordinal <= len(every) else []
    picked = []
    for group in groups:
        index = mark.index_in(len(group))
        if index is not None:
            picked.append(group[index])
    return picked
