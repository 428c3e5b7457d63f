"""The window's choices of seats and engines: the New game dialog, the analysis engines dialog,
and which engines can be offered at all."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from xqdesk.engines.builtin.levels import ladder_place
from xqdesk.pieces import BLACK, RED, Color
from xqdesk.time_control import TimeControl
from xqdesk.ui.base.i18n import side_word, tr
from xqdesk.ui.base.settings import EngineKind, EngineProfile, Settings
from xqdesk.ui.game.game_controller import Mode
from xqdesk.ui.game.live_game import engine_label

BUILTIN_PROFILES = tuple(EngineProfile(f"Built-in level {level}", EngineKind.BUILTIN, level=level)
                         for level in (1, 3, 5))
"""Engines offered even before any is set up."""

ANALYSIS_PROFILE = EngineProfile("Built-in", EngineKind.BUILTIN, level=20)
"""The engine that analyses when none is chosen: the built-in one at full strength."""
TABLEBASE_PROFILE_NAME = "Tablebase"
"""The name the tablebase directory of the settings has among the analysis engines."""


def engine_strength(profile: EngineProfile | None) -> str:
    """What is known of an engine's strength, for a person choosing an opponent: a built-in
    level's measured place on the strength ladder ('' when nothing is measured)."""
    if profile is None or profile.kind is not EngineKind.BUILTIN:
        return ""
    place = ladder_place(profile.level)
    if place is None:
        return ""
    text = tr("Level {level} beats Fairy-Stockfish at skill level {beats}").format(
        level=profile.level, beats=place.beats_skill)
    if place.loses_to_skill is not None:
        text += tr(" and loses to skill level {loses}").format(loses=place.loses_to_skill)
    return text + tr(" ({seconds} s a move, measured on the strength ladder)").format(seconds=f"{place.movetime:g}")


def engine_box(engines: tuple[EngineProfile, ...], none_item: str | None = None,
               chosen: EngineProfile | None = None) -> QComboBox:
    """A box to choose one of ``engines``: each by its name in the interface language, with what is
    known of its strength as its tooltip; ``none_item`` (data None: a person, no engine) first
    where given; ``chosen`` selected where it is among them (else the first item)."""
    box = QComboBox()
    if none_item is not None:
        box.addItem(none_item, None)
    for profile in engines:
        box.addItem(engine_label(profile), profile)
        if strength := engine_strength(profile):
            box.setItemData(box.count() - 1, strength, Qt.ItemDataRole.ToolTipRole)
        if profile == chosen:
            box.setCurrentIndex(box.count() - 1)
    return box


def available_engines(settings: Settings) -> tuple[EngineProfile, ...]:
    """The user's engines that can start (an engine whose program or player is gone is never
    offered), then the built-in levels not already among them."""
    usable = tuple(profile for profile in settings.engines if engine_problem(profile) is None)
    names = {profile.name for profile in usable}
    return usable + tuple(p for p in BUILTIN_PROFILES if p.name not in names)


def engine_problem(profile: EngineProfile) -> str | None:
    """Why ``profile`` cannot be started as it is set up (None: nothing known against it)."""
    if profile.kind is EngineKind.BUILTIN:
        return None
    path = Path(profile.path)
    if not path.exists():
        return f"{profile.path!r} does not exist"
    if profile.kind is EngineKind.UCI and not (path.is_file() and os.access(path, os.X_OK)):
        return f"{profile.path!r} is not an executable program"
    return None


TIME_CONTROL_PRESETS = ("10s", "none", "15m+5s", "20m|30s", "5m+3s", "30s")
"""Time controls offered in the New game dialog (any other can be typed; see TimeControl.parse)."""


def engine_clock_setting(settings: Settings) -> TimeControl:
    """The clock an engine seat gets by default (the course's 10 s when the setting is unreadable)."""
    try:
        return TimeControl.parse(settings.engine_clock)
    except ValueError:
        return TimeControl.per_move(10.0)


class NewGameDialog(QDialog):
    """Choose who plays Red and Black (a person or an engine), each side's clock and the start
    position. A side's clock follows its seat (``engine_clock`` for an engine, ``person_clock``
    for a person) until the user edits it."""

    def __init__(self, engines: tuple[EngineProfile, ...], engine_clock: str, person_clock: str, delay: float,
                 can_continue: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("New game"))
        self._engines = engines
        self._default_clocks = {True: engine_clock, False: person_clock}
        self.red_box, self.black_box = engine_box(engines, tr("Person")), engine_box(engines, tr("Person"))
        self.red_clock, self.black_clock = QComboBox(), QComboBox()
        for box, clock in ((self.red_box, self.red_clock), (self.black_box, self.black_clock)):
            clock.setEditable(True)
            clock.addItems(TIME_CONTROL_PRESETS)
            clock.setToolTip(tr("Seconds a move ('10s'), game time plus increment ('15m+5s'), "
                                "main time then byo-yomi ('20m|30s'), or 'none'"))
            clock.setCurrentText(person_clock)
            box.currentIndexChanged.connect(
                lambda _index, seat=box, chosen=clock: chosen.setCurrentText(
                    self._default_clocks[seat.currentData() is not None]))
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #c0251b;")
        self.delay = QDoubleSpinBox()
        self.delay.setRange(0.0, 60.0)
        self.delay.setDecimals(2)
        self.delay.setValue(delay)
        self.from_here = QCheckBox(tr("New game from this position"))
        self.from_here.setEnabled(can_continue)
        form = QFormLayout()
        form.addRow(tr("Red"), self.red_box)
        form.addRow(tr("Red's clock"), self.red_clock)
        form.addRow(tr("Black"), self.black_box)
        form.addRow(tr("Black's clock"), self.black_clock)
        form.addRow(tr("Delay between moves"), self.delay)
        form.addRow(self.from_here)
        form.addRow(self.error_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def seats(self) -> tuple[EngineProfile | None, EngineProfile | None]:
        return self.red_box.currentData(), self.black_box.currentData()

    def time_controls(self) -> dict[Color, TimeControl]:
        """Each side's clock as typed; ValueError says which side's text is wrong and why."""
        controls = {}
        for color, clock in ((RED, self.red_clock), (BLACK, self.black_clock)):
            try:
                controls[color] = TimeControl.parse(clock.currentText())
            except ValueError as error:
                raise ValueError(f"{side_word(color)}: {error}") from None
        return controls

    def accept(self) -> None:
        """Accept only when both clocks read as time controls (else say why and stay open)."""
        try:
            self.time_controls()
        except ValueError as error:
            self.error_label.setText(str(error))
            return
        super().accept()


class AnalysisEnginesDialog(QDialog):
    """Choose the one or two engines that analyse side by side."""

    def __init__(self, engines: tuple[EngineProfile, ...], chosen: list[EngineProfile],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Analysis engines…"))
        self.first_box = engine_box(engines, chosen=chosen[0] if chosen else None)
        self.second_box = engine_box(engines, none_item=tr("(no engine)"),
                                     chosen=chosen[1] if len(chosen) > 1 else None)
        form = QFormLayout()
        form.addRow(tr("Engine"), self.first_box)
        form.addRow(tr("Second engine"), self.second_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def engines(self) -> list[EngineProfile]:
        chosen = [self.first_box.currentData(), self.second_box.currentData()]
        return [profile for profile in chosen if profile is not None]


def mode_for_seats(red: EngineProfile | None, black: EngineProfile | None) -> Mode:
    """The play mode that seats ``red`` and ``black`` make (None: a person)."""
    engines = (red is not None) + (black is not None)
    return (Mode.PERSON_VS_PERSON, Mode.PERSON_VS_ENGINE, Mode.ENGINE_VS_ENGINE)[engines]
