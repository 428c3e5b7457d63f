"""Engine options as an engine declares them (UCI's ``option`` lines describe the same thing):
their declarations, checked values, and the table that keeps an in-process engine's options in its
attributes. Plain values: the wire (:mod:`xqdesk.engines.transport`), the hosted engines and the
window all speak of options in these words.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from xqdesk.engines.errors import EngineOptionError

OptionValue = Union[bool, int, str, None]
"""A checked option value: bool for ``check``, int for ``spin``, str for ``combo`` and
``string``, None for ``button``."""


@dataclass(frozen=True)
class UciOption:
    """One engine option, as an ``option`` line declares it: ``type`` is check, spin, combo,
    button or string (other types an engine may invent take any text)."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        """What values the option takes, in words (for error messages and tooltips)."""
        if self.type == "check":
            return "true or false"
        if self.type == "spin":
            if self.min is not None and self.max is not None:
                return f"{self.min}..{self.max}"
            if self.min is not None:
                return f"an integer from {self.min}"
            if self.max is not None:
                return f"an integer up to {self.max}"
            return "an integer"
        if self.type == "combo":
            return f"one of {list(self.choices)!r}"
        if self.type == "button":
            return "no value (it is a button)"
        return "one line of text"

    def parse_value(self, value: OptionValue) -> OptionValue:
        """``value`` (text as in ``setoption``, or already typed) checked against this declaration
        and typed: the one place option values are checked. Raises EngineOptionError naming the
        option, the value and what it takes."""
        text = "" if value is None else str(value)
        if self.type == "check":
            lowered = text.strip().lower()
            if lowered in ("true", "false"):
                return lowered == "true"
        elif self.type == "spin":
            if not isinstance(value, bool):
                try:
                    number = int(text)
                except ValueError:
                    number = None
                if number is not None and (self.min is None or number >= self.min) \
                        and (self.max is None or number <= self.max):
                    return number
        elif self.type == "combo":
            for choice in self.choices:
                if choice.lower() == text.strip().lower():
                    return choice
        elif self.type == "button":
            if not text.strip():
                return None
        elif "\n" not in text and "\r" not in text:
            return text
        raise EngineOptionError(f"option {self.name!r} takes {self.allowed()}, got {value!r}")

    def validate(self, value: OptionValue) -> str:
        """The value as ``setoption`` sends it (``true``, ``16``, the combo's own spelling; empty
        for a button); raises EngineOptionError when the engine would not accept it."""
        return format_option_value(self.parse_value(value))


def format_option_value(value: OptionValue) -> str:
    """A checked value as UCI writes it: ``true``/``false``, digits, the text; empty for None."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def find_option(options: Iterable[UciOption], name: str, owner: str) -> UciOption:
    """The option of ``options`` called ``name`` (case and surrounding spaces do not matter);
    EngineOptionError naming ``owner`` and its options when there is none."""
    declared = list(options)
    for option in declared:
        if option.name.lower() == name.strip().lower():
            return option
    names = ", ".join(option.name for option in declared) or "none"
    raise EngineOptionError(f"{owner} has no option {name!r} (it has: {names})")


Converter = Callable[[str, OptionValue], Any]
"""Turns an option's checked value (and its name, for errors) into what the engine keeps."""


def spin_value(option: str, value: OptionValue) -> int:
    """``value`` of the spin option ``option`` as the int :meth:`UciOption.parse_value` made it
    (EngineOptionError when an engine is handed an unchecked value)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineOptionError(f"option {option!r} needs a checked integer, got {value!r}")
    return value


def float_value(option: str, value: OptionValue, low: float, high: float) -> float:
    """A ``string`` option holding a number in [low, high]; EngineOptionError otherwise."""
    try:
        number = float(str(value))
    except ValueError:
        number = float("nan")
    if not low <= number <= high:
        raise EngineOptionError(f"option {option!r} takes a number from {low} to {high}, got {value!r}")
    return number


def number_between(low: float, high: float) -> Converter:
    """A converter for a ``string`` option holding a number in [low, high]."""
    return lambda option, value: float_value(option, value, low, high)


def flag_value(option: str, value: OptionValue) -> bool:
    """A ``check`` option's value."""
    return bool(value)


@dataclass(frozen=True)
class OptionField:
    """An option an engine keeps in one of its attributes: its declaration, the attribute, and how
    the checked value becomes the attribute's."""

    option: UciOption
    attribute: str
    convert: Converter


class OptionFields:
    """The options of an in-process engine kept in its attributes, one :class:`OptionField` each:
    the one option handler those engines share."""

    def __init__(self, owner: str, fields: Sequence[OptionField]) -> None:
        self.owner = owner
        self._fields = {field.option.name: field for field in fields}

    @property
    def options(self) -> tuple[UciOption, ...]:
        """The declarations, in order."""
        return tuple(field.option for field in self._fields.values())

    def apply_defaults(self, engine: object) -> None:
        """Set every attribute of ``engine`` these fields keep to its option's default: the
        defaults are declared once, in the options."""
        for name, field in self._fields.items():
            setattr(engine, field.attribute, field.convert(name, field.option.parse_value(field.option.default)))

    def apply(self, engine: object, name: str, value: OptionValue) -> None:
        """Set the attribute of ``engine`` that option ``name`` keeps, from its checked value;
        EngineOptionError for an option it does not have."""
        field = self._fields.get(name)
        if field is None:
            raise EngineOptionError(f"{self.owner} has no option {name!r}")
        setattr(engine, field.attribute, field.convert(name, value))
