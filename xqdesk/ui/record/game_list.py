"""The game list: every game of a record file or match folder in a sortable, filterable table.

Columns: the game's number in the file, event, date, round, Red, Black, result, plies, opening
(its ECCO code and name, classified from the moves — see :mod:`xqdesk.ecco` — or, for a game from
a set-up position, what its ``Opening`` tag says) and the result's reason. A click on a
header sorts; the fields above filter by player (either side), event and result. Double-click (or
Enter) opens a game in the window. When every game is between the same two players (a match
folder, a match's PGN), the match score is shown above the table.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from xqdesk.ecco import classify_game, opening_named
from xqdesk.formats.game_file import GameFile
from xqdesk.game import Game
from xqdesk.ui.base.i18n import Language, current_language, follow_language, tr, tr_outcome

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@dataclass(frozen=True, slots=True)
class GameRow:
    """What the table shows of one game (a list of a big file holds one per game, not the games:
    slots, and the texts that repeat from game to game — events, players — shared)."""

    number: int
    event: str
    date: str
    round: str
    red: str
    black: str
    result: str
    plies: int
    opening: str
    reason: str  # the outcome's text in English (translated when shown)
    damaged: bool
    ecco: str = ""
    """The ECCO code of the game's opening ("" for a game from another position)."""

    def opening_text(self) -> str:
        """The Opening column as shown: the ECCO code and its name in the interface language."""
        if not self.ecco:
            return self.opening
        opening = opening_named(self.ecco)
        return opening.label(chinese=current_language() is Language.CHINESE)


DATE_TAGS = ("Date", "EventDate", "GameDate", "UTCDate")
"""Where a record keeps its date, first found first: PGN's Date, else the EventDate, GameDate or
UTCDate other tools write (PGN's Time is a time of day, not a date). PGN's unknown ``????.??.??``
counts as none."""

ROUND_TAGS = ("Round", "Board", "Game")
"""Where a record keeps its round; a Game tag counts only as a number (many Chinese PGN files write
``[Game "Chinese Chess"]``, which is no round)."""


def date_text(headers: Mapping[str, str]) -> str:
    """The Date column: the first of :data:`DATE_TAGS` with a known date, else empty."""
    for tag in DATE_TAGS:
        value = headers.get(tag, "").strip()
        if value and value.strip("?.-/ "):
            return value
    return ""


def round_text(headers: Mapping[str, str]) -> str:
    """The Round column: the first of :data:`ROUND_TAGS` with a round, else empty."""
    for tag in ROUND_TAGS:
        value = headers.get(tag, "").strip()
        if not value or value == "?" or (tag == "Game" and not any(char.isdigit() for char in value)):
            continue
        return value
    return ""


def game_row(number: int, game: Game, damaged: bool = False) -> GameRow:
    """The row of game ``number`` (1-based) of a file."""
    headers = game.headers
    outcome = game.outcome
    result = outcome.result() if outcome is not None else headers.get("Result", "*") or "*"
    opening = " ".join(part for part in (headers.get("ECCO", "").strip(), headers.get("Opening", "").strip()) if part)
    classified = classify_game(game)
    return GameRow(number, _shared(headers.get("Event", "")), _shared(date_text(headers)),
                   _shared(round_text(headers)), _shared(headers.get("Red", "")),
                   _shared(headers.get("Black", "")), result, len(game.mainline_moves()), _shared(opening),
                   _shared(outcome.text) if outcome is not None else "", damaged,
                   classified.code if classified else "")


def _shared(text: str) -> str:
    """``text`` stripped, one copy for every row that holds it."""
    return sys.intern(text.strip())


ROWS_PER_REPORT = 25
"""``game_rows`` calls its ``progress`` after this many rows."""


def game_rows(record: GameFile, progress: Callable[[int, int], None] | None = None) -> list[GameRow]:
    """The rows of every game of ``record`` (Qt-free work: a loader thread does it), calling
    ``progress(done, total)`` every ROWS_PER_REPORT rows (it may raise to stop)."""
    damaged = record.damaged_game_numbers
    rows = []
    total = len(record.games)
    for number, game in enumerate(record.games, start=1):
        rows.append(game_row(number, game, number in damaged))
        if progress is not None and (number % ROWS_PER_REPORT == 0 or number == total):
            progress(number, total)
    return rows


def match_score(rows: list[GameRow]) -> tuple[tuple[str, float], tuple[str, float]] | None:
    """``((player, points), (player, points))`` when every row is a game between the same two
    players, counting finished games only (a win 1, a draw ½); None otherwise."""
    players = sorted({row.red for row in rows} | {row.black for row in rows})
    if len(players) != 2 or any(not name for name in players):
        return None
    points = {name: 0.0 for name in players}
    for row in rows:
        if row.result == "1-0":
            points[row.red] += 1
        elif row.result == "0-1":
            points[row.black] += 1
        elif row.result == "1/2-1/2":
            points[row.red] += 0.5
            points[row.black] += 0.5
    first, second = players
    return (first, points[first]), (second, points[second])


def points_text(points: float) -> str:
    """``3``, ``2½``, ``½``."""
    whole = int(points)
    half = points - whole >= 0.5
    return ("½" if whole == 0 else f"{whole}½") if half else str(whole)


_FIELDS = ("number", "event", "date", "round", "red", "black", "result", "plies", "opening", "reason")
"""The GameRow field shown in each column (the Opening column sorts by the ECCO code)."""


class GameListModel(QAbstractTableModel):
    """A file's games, filtered by player, event and result and sorted by a column's raw values
    (numbers as numbers), both in Python over lists: a filter is one pass over the rows, a sort
    one ``sorted`` with each column's keys made once — a thousand games in a few milliseconds,
    where a proxy model comparing cell by cell took a fifth of a second. ``rows`` are the rows
    shown, in order; ``all_rows`` every game of the file, in the file's order."""

    COLUMNS = ("#", "Event", "Date", "Round", "Red", "Black", "Result", "Plies", "Opening", "Reason")

    def __init__(self, rows: list[GameRow], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.all_rows = list(rows)
        self.rows = list(rows)
        self._keys: dict[int, dict[int, Any]] = {}  # column -> {game number: sort key}
        self._sort: tuple[int, Qt.SortOrder] = (0, Qt.SortOrder.AscendingOrder)
        self.player_text = self.event_text = self.result_text = ""

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def value(self, row: int, column: int) -> Any:
        """The raw value of a cell (for sorting)."""
        return self._raw(self.rows[row], column)

    @staticmethod
    def _raw(item: GameRow, column: int) -> Any:
        if column == 8:
            return item.ecco or item.opening
        return getattr(item, _FIELDS[column])

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == len(self.COLUMNS) - 1:
                return tr_outcome(item.reason) + ("  ⚠" if item.damaged else "") if item.reason or item.damaged else ""
            if column == 8:
                return item.opening_text()
            return str(self._raw(item, column))
        if role == Qt.ItemDataRole.UserRole:
            return self._raw(item, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 7):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows shown by ``column`` (ties in the file's order); ``column`` -1 restores
        the file's order."""
        if not 0 <= column < len(self.COLUMNS):
            column, order = 0, Qt.SortOrder.AscendingOrder
        self._sort = (column, order)
        old = self.persistentIndexList()
        before = {id(item): row for row, item in enumerate(self.rows)}
        self.layoutAboutToBeChanged.emit()
        self.rows = self._sorted(self.rows)
        after = {id(item): row for row, item in enumerate(self.rows)}
        moved = {before[key]: row for key, row in after.items()}
        self.changePersistentIndexList(old, [self.index(moved[index.row()], index.column()) for index in old])
        self.layoutChanged.emit()

    def _sorted(self, rows: list[GameRow]) -> list[GameRow]:
        column, order = self._sort
        keys = self._keys.get(column)
        if keys is None:
            keys = self._keys[column] = {item.number: (self._raw(item, column), item.number) for item in self.all_rows}
        return sorted(rows, key=lambda item: keys[item.number], reverse=order == Qt.SortOrder.DescendingOrder)

    def set_filters(self, player: str, event: str, result: str) -> None:
        """Show the games with a player (either side) and an event containing these texts
        (case-insensitive) and this result ("" : any), in the current order."""
        self.player_text, self.event_text, self.result_text = player.strip().lower(), event.strip().lower(), result
        self.beginResetModel()
        self.rows = self._sorted([item for item in self.all_rows if self._accepts(item)])
        self.endResetModel()

    def _accepts(self, item: GameRow) -> bool:
        if self.player_text and self.player_text not in item.red.lower() and self.player_text not in item.black.lower():
            return False
        if self.event_text and self.event_text not in item.event.lower():
            return False
        return not self.result_text or item.result == self.result_text

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return game_list_column(self.COLUMNS[section])
        return None


def game_list_column(name: str) -> str:
    """A column's title in the interface language."""
    titles = {"#": "#", "Event": tr("Event"), "Date": tr("Date"), "Round": tr("Round"), "Red": tr("Red"),
              "Black": tr("Black"), "Result": tr("Result"), "Plies": tr("Plies"), "Opening": tr("Opening"),
              "Reason": tr("Reason")}
    return titles.get(name, name)


class GameTable(QDialog):
    """The game list of ``record`` (``rows``: its rows, when already made); ``open_game(index)``
    opens game ``index`` (0-based) of it. Not modal: the window stays usable beside it."""

    COLUMNS = GameListModel.COLUMNS

    def __init__(self, record: GameFile, open_game: Callable[[int], bool], parent: QWidget | None = None,
                 rows: list[GameRow] | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self._open_game = open_game
        self.model = GameListModel(rows if rows is not None else game_rows(record), self)
        self.table = QTableView()
        self.table.setModel(self.model)
        header = self.table.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)  # the file's order, already so
        header.sortIndicatorChanged.connect(self.model.sort)  # a click on a header sorts by it
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((44, 190, 80, 50, 110, 110, 60, 48, 120)):
            self.table.setColumnWidth(column, width)
        self.table.doubleClicked.connect(self._open_index)
        self.table.activated.connect(self._open_index)
        self.player_filter, self.event_filter = QLineEdit(), QLineEdit()
        self.result_filter = QComboBox()
        self.result_filter.addItem("", "")
        for result in RESULTS:
            self.result_filter.addItem(result, result)
        for line in (self.player_filter, self.event_filter):
            line.setClearButtonEnabled(True)
            line.textChanged.connect(self._filter)
        self.result_filter.currentIndexChanged.connect(self._filter)
        self.player_caption, self.event_caption, self.result_caption = QLabel(), QLabel(), QLabel()
        filters = QHBoxLayout()
        field: QWidget
        for caption, field in ((self.player_caption, self.player_filter), (self.event_caption, self.event_filter),
                               (self.result_caption, self.result_filter)):
            filters.addWidget(caption)
            filters.addWidget(field, 1 if field is not self.result_filter else 0)
        self.score_label = QLabel()
        self.score_label.setStyleSheet("font-weight: bold;")
        self.count_label = QLabel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.score_label)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count_label)
        if record.errors:
            problems = QLabel("\n".join(str(error) for error in record.errors[:5]))
            problems.setWordWrap(True)
            problems.setStyleSheet("color: #a00;")
            layout.addWidget(problems)
        self.resize(900, 480)
        self.retranslate()
        follow_language(self, self.retranslate)

    def retranslate(self) -> None:
        self.setWindowTitle(f"{tr('Games')} — {self.record.source}")
        self.player_caption.setText(tr("Player"))
        self.event_caption.setText(tr("Event"))
        self.result_caption.setText(tr("Result"))
        self.result_filter.setItemText(0, tr("All"))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.COLUMNS) - 1)
        if self.model.rows:  # the opening names and reasons are shown in the interface language
            self.model.dataChanged.emit(self.model.index(0, 0),
                                        self.model.index(len(self.model.rows) - 1, len(self.COLUMNS) - 1))
        score = match_score(self.model.all_rows)
        self.score_label.setVisible(score is not None)
        if score is not None:
            (first, first_points), (second, second_points) = score
            self.score_label.setText(tr("Match score: {first} {first_points} – {second_points} {second}").format(
                first=first, first_points=points_text(first_points), second=second,
                second_points=points_text(second_points)))
        self._show_count()

    def _filter(self) -> None:
        self.model.set_filters(self.player_filter.text(), self.event_filter.text(),
                               self.result_filter.currentData() or "")
        self._show_count()

    def _show_count(self) -> None:
        self.count_label.setText(tr("{shown} of {total} games").format(
            shown=self.model.rowCount(), total=len(self.model.all_rows)))

    def _open_index(self, index: QModelIndex) -> None:
        if index.isValid():
            self._open_game(self.game_index(index.row()))

    # --- reading the table (tests, tools) ------------------------------------------------------
    def game_index(self, row: int) -> int:
        """The 0-based index in the file of the game on table row ``row`` (as sorted and filtered)."""
        return self.model.rows[row].number - 1

    def row_count(self) -> int:
        """Rows shown (after filtering)."""
        return self.model.rowCount()

    def text(self, row: int, column: int) -> str:
        """The text of a cell as shown."""
        return str(self.model.data(self.model.index(row, column)))

    def row_center(self, row: int) -> QPoint:
        """Viewport position of a row's first cell (for tests)."""
        if not 0 <= row < self.model.rowCount():
            raise IndexError(f"the game table has no row {row!r}")
        return self.table.visualRect(self.model.index(row, 0)).center()
