"""One typed control per UCI option an engine declares: a spin box with the declared bounds, a
check box, a combo, a toggle button, a text field. The controls only report edits; whoever shows
them checks and keeps the values (the engines dialog does)."""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QWidget,
)

from xqdesk.engines.options import UciOption
from xqdesk.ui.base.i18n import tr


def option_control(option: UciOption, value: Optional[str], on_value: Callable[[str], None],
                   on_pressed: Callable[[bool], None]) -> QWidget:
    """A control for ``option`` showing ``value`` (None: the engine's default). An edit calls
    ``on_value`` with the new text; a button option's toggle calls ``on_pressed`` instead."""
    current = value if value is not None else (option.default or "")
    widget: QWidget
    if option.type == "spin":
        spin = QSpinBox()
        spin.setRange(option.min if option.min is not None else -2**31,
                      option.max if option.max is not None else 2**31 - 1)
        try:
            spin.setValue(int(current))
        except ValueError:
            pass
        spin.valueChanged.connect(lambda number: on_value(str(number)))
        widget = spin
    elif option.type == "check":
        check = QCheckBox()
        check.setChecked(current.strip().lower() == "true")
        check.toggled.connect(lambda on: on_value("true" if on else "false"))
        widget = check
    elif option.type == "combo":
        combo = QComboBox()
        combo.addItems(list(option.choices))
        found = combo.findText(current, Qt.MatchFlag.MatchFixedString)
        if found >= 0:
            combo.setCurrentIndex(found)
        combo.currentTextChanged.connect(on_value)
        widget = combo
    elif option.type == "button":
        button = QPushButton(tr("Press when the engine starts"))
        button.setCheckable(True)
        button.setChecked(value is not None)
        button.toggled.connect(on_pressed)
        widget = button
    else:
        line = QLineEdit(current)
        line.editingFinished.connect(lambda: on_value(line.text()))
        widget = line
    widget.setToolTip(describe_option(option))
    # a control never shrinks below its natural height: too many options scroll instead
    widget.setMinimumHeight(widget.sizeHint().height())
    widget.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return widget


def with_browse_button(control: QWidget) -> tuple[QWidget, QToolButton]:
    """``control`` in a row with a "…" button after it (for a file or folder option): the row to
    show, and the button (whoever shows the row connects it to a chooser)."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(control, 1)
    browse = QToolButton()
    browse.setText("…")
    browse.setToolTip(tr("Choose…"))
    layout.addWidget(browse)
    return row, browse


def describe_option(option: UciOption) -> str:
    """The option's type, default, bounds and choices, for a tooltip."""
    parts = [option.type]
    if option.default is not None:
        parts.append(tr("default {value}").format(value=repr(option.default)))
    if option.min is not None or option.max is not None:
        parts.append(f"{option.min}..{option.max}")
    if option.choices:
        parts.append(" / ".join(option.choices))
    return ", ".join(parts)
