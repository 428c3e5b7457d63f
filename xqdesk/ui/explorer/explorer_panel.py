"""The opening explorer pane: what the masters and the user's position index know of the position
on show.

The opening's ECCO code and name (classified from the moves that led here, with or without an
index: :mod:`xqdesk.ecco`); the moves masters played from here, from the opening book xqdesk ships
(:func:`xqdesk.opening_book.shipped_book`, no set-up needed); and, when a position index is chosen,
the moves played from here in its games and the games that reached the position. Moves are shown
in the move list's notation with their games, Red wins, draws, Black wins and Red's average
result. Double-clicking a move plays it; double-clicking a game opens it at the move where it
reached the position.

Every look-up and every game read happens in :class:`ExplorerWorker`'s thread, never in the GUI
thread: a request carries an id, the worker answers only the newest look-up (older ones still
queued are skipped) and the pane drops answers whose id is stale, so stepping quickly through a
game never shows a former position's moves.
"""
from __future__ import annotations

import itertools
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from xqdesk.board import Board
from xqdesk.ecco import Opening, classify_moves
from xqdesk.errors import XqdeskError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats import open_games
from xqdesk.move import Move
from xqdesk.notation import Notation, format_move
from xqdesk.opening_book import SHIPPED_ATTRIBUTION, CompactBook, shipped_book
from xqdesk.position_index import IndexedGame, MoveStats, PositionIndex, open_index
from xqdesk.ui.base.i18n import Language, current_language, follow_language, tr

GAMES_SHOWN = 200
"""At most this many games that reached the position are listed."""
SIZE_PRECISION_ROWS = 40
"""Columns are fitted to the text of this many rows (fitting all would cost a stall per step)."""


@dataclass(frozen=True)
class LookupRequest:
    request_id: int
    database: str
    start_fen: str
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class GameRequest:
    path: str
    number: int
    ply: int


@dataclass(frozen=True)
class ExplorerResult:
    """The answer to a look-up: the moves played and the games, or the error met."""

    request_id: int
    board: Board
    moves: tuple[MoveStats, ...] = ()
    games: tuple[IndexedGame, ...] = ()
    reached: int = 0
    error: str = ""
    book: tuple[MoveStats, ...] = ()
    """The moves masters played from the position (the shipped book; empty without one)."""


@dataclass
class _Stop:
    """The sentinel that ends the worker's thread."""

    done: threading.Event = field(default_factory=threading.Event)


_Job = Union[LookupRequest, GameRequest, _Stop]


class ExplorerWorker(QObject):
    """Look-ups and game reads in a thread of their own; answers come back as signals."""

    looked_up = Signal(object)  # ExplorerResult
    game_read = Signal(object, int)  # Game, ply
    game_failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: queue.Queue[_Job] = queue.Queue()
        self._ids = itertools.count(1)
        self._thread = threading.Thread(target=self._run, name="explorer-lookups", daemon=True)
        self._thread.start()

    def look_up(self, database: str, start_fen: str, moves: tuple[Move, ...]) -> int:
        """Queue a look-up of the position after ``moves`` from ``start_fen``; returns its id."""
        request = LookupRequest(next(self._ids), database, start_fen, moves)
        self._jobs.put(request)
        return request.request_id

    def read_game(self, path: str, number: int, ply: int) -> None:
        """Queue reading game ``number`` (0-based) of ``path``; ``game_read`` brings it."""
        self._jobs.put(GameRequest(path, number, ply))

    def is_running(self) -> bool:
        return self._thread.is_alive()

    def shutdown(self) -> None:
        """End the thread (after the job in hand) and wait for it."""
        if self._thread.is_alive():
            self._jobs.put(_Stop())
            self._thread.join(timeout=10)

    # --- the worker's thread -----------------------------------------------------------------
    def _run(self) -> None:
        index: PositionIndex | None = None
        opened = ""
        try:
            while True:
                job = self._jobs.get()
                if isinstance(job, LookupRequest):
                    job = self._newest(job)
                if isinstance(job, _Stop):
                    return
                if isinstance(job, GameRequest):
                    self._read(job)
                    continue
                if job.database != opened or (index is None and job.database):
                    if index is not None:
                        index.close()
                    index, opened = None, ""
                    try:
                        if job.database:
                            index, opened = open_index(job.database), job.database
                    except XqdeskError as error:
                        self.looked_up.emit(ExplorerResult(job.request_id, Board(job.start_fen), error=str(error),
                                                           book=self._book_moves(job)))
                        continue
                self.looked_up.emit(self._look_up(index, job))
        finally:
            if index is not None:
                index.close()

    def _newest(self, job: LookupRequest) -> _Job:
        """The last look-up queued after ``job`` (other jobs keep their order: a stop or a game
        read waiting behind look-ups is handled right after the newest look-up)."""
        held: list[_Job] = []
        newest: _Job = job
        while True:
            try:
                following = self._jobs.get_nowait()
            except queue.Empty:
                break
            if isinstance(following, LookupRequest):
                newest = following
            else:
                held.append(following)
        for other in held:
            self._jobs.put(other)
        return newest

    @staticmethod
    def _board(job: LookupRequest) -> Board:
        board = Board(job.start_fen)
        for move in job.moves:
            board.push(move)
        return board

    @classmethod
    def _book_moves(cls, job: LookupRequest) -> tuple[MoveStats, ...]:
        """The shipped book's moves for the position (none when this install has no book)."""
        try:
            book: CompactBook | None = shipped_book()
            return tuple(book.moves(cls._board(job))) if book is not None else ()
        except (XqdeskError, OSError):
            return ()

    @classmethod
    def _look_up(cls, index: PositionIndex | None, job: LookupRequest) -> ExplorerResult:
        book = cls._book_moves(job)
        try:
            board = cls._board(job)
            if index is None:
                return ExplorerResult(job.request_id, board, book=book)
            return ExplorerResult(job.request_id, board, tuple(index.moves(board)),
                                  tuple(index.games(board, GAMES_SHOWN)), index.reached_count(board), book=book)
        except (XqdeskError, OSError) as error:
            return ExplorerResult(job.request_id, Board(job.start_fen), error=str(error), book=book)
        except Exception as error:  # noqa: BLE001 - a damaged database must not end the thread
            return ExplorerResult(job.request_id, Board(job.start_fen), error=f"{type(error).__name__}: {error}",
                                  book=book)

    def _read(self, job: GameRequest) -> None:
        stream = open_games(job.path)  # up to the game wanted, one game at a time
        for index, read in enumerate(stream):
            if index == job.number:
                self.game_read.emit(read.game, job.ply)
                return
        reason = str(stream.errors[0]) if stream.errors else f"game {job.number + 1} is not in it"
        self.game_failed.emit(tr("Could not open {path}: {reason}").format(path=Path(job.path).name, reason=reason))


def average_text(red_wins: int, draws: int, black_wins: int) -> str:
    """Red's average result in per cent over the games with a known result ("no results", in the
    interface language, when none has one)."""
    decided = red_wins + draws + black_wins
    if not decided:
        return tr("no results")
    return f"{100 * (red_wins + 0.5 * draws) / decided:.0f}%"


class TextTable(QAbstractTableModel):
    """Rows of texts under translated column titles, replaced whole by :meth:`set_rows` (one model
    reset, so a new position costs one relayout, not one per cell)."""

    def __init__(self, columns: tuple[str, ...], right_aligned: frozenset[int] = frozenset(),
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = columns
        self._right = right_aligned
        self._rows: list[tuple[str, ...]] = []

    def set_rows(self, rows: list[tuple[str, ...]]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def text(self, row: int, column: int) -> str:
        return self._rows[row][column]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self._right:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return tr(self.columns[section])
        return None

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.columns) - 1)


class ExplorerPanel(QWidget):
    """The explorer pane. ``move_chosen(Move)`` when a move is double-clicked, ``game_chosen(Game,
    ply)`` when a game has been read after a double-click, ``status(str)`` for problems."""

    move_chosen = Signal(object)
    game_chosen = Signal(object, int)
    status = Signal(str)
    book_shown = Signal(object, object)
    """(Board, tuple[MoveStats, ...]): the masters' book moves of the position now on show."""

    MOVE_COLUMNS = ("Move", "Games", "Red wins", "Draws", "Black wins", "Red's average")
    GAME_COLUMNS = ("Red", "Black", "Result", "Event", "Date", "Move")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = ExplorerWorker(self)
        self.worker.looked_up.connect(self._on_looked_up)
        self.worker.game_read.connect(self.game_chosen)
        self.worker.game_failed.connect(self.status)
        self._database = ""
        self._position: tuple[str, tuple[Move, ...]] | None = None
        self._pending = 0
        self._notation = Notation.CHINESE
        self._result: ExplorerResult | None = None
        self._opening: Opening | None = None
        self.opening_label = QLabel()
        self.opening_label.setWordWrap(True)
        self.opening_label.setStyleSheet("font-weight: bold;")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.book_label = QLabel()
        self.book_label.setWordWrap(True)
        self.book_label.setToolTip(SHIPPED_ATTRIBUTION)
        self.book_model = TextTable(self.MOVE_COLUMNS, frozenset(range(1, len(self.MOVE_COLUMNS))), self)
        self.book_table = self._table(self.book_model)
        self.book_table.doubleClicked.connect(lambda index: self._on_book_move_activated(index.row()))
        self.moves_model = TextTable(self.MOVE_COLUMNS, frozenset(range(1, len(self.MOVE_COLUMNS))), self)
        self.games_model = TextTable(self.GAME_COLUMNS, frozenset({len(self.GAME_COLUMNS) - 1}), self)
        self.moves_table = self._table(self.moves_model)
        self.games_table = self._table(self.games_model)
        self.moves_table.doubleClicked.connect(lambda index: self._on_move_activated(index.row()))
        self.games_table.doubleClicked.connect(lambda index: self._on_game_activated(index.row()))
        book_part = QWidget()
        book_layout = QVBoxLayout(book_part)
        book_layout.setContentsMargins(0, 0, 0, 0)
        book_layout.addWidget(self.book_label)
        book_layout.addWidget(self.book_table, 1)
        index_part = QWidget()
        index_layout = QVBoxLayout(index_part)
        index_layout.setContentsMargins(0, 0, 0, 0)
        index_layout.addWidget(self.summary)
        index_layout.addWidget(self.moves_table, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(book_part)
        splitter.addWidget(index_part)
        splitter.addWidget(self.games_table)
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.opening_label)
        layout.addWidget(splitter, 1)
        follow_language(self, self.retranslate)
        self.retranslate()

    @staticmethod
    def _table(model: TextTable) -> QTableView:
        table = QTableView()
        table.setModel(model)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setResizeContentsPrecision(SIZE_PRECISION_ROWS)
        table.horizontalHeader().setStretchLastSection(True)
        return table

    def retranslate(self) -> None:
        self.book_model.retranslate()
        self.moves_model.retranslate()
        self._fill_book(self._result)
        self._fill_moves(self._result)  # "no results" is a word in the interface language
        self.games_model.retranslate()
        self._show_summary()
        self._show_opening()

    # --- what to show ----------------------------------------------------------------------------
    def database(self) -> str:
        return self._database

    def set_database(self, path: str) -> None:
        """Use the position index at ``path`` ('' for none) and look the position up again."""
        self._database = path
        self._result = None
        self._show()
        self._request()

    def set_notation(self, notation: Notation) -> None:
        self._notation = notation
        self._fill_moves(self._result)
        self._fill_book(self._result)

    def set_position(self, start_fen: str, moves: tuple[Move, ...] | list[Move]) -> None:
        """The position on show: the game's start and the moves played to it."""
        position = (start_fen, tuple(moves))
        if position != self._position:
            self._position = position
            standard = start_fen.split()[:2] == STARTING_FEN.split()[:2]
            self._opening = classify_moves(position[1]) if standard else None
            self._show_opening()
            self._request()

    def opening(self) -> Opening | None:
        """The ECCO opening of the position on show (None when the game has another start)."""
        return self._opening

    def _show_opening(self) -> None:
        opening = self._opening
        self.opening_label.setVisible(opening is not None)
        if opening is not None:
            self.opening_label.setText(opening.label(chinese=current_language() is Language.CHINESE))

    def is_looking_up(self) -> bool:
        """Whether an answer is still awaited."""
        return self._pending != 0

    def result(self) -> ExplorerResult | None:
        """The answer on show (None before the first one, or without an index)."""
        return self._result

    def shutdown(self) -> None:
        self.worker.shutdown()

    # --- look-ups ----------------------------------------------------------------------------------
    def _request(self) -> None:
        if self._position is None:
            self._pending = 0
        else:  # without an index too: the masters' book is always looked up
            self._pending = self.worker.look_up(self._database, *self._position)
        if self._result is None:
            self._show_summary()

    def _on_looked_up(self, result: ExplorerResult) -> None:
        if result.request_id != self._pending:
            return  # an answer about a position no longer on show
        self._pending = 0
        self._result = result
        self._show()
        self.book_shown.emit(result.board, result.book)

    def _show(self) -> None:
        """The summary and both tables for the answer on show."""
        self._show_summary()
        self._fill_book(self._result)
        self._fill_moves(self._result)
        self._fill_games(self._result)
        has_index = bool(self._database)
        self.moves_table.setVisible(has_index)
        self.games_table.setVisible(has_index)

    def _show_summary(self) -> None:
        result = self._result
        if not self._database:
            self.summary.setText(tr("No position index chosen: View → Choose position index…"))
        elif self._pending and result is None:
            self.summary.setText(tr("Looking up…"))
        elif result is not None and result.error:
            self.summary.setText(tr("Could not read the position index: {reason}").format(reason=result.error))
        elif result is not None:
            red, draws, black = (sum(stat.red_wins for stat in result.moves), sum(stat.draws for stat in result.moves),
                                 sum(stat.black_wins for stat in result.moves))
            if result.reached and not red + draws + black:
                self.summary.setText(tr("{index}: {games} games reached this position; none of them has a "
                                        "result").format(index=Path(self._database).name, games=result.reached))
                return
            self.summary.setText(tr("{index}: {games} games reached this position; Red's average result {average} "
                                    "over {decided} with a result").format(
                index=Path(self._database).name, games=result.reached, average=average_text(red, draws, black),
                decided=red + draws + black))

    def book_moves(self) -> tuple[MoveStats, ...]:
        """The masters' moves on show (from the shipped book)."""
        return self._result.book if self._result is not None else ()

    def _fill_book(self, result: ExplorerResult | None) -> None:
        book = result.book if result is not None else ()
        self.book_model.set_rows([self._move_row(result.board, stat) for stat in book] if result is not None else [])
        games = sum(stat.games for stat in book)
        if result is None and self._pending:
            self.book_label.setText(tr("Master games: looking up…"))
        elif book:
            self.book_label.setText(tr("Master games: {games} played on from here (CCPD book, CC BY 4.0)").format(
                games=games))
        else:
            self.book_label.setText(tr("Master games: none in the book from this position"))

    def _move_row(self, board: Board, stat: MoveStats) -> tuple[str, ...]:
        return (format_move(board, stat.move, self._notation), str(stat.games), str(stat.red_wins),
                str(stat.draws), str(stat.black_wins), average_text(stat.red_wins, stat.draws, stat.black_wins))

    def _on_book_move_activated(self, row: int) -> None:
        book = self.book_moves()
        if 0 <= row < len(book):
            self.move_chosen.emit(book[row].move)

    def _fill_moves(self, result: ExplorerResult | None) -> None:
        if result is None or result.error:
            self.moves_model.set_rows([])
            return
        self.moves_model.set_rows([self._move_row(result.board, stat) for stat in result.moves])

    def _fill_games(self, result: ExplorerResult | None) -> None:
        games = result.games if result is not None and not result.error else ()
        self.games_model.set_rows([(game.red, game.black, game.result_text(), game.event, game.date,
                                    str(game.ply // 2 + 1)) for game in games])

    def _on_move_activated(self, row: int) -> None:
        if self._result is not None and 0 <= row < len(self._result.moves):
            self.move_chosen.emit(self._result.moves[row].move)

    def _on_game_activated(self, row: int) -> None:
        if self._result is not None and 0 <= row < len(self._result.games):
            game = self._result.games[row]
            self.worker.read_game(game.path, game.number, game.ply)


__all__ = ["ExplorerPanel", "ExplorerWorker", "TextTable", "ExplorerResult", "average_text", "GAMES_SHOWN"]
