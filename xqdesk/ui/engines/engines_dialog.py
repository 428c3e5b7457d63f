"""The engines dialog: the user's list of engines, with names, levels and UCI options.

Three kinds can be added: a course ``Player`` (a ``player_N.py`` file or a folder holding one), an
engine executable, and the built-in engine with a level. An executable is started once, in the
background, to find which protocol it speaks (UCI is tried, then UCCI; the status line says which
it found) and to read the options it declares (its own ``option`` lines); the dialog then shows
them as typed controls (a spin box with the declared bounds, a check box, a combo, a button, a
text field) set to their defaults, and only values the user changed are kept. An engine that
cannot be started (a missing file, a program that is no engine, one that never answers) is
refused: it leaves the list at once and the dialog says why. The list is saved in the engine
registry (:mod:`xqdesk.engines.registry`, which the command line reads too) when the dialog is
accepted.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Optional

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from xqdesk.engines.errors import EngineError
from xqdesk.engines.hosted.course_player import find_player_file
from xqdesk.engines.options import UciOption
from xqdesk.engines.transport.protocol import ProtocolName
from xqdesk.ui.base.i18n import follow_language, tr
from xqdesk.ui.base.reasons import engine_reason
from xqdesk.ui.base.settings import EngineKind, EngineProfile, Settings, save_settings
from xqdesk.ui.engines.engine_worker import EngineDescription, EngineWorker
from xqdesk.ui.engines.option_controls import describe_option, option_control, with_browse_button

MIN_LEVEL = 1
MAX_LEVEL = 20
"""The range of the built-in engine's ``Level`` option (read here without loading the engine)."""
HIDDEN_OPTIONS = frozenset({"uci_variant", "uci_chess960", "multipv", "usemillisec", "protocol"})
"""Options the window sets itself (the variant, the number of analysis lines) and protocol
internals a user must not change (Fairy-Stockfish's ``Protocol``: another one stops it answering)."""
VISIBLE_OPTION_ROWS = 9
"""The options area is never shorter than this many rows; more scroll."""
PATH_OPTION_SUFFIXES = ("file", "path", "dir", "directory", "folder")
"""A text option whose name ends so (``BookFile``, ``SyzygyPath``) gets a button that chooses it."""
INDEX_FILTER = "*.xqdb *.db *.sqlite"

KIND_LABELS = {EngineKind.PLAYER: "Course player", EngineKind.UCI: "UCI engine",
               EngineKind.UCCI: "UCCI engine", EngineKind.BUILTIN: "Built-in engine",
               EngineKind.TABLEBASE: "Tablebase",
               EngineKind.MCTS: "Monte-Carlo tree search engine", EngineKind.ZERO: "Zero engine (neural network)",
               EngineKind.COMMAND: "Engine command"}


def unique_name(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)`` … when that name is taken."""
    name, number = wanted, 2
    while name in taken:
        name = f"{wanted} ({number})"
        number += 1
    return name


class EnginesDialog(QDialog):
    """Add, rename, set up and remove engines; :meth:`profiles` is the edited list."""

    options_loaded = Signal(str)  # the name of the engine whose options were read
    options_failed = Signal(str)  # why an engine could not be started (it was refused)

    def __init__(self, settings: Settings, store: Optional[QSettings] = None,
                 parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self._store = store
        self._profiles: list[EngineProfile] = list(settings.engines)
        self._declared: dict[str, tuple[UciOption, ...]] = {}
        self._probes: dict[str, EngineWorker] = {}
        self._showing: Optional[int] = None

        self.engine_list = QListWidget()
        self.engine_list.currentRowChanged.connect(self._show_engine)

        self.add_player_button = QToolButton()
        self.add_player_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.player_menu = QMenu(self)
        self.player_file_action = self.player_menu.addAction("")
        self.player_folder_action = self.player_menu.addAction("")
        self.player_file_action.triggered.connect(self._choose_player_file)
        self.player_folder_action.triggered.connect(self._choose_player_folder)
        self.add_player_button.setMenu(self.player_menu)
        self.add_uci_button = QPushButton()
        self.add_uci_button.clicked.connect(self._choose_uci_engine)
        self.add_builtin_button = QPushButton()
        self.add_builtin_button.clicked.connect(lambda: self.add_builtin(3))
        self.add_mcts_button = QPushButton()
        self.add_mcts_button.clicked.connect(lambda: self.add_learning_engine(EngineKind.MCTS))
        self.add_zero_button = QPushButton()
        self.add_zero_button.clicked.connect(lambda: self.add_learning_engine(EngineKind.ZERO))
        self.remove_button = QPushButton()
        self.remove_button.clicked.connect(self._remove_current)
        add_row = QHBoxLayout()
        for button in (self.add_player_button, self.add_uci_button, self.add_builtin_button, self.add_mcts_button,
                       self.add_zero_button, self.remove_button):
            add_row.addWidget(button)
        add_row.addStretch(1)

        self.name_edit = QLineEdit()
        self.name_edit.editingFinished.connect(self._on_name_edited)
        self.kind_label = QLabel()
        self.path_label = QLabel()
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.level_box = QSpinBox()
        self.level_box.setRange(MIN_LEVEL, MAX_LEVEL)
        self.level_box.valueChanged.connect(self._on_level_changed)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.form = QFormLayout()
        self.name_caption, self.kind_caption = QLabel(), QLabel()
        self.path_caption, self.level_caption = QLabel(), QLabel()
        self.form.addRow(self.name_caption, self.name_edit)
        self.form.addRow(self.kind_caption, self.kind_label)
        self.form.addRow(self.path_caption, self.path_label)
        self.form.addRow(self.level_caption, self.level_box)

        self.options_caption = QLabel()
        self.options_box = QWidget()
        self.options_form = QFormLayout(self.options_box)
        self.options_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.options_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.option_widgets: dict[str, QWidget] = {}
        """The current engine's option controls by option name (typed by the option's type)."""
        self.option_browse_buttons: dict[str, QToolButton] = {}
        """The "…" buttons of the current engine's file and folder options, by option name."""
        self.options_area = QScrollArea()
        self.options_area.setWidgetResizable(True)
        self.options_area.setWidget(self.options_box)
        row_height = QSpinBox().sizeHint().height() + self.options_form.verticalSpacing()
        self.options_area.setMinimumHeight(VISIBLE_OPTION_ROWS * max(row_height, 24))

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        details = QVBoxLayout()
        details.addLayout(self.form)
        details.addWidget(self.options_caption)
        details.addWidget(self.options_area, 1)
        details.addWidget(self.status_label)
        body = QHBoxLayout()
        body.addWidget(self.engine_list, 1)
        body.addLayout(details, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(add_row)
        layout.addLayout(body, 1)
        layout.addWidget(self.buttons)
        self.resize(780, 600)

        for profile in self._profiles:
            self.engine_list.addItem(profile.name)
        self.retranslate()
        follow_language(self, self.retranslate)
        if self._profiles:
            self.engine_list.setCurrentRow(0)
        else:
            self._show_engine(-1)

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Engines dialog"))
        self.add_player_button.setText(tr("Add course player…"))
        self.player_file_action.setText(tr("Player file…"))
        self.player_folder_action.setText(tr("Player folder…"))
        self.add_uci_button.setText(tr("Add engine (UCI or UCCI)…"))
        self.add_builtin_button.setText(tr("Add built-in engine"))
        self.add_mcts_button.setText(tr("Add MCTS engine"))
        self.add_zero_button.setText(tr("Add zero engine"))
        self.remove_button.setText(tr("Remove"))
        self.name_caption.setText(tr("Name"))
        self.kind_caption.setText(tr("Kind"))
        self.path_caption.setText(tr("Path"))
        self.level_caption.setText(tr("Level"))
        self.options_caption.setText(tr("Options"))
        self._show_engine(self.engine_list.currentRow())

    # -- the list ---------------------------------------------------------------------------
    def profiles(self) -> tuple[EngineProfile, ...]:
        """The engines as edited so far."""
        return tuple(self._profiles)

    def settings(self) -> Settings:
        """The settings the dialog started from, with the edited engines."""
        return replace(self._settings, engines=self.profiles())

    def add_player(self, path: str) -> EngineProfile:
        """Add the course player at ``path`` (its file or folder); EngineError when there is none.

        The player is loaded once in the background; ``options_failed`` says why when it cannot
        be (a syntax error, no ``Player`` class …), ``options_loaded`` when it can."""
        player_file = find_player_file(path)
        wanted = Path(path).name if Path(path).is_dir() else player_file.stem
        profile = self._add(EngineProfile(self._free_name(wanted), EngineKind.PLAYER, str(Path(path).resolve())))
        self._probe(profile, adopt_name=False)  # loads it once: a player that cannot load says why now
        return profile

    def add_engine(self, path: str) -> EngineProfile:
        """Add the engine executable at ``path``: in the background, find whether it speaks UCI
        or UCCI (UCI is tried first) and read its options (``options_loaded`` or
        ``options_failed`` follows; the kind becomes the protocol found, the name the engine's own)."""
        profile = self._add(EngineProfile(self._free_name(Path(path).name), EngineKind.UCI, path))
        self._probe(profile, detect=True)
        return profile

    add_uci_engine = add_engine

    def add_builtin(self, level: int) -> EngineProfile:
        """Add the built-in engine at ``level``."""
        level = min(max(level, MIN_LEVEL), MAX_LEVEL)
        return self._add(EngineProfile(self._free_name(f"{tr('Built-in engine')} {level}"), EngineKind.BUILTIN,
                                       level=level))

    def add_learning_engine(self, kind: EngineKind) -> EngineProfile:
        """Add the ``mcts`` or ``zero`` engine and read its options in the background."""
        profile = self._add(EngineProfile(self._free_name(tr(KIND_LABELS[kind])), kind))
        self._probe(profile, adopt_name=False)
        return profile

    def remove(self, name: str) -> None:
        index = self._index_of(name)
        del self._profiles[index]
        self._showing = None
        self.engine_list.takeItem(index)
        self._show_engine(self.engine_list.currentRow())

    def set_option(self, name: str, option: str, value: str) -> None:
        """Set a UCI option of engine ``name``; ValueError when the engine would refuse the value."""
        index = self._index_of(name)
        profile = self._profiles[index]
        declared = {o.name.lower(): o for o in self._declared.get(name, ())}
        known = declared.get(option.lower())
        if known is not None:
            value = known.validate(value)
            option = known.name
        options = {key: val for key, val in profile.options if key.lower() != option.lower()}
        if known is None or value != (known.default or ""):
            options[option] = value
        self._profiles[index] = replace(profile, options=tuple(options.items()))

    def declared_options(self, name: str) -> tuple[UciOption, ...]:
        """The options engine ``name`` declared (empty until they have been read)."""
        return self._declared.get(name, ())

    def _add(self, profile: EngineProfile) -> EngineProfile:
        self._profiles.append(profile)
        self.engine_list.addItem(profile.name)
        self.engine_list.setCurrentRow(len(self._profiles) - 1)
        return profile

    def _free_name(self, wanted: str) -> str:
        return unique_name(wanted, {profile.name for profile in self._profiles})

    def _index_of(self, name: str) -> int:
        for index, profile in enumerate(self._profiles):
            if profile.name == name:
                return index
        raise ValueError(f"no engine named {name!r} in the dialog; known: {[p.name for p in self._profiles]}")

    # -- reading a UCI engine's options ------------------------------------------------------------
    def _probe(self, profile: EngineProfile, adopt_name: bool = True, detect: bool = False) -> None:
        spec = profile.to_spec()
        worker = EngineWorker(replace(spec, protocol=ProtocolName.AUTO) if detect else spec, self)
        self._probes[profile.name] = worker
        worker.engine_ready.connect(
            lambda description, name=profile.name: self._on_probed(name, description, adopt_name, detect))
        worker.engine_failed.connect(lambda reason, name=profile.name: self._on_probe_failed(name, reason))
        self.status_label.setText(tr("Reading the engine's options…"))
        worker.start()

    def _finish_probe(self, name: str) -> None:
        worker = self._probes.pop(name, None)
        if worker is not None:
            worker.shutdown()
            worker.deleteLater()

    def _on_probed(self, name: str, description: EngineDescription, adopt_name: bool,
                   detected: bool = False) -> None:
        self._finish_probe(name)
        options = tuple(o for o in description.options if o.name.lower() not in HIDDEN_OPTIONS)
        final_name = name
        if adopt_name and name in {p.name for p in self._profiles}:
            index = self._index_of(name)
            others = {p.name for p in self._profiles} - {name}
            final_name = unique_name(description.name or name, others)
            kind = self._profiles[index].kind
            if detected:
                kind = EngineKind.UCCI if description.protocol == "UCCI" else EngineKind.UCI
            self._profiles[index] = replace(self._profiles[index], name=final_name, kind=kind)
            self.engine_list.item(index).setText(final_name)
        self._declared[final_name] = options
        self.status_label.setText(tr("Found a {protocol} engine: {name}").format(
            protocol=description.protocol, name=final_name) if detected else "")
        self._showing = None
        self._show_engine(self.engine_list.currentRow())
        self.options_loaded.emit(final_name)

    def _on_probe_failed(self, name: str, reason: str) -> None:
        """An engine that cannot be started is refused: it leaves the list, and the dialog says why."""
        self._finish_probe(name)
        first_line = engine_reason(reason.strip().splitlines()[0]) if reason.strip() else tr("no reason given")
        message = tr("Refused {path}: {reason}").format(path=name, reason=first_line)
        if name in {profile.name for profile in self._profiles}:
            self.remove(name)
        self.status_label.setText(message)
        self.options_failed.emit(message)

    # -- the details of the current engine ------------------------------------------------------
    def _show_engine(self, index: int) -> None:
        self._showing = None
        has = 0 <= index < len(self._profiles)
        for widget in (self.name_edit, self.level_box, self.options_box, self.remove_button):
            widget.setEnabled(has)
        self._clear_option_controls()
        if not has:
            self.name_edit.clear()
            self.kind_label.clear()
            self.path_label.clear()
            return
        profile = self._profiles[index]
        self.name_edit.setText(profile.name)
        self.kind_label.setText(tr(KIND_LABELS[profile.kind]))
        self.path_label.setText(profile.path)
        self.level_box.blockSignals(True)
        self.level_box.setValue(profile.level)
        self.level_box.blockSignals(False)
        has_level = profile.kind is EngineKind.BUILTIN
        self.form.setRowVisible(self.level_box, has_level)  # no Level for engines that have none
        values = dict(profile.options)
        declared = self._declared.get(profile.name, ())
        known = {option.name for option in declared}
        for option in declared:
            self._add_option_control(profile.name, option, values.get(option.name))
        for key, value in values.items():  # values kept for options the engine has not declared (yet)
            if key not in known:
                self._add_option_control(profile.name, UciOption(key, "string", ""), value)
        self._showing = index

    def _clear_option_controls(self) -> None:
        while self.options_form.rowCount():
            self.options_form.removeRow(0)
        self.option_widgets.clear()
        self.option_browse_buttons.clear()

    def _add_option_control(self, engine: str, option: UciOption, value: Optional[str]) -> None:
        """One typed control for ``option``, showing ``value`` (None: the engine's default); an
        edit is checked by :meth:`set_option` and a refused value is explained in the status line."""
        widget = option_control(option, value, partial(self._on_option_control, engine, option.name),
                                partial(self._on_button_option, engine, option.name))
        self.option_widgets[option.name] = widget
        field: QWidget = widget
        if isinstance(widget, QLineEdit) and option.name.lower().endswith(PATH_OPTION_SUFFIXES):
            field, browse = with_browse_button(widget)
            browse.clicked.connect(lambda _checked=False, n=option.name, line=widget: self._choose_option_path(
                engine, n, line))
            self.option_browse_buttons[option.name] = browse
        label = QLabel(option.name)
        label.setToolTip(describe_option(option))
        self.options_form.addRow(label, field)

    def _choose_option_path(self, engine: str, option: str, line: QLineEdit) -> None:
        """The "…" of a file or folder option: an opening book (``BookFile``) is a book file (made by
        ``xqdesk book build``) or a position index (made by *View → Add games to the position
        index…* or ``xqdesk index``), a ``…Path`` or
        ``…Dir`` a folder, any other ``…File`` a file."""
        start = line.text() or self._settings.last_directory
        name = option.lower()
        if name.endswith(("path", "dir", "directory", "folder")):
            path = QFileDialog.getExistingDirectory(self, option, start)
        elif "book" in name:
            path, _filter = QFileDialog.getOpenFileName(
                self, option, start, f"{tr('Opening books and position indexes')} (*.npz {INDEX_FILTER});;"
                                     f"{tr('All files')} (*)")
        else:
            path, _filter = QFileDialog.getOpenFileName(self, option, start, f"{tr('All files')} (*)")
        if path:
            line.setText(path)
            self._on_option_control(engine, option, path)

    def _on_option_control(self, engine: str, option: str, value: str) -> None:
        try:
            self.set_option(engine, option, value)
            self.status_label.setText("")
        except ValueError as error:
            self.status_label.setText(str(error))

    def _on_button_option(self, engine: str, option: str, pressed: bool) -> None:
        """A button option is kept (sent once the engine starts) while its button is down."""
        index = self._index_of(engine)
        profile = self._profiles[index]
        options = {key: val for key, val in profile.options if key != option}
        if pressed:
            options[option] = ""
        self._profiles[index] = replace(profile, options=tuple(options.items()))

    def _on_name_edited(self) -> None:
        index = self._showing
        if index is None:
            return
        profile = self._profiles[index]
        wanted = self.name_edit.text().strip()
        if not wanted or wanted == profile.name:
            self.name_edit.setText(profile.name)
            return
        name = unique_name(wanted, {p.name for p in self._profiles} - {profile.name})
        self._profiles[index] = replace(profile, name=name)
        if profile.name in self._declared:
            self._declared[name] = self._declared.pop(profile.name)
        self.engine_list.item(index).setText(name)
        self.name_edit.setText(name)

    def _on_level_changed(self, level: int) -> None:
        if self._showing is not None:
            self._profiles[self._showing] = replace(self._profiles[self._showing], level=level)

    # -- file choosers and closing ----------------------------------------------------------------
    def _choose_player_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose a course player file or folder"),
                                              self._settings.last_directory, f"{tr('Python files')} (*.py)")
        if path:
            self._add_player_reporting(path)

    def _choose_player_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, tr("Choose a course player file or folder"),
                                                self._settings.last_directory)
        if path:
            self._add_player_reporting(path)

    def _add_player_reporting(self, path: str) -> None:
        try:
            self.add_player(path)
            self.status_label.setText("")
        except EngineError as error:
            self.status_label.setText(tr("Could not start {path}: {reason}").format(path=path, reason=engine_reason(str(error))))

    def _choose_uci_engine(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose a UCI or UCCI engine executable"),
                                              self._settings.last_directory, f"{tr('All files')} (*)")
        if path:
            self.add_engine(path)

    def _remove_current(self) -> None:
        index = self.engine_list.currentRow()
        if 0 <= index < len(self._profiles):
            self.remove(self._profiles[index].name)

    def done(self, result: int) -> None:  # noqa: D102 - QDialog override
        for name in list(self._probes):
            self._finish_probe(name)
        if result == QDialog.DialogCode.Accepted and self._store is not None:
            save_settings(self.settings(), self._store)
        super().done(result)

