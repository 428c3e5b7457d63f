"""A game on paper: a PDF with the players and result, the opening, the moves with their comments,
and board diagrams after the moves chosen.

:func:`game_sheet` takes what is printed from the game (in the window's thread: the game may
change afterwards) into an immutable :class:`GameSheet`; :func:`write_game_pdf` lays it out on A4
pages with ``QPdfWriter`` (part of PySide6-Essentials) — any thread may run it, a background job
does. Diagrams are drawn by the board's own renderer as vectors (sharp at any zoom); comments are
printed without the review's machine commands (``[%eval …]``, ``[%best …]``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextOption

from xqdesk.ecco import classify_game
from xqdesk.errors import XqdeskError
from xqdesk.game import Game
from xqdesk.notation import Notation, format_move
from xqdesk.review import strip_commands
from xqdesk.ui.base.i18n import Language, current_language, tr
from xqdesk.ui.board.board_render import BOARD_ASPECT, BoardScene, paint_scene
from xqdesk.ui.board.piece_glyphs import load_fonts
from xqdesk.ui.record.game_info import result_text

PDF_RESOLUTION = 300
"""Dots per inch the PDF is laid out in."""
MARGIN_MM = 18.0
DIAGRAM_SHARE = 0.55
"""A diagram's width as a share of the text width."""
TITLE_POINTS, TEXT_POINTS, COMMENT_POINTS = 16.0, 10.5, 9.5
LATIN_FAMILIES = ("DejaVu Sans", "Liberation Sans", "Arial")
"""Tried first for the PDF's Latin text and digits (the bundled Sans, a CFF subset, keeps its
digits out of a PDF's copyable text); Chinese falls back to the bundled font."""


class PdfError(XqdeskError):
    """A PDF that cannot be made as asked; the message says why."""


@dataclass(frozen=True)
class SheetLine:
    """One printed line of moves (``text``), the comments after its moves, and the diagram drawn
    after it (with its caption), if one was asked for there."""

    text: str
    comments: tuple[str, ...] = ()
    diagram: BoardScene | None = None
    caption: str = ""


@dataclass(frozen=True)
class GameSheet:
    """Everything the PDF prints, as plain values."""

    title: str
    details: tuple[str, ...]
    lines: tuple[SheetLine, ...]
    start_diagram: BoardScene | None = None
    start_comment: str = ""

    def diagram_count(self) -> int:
        return sum(line.diagram is not None for line in self.lines) + (self.start_diagram is not None)


def game_sheet(game: Game, notation: Notation, diagram_plies: Sequence[int], *, flipped: bool = False,
               coordinates: bool = True) -> GameSheet:
    """What to print of ``game``'s main line: ``diagram_plies`` are the plies after which a board
    is drawn (0: the start position)."""
    headers = game.headers
    red, black = headers.get("Red", "").strip() or "?", headers.get("Black", "").strip() or "?"
    details = [part for part in (" · ".join(p for p in (headers.get("Event", "").strip(), headers.get("Round", "").strip(),
                                                        headers.get("Date", "").strip()) if p),
                                 result_text(game.outcome)) if part]
    opening = classify_game(game)
    if opening is not None and game.mainline_moves():
        details.append(f"{tr('Opening')}: {opening.label(chinese=current_language() is Language.CHINESE)}")
    wanted = set(diagram_plies)
    board = game.start_board()
    start_number = board.fullmove_number
    black_first = not board.turn
    lines: list[SheetLine] = []
    pending: list[str] = []
    comments: list[str] = []
    nodes = game.mainline()
    for ply, node in enumerate(nodes, start=1):
        text = format_move(board, node.move, notation) + "".join(_NAG_SYMBOLS.get(nag, "") for nag in sorted(node.nags))
        board.push(node.move)
        pending.append(text)
        comment = strip_commands(node.comment)
        if comment:
            comments.append(f"{text}: {comment}" if len(pending) > 1 else comment)
        slot = ply + black_first  # 1, 2 for a full move's Red and Black
        line_full = slot % 2 == 0 or ply == len(nodes)
        if ply in wanted or line_full:
            number = start_number + (slot - 1) // 2
            prefix = f"{number}. " + ("… " if black_first and slot == 2 else "")
            diagram = None
            caption = ""
            if ply in wanted:
                diagram = BoardScene(board.copy(), node.move, flipped, (), frozenset(), coordinates)
                caption = tr("After {number}. {move}").format(
                    number=number, move=("… " if slot % 2 == 0 else "") + text)
            lines.append(SheetLine(prefix + "  ".join(pending), tuple(comments), diagram, caption))
            pending, comments = [], []
            if ply in wanted and not line_full:
                black_first = False  # the pair goes on in a new line, with its number again
    start = game.start_board()
    start_diagram = BoardScene(start, None, flipped, (), frozenset(), coordinates) if 0 in wanted else None
    return GameSheet(f"{red} — {black}", tuple(details), tuple(lines), start_diagram, strip_commands(game.comment))


_NAG_SYMBOLS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}


class _Page:
    """A cursor down the pages of a PDF being painted."""

    def __init__(self, writer: QPdfWriter, painter: QPainter) -> None:
        self.writer = writer
        self.painter = painter
        rect = writer.pageLayout().paintRectPixels(writer.resolution())
        self.width = float(rect.width())
        self.height = float(rect.height())
        self.y = 0.0

    def room_for(self, height: float) -> None:
        """Start a new page unless ``height`` more fits on this one."""
        if self.y > 0 and self.y + height > self.height:
            self.writer.newPage()
            self.y = 0.0

    def text(self, text: str, font: QFont, indent: float = 0.0, after: float = 0.0) -> None:
        metrics = QFontMetricsF(font, self.writer)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        width = self.width - indent
        bounds = metrics.boundingRect(QRectF(0, 0, width, 1e6), int(Qt.TextFlag.TextWordWrap), text)
        self.room_for(bounds.height())
        self.painter.setFont(font)
        self.painter.drawText(QRectF(indent, self.y, width, bounds.height() + 2), text, option)
        self.y += bounds.height() + after


def write_game_pdf(sheet: GameSheet, path: str | Path,
                   progress: Callable[[int, int], None] | None = None) -> Path:
    """Lay ``sheet`` out as an A4 PDF at ``path``; ``progress(done, total)`` hears of each line and
    may raise to stop. OSError when the file cannot be written."""
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise PdfError(f"{path.name}: a game is printed as .pdf")
    families = load_fonts()
    writer = QPdfWriter(str(path))
    writer.setResolution(PDF_RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))
    writer.setTitle(sheet.title)
    writer.setCreator("xqdesk")
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"could not write {str(path)!r}")
    try:
        page = _Page(writer, painter)
        title_font = _text_font(families.ui_family, TITLE_POINTS)
        title_font.setBold(True)
        text_font = _text_font(families.ui_family, TEXT_POINTS)
        comment_font = _text_font(families.ui_family, COMMENT_POINTS)
        comment_font.setItalic(True)
        line_gap = QFontMetricsF(text_font, writer).height() * 0.25
        page.text(sheet.title, title_font, after=line_gap * 2)
        for detail in sheet.details:
            page.text(detail, text_font, after=line_gap)
        page.y += line_gap * 3
        if sheet.start_comment:
            page.text(sheet.start_comment, comment_font, after=line_gap)
        if sheet.start_diagram is not None:
            _diagram(page, sheet.start_diagram, tr("Start position"), text_font, line_gap)
        total = len(sheet.lines)
        for done, line in enumerate(sheet.lines, start=1):
            page.text(line.text, text_font, after=line_gap)
            for comment in line.comments:
                page.text(comment, comment_font, indent=page.width * 0.05, after=line_gap)
            if line.diagram is not None:
                _diagram(page, line.diagram, line.caption, text_font, line_gap)
            if progress is not None:
                progress(done, total)
    finally:
        painter.end()
    return path


def _text_font(bundled_family: str, points: float) -> QFont:
    font = QFont()
    font.setFamilies([*LATIN_FAMILIES, bundled_family])
    font.setPointSizeF(points)
    return font


def _diagram(page: _Page, scene: BoardScene, caption: str, font: QFont, gap: float) -> None:
    width = page.width * DIAGRAM_SHARE
    height = width * BOARD_ASPECT
    caption_height = QFontMetricsF(font, page.writer).height()
    page.room_for(height + caption_height + gap * 3)
    painter = page.painter
    painter.save()
    painter.translate((page.width - width) / 2, page.y + gap)
    paint_scene(painter, width, height, scene, vector=True)
    painter.restore()
    page.y += height + gap * 2
    painter.setFont(font)
    painter.drawText(QRectF(0, page.y, page.width, caption_height + 2), int(Qt.AlignmentFlag.AlignHCenter), caption)
    page.y += caption_height + gap * 3
